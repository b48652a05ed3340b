package live

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/store"
)

// TestFoldCountsOnlyCatalogProducts: with the catalog, a view, cart or
// purchase counts for the products the website holds, under their
// stored numbers (another spelling folds to it; a variant's number or
// one the catalog does not hold counts for nothing, and the model keeps
// no such number); a view of an unknown number with a page's address
// counts for the page's product. A product deleted later keeps its
// counts. Without the catalog, events count as logged.
func TestFoldCountsOnlyCatalogProducts(t *testing.T) {
	st, eng, live, _ := liveShop(t)
	bhv := engine.NewBehaviours()
	bhv.UseCatalog(eng)
	c := NewCollector(st, eng, bhv)
	defer c.Close()
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	c.now = func() time.Time { return t0 }
	for _, e := range []events.Event{
		{Kind: events.View, ProductNumber: "a100", User: "u1"},
		{Kind: events.View, ProductNumber: "NOPE-1", User: "u1"},
		{Kind: events.View, ProductNumber: "A100-R", User: "u1"}, // a variant of A100
		{Kind: events.View, ProductNumber: "NOPE-2", URL: "https://shop.test/a100", User: "u2"},
		{Kind: events.Cart, ProductNumbers: []string{"NOPE-3", "b100", "C100"}, User: "u1"},
		{Kind: events.Purchase, OrderNumber: "O1", Lines: []events.Line{{ProductNumber: "c100"}, {ProductNumber: "NOPE-4"}}, User: "u1"},
		{Kind: events.Purchase, OrderNumber: "O2", ProductNumbers: []string{"NOPE-5"}, User: "u3"},
	} {
		e.Website = shopUUID
		if _, err := c.Collect(&e, ""); err != nil {
			t.Fatal(err)
		}
	}
	m := bhv.Model(shopUUID)
	now := t0.Add(time.Hour)
	describe := func(m *behaviour.Model) string {
		v, _ := m.Visitor("u1")
		return fmt.Sprintf("products %d; A100 viewed %.0f; B100 carted %.0f; C100 carted %.0f bought %.0f; u1 viewed %v cart %v bought %v",
			m.Size().Products, m.Count("A100", behaviour.Views, behaviour.Long, now), m.Count("B100", behaviour.Carts, behaviour.Long, now),
			m.Count("C100", behaviour.Carts, behaviour.Long, now), m.Count("C100", behaviour.Buys, behaviour.Long, now), v.Viewed, v.Cart, v.Bought)
	}
	want := "products 3; A100 viewed 2; B100 carted 1; C100 carted 1 bought 1; u1 viewed [A100] cart [] bought [C100]"
	if got := describe(m); got != want {
		t.Errorf("with the catalog:\n%s\nwant\n%s", got, want)
	}
	for _, pn := range []string{"NOPE-1", "NOPE-2", "NOPE-3", "NOPE-4", "NOPE-5", "A100-R", "a100"} {
		for _, k := range []behaviour.Kind{behaviour.Views, behaviour.Carts, behaviour.Buys} {
			if n := m.Count(pn, k, behaviour.Long, now); n != 0 {
				t.Errorf("%s counted %.0f of kind %d", pn, n, k)
			}
		}
	}
	if _, ok := m.Visitor("u3"); !ok {
		t.Error("a purchase of nothing the catalog holds did not count its visitor")
	}

	// Deleted, C100 keeps its counts in the model that folded them.
	if _, err := live.DeleteProduct(shopUUID, "C100"); err != nil {
		t.Fatal(err)
	}
	if got := describe(m); got != want {
		t.Errorf("after C100 was deleted:\n%s\nwant\n%s", got, want)
	}

	blind := engine.NewBehaviours()
	if _, _, err := kept(st, blind).Replay(); err != nil {
		t.Fatal(err)
	}
	bm := blind.Model(shopUUID)
	if n := bm.Count("NOPE-1", behaviour.Views, behaviour.Long, now); n < 0.99 || bm.Size().Products != 10 {
		t.Errorf("without the catalog NOPE-1 has %.2f views, and %d products are kept; want 1 and 10", n, bm.Size().Products)
	}
}

// TestCompactAfterSnapshot: Compact removes the entries of events
// alone that the saved snapshot reaches and whose events are all older
// than the long half-life, never one after the snapshot or with a later
// event; a start after it loads the snapshot to the same behaviour,
// also once every event entry is gone; the product entries stay.
func TestCompactAfterSnapshot(t *testing.T) {
	st, eng, _, _ := liveShop(t)
	secret, err := st.Secret()
	if err != nil {
		t.Fatal(err)
	}
	newBehaviours := func() *engine.Behaviours {
		b := engine.NewBehaviours()
		b.UseSecret(secret)
		b.UseCatalog(eng)
		return b
	}
	bhv := newBehaviours()
	c := NewCollector(st, eng, bhv)
	defer c.Close()
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	old, recent := now.Add(-behaviour.LongHalfLife-time.Hour), now.Add(-time.Hour)
	collect := func(at time.Time, user string, pns ...string) uint64 {
		t.Helper()
		c.now = func() time.Time { return at }
		var last uint64
		for _, pn := range pns {
			seq, err := c.Collect(&events.Event{Kind: events.View, Website: shopUUID, ProductNumber: pn, User: user}, "")
			if err != nil {
				t.Fatal(err)
			}
			last = seq
		}
		return last
	}
	entries := func() []uint64 { // the log's entries of events
		var out []uint64
		if err := st.Entries(0, func(e *store.Entry) error {
			if e.EventCount > 0 {
				out = append(out, e.Seq)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	describe := func(b *engine.Behaviours) string {
		m := b.Model(shopUUID)
		v, _ := m.Visitor("u1")
		return fmt.Sprintf("events %d; A100 %.4f B100 %.4f C100 %.4f; co-viewed A100 %v; u1 viewed %v", m.Events(),
			m.Count("A100", behaviour.Views, behaviour.Long, now), m.Count("B100", behaviour.Views, behaviour.Long, now),
			m.Count("C100", behaviour.Views, behaviour.Long, now), withoutIDs(m.CoViewed("A100")), v.Viewed)
	}
	compact := func(b *engine.Behaviours, at time.Time, want int) {
		t.Helper()
		if n, err := kept(st, b).Compact(at); err != nil || n != want {
			t.Fatalf("Compact: %d removed, %v; want %d", n, err, want)
		}
	}

	first := collect(old, "u1", "A100", "B100") // two entries
	compact(bhv, now, 0)                        // no snapshot yet: nothing is covered
	if saved, err := kept(st, bhv).Snapshot(); err != nil || saved != 1 {
		t.Fatalf("Snapshot: %d, %v", saved, err)
	}
	afterSnapshot := collect(old, "u2", "C100") // as old, but after the snapshot
	compact(bhv, now, 2)
	if got := entries(); !slices.Equal(got, []uint64{afterSnapshot}) {
		t.Fatalf("after compacting: entries of events %v, want only %d (%d and %d removed)", got, afterSnapshot, first-1, first)
	}
	live := describe(bhv)
	restarted := newBehaviours()
	if n, loaded, err := kept(st, restarted).Replay(); err != nil || n != 1 || loaded != 1 {
		t.Fatalf("Replay after compacting: %d events, %d snapshots, %v; want 1 and 1", n, loaded, err)
	}
	if got := describe(restarted); got != live {
		t.Errorf("the behaviour after a restart:\n%s\nthe live one:\n%s", got, live)
	}

	last := collect(recent, "u1", "C100")
	if saved, err := kept(st, bhv).Snapshot(); err != nil || saved != 1 {
		t.Fatalf("Snapshot: %d, %v", saved, err)
	}
	compact(bhv, now, 1) // the old one; the recent one stays
	if got := entries(); !slices.Equal(got, []uint64{last}) {
		t.Fatalf("entries of events %v, want only %d", got, last)
	}
	compact(bhv, now.Add(behaviour.LongHalfLife), 1) // a season later, the rest
	if got := entries(); len(got) != 0 {
		t.Fatalf("entries of events %v, want none", got)
	}
	live = describe(bhv)
	restarted = newBehaviours()
	if n, loaded, err := kept(st, restarted).Replay(); err != nil || n != 0 || loaded != 1 {
		t.Fatalf("Replay with no events left: %d events, %d snapshots, %v; want 0 and 1", n, loaded, err)
	}
	if got := describe(restarted); got != live || !strings.Contains(live, "u1 viewed [C100 B100 A100]") {
		t.Errorf("the behaviour from the snapshot alone:\n%s\nthe live one:\n%s", got, live)
	}
	if p, err := st.Product(shopUUID, "A100"); err != nil || p == nil {
		t.Errorf("the catalog after compacting: A100 %s, %v", p, err)
	}
	if _, err := Open(st, shopWebsite(), analysis.English, nil); err != nil {
		t.Errorf("the website does not open from the compacted log: %v", err)
	}
}
