package behaviour

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/aisle-search/aisle/events"
)

// floodEvents calls fn with a view by each of n new visitors, each with
// an email of their own, of one of 1,000 products, a second apart.
func floodEvents(n int, fn func(*events.Event)) {
	e := &events.Event{Kind: events.View, Website: "w"}
	for i := range n {
		e.User = fmt.Sprint("flood-", i)
		e.ProductNumber = fmt.Sprint("P", i%1000)
		e.Time = t0.Add(time.Duration(i) * time.Second).UnixMilli()
		e.Email, e.EmailHash = fmt.Sprint(i, "@flood.test"), 0
		testKey.Seal(e, false)
		fn(e)
	}
}

// BenchmarkVisitorBudget: new visitors with an email each, twice the
// default budget of them, each evicting in turn: ns per new visitor
// (evictions included), and the heap a model full to its budget holds,
// per visitor (its record, table slot, history and two links' room).
func BenchmarkVisitorBudget(b *testing.B) {
	n := 2 * DefaultMaxVisitors
	var m *Model
	for b.Loop() {
		m = New()
		floodEvents(n, m.Fold)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/visitor")
	before := heapLive()
	m = New()
	floodEvents(DefaultMaxVisitors, m.Fold)
	held := heapLive() - before
	s := m.Size()
	b.ReportMetric(float64(held)/float64(s.Visitors), "heap-bytes/visitor")
	b.Logf("at the budget: %+v; the heap held %d bytes", s, held)
	runtime.KeepAlive(m)
}

// BenchmarkEvict: one eviction pass over a model full to the default
// budget (a quarter of a million visitors evicted).
func BenchmarkEvict(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		m := New()
		floodEvents(DefaultMaxVisitors, m.Fold)
		b.StartTimer()
		m.makeRoom()
		if m.visitors.len() != DefaultMaxVisitors*3/4 {
			b.Fatalf("%d visitors after the eviction", m.visitors.len())
		}
	}
}

// heapLive is the heap's live bytes after a collection.
func heapLive() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
