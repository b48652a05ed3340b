package behaviour_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/events"
)

// analyticsBench is a model that folded AISLE_BENCH_EVENTS (default
// 10,000,000) generated events over 120 days: searches (a third, of
// 30,000 queries, Zipf-distributed, one in ten finding nothing), clicks
// on results, boxes and sponsored products, views, box and campaign
// impressions and purchases, by 500,000 visitors over 100,000 products.
var analyticsBench struct {
	once   sync.Once
	m      *behaviour.Model
	n      int
	took   time.Duration
	latest behaviour.Day
}

// benchEvents gives fn the n events of analyticsBench's shop, in time
// order over 120 days from benchStart; each is fn's to keep.
func benchEvents(n int, fn func(e events.Event)) {
	r := rand.New(rand.NewPCG(1, 2))
	queries := make([]string, 30000)
	for i := range queries {
		queries[i] = fmt.Sprintf("query %d", i)
	}
	zipf := rand.NewZipf(r, 1.1, 1, uint64(len(queries)-1))
	products := make([]string, 100000)
	for i := range products {
		products[i] = fmt.Sprintf("P%06d", i)
	}
	users := make([]string, 500000)
	for i := range users {
		users[i] = fmt.Sprintf("visitor-%06d", i)
	}
	zero, some := 0, 12
	for i := range n {
		e := events.Event{Website: "w", User: users[r.IntN(len(users))], Time: benchStart + benchSpan*int64(i)/int64(n)}
		pn := products[int(zipf.Uint64())*3%len(products)]
		switch k := r.IntN(10); {
		case k < 3:
			e.Kind, e.Query, e.Results = events.Search, queries[zipf.Uint64()], &some
			if r.IntN(10) == 0 {
				e.Results = &zero
			}
		case k < 5:
			e.Kind, e.ProductNumber = events.Click, pn
			e.Shown = &events.Shown{Source: []string{events.SourceSearch, events.SourceRecoms}[r.IntN(2)], Key: fmt.Sprint("box-", r.IntN(20))}
			if r.IntN(10) == 0 {
				e.Shown.Campaign = fmt.Sprint("campaign-", r.IntN(30))
			}
		case k < 8:
			e.Kind, e.ProductNumber = events.View, pn
		case k < 9:
			e.Kind, e.Shown = events.Impression, &events.Shown{Source: events.SourceRecoms, Key: fmt.Sprint("box-", r.IntN(20))}
		default:
			e.Kind, e.OrderNumber, e.ProductNumbers = events.Purchase, strconv.Itoa(i), []string{pn}
		}
		fn(e)
	}
}

// benchStart and benchSpan are when benchEvents' events happen.
var (
	benchStart = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	benchSpan  = int64(120 * 24 * time.Hour / time.Millisecond)
)

func setupAnalyticsBench(b *testing.B) {
	a := &analyticsBench
	a.once.Do(func() {
		a.n = 10_000_000
		if v, err := strconv.Atoi(os.Getenv("AISLE_BENCH_EVENTS")); err == nil && v > 0 {
			a.n = v
		}
		a.m = behaviour.New()
		t0 := time.Now()
		benchEvents(a.n, func(e events.Event) { a.m.Fold(&e) })
		a.took = time.Since(t0)
		a.latest = behaviour.DayOf(benchStart + benchSpan)
	})
}

// BenchmarkFoldAnalyticsEvents: folding a million of benchEvents'
// events (made beforehand) into a new model, analytics and all: ns and
// allocations an event.
func BenchmarkFoldAnalyticsEvents(b *testing.B) {
	const n = 1_000_000
	evs := make([]events.Event, 0, n)
	benchEvents(n, func(e events.Event) { evs = append(evs, e) })
	b.ReportAllocs()
	for b.Loop() {
		m := behaviour.New()
		for i := range evs {
			m.Fold(&evs[i])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/event")
}

// BenchmarkAnalytics: the last 90 days' report (top 20 of each list)
// of a model that folded ten million events; reports p50 and p99 and
// the fold's cost an event.
func BenchmarkAnalytics(b *testing.B) {
	setupAnalyticsBench(b)
	a := &analyticsBench
	b.ReportAllocs()
	var lats []time.Duration
	for b.Loop() {
		t0 := time.Now()
		r := a.m.Analytics(a.latest-89, a.latest, 20)
		lats = append(lats, time.Since(t0))
		if r.Searches == 0 {
			b.Fatal("no searches")
		}
	}
	slices.Sort(lats)
	b.ReportMetric(float64(lats[len(lats)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lats[len(lats)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(a.took.Nanoseconds())/float64(a.n), "fold-ns/event")
	b.Logf("%d events folded in %v", a.n, a.took)
}

// BenchmarkFoldNewQueries: a stranger's searches, each a query never
// seen, folded into a day whose query and no-result budgets are full
// (every count 1, so every newcomer evicts): the cost of an event that
// makes room (its query string made in the loop, as a decoded event's
// is).
func BenchmarkFoldNewQueries(b *testing.B) {
	m := behaviour.New()
	day := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC).UnixMilli()
	zero := 0
	e := events.Event{Kind: events.Search, Website: "w", User: "stranger", Time: day, Results: &zero}
	i := 0
	next := func() string {
		i++
		return "unique query " + strconv.Itoa(i)
	}
	for range 2000 {
		e.Query = next()
		m.Fold(&e)
	}
	b.ReportAllocs()
	for b.Loop() {
		e.Query = next()
		m.Fold(&e)
	}
}

// BenchmarkFoldBoxImpressions: the server's impressions of boxes (one
// for each box of each recommendations answer, the most frequent event
// of a shop that shows boxes on every page), by many visitors.
func BenchmarkFoldBoxImpressions(b *testing.B) {
	m := behaviour.New()
	day := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC).UnixMilli()
	users := make([]string, 4096)
	for i := range users {
		users[i] = "visitor-" + strconv.Itoa(i)
	}
	shown := events.Shown{Source: events.SourceRecoms, Key: "box-home"}
	e := events.Event{Kind: events.Impression, Website: "w", Time: day, Shown: &shown}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		e.User = users[i%len(users)]
		m.Fold(&e)
		i++
	}
}
