package behaviour

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/events"
)

// worstAnalytics folds into m what fills every budget of the analytics
// with the longest strings events may carry: for each of AnalyticsDays
// days, 1,000 new queries of events.MaxText bytes (counted by their
// first 100; 500 finding nothing), 1,000 products clicked and bought,
// 200 boxes and 200 campaigns clicked, of new keys of events.MaxID
// bytes; then new visitors each with such a search and 8 clicks from
// boxes and campaigns of new keys, until both generations of trails are
// full (the newer one trail short of its bounds).
func worstAnalytics(m *Model) {
	long := func(prefix string, i, n int) string {
		s := fmt.Sprintf("%s%d", prefix, i)
		return s + strings.Repeat("x", n-len(s))
	}
	zero, some := 0, 5
	click := func(user string, at int64, i int) {
		sh := &events.Shown{Source: events.SourceRecoms, Key: long("box", i, events.MaxID)}
		if i%2 == 1 {
			sh.Campaign = long("campaign", i, events.MaxID)
		}
		m.Fold(&events.Event{Kind: events.Click, Website: "w", User: user, Time: at, ProductNumber: "P1", Shown: sh})
	}
	n := 0
	var at int64
	for day := range AnalyticsDays {
		at = int64(20000+day) * msPerDay
		for i := range maxDayQueries {
			e := &events.Event{Kind: events.Search, Website: "w", User: "s", Time: at, Query: long("q", day*maxDayQueries+i, events.MaxText), Results: &some}
			if i < maxDayNoResults {
				e.Results = &zero
			}
			m.Fold(e)
		}
		for i := range maxDayProducts {
			pn := fmt.Sprint("P", i)
			m.Fold(&events.Event{Kind: events.Click, Website: "w", User: "c", Time: at, ProductNumber: pn, Shown: &events.Shown{Source: events.SourceSearch, Key: "shop"}})
			m.Fold(&events.Event{Kind: events.Purchase, Website: "w", User: "c", Time: at, OrderNumber: fmt.Sprint("O", day, "-", i), ProductNumbers: []string{pn}})
		}
		for range 2 * maxDaySources {
			click("c", at, n)
			n++
		}
	}
	full := func() bool { // the newer generation as full as it gets
		return len(m.stats.trails) >= maxTrails-1 || m.stats.trailBytes >= maxTrailBytes-3000
	}
	for v := 0; v < 2*maxTrails || !full(); v++ {
		user := fmt.Sprint("v", v)
		m.Fold(&events.Event{Kind: events.Search, Website: "w", User: user, Time: at, Query: long("t", v, events.MaxText), Results: &some})
		for range maxTrailClicks {
			click(user, at, n)
			n++
		}
	}
}

// BenchmarkWorstAnalyticsMemory: the heap the analytics of one website hold
// at their worst (worstAnalytics): the days' and the trails'.
func BenchmarkWorstAnalyticsMemory(b *testing.B) {
	for b.Loop() {
		m := New()
		worstAnalytics(m)
		days, trails := len(m.stats.days), len(m.stats.trails)+len(m.stats.oldTrails)
		with := liveHeap()
		m.stats.trails, m.stats.oldTrails = nil, nil
		withoutTrails := liveHeap()
		m.stats = stats{}
		without := liveHeap()
		b.ReportMetric(float64(withoutTrails-without)/1e6, "days-MB")
		b.ReportMetric(float64(with-withoutTrails)/1e6, "trails-MB")
		b.Logf("%d days, %d trails", days, trails)
		runtime.KeepAlive(m)
	}
}

// liveHeap is the heap's live bytes after a collection.
func liveHeap() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
