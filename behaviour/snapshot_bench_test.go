package behaviour_test

import (
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/events"
)

var snapBench struct {
	once sync.Once
	m    *behaviour.Model
}

// snapModel is the behaviour of 25,000 demo visitors over 100,000
// products (about a million events; AISLE_BENCH_VISITORS=230000 for ten
// million), built once.
func snapModel(b *testing.B) *behaviour.Model {
	snapBench.once.Do(func() {
		visitors := 25000
		if v, err := strconv.Atoi(os.Getenv("AISLE_BENCH_VISITORS")); err == nil && v > 0 {
			visitors = v
		}
		m := behaviour.New()
		each := func(fn func(*catalog.Product) error) error { return demo.Each(100000, 42, fn) }
		if err := demo.Events("w", each, visitors, 1, func(e *events.Event) error {
			m.Fold(e)
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		snapBench.m = m
	})
	return snapBench.m
}

// BenchmarkSnapshot: what a snapshot costs, and how long folding waits
// for it (the copy; the encoding runs on the copy).
func BenchmarkSnapshot(b *testing.B) {
	m := snapModel(b)
	b.Run("copy (folding waits)", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m.Copy()
		}
	})
	b.Run("whole", func(b *testing.B) {
		b.ReportAllocs()
		var out []byte
		for b.Loop() {
			out = m.AppendSnapshot(out[:0])
		}
		b.ReportMetric(float64(len(out)), "bytes")
	})
}

// BenchmarkRanked: one recomputation of a popularity ranking (what a
// stale one costs the background thread), about a million events.
func BenchmarkRanked(b *testing.B) {
	m := snapModel(b)
	m.MaxStale = 0
	defer func() { m.MaxStale = time.Second }()
	w := behaviour.Weights{behaviour.Views: 1, behaviour.Carts: 3, behaviour.Buys: 5}
	now := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		m.Fold(&events.Event{Kind: events.Search, Website: "w", Query: "x", Results: new(int)}) // stale again
		m.Ranked(w, behaviour.Long, now)
	}
}
