package live

import (
	"slices"
	"testing"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/events"
)

// TestCollectCountsKinds: the collector counts each event logged under
// its kind, once its group committed, whether collected one at a time, in
// a batch or recorded by the server; refused events count nothing.
func TestCollectCountsKinds(t *testing.T) {
	st, eng, _, _ := liveShop(t)
	c := NewCollector(st, eng, engine.NewBehaviours())
	view := func() *events.Event {
		return &events.Event{Kind: events.View, Website: shopUUID, ProductNumber: "A100", User: "u1"}
	}
	results := 3
	for _, e := range []*events.Event{view(), view(), {Kind: events.Search, Website: shopUUID, User: "u1", Query: "drill", Results: &results}} {
		if _, err := c.Collect(e, ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.CollectAll([]*events.Event{view(), {Kind: events.Cart, Website: shopUUID, User: "u1", ProductNumbers: []string{"A100"}}}, ""); err != nil {
		t.Fatal(err)
	}
	if err := c.Record(&events.Event{Kind: events.Impression, Website: shopUUID, User: "u1", Shown: &events.Shown{Source: events.SourceRecoms, Key: "box"}}); err != nil {
		t.Fatal(err)
	}
	// Refused: all or none of a batch, and a single bad event.
	if _, err := c.CollectAll([]*events.Event{view(), {Kind: events.View, Website: shopUUID}}, ""); err == nil {
		t.Fatal("a batch with a bad event was taken")
	}
	if _, err := c.Collect(&events.Event{Kind: events.Purchase, Website: shopUUID}, ""); err == nil {
		t.Fatal("a purchase of nothing was taken")
	}
	c.Close() // the recorded impression commits
	want := map[events.Kind]uint64{events.View: 3, events.Search: 1, events.Cart: 1, events.Impression: 1}
	for _, k := range CountedKinds {
		if got := c.Logged(k); got != want[k] {
			t.Errorf("%d %s events logged, want %d", got, k, want[k])
		}
	}
	if got := c.Logged("nosuchkind"); got != 0 {
		t.Errorf("%d events of an unknown kind", got)
	}
	if !slices.Equal(CountedKinds[:len(events.Kinds)], events.Kinds) || CountedKinds[len(events.Kinds)] != events.Impression {
		t.Errorf("counted kinds %v, want %v and impression", CountedKinds, events.Kinds)
	}
}

// TestCollectCountingAllocates: counting a logged event allocates
// nothing.
func TestCollectCountingAllocates(t *testing.T) {
	var c eventCounts
	if n := testing.AllocsPerRun(1000, func() { c.count(events.Pageview, 1) }); n != 0 {
		t.Errorf("counting an event allocates %v times, want 0", n)
	}
}

func BenchmarkCollectCounting(b *testing.B) {
	var c eventCounts
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c.count(CountedKinds[i%len(CountedKinds)], 1)
	}
}
