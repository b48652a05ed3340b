package behaviour

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/aisle-search/aisle/events"
)

// analyticsLog is a generated log of a shop's events over about 120
// days: visitors search (some finding nothing), click results, boxes
// and sponsored products, see boxes and campaigns, and buy, in time
// order.
func analyticsLog(seed uint64, n int) []*events.Event {
	r := rand.New(rand.NewPCG(seed, 77))
	start := int64(20000) * msPerDay
	at := start
	var out []*events.Event
	queries := []string{"Drill", "drill ", "hose", "garden  HOSE", "lamp", "sofa", "oak table", "xyzzy"}
	user := "u0"
	for range n {
		at += int64(r.IntN(10 * 60 * 1000))
		if r.IntN(30) == 0 {
			at += int64(r.IntN(6 * msPerDay))
		}
		if r.IntN(10) < 3 { // most events continue a visit
			user = fmt.Sprint("u", r.IntN(40))
		}
		pn := fmt.Sprint("p", r.IntN(30))
		e := &events.Event{Website: "w", User: user, Time: at}
		switch k := r.IntN(12); {
		case k < 3:
			e.Kind, e.Query = events.Search, queries[r.IntN(len(queries))]
			res := r.IntN(3) * 5
			e.Results = &res
		case k < 6:
			e.Kind, e.ProductNumber = events.Click, pn
			e.Shown = &events.Shown{Source: []string{events.SourceSearch, events.SourceRecoms, events.SourcePage}[r.IntN(3)], Key: fmt.Sprint("box", r.IntN(4))}
			if r.IntN(4) == 0 {
				e.Shown.Campaign = fmt.Sprint("c", r.IntN(3))
			}
		case k < 8:
			e.Kind, e.ProductNumber = events.Impression, pn
			e.Shown = &events.Shown{Source: events.SourceRecoms, Key: fmt.Sprint("box", r.IntN(4))}
			if r.IntN(2) == 0 {
				e.Shown.Campaign = fmt.Sprint("c", r.IntN(3))
			}
		case k < 10:
			e.Kind, e.OrderNumber = events.Purchase, fmt.Sprint("o", r.IntN(n)) // some repeat
			for range 1 + r.IntN(3) {
				e.Lines = append(e.Lines, events.Line{ProductNumber: fmt.Sprint("p", r.IntN(30)), Quantity: float64(r.IntN(3))})
			}
		default:
			e.Kind, e.ProductNumber = events.View, pn
		}
		out = append(out, e)
		if r.IntN(50) == 0 { // a burst: the same moment
			c := *e
			c.User = fmt.Sprint("u", r.IntN(40))
			out = append(out, &c)
		}
	}
	return out
}

// bruteReport is Model.Analytics computed from the raw log by the
// documented rules (budgets not reached).
func bruteReport(log []*events.Event, from, to Day, top int) Report {
	r := Report{From: from, To: to}
	in := func(e *events.Event) bool { d := DayOf(e.Time); return d >= from && d <= to }
	latest := DayOf(log[len(log)-1].Time)
	kept := func(e *events.Event) bool { return DayOf(e.Time) > latest-AnalyticsDays }
	// Orders counted: the first of each order number.
	seenOrder := map[string]bool{}
	counted := make([]bool, len(log))
	for i, e := range log {
		if e.Kind == events.Purchase && !seenOrder[e.OrderNumber] {
			seenOrder[e.OrderNumber] = true
			counted[i] = true
		}
	}
	searches := map[string]*SearchCount{}
	noResults := map[string]int64{}
	clicked := map[string]int64{}
	bought := map[string]*ProductBuys{}
	boxes, campaigns := map[string]*SourceCount{}, map[string]*SourceCount{}
	src := func(m map[string]*SourceCount, k string) *SourceCount {
		if m[k] == nil {
			m[k] = &SourceCount{Key: k}
		}
		return m[k]
	}
	for i, e := range log {
		switch e.Kind {
		case events.Search:
			if !in(e) || !kept(e) {
				continue
			}
			r.Searches++
			q := QueryOf(e.Query)
			if *e.Results == 0 {
				r.NoResultSearches++
				noResults[q]++
			}
			s := searches[q]
			if s == nil {
				s = &SearchCount{Query: q}
				searches[q] = s
			}
			s.Searches++
			// Followed, before the visitor's next search, by a click on a
			// result within ClickWindow, and a purchase within
			// PurchaseWindow.
			clickDone, buyDone := false, false
			for _, f := range log[i+1:] {
				if f.User != e.User {
					continue
				}
				if f.Kind == events.Search {
					break
				}
				d := f.Time - e.Time
				if !clickDone && f.Kind == events.Click && f.Shown.Source == events.SourceSearch && d <= ClickWindow {
					clickDone = true
					s.Clicks++
				}
				if !buyDone && f.Kind == events.Purchase && d <= PurchaseWindow && counted[slices.Index(log, f)] {
					buyDone = true
					s.Purchases++
				}
			}
		case events.Click:
			if !in(e) || !kept(e) {
				continue
			}
			clicked[e.ProductNumber]++
			if e.Shown.Source == events.SourceRecoms && e.Shown.Campaign == "" {
				src(boxes, e.Shown.Key).Clicks++
			}
			if e.Shown.Campaign != "" {
				src(campaigns, e.Shown.Campaign).Clicks++
			}
		case events.Impression:
			if !in(e) || !kept(e) {
				continue
			}
			if e.Shown.Campaign != "" {
				src(campaigns, e.Shown.Campaign).Impressions++
			} else {
				src(boxes, e.Shown.Key).Impressions++
			}
		case events.Purchase:
			if !counted[i] || !in(e) || !kept(e) {
				continue
			}
			units := map[string]float64{}
			var pns []string
			for _, l := range e.Lines {
				if !slices.Contains(pns, l.ProductNumber) {
					pns = append(pns, l.ProductNumber)
				}
				units[l.ProductNumber] += max(l.Quantity, 0) + b2f(l.Quantity <= 0)
			}
			// The visitor's last maxTrailClicks clicks on boxes and
			// campaigns before it.
			var trail []*events.Event
			for _, f := range log[:i] {
				if f.User == e.User && f.Kind == events.Click && (f.Shown.Source == events.SourceRecoms && f.Shown.Key != "" || f.Shown.Campaign != "") {
					trail = append(trail, f)
				}
			}
			trail = trail[max(0, len(trail)-maxTrailClicks):]
			for _, pn := range pns {
				b := bought[pn]
				if b == nil {
					b = &ProductBuys{ProductNumber: pn}
					bought[pn] = b
				}
				b.Orders++
				b.Units += units[pn]
				for j := len(trail) - 1; j >= 0; j-- {
					c := trail[j]
					if c.ProductNumber != pn || e.Time-c.Time > PurchaseWindow {
						continue
					}
					if c.Shown.Source == events.SourceRecoms && c.Shown.Campaign == "" {
						src(boxes, c.Shown.Key).Purchases++
					}
					if c.Shown.Campaign != "" {
						src(campaigns, c.Shown.Campaign).Purchases++
					}
					break
				}
			}
		}
	}
	r.TopSearches = topOf(searches, top, func(a, b *SearchCount) int {
		return cmp.Or(cmp.Compare(b.Searches, a.Searches), cmp.Compare(a.Query, b.Query))
	})
	r.NoResults = topOf(mapped(noResults, func(q string, n int64) *QueryCount { return &QueryCount{q, n} }), top, func(a, b *QueryCount) int {
		return cmp.Or(cmp.Compare(b.Searches, a.Searches), cmp.Compare(a.Query, b.Query))
	})
	r.TopClicked = topOf(mapped(clicked, func(pn string, n int64) *ProductCount { return &ProductCount{pn, n} }), top, func(a, b *ProductCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.ProductNumber, b.ProductNumber))
	})
	r.TopBought = topOf(bought, top, func(a, b *ProductBuys) int {
		return cmp.Or(cmp.Compare(b.Orders, a.Orders), cmp.Compare(b.Units, a.Units), cmp.Compare(a.ProductNumber, b.ProductNumber))
	})
	byKey := func(a, b *SourceCount) int { return cmp.Compare(a.Key, b.Key) }
	r.Boxes = topOf(boxes, len(boxes), byKey)
	r.Campaigns = topOf(campaigns, len(campaigns), byKey)
	return r
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestAnalyticsMatchBruteForce: the per-day aggregates answer, for
// random date ranges, what a brute force over the raw log counts:
// searches, their clicks and purchases by the attribution windows,
// searches that found nothing, products clicked and bought, boxes' and
// campaigns' impressions, clicks and purchases.
func TestAnalyticsMatchBruteForce(t *testing.T) {
	for seed := range uint64(12) {
		log := analyticsLog(seed, 1500)
		m := New()
		for _, e := range log {
			m.Fold(e)
		}
		r := rand.New(rand.NewPCG(seed, 5))
		first, last := DayOf(log[0].Time), DayOf(log[len(log)-1].Time)
		for range 20 {
			from := first - 2 + Day(r.IntN(int(last-first)+4))
			to := from + Day(r.IntN(int(last-from)+3))
			top := 1 + r.IntN(12)
			got, want := m.Analytics(from, to, top), bruteReport(log, from, to, top)
			if !reflect.DeepEqual(normal(got), normal(want)) {
				t.Fatalf("seed %d, days %d to %d, top %d:\ngot  %+v\nwant %+v", seed, from, to, top, got, want)
			}
		}
	}
}

// normal makes empty lists nil, so DeepEqual compares contents.
func normal(r Report) Report {
	if len(r.TopSearches) == 0 {
		r.TopSearches = nil
	}
	if len(r.NoResults) == 0 {
		r.NoResults = nil
	}
	if len(r.TopClicked) == 0 {
		r.TopClicked = nil
	}
	if len(r.TopBought) == 0 {
		r.TopBought = nil
	}
	if len(r.Boxes) == 0 {
		r.Boxes = nil
	}
	if len(r.Campaigns) == 0 {
		r.Campaigns = nil
	}
	return r
}

func TestAnalyticsLogIsRich(t *testing.T) {
	log := analyticsLog(1, 1500)
	m := New()
	for _, e := range log {
		m.Fold(e)
	}
	r := m.Analytics(0, 1<<30, 100)
	var clicks, buys, boxBuys int64
	for _, s := range r.TopSearches {
		clicks += s.Clicks
		buys += s.Purchases
	}
	for _, b := range r.Boxes {
		boxBuys += b.Purchases
	}
	if r.Searches < 100 || r.NoResultSearches == 0 || clicks == 0 || buys == 0 || boxBuys == 0 || len(r.TopBought) == 0 || len(r.Campaigns) == 0 {
		t.Errorf("the generated log exercises too little: %d searches, %d without results, %d clicked, %d bought, %d box purchases, %d campaigns",
			r.Searches, r.NoResultSearches, clicks, buys, boxBuys, len(r.Campaigns))
	}
}

// TestAnalyticsSurviveASnapshot: a model snapshot halfway through a
// log, read back and folded the rest, answers every range as the model
// that folded the whole log, trails (a search before the snapshot
// clicked after it) included; the snapshot's bytes do not depend on
// the maps' order.
func TestAnalyticsSurviveASnapshot(t *testing.T) {
	for seed := range uint64(6) {
		log := analyticsLog(seed, 1500)
		// Split right after a search its visitor clicks a result of
		// after the split.
		split := len(log) / 2
	find:
		for i, e := range log[:len(log)-1] {
			if e.Kind != events.Search || i < len(log)/3 {
				continue
			}
			for _, f := range log[i+1:] {
				if f.User == e.User && f.Kind == events.Search || f.Time-e.Time > ClickWindow {
					break
				}
				if f.User == e.User && f.Kind == events.Click && f.Shown.Source == events.SourceSearch {
					split = i + 1
					break find
				}
			}
		}
		whole, half := New(), New()
		for _, e := range log {
			whole.Fold(e)
		}
		for _, e := range log[:split] {
			half.Fold(e)
		}
		snap := half.AppendSnapshot(nil)
		back, err := DecodeSnapshot(snap, DefaultBudget)
		if err != nil {
			t.Fatal(err)
		}
		if again := back.AppendSnapshot(nil); len(again) != len(snap) {
			t.Fatalf("seed %d: the snapshot read back encodes to %d bytes, not %d", seed, len(again), len(snap))
		}
		for _, e := range log[split:] {
			back.Fold(e)
		}
		first, last := DayOf(log[0].Time), DayOf(log[len(log)-1].Time)
		for d := first; d <= last+1; d += 3 {
			if got, want := back.Analytics(d, d+20, 100), whole.Analytics(d, d+20, 100); !reflect.DeepEqual(normal(got), normal(want)) {
				t.Fatalf("seed %d, days %d to %d:\nafter a snapshot %+v\nfolded whole     %+v", seed, d, d+20, got, want)
			}
		}
	}
}

// TestAnalyticsKeepTheirDays: days older than AnalyticsDays before the
// latest event's are dropped, and an event older than that counts for
// no day.
func TestAnalyticsKeepTheirDays(t *testing.T) {
	m := New()
	zero := 0
	search := func(day Day, q string) {
		m.Fold(&events.Event{Kind: events.Search, Website: "w", User: "u", Query: q, Results: &zero, Time: int64(day) * msPerDay})
	}
	search(1000, "old")
	search(1000+AnalyticsDays-1, "kept")
	if r := m.Analytics(0, 5000, 10); r.Searches != 2 {
		t.Fatalf("%d searches, want both", r.Searches)
	}
	search(1000+AnalyticsDays, "new")
	search(1000, "too old")
	r := m.Analytics(0, 5000, 10)
	var qs []string
	for _, s := range r.TopSearches {
		qs = append(qs, s.Query)
	}
	slices.Sort(qs)
	if !slices.Equal(qs, []string{"kept", "new"}) {
		t.Errorf("queries %v, want kept and new", qs)
	}
}

// mapped is m's entries made values by f, keyed as m.
func mapped[K comparable, V, T any](m map[K]V, f func(K, V) *T) map[K]*T {
	out := make(map[K]*T, len(m))
	for k, v := range m {
		out[k] = f(k, v)
	}
	return out
}
