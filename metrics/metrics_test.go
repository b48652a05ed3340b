package metrics

import (
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
