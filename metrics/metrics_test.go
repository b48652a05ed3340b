package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestObserve: each request counts once under its route and code, and a
// route index out of range counts as "other".
func TestObserve(t *testing.T) {
	s := New()
	s.Observe(0, 200, time.Millisecond)
	s.Observe(0, 200, time.Millisecond)
	s.Observe(0, 400, time.Millisecond)
	s.Observe(99, 404, time.Millisecond)
	for _, tc := range []struct {
		route, code string
		want        float64
	}{{"search", "200", 2}, {"search", "400", 1}, {"other", "404", 1}} {
		if got := testutil.ToFloat64(s.requests.WithLabelValues(tc.route, tc.code)); got != tc.want {
			t.Errorf("requests{route=%s,code=%s} = %v, want %v", tc.route, tc.code, got, tc.want)
		}
	}
	if n := testutil.CollectAndCount(s.duration); n != len(Routes) {
		t.Errorf("%d latency series, want one a route, %d", n, len(Routes))
	}
}

// TestObserveAllocates: recording a request allocates nothing once its
// route and code were seen.
func TestObserveAllocates(t *testing.T) {
	s := New()
	s.Observe(0, 200, time.Millisecond)
	if n := testing.AllocsPerRun(1000, func() { s.Observe(0, 200, time.Millisecond) }); n != 0 {
		t.Errorf("Observe allocates %v times a request, want 0", n)
	}
}

func BenchmarkObserve(b *testing.B) {
	s := New()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.Observe(i%3, 200, time.Duration(i)*time.Microsecond)
	}
}

// TestFuncVecsAndHistogram: a counter vector reads its values at each
// scrape and is typed a counter, a gauge vector a gauge; the histogram's
// observations land in their buckets, in seconds.
func TestFuncVecsAndHistogram(t *testing.T) {
	s := New()
	n := 1.0
	s.CounterVec("things_total", "Things.", "kind", func(set func(string, float64)) {
		set("a", n)
		set("b", 2*n)
	})
	s.GaugeVec("levels", "Levels.", "tank", func(set func(string, float64)) { set("x", 7) })
	observe := s.Histogram("wait_seconds", "Waits.", []float64{0.01, 0.1})
	observe(5 * time.Millisecond)
	observe(50 * time.Millisecond)
	observe(time.Second)
	n = 3 // read at the scrape, not at registration
	want := `
# HELP aisle_levels Levels.
# TYPE aisle_levels gauge
aisle_levels{tank="x"} 7
# HELP aisle_things_total Things.
# TYPE aisle_things_total counter
aisle_things_total{kind="a"} 3
aisle_things_total{kind="b"} 6
# HELP aisle_wait_seconds Waits.
# TYPE aisle_wait_seconds histogram
aisle_wait_seconds_bucket{le="0.01"} 1
aisle_wait_seconds_bucket{le="0.1"} 2
aisle_wait_seconds_bucket{le="+Inf"} 3
aisle_wait_seconds_sum 1.055
aisle_wait_seconds_count 3
`
	if err := testutil.GatherAndCompare(s.reg, strings.NewReader(want), "aisle_levels", "aisle_things_total", "aisle_wait_seconds"); err != nil {
		t.Error(err)
	}
}
