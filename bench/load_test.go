package bench

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// loopback is a test server on 127.0.0.1 that answers POSTs whose body is
// "fail" with a 500 and records every body it saw.
func loopback(t *testing.T) (*httptest.Server, func() []string) {
	t.Helper()
	var (
		mu   sync.Mutex
		seen []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, string(b))
		mu.Unlock()
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "want a JSON POST", http.StatusBadRequest)
			return
		}
		if string(b) == "fail" {
			http.Error(w, "failed", http.StatusInternalServerError)
			return
		}
		io.WriteString(w, `{"ok":true}`)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name         string
		bodies       []string
		concurrency  int
		maxRequests  int
		duration     time.Duration
		wantRequests int // exact when > 0
		wantErrors   int // exact when wantRequests > 0
	}{
		{name: "request count, one connection", bodies: []string{`{"q":1}`, `{"q":2}`}, concurrency: 1, maxRequests: 8, wantRequests: 8},
		{name: "request count, many connections", bodies: []string{`{"q":1}`}, concurrency: 4, maxRequests: 40, wantRequests: 40},
		{name: "errors counted, not timed", bodies: []string{`{"q":1}`, "fail"}, concurrency: 2, maxRequests: 10, wantRequests: 10, wantErrors: 5},
		{name: "duration ends the run", bodies: []string{`{"q":1}`}, concurrency: 2, duration: 150 * time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, seen := loopback(t)
			bodies := make([][]byte, len(tc.bodies))
			for i, b := range tc.bodies {
				bodies[i] = []byte(b)
			}
			start := time.Now()
			res, err := Load(context.Background(), LoadOptions{
				URL: srv.URL + "/serve/search", Bodies: bodies, Concurrency: tc.concurrency,
				MaxRequests: tc.maxRequests, Duration: tc.duration,
			})
			if err != nil {
				t.Fatal(err)
			}
			if tc.duration > 0 && time.Since(start) > tc.duration+5*time.Second {
				t.Fatalf("run took %s for a %s duration", time.Since(start), tc.duration)
			}
			if tc.wantRequests > 0 {
				if res.Requests != tc.wantRequests || res.Errors != tc.wantErrors {
					t.Fatalf("%d requests, %d errors; want %d, %d", res.Requests, res.Errors, tc.wantRequests, tc.wantErrors)
				}
				// Bodies are replayed in turn.
				count := map[string]int{}
				for _, b := range seen() {
					count[b]++
				}
				for _, b := range tc.bodies {
					if want := tc.wantRequests / len(tc.bodies); count[b] != want {
						t.Fatalf("body %q sent %d times, want %d (%v)", b, count[b], want, count)
					}
				}
			} else if res.Requests == 0 || res.Errors != 0 {
				t.Fatalf("%d requests, %d errors", res.Requests, res.Errors)
			}
			ok := res.Requests - res.Errors
			if ok > 0 && (res.QPS <= 0 || res.P50 <= 0 || res.P50 > res.P95 || res.P95 > res.P99 || res.P99 > res.Max) {
				t.Fatalf("inconsistent figures: %s", res)
			}
			if !strings.Contains(res.String(), "errors") {
				t.Fatalf("String() = %q", res.String())
			}
		})
	}
}

func TestLoadRate(t *testing.T) {
	srv, _ := loopback(t)
	start := time.Now()
	res, err := Load(context.Background(), LoadOptions{
		URL: srv.URL, Bodies: [][]byte{[]byte(`{}`)}, Concurrency: 2, Rate: 100, MaxRequests: 10,
	})
	if err != nil {
		t.Fatal(err)
	}
	// 10 requests at 100/s take about 0.1 s; well under as fast as possible
	// would mean the rate is ignored.
	if res.Requests != 10 || time.Since(start) < 60*time.Millisecond {
		t.Fatalf("%d requests in %s at 100/s", res.Requests, time.Since(start))
	}
}

// TestLoadRateEndsAtDuration: LoadOptions, "It always ends by itself: at
// Duration", and LoadResult, "With a Rate, latencies count from each
// request's scheduled time". At 1 request/s over 4 connections the
// connections' first requests are due at 0, 1, 2 and 3 s; a 100 ms run
// sends only the first, and no latency is negative.
func TestLoadRateEndsAtDuration(t *testing.T) {
	srv, seen := loopback(t)
	res, err := Load(context.Background(), LoadOptions{
		URL: srv.URL, Bodies: [][]byte{[]byte(`{}`)}, Concurrency: 4, Rate: 1, Duration: 100 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 1 || len(seen()) != 1 || res.P50 <= 0 || res.Max <= 0 {
		t.Fatalf("%s; the server saw %d requests: want 1 request, timed from its scheduled time", res, len(seen()))
	}
}

func TestLoadStopsOnCancel(t *testing.T) {
	srv, _ := loopback(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := Load(ctx, LoadOptions{URL: srv.URL, Bodies: [][]byte{[]byte(`{}`)}, Duration: time.Hour}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("cancelled run took %s", d)
	}
}

func TestLoadRejects(t *testing.T) {
	tests := []struct {
		name string
		opt  LoadOptions
		want string
	}{
		{"no bodies", LoadOptions{URL: "http://127.0.0.1:1/", Duration: time.Second}, "no request bodies"},
		{"unbounded", LoadOptions{URL: "http://127.0.0.1:1/", Bodies: [][]byte{[]byte(`{}`)}}, "ends"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Load(context.Background(), tc.opt); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestLoadUnreachable counts refused connections as errors instead of
// failing or hanging.
func TestLoadUnreachable(t *testing.T) {
	srv, _ := loopback(t)
	url := srv.URL
	srv.Close()
	res, err := Load(context.Background(), LoadOptions{URL: url, Bodies: [][]byte{[]byte(`{}`)}, Concurrency: 2, MaxRequests: 6})
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 6 || res.Errors != 6 || res.QPS != 0 {
		t.Fatalf("got %s", res)
	}
}

func TestPercentiles(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	seq := func(n int) []time.Duration {
		out := make([]time.Duration, n)
		for i := range out {
			out[i] = time.Duration(n-i) * time.Millisecond // descending: sorted in place
		}
		return out
	}
	tests := []struct {
		name               string
		in                 []time.Duration
		p50, p95, p99, max time.Duration
	}{
		{"empty", nil, 0, 0, 0, 0},
		{"one", ms(7), 7 * time.Millisecond, 7 * time.Millisecond, 7 * time.Millisecond, 7 * time.Millisecond},
		{"unsorted", ms(5, 1, 3), 3 * time.Millisecond, 5 * time.Millisecond, 5 * time.Millisecond, 5 * time.Millisecond},
		{"1..1000", seq(1000), 501 * time.Millisecond, 951 * time.Millisecond, 991 * time.Millisecond, 1000 * time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p50, p95, p99, mx := Percentiles(tc.in)
			if p50 != tc.p50 || p95 != tc.p95 || p99 != tc.p99 || mx != tc.max {
				t.Fatalf("got %s %s %s %s, want %s %s %s %s", p50, p95, p99, mx, tc.p50, tc.p95, tc.p99, tc.max)
			}
		})
	}
}

// TestFindMaxRate runs the rate search against a server that holds 300
// requests a second: it counts arrivals over the last 200 ms and, above
// that rate, answers 40 ms late, so p99 passes the limit. The server's
// answer depends on the offered rate, not on CPU time, so the test holds
// on a busy machine.
func TestFindMaxRate(t *testing.T) {
	if testing.Short() {
		t.Skip("rate search takes a few seconds")
	}
	const capacity = 300
	var (
		mu       sync.Mutex
		arrivals []time.Time
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body) //nolint:errcheck // test server
		now := time.Now()
		mu.Lock()
		arrivals = append(arrivals, now)
		for len(arrivals) > 0 && now.Sub(arrivals[0]) > 200*time.Millisecond {
			arrivals = arrivals[1:]
		}
		busy := len(arrivals) > capacity/5
		mu.Unlock()
		if busy {
			time.Sleep(40 * time.Millisecond)
		}
		io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	opt := LoadOptions{URL: srv.URL, Bodies: [][]byte{[]byte(`{}`)}, Concurrency: 4, Duration: 500 * time.Millisecond}
	rs, err := FindMaxRate(context.Background(), opt, 100, 20*time.Millisecond, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("max rate %.0f/s in %d probes; p99 %s there, %s at half", rs.MaxRate, rs.Probes, rs.AtMax.P99, rs.AtHalf.P99)
	if rs.MaxRate < 0.6*capacity || rs.MaxRate > 1.3*capacity {
		t.Fatalf("max rate %.0f/s for a %d/s server (%d probes)", rs.MaxRate, capacity, rs.Probes)
	}
	if rs.AtMax.P99 >= 20*time.Millisecond || rs.AtHalf.P99 <= 0 || rs.AtHalf.QPS < 0.4*capacity {
		t.Fatalf("at max %+v, at half %+v", rs.AtMax, rs.AtHalf)
	}
	// A server that never keeps up: nothing is held, and the search ends.
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(30 * time.Millisecond)
		io.WriteString(w, `{}`)
	}))
	defer slow.Close()
	opt.URL, opt.Duration = slow.URL, 100*time.Millisecond
	rs, err = FindMaxRate(context.Background(), opt, 40, 20*time.Millisecond, nil)
	if err != nil || rs.MaxRate != 0 {
		t.Fatalf("slow server: max rate %v, err %v", rs.MaxRate, err)
	}
}
