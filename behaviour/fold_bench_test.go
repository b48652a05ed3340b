package behaviour_test

import (
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/events"
)

// BenchmarkFold: folding the demo behaviour of 25,000 visitors over
// 100,000 products (about a million events; AISLE_BENCH_VISITORS=230000
// for ten million), and the memory the model then holds against issue
// 10's budget of 200 bytes a product (of the 100,000) and 100 a visitor.
func BenchmarkFold(b *testing.B) {
	visitors := 25000
	if v, err := strconv.Atoi(os.Getenv("AISLE_BENCH_VISITORS")); err == nil && v > 0 {
		visitors = v
	}
	var evs []events.Event
	each := func(fn func(*catalog.Product) error) error { return demo.Each(100000, 42, fn) }
	if err := demo.Events("w", each, visitors, 1, func(e *events.Event) error {
		evs = append(evs, *e)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	var m *behaviour.Model
	for b.Loop() {
		m = behaviour.New()
		for i := range evs {
			m.Fold(&evs[i])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
	with := liveHeap()
	size := m.Size()
	m = nil
	held := with - liveHeap()
	b.ReportMetric(float64(held), "model-bytes")
	b.ReportMetric(float64(held)/float64(200*100000+100*size.Visitors), "of-budget")
	b.Logf("%d events: %+v; the heap held %d bytes, Size.Bytes says %d", len(evs), size, held, size.Bytes)
	runtime.KeepAlive(m)
}

// liveHeap is the heap's live bytes after a collection.
func liveHeap() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
