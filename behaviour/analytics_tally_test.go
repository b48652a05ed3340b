package behaviour

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/aisle-search/aisle/events"
)

// TestReportAllocatesItsAnswer: a report over 90 days of 30,000
// distinct queries and 10,000 products clicked allocates about its
// answer (the top 20s), not arrays as long as the queries and products
// it adds up: those are kept for the next report.
func TestReportAllocatesItsAnswer(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop tallies")
	}
	m := New()
	some := 3
	for i := range 120000 {
		at := int64(20000+i%90)*msPerDay + int64(i)
		m.Fold(&events.Event{Kind: events.Search, Website: "w", User: fmt.Sprint("u", i%5000), Time: at, Query: fmt.Sprint("query ", i%30000), Results: &some})
		m.Fold(&events.Event{Kind: events.Click, Website: "w", User: fmt.Sprint("u", i%5000), Time: at, ProductNumber: fmt.Sprint("P", i%10000),
			Shown: &events.Shown{Source: events.SourceSearch, Key: "shop"}})
	}
	report := func() Report { return m.Analytics(20000, 20089, 20) }
	if r := report(); len(r.TopSearches) != 20 || len(r.TopClicked) != 20 {
		t.Fatalf("%d top searches, %d top clicked", len(r.TopSearches), len(r.TopClicked))
	}
	const runs = 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		report()
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / runs; per > 128<<10 {
		t.Errorf("a report allocates %d bytes, want at most 128 KiB", per)
	}
}
