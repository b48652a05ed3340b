package live

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/events"
)

// shopEvents are n events of the test shop from start on, about 4,000
// a season, in time order, most a few minutes after the one before (a
// visit), now and then hours after: visitors search (a fifth finding nothing), click
// search results, boxes and sponsored products, are shown boxes and
// sponsored products (the server's impressions), view and buy.
func shopEvents(seed uint64, n int, start time.Time) []events.Event {
	r := rand.New(rand.NewPCG(seed, 3))
	pns := []string{"A100", "A200", "B100", "B200", "C100", "C200", "C300", "D100"}
	queries := []string{"drill", "Drill ", "garden hose", "SOFA", "lamp", "xyzzy"}
	at := start.UnixMilli()
	out := make([]events.Event, 0, n)
	user := "u0"
	for range n {
		if r.IntN(3) == 0 {
			user = fmt.Sprint("u", r.IntN(30))
		}
		at += r.Int64N(int64(5 * time.Minute / time.Millisecond))
		if r.IntN(8) == 0 {
			at += r.Int64N(int64(14 * time.Hour / time.Millisecond))
		}
		e := events.Event{Website: shopUUID, User: user, Time: at}
		pn := pns[r.IntN(len(pns))]
		box := fmt.Sprint("box-", r.IntN(3))
		switch k := r.IntN(10); {
		case k < 3:
			res := 4 * min(1, r.IntN(5))
			e.Kind, e.Query, e.Results = events.Search, queries[r.IntN(len(queries))], &res
		case k < 6:
			e.Kind, e.ProductNumber = events.Click, pn
			e.Shown = &events.Shown{Source: events.SourceSearch, Key: "shop", Position: 1}
			switch r.IntN(3) {
			case 0:
				e.Shown = &events.Shown{Source: events.SourceRecoms, Key: box}
			case 1:
				e.Shown.Campaign = fmt.Sprint("c-", r.IntN(2))
			}
		case k < 7:
			e.Kind, e.Shown = events.Impression, &events.Shown{Source: events.SourceRecoms, Key: box}
			if r.IntN(2) == 0 {
				e.ProductNumber, e.Shown.Campaign, e.Shown.Position = pn, fmt.Sprint("c-", r.IntN(2)), 1
			}
		case k < 8:
			e.Kind, e.OrderNumber = events.Purchase, fmt.Sprint("O-", r.IntN(n))
			e.Lines = []events.Line{{ProductNumber: pn, Quantity: float64(r.IntN(3))}, {ProductNumber: pns[r.IntN(len(pns))]}}
		default:
			e.Kind, e.ProductNumber = events.View, pn
		}
		out = append(out, e)
	}
	return out
}

// sameAnalytics fails unless a and b answer every range of 30 days
// (and the whole span) around days from to to alike.
func sameAnalytics(t *testing.T, what string, a, b *behaviour.Model, from, to behaviour.Day) {
	t.Helper()
	ranges := [][2]behaviour.Day{{from - 1, to + 1}}
	for d := from - 3; d <= to; d += 11 {
		ranges = append(ranges, [2]behaviour.Day{d, d + 29})
	}
	for _, r := range ranges {
		if got, want := a.Analytics(r[0], r[1], 100), b.Analytics(r[0], r[1], 100); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s, days %d to %d:\ngot  %+v\nwant %+v", what, r[0], r[1], got, want)
		}
	}
}

// TestAnalyticsSurviveRestartAndCompaction: the analytics of events
// collected over about 110 days, with a behaviour snapshot halfway and the
// entries it covers older than behaviour.LongHalfLife compacted away,
// are after a restart (the snapshot loaded, the events after it
// replayed) those of the live behaviour and of a straight fold of every
// event; again after a last snapshot and a compaction that leaves no
// event. Events loaded by ImportEvents (aisle import --events) answer
// the same after a start.
func TestAnalyticsSurviveRestartAndCompaction(t *testing.T) {
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
	log := shopEvents(1, 3000, time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC))
	now := time.UnixMilli(log[len(log)-1].Time).Add(time.Hour)
	first, last := behaviour.DayOf(log[0].Time), behaviour.DayOf(log[len(log)-1].Time)

	straight := newBehaviours()
	for i := range log {
		e := log[i]
		straight.Fold(&e)
	}
	if r := straight.Model(shopUUID).Analytics(first, last, 100); r.Searches < 500 || len(r.TopBought) == 0 || len(r.Boxes) != 3 || len(r.Campaigns) != 2 ||
		r.Boxes[0].Impressions == 0 || r.Boxes[0].Purchases == 0 || r.TopSearches[0].Clicks == 0 || r.TopSearches[0].Purchases == 0 {
		t.Fatalf("the log exercises too little: %+v", r)
	}

	bhv := newBehaviours()
	c := NewCollector(st, eng, bhv)
	defer c.Close()
	collect := func(evs []events.Event) {
		t.Helper()
		for len(evs) > 0 {
			batch := make([]*events.Event, 0, 100)
			for i := range evs[:min(100, len(evs))] {
				e := evs[i]
				batch = append(batch, &e)
			}
			if _, err := c.CollectAll(batch, ""); err != nil {
				t.Fatal(err)
			}
			evs = evs[len(batch):]
		}
	}
	half := len(log) / 2
	collect(log[:half])
	if n, err := kept(st, bhv).Snapshot(); err != nil || n != 1 {
		t.Fatalf("Snapshot: %d, %v", n, err)
	}
	collect(log[half:])
	removed, err := kept(st, bhv).Compact(now)
	if err != nil || removed == 0 {
		t.Fatalf("Compact: %d removed, %v; want the entries older than %v", removed, err, behaviour.LongHalfLife)
	}
	sameAnalytics(t, "collected live against a straight fold", bhv.Model(shopUUID), straight.Model(shopUUID), first, last)

	restarted := newBehaviours()
	if n, loaded, err := kept(st, restarted).Replay(); err != nil || loaded != 1 || n != len(log)-half {
		t.Fatalf("Replay: %d events, %d snapshots, %v; want %d and 1", n, loaded, err, len(log)-half)
	}
	sameAnalytics(t, "after a restart past a compaction", restarted.Model(shopUUID), straight.Model(shopUUID), first, last)

	// A last snapshot; a season later every entry is compacted.
	if n, err := kept(st, bhv).Snapshot(); err != nil || n != 1 {
		t.Fatalf("Snapshot: %d, %v", n, err)
	}
	if _, err := kept(st, bhv).Compact(now.Add(behaviour.LongHalfLife + 24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if ws, err := st.EventWebsites(); err != nil || len(ws) != 0 {
		t.Fatalf("events left for %v (%v)", ws, err)
	}
	fromSnapshot := newBehaviours()
	if n, loaded, err := kept(st, fromSnapshot).Replay(); err != nil || loaded != 1 || n != 0 {
		t.Fatalf("Replay of the snapshot alone: %d events, %d snapshots, %v", n, loaded, err)
	}
	sameAnalytics(t, "from the snapshot alone", fromSnapshot.Model(shopUUID), straight.Model(shopUUID), first, last)

	// aisle import --events: the log loaded into another store, folded at
	// its start.
	imported := openStore(t)
	cfg := &config.File{Websites: []config.Website{*shopWebsite()}}
	n, err := ImportEvents(imported, cfg, func(fn func(*events.Event, []byte) error) error {
		for i := range log {
			e := log[i]
			if err := fn(&e, nil); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil || n != len(log) {
		t.Fatalf("ImportEvents: %d, %v", n, err)
	}
	started := newBehaviours()
	if _, _, err := NewBehaviourStore(imported, started).Replay(); err != nil {
		t.Fatal(err)
	}
	sameAnalytics(t, "imported", started.Model(shopUUID), straight.Model(shopUUID), first, last)
}

// TestImportRefusesEventsAfterNow: ImportEvents takes events up to a
// day after its time (clocks differ) and refuses, importing nothing, a
// log with one later, as a time in microseconds would be: it would
// become the analytics' latest day and wipe the days before.
func TestImportRefusesEventsAfterNow(t *testing.T) {
	st := openStore(t)
	cfg := &config.File{Websites: []config.Website{*shopWebsite()}}
	load := func(times ...int64) (int, error) {
		return ImportEvents(st, cfg, func(fn func(*events.Event, []byte) error) error {
			for _, at := range times {
				if err := fn(&events.Event{Kind: events.View, Website: shopUUID, ProductNumber: "A100", User: "u", Time: at}, nil); err != nil {
					return err
				}
			}
			return nil
		})
	}
	now := time.Now()
	if n, err := load(now.Add(-time.Hour).UnixMilli(), now.Add(time.Hour).UnixMilli()); err != nil || n != 2 {
		t.Fatalf("an hour before and after now: %d, %v", n, err)
	}
	before := st.Seq()
	if n, err := load(now.UnixMilli(), now.Add(48*time.Hour).UnixMilli()); err == nil || n != 0 || st.Seq() != before {
		t.Errorf("two days after now: %d imported, %v, the log at %d from %d; want an error and nothing", n, err, st.Seq(), before)
	}
	if n, err := load(now.UnixMicro()); err == nil || n != 0 {
		t.Errorf("a time in microseconds: %d imported, %v", n, err)
	}
}
