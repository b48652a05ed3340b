package live

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/store"
)

// loggedEvents is every event in st's log after entry after, as
// "seq website kind product".
func loggedEvents(t *testing.T, st *store.Store, after uint64) []string {
	t.Helper()
	var out []string
	if err := st.Entries(after, func(e *store.Entry) error {
		evs, err := st.EntryEvents(e)
		if err != nil {
			return err
		}
		for _, raw := range evs {
			var ev events.Event
			if err := json.Unmarshal(raw, &ev); err != nil {
				return err
			}
			out = append(out, fmt.Sprintf("%d %s %s %s", e.Seq, ev.Website, ev.Kind, strings.Join(ev.Products(), ",")))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCollectLogsEvents: an event is checked, stamped with its arrival
// time, and in the log when Collect returns; a bad one, or one of a
// website not served, is refused naming why, and logs nothing.
func TestCollectLogsEvents(t *testing.T) {
	st, eng, _, _ := liveShop(t)
	c := NewCollector(st, eng, engine.NewBehaviours())
	defer c.Close()
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	c.now = func() time.Time { return at }
	before := st.Seq()
	e := events.Event{Kind: events.View, Website: shopUUID, ProductNumber: " A100 ", User: "u1"}
	seq, err := c.Collect(&e, "")
	if err != nil || seq != before+1 {
		t.Fatalf("Collect: entry %d, %v; want %d", seq, err, before+1)
	}
	if e.Time != at.UnixMilli() || e.ProductNumber != "A100" {
		t.Errorf("the event as logged: time %d, product %q; want %d and the trimmed number", e.Time, e.ProductNumber, at.UnixMilli())
	}
	if got := loggedEvents(t, st, before); !slices.Equal(got, []string{fmt.Sprint(seq, " ", shopUUID, " view A100")}) {
		t.Errorf("logged %q", got)
	}
	for _, tc := range []struct {
		name  string
		e     events.Event
		kind  engine.Kind
		field string
	}{
		{"a view of nothing", events.Event{Kind: events.View, Website: shopUUID}, engine.KindInvalid, ""},
		{"an unknown website", events.Event{Kind: events.View, Website: "00000000-0000-4000-8000-0000000000ff", ProductNumber: "A100"}, engine.KindNotFound, "websiteUuid"},
		{"a click without where", events.Event{Kind: events.Click, Website: shopUUID, ProductNumber: "A100"}, engine.KindInvalid, "shown"},
	} {
		seqBefore := st.Seq()
		_, err := c.Collect(&tc.e, "")
		var ae *engine.Error
		if !errors.As(err, &ae) || ae.Kind != tc.kind || ae.Field != tc.field {
			t.Errorf("%s: %v, want a %v error about %q", tc.name, err, tc.kind, tc.field)
		}
		if st.Seq() != seqBefore {
			t.Errorf("%s: the log moved from %d to %d", tc.name, seqBefore, st.Seq())
		}
	}
}

// TestCollectDatesByTheEnginesClock: a collector stamps events with
// its engine's clock (Engine.UseClock), which is the wall clock until
// one is set.
func TestCollectDatesByTheEnginesClock(t *testing.T) {
	st, eng, _, _ := liveShop(t)
	if d := time.Since(eng.Now()); d < 0 || d > time.Minute {
		t.Errorf("Now without a clock is %v from the wall clock", d)
	}
	at := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	eng.UseClock(func() time.Time { return at })
	c := NewCollector(st, eng, engine.NewBehaviours())
	defer c.Close()
	e := events.Event{Kind: events.View, Website: shopUUID, ProductNumber: "A100", User: "u1"}
	if _, err := c.Collect(&e, ""); err != nil {
		t.Fatal(err)
	}
	if e.Time != at.UnixMilli() || !eng.Now().Equal(at) {
		t.Errorf("event time %d, engine's Now %v; want both %v", e.Time, eng.Now(), at)
	}
}

// TestCollectGroupsCommits: events collected while a commit is under way
// share the next one, an entry per website; every Collect answers the
// entry that holds its event, and nothing is lost or logged twice.
func TestCollectGroupsCommits(t *testing.T) {
	st, eng, _, _ := liveShop(t)
	c := NewCollector(st, eng, engine.NewBehaviours())
	before := st.Seq()
	const n = 200
	seqs := make([]uint64, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			e := events.Event{Kind: events.View, Website: shopUUID, ProductNumber: fmt.Sprint("P", i)}
			seq, err := c.Collect(&e, "")
			if err != nil {
				t.Error(err)
			}
			seqs[i] = seq
		})
	}
	wg.Wait()
	c.Close()
	logged := loggedEvents(t, st, before)
	if len(logged) != n {
		t.Fatalf("%d events logged, want %d", len(logged), n)
	}
	for i, seq := range seqs {
		if want := fmt.Sprint(seq, " ", shopUUID, " view P", i); !slices.Contains(logged, want) {
			t.Errorf("event %d answered entry %d, which does not hold it", i, seq)
		}
	}
	if entries := st.Seq() - before; entries >= n {
		t.Errorf("%d events took %d entries: no commit was shared", n, entries)
	} else {
		t.Logf("%d events in %d entries", n, entries)
	}
	if _, err := c.Collect(&events.Event{Kind: events.Pageview, Website: shopUUID, URL: "/"}, ""); !errors.Is(err, ErrCollectorClosed) {
		t.Errorf("Collect after Close: %v", err)
	}
}

// TestCollectCommitsAnEntryPerWebsite: a group of events of two websites
// is two entries of one commit, each event answered with its own.
func TestCollectCommitsAnEntryPerWebsite(t *testing.T) {
	st, eng, _, _ := liveShop(t)
	c := &Collector{st: st, eng: eng}
	before := st.Seq()
	const other = "00000000-0000-4000-8000-0000000000b2"
	pending := func(ws ...string) *pendingEvents {
		p := &pendingEvents{done: make(chan struct{})}
		for _, w := range ws {
			p.events = append(p.events, &events.Event{Kind: events.View, Website: w})
			p.data = append(p.data, fmt.Appendf(nil, `{"kind":"view","websiteUuid":%q,"productNumber":"P%d"}`, w, len(p.data)))
		}
		return p
	}
	// Three Collects of one event, then one of two websites' events.
	group := []*pendingEvents{pending(shopUUID), pending(other), pending(shopUUID), pending(other, shopUUID)}
	c.commit(group)
	for i, want := range []uint64{before + 1, before + 2, before + 1, before + 2} {
		if group[i].err != nil || group[i].seq != want {
			t.Errorf("collect %d: entry %d, %v; want %d", i, group[i].seq, group[i].err, want)
		}
	}
	got := loggedEvents(t, st, before)
	want := []string{fmt.Sprint(before+1, " ", shopUUID, " view P0"), fmt.Sprint(before+1, " ", shopUUID, " view P0"),
		fmt.Sprint(before+1, " ", shopUUID, " view P1"), fmt.Sprint(before+2, " ", other, " view P0"), fmt.Sprint(before+2, " ", other, " view P0")}
	if !slices.Equal(got, want) {
		t.Errorf("logged %q, want %q", got, want)
	}
}

// TestCollectAll: a batch is checked whole before anything is logged
// (an error names the event), commits in one group however large the
// backlog, and is folded; its answer is the last entry holding it.
func TestCollectAll(t *testing.T) {
	st, eng, _, _ := liveShop(t)
	bhv := engine.NewBehaviours()
	c := NewCollector(st, eng, bhv)
	defer c.Close()
	before := st.Seq()
	view := func(pn string) *events.Event {
		return &events.Event{Kind: events.View, Website: shopUUID, User: "u1", ProductNumber: pn}
	}
	_, err := c.CollectAll([]*events.Event{view("A100"), {Kind: events.Purchase, Website: shopUUID, ProductNumbers: []string{"A100"}}}, "")
	var e *engine.Error
	if !errors.As(err, &e) || e.Kind != engine.KindInvalid || e.Field != "events.1.orderNumber" {
		t.Fatalf("a batch with a purchase without its order number: %v, want Invalid events.1.orderNumber", err)
	}
	_, err = c.CollectAll([]*events.Event{view("A100"), {Kind: events.View, Website: "00000000-0000-4000-8000-0000000000ff", ProductNumber: "A100"}}, "")
	if !errors.As(err, &e) || e.Kind != engine.KindNotFound || e.Field != "events.1.websiteUuid" {
		t.Fatalf("a batch naming a website not served: %v, want NotFound events.1.websiteUuid", err)
	}
	if st.Seq() != before || bhv.Model(shopUUID).Events() != 0 {
		t.Fatalf("refused batches logged or folded: seq %d → %d, %d events folded", before, st.Seq(), bhv.Model(shopUUID).Events())
	}
	big := make([]*events.Event, maxGroup+10)
	for i := range big {
		big[i] = view(fmt.Sprint("P", i))
	}
	var wg sync.WaitGroup
	var seqs [3]uint64
	var errs [3]error
	for i := range seqs { // beside others, so the backlog is past maxGroup
		wg.Go(func() {
			if i == 1 {
				seqs[i], errs[i] = c.CollectAll(big, "")
			} else {
				seqs[i], errs[i] = c.CollectAll([]*events.Event{view("A100"), view("B100")}, "")
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("collect %d: %v", i, err)
		}
	}
	logged := loggedEvents(t, st, before)
	if len(logged) != len(big)+4 {
		t.Fatalf("%d events logged, want %d", len(logged), len(big)+4)
	}
	n := 0
	for _, l := range logged {
		if strings.HasPrefix(l, fmt.Sprint(seqs[1], " ")) {
			n++
		}
	}
	if n < len(big) {
		t.Errorf("the batch of %d is not in one entry: %d events in entry %d", len(big), n, seqs[1])
	}
	if got := bhv.Model(shopUUID).Events(); got != len(big)+4 {
		t.Errorf("%d events folded, want %d", got, len(big)+4)
	}
}

// TestCollectFoldsAndReplays: a collected event is in its website's
// behaviour when Collect returns, and a replay of the log (a restart)
// gives the same behaviour; another website's stays empty.
func TestCollectFoldsAndReplays(t *testing.T) {
	st, eng, _, _ := liveShop(t)
	secret, err := st.Secret()
	if err != nil {
		t.Fatal(err)
	}
	newBehaviours := func() *engine.Behaviours {
		b := engine.NewBehaviours()
		b.UseSecret(secret)
		return b
	}
	bhv := newBehaviours()
	bhv.UseCatalog(eng)
	c := NewCollector(st, eng, bhv)
	defer c.Close()
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for i, e := range []events.Event{
		{Kind: events.View, ProductNumber: "A100", User: "u1"},
		{Kind: events.View, ProductNumber: "B100", User: "u1"},
		{Kind: events.Cart, ProductNumbers: []string{"B100"}, User: "u1"},
		{Kind: events.Purchase, OrderNumber: "O1", ProductNumbers: []string{"B100", "C100"}, User: "u1", Email: "a@shop.example"},
		{Kind: events.Purchase, OrderNumber: "O1", ProductNumbers: []string{"B100", "C100"}, User: "u1"},
		{Kind: events.View, URL: "https://shop.test/a100?from=mail", User: "u2"}, // A100's page
	} {
		c.now = func() time.Time { return t0.Add(time.Duration(i) * time.Minute) }
		e.Website = shopUUID
		if _, err := c.Collect(&e, ""); err != nil {
			t.Fatal(err)
		}
	}
	// describe is what a model says of the shop, as of an hour on.
	describe := func(b *engine.Behaviours) string {
		m := b.Model(shopUUID)
		now := t0.Add(time.Hour)
		v, _ := m.VisitorOf(m.Resolve("", b.Key().Email("a@shop.example"), 0))
		var top []string
		for _, s := range m.Popular(behaviour.Views, behaviour.Short, 5, now) {
			top = append(top, s.ProductNumber)
		}
		return fmt.Sprintf("events %d; viewed %v; bought B100 %.4f; co-viewed A100 %v; co-bought C100 %v; u1 viewed %v bought %v cart %v",
			m.Events(), top, m.Count("B100", behaviour.Buys, behaviour.Long, now), withoutIDs(m.CoViewed("A100")), withoutIDs(m.CoBought("C100")), v.Viewed, v.Bought, v.Cart)
	}
	if n := bhv.Model(shopUUID).Count("A100", behaviour.Views, behaviour.Long, t0.Add(time.Hour)); n < 1.99 {
		t.Errorf("A100 has %.2f views, want 2: the view of its page was not resolved to it", n)
	}
	if got := loggedEvents(t, st, 0); got[len(got)-1] != fmt.Sprint(st.Seq(), " ", shopUUID, " view ") {
		t.Errorf("the view of a page logged as %q, want it as sent, without a product", got[len(got)-1])
	}
	// Without the catalog the page names no product: the view does not count.
	blind := engine.NewBehaviours()
	if _, _, err := kept(st, blind).Replay(); err != nil {
		t.Fatal(err)
	}
	if n := blind.Model(shopUUID).Count("A100", behaviour.Views, behaviour.Long, t0.Add(time.Hour)); n > 1.01 {
		t.Errorf("without the catalog A100 has %.2f views, want 1", n)
	}
	live := describe(bhv)
	want := "events 6; viewed [A100 B100]; bought B100 0.9997; co-viewed A100 [{B100 1}]; co-bought C100 [{B100 1}]; u1 viewed [B100 A100] bought [C100 B100] cart []"
	if live != want {
		t.Errorf("the live behaviour:\n%s\nwant\n%s", live, want)
	}
	replayed := newBehaviours()
	replayed.UseCatalog(eng)
	if n, loaded, err := kept(st, replayed).Replay(); err != nil || n != 6 || loaded != 0 {
		t.Fatalf("Replay: %d events, %d snapshots, %v", n, loaded, err)
	}
	if got := describe(replayed); got != live {
		t.Errorf("the replayed behaviour:\n%s\nthe live one:\n%s", got, live)
	}
	// A snapshot, then one more event: a start loads the snapshot and
	// folds the one event after it, to the same behaviour.
	if saved, err := kept(st, bhv).Snapshot(); err != nil || saved != 1 {
		t.Fatalf("Snapshot: %d saved, %v", saved, err)
	}
	if saved, err := kept(st, bhv).Snapshot(); err != nil || saved != 0 {
		t.Errorf("a second Snapshot with nothing new saved %d, %v", saved, err)
	}
	c.now = func() time.Time { return t0.Add(10 * time.Minute) }
	if _, err := c.Collect(&events.Event{Kind: events.View, Website: shopUUID, ProductNumber: "B100", User: "u3"}, ""); err != nil {
		t.Fatal(err)
	}
	bhv.Model(shopUUID).MaxStale = 0 // its ranking is asked again at the same time
	live = describe(bhv)
	fromSnapshot := newBehaviours()
	fromSnapshot.UseCatalog(eng)
	if n, loaded, err := kept(st, fromSnapshot).Replay(); err != nil || n != 1 || loaded != 1 {
		t.Fatalf("Replay after a snapshot: %d events, %d snapshots, %v; want 1 and 1", n, loaded, err)
	}
	if got := describe(fromSnapshot); got != live {
		t.Errorf("the behaviour from the snapshot:\n%s\nthe live one:\n%s", got, live)
	}
	if saved, err := kept(st, fromSnapshot).Snapshot(); err != nil || saved != 1 {
		t.Errorf("Snapshot after folding one event past the snapshot: %d saved, %v", saved, err)
	}
	unchanged := newBehaviours()
	unchanged.UseCatalog(eng)
	if _, loaded, err := kept(st, unchanged).Replay(); err != nil || loaded != 1 {
		t.Fatalf("Replay: %d snapshots, %v", loaded, err)
	}
	if saved, err := kept(st, unchanged).Snapshot(); err != nil || saved != 0 {
		t.Errorf("Snapshot right after loading one, nothing folded since: %d saved, %v", saved, err)
	}
	// A snapshot that does not read back is passed over: every event is
	// folded again.
	if err := st.PutSnapshot(shopUUID, []byte("not a snapshot")); err != nil {
		t.Fatal(err)
	}
	again := newBehaviours()
	again.UseCatalog(eng)
	if n, loaded, err := kept(st, again).Replay(); err != nil || n != 7 || loaded != 0 || describe(again) != live {
		t.Errorf("Replay past a corrupt snapshot: %d events, %d snapshots, %v", n, loaded, err)
	}
	if n := bhv.Model("00000000-0000-4000-8000-0000000000b2").Events(); n != 0 {
		t.Errorf("another website's behaviour took %d events", n)
	}
}

// TestImportEventsInEntries: a bulk load writes entries of at most
// 10,000 events per website, in the order read, with now as the time of
// an event that has none; a replay folds every one.
func TestImportEventsInEntries(t *testing.T) {
	st, eng, _, _ := liveShop(t)
	cfg := &config.File{Websites: []config.Website{*current(t, eng).Website, {UUID: "00000000-0000-4000-8000-0000000000b2"}}}
	before := st.Seq()
	const n = 25000
	readWith := func(bad int) func(fn func(*events.Event, []byte) error) error {
		return func(fn func(*events.Event, []byte) error) error {
			for i := range n {
				e := events.Event{Kind: events.View, Website: cfg.Websites[i%5/4].UUID, ProductNumber: fmt.Sprint("P", i), User: "u"}
				if i%7 == 0 {
					e.Time = int64(i + 1)
				}
				var data []byte
				if i%3 == 0 { // as events.DecodeChecked gives it
					data, _ = json.Marshal(&e)
				}
				if i == bad {
					e.ProductNumber = ""
				}
				if err := fn(&e, data); err != nil {
					return err
				}
			}
			return nil
		}
	}
	read := readWith(-1)
	// A bad event past the first groups takes back what was written.
	if got, err := ImportEvents(st, cfg, readWith(23456)); err == nil || !strings.Contains(err.Error(), "a view names the product") || got != 0 {
		t.Fatalf("ImportEvents with a bad event: %d, %v", got, err)
	}
	if st.Seq() != before {
		t.Fatalf("a failed import left entries %d to %d", before+1, st.Seq())
	}
	start := time.Now().UnixMilli()
	if got, err := ImportEvents(st, cfg, read); err != nil || got != n {
		t.Fatalf("ImportEvents: %d, %v", got, err)
	}
	entries, seen := 0, 0
	if err := st.Entries(before, func(e *store.Entry) error {
		entries++
		if e.EventCount > eventsPerEntry {
			t.Errorf("entry %d holds %d events", e.Seq, e.EventCount)
		}
		evs, err := st.EntryEvents(e)
		if err != nil {
			return err
		}
		for _, raw := range evs {
			ev, err := events.Decode(raw)
			if err != nil {
				return err
			}
			var i int
			fmt.Sscanf(ev.ProductNumber, "P%d", &i)
			if ev.Website != cfg.Websites[i%5/4].UUID || (i%7 == 0) != (ev.Time == int64(i+1)) || (i%7 != 0 && ev.Time < start) {
				t.Fatalf("event %d logged as %+v", i, ev)
			}
			seen++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if seen != n || entries != 6 {
		t.Errorf("%d events in %d entries, want %d in 6 (groups of 10,000, one entry per website in each)", seen, entries, n)
	}
	bhv := engine.NewBehaviours()
	if got, _, err := kept(st, bhv).Replay(); err != nil || got != n {
		t.Errorf("Replay: %d, %v", got, err)
	}
}

// withoutIDs is s without the model's ids, which two models that hold
// the same behaviour may give apart: each number and score.
func withoutIDs(s []behaviour.Scored) []struct {
	Number string
	Score  float64
} {
	out := make([]struct {
		Number string
		Score  float64
	}, len(s))
	for i, x := range s {
		out[i].Number, out[i].Score = x.ProductNumber, x.Score
	}
	return out
}

// TestCloseCommitsRecorded: events recorded without waiting (page views,
// impressions) and still queued when the collector closes are in the
// log once Close returns: a clean stop loses none.
func TestCloseCommitsRecorded(t *testing.T) {
	st, eng, _, _ := liveShop(t)
	c := NewCollector(st, eng, engine.NewBehaviours())
	before := st.Seq()
	const n = 500
	for i := range n {
		if err := c.Record(&events.Event{Kind: events.View, Website: shopUUID, ProductNumber: "A100", User: fmt.Sprint("u", i)}); err != nil {
			t.Fatal(err)
		}
	}
	c.Close()
	if got := len(loggedEvents(t, st, before)); got != n {
		t.Errorf("%d of %d recorded events in the log after Close", got, n)
	}
}
