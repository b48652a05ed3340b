package bench

import (
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aisle-search/aisle/internal/expect"
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

// probeReport is one probe FindMaxRate reported, with the requests the
// test server answered late during it.
type probeReport struct {
	rate    float64
	res     LoadResult
	held    bool
	delayed int64
}

// replayRateSearch checks that probes are the ones FindMaxRate's comment
// prescribes, given the verdicts they got: from start up by half while
// held, down by half from start while nothing is held (to rates of at
// least 1), then halving the gap between the highest rate held and the
// lowest missed until they are within 5%; a miss is retried once; a last
// probe at half the rate found. It also checks each verdict is the
// documented criterion, and that rs reports the boundary the probes
// found.
func replayRateSearch(t *testing.T, probes []probeReport, rs RateSearch, start float64, limit time.Duration) {
	t.Helper()
	if len(probes) != rs.Probes {
		t.Fatalf("%d probes reported, RateSearch.Probes %d", len(probes), rs.Probes)
	}
	for _, p := range expect.Some(t, "probes", probes) {
		held := p.res.Errors == 0 && p.res.P99 < limit && p.res.QPS >= 0.9*p.rate
		if p.held != held {
			t.Fatalf("probe at %.2f/s (%s) reported held %v", p.rate, p.res, p.held)
		}
	}
	// Group the retries: a rate's probes are [held], [missed, held] or
	// [missed, missed]; the last one is its verdict.
	type attempt struct {
		rate float64
		last probeReport
	}
	var attempts []attempt
	for i := 0; i < len(probes); {
		p := probes[i]
		if !p.held && i+1 < len(probes) && probes[i+1].rate == p.rate {
			attempts = append(attempts, attempt{p.rate, probes[i+1]})
			i += 2
			continue
		}
		if !p.held {
			t.Fatalf("probe %d at %.2f/s missed and was not retried", i, p.rate)
		}
		attempts = append(attempts, attempt{p.rate, p})
		i++
	}
	same := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(a, b) }
	next := 0
	var lo, hi float64
	var atMax LoadResult
	step := func(rate float64) bool {
		if next >= len(attempts) {
			t.Fatalf("the search ended before probing %.2f/s (%d attempts)", rate, len(attempts))
		}
		a := attempts[next]
		if !same(a.rate, rate) {
			t.Fatalf("attempt %d probed %.2f/s, want %.2f/s (held up to %.2f, missed from %.2f)", next, a.rate, rate, lo, hi)
		}
		next++
		if a.last.held {
			lo, atMax = rate, a.last.res
		} else {
			hi = rate
		}
		return true
	}
	start = max(start, 10)
	step(start)
	for rate := start * 1.5; lo > 0 && hi == 0; rate *= 1.5 {
		step(rate)
	}
	for rate := start / 2; lo == 0 && rate >= 1; rate /= 2 {
		step(rate)
	}
	for lo > 0 && hi/lo > 1.05 {
		step((lo + hi) / 2)
	}
	if rs.MaxRate != lo || rs.AtMax != atMax {
		t.Fatalf("RateSearch says %.2f/s (%s); the probes held up to %.2f/s (%s)", rs.MaxRate, rs.AtMax, lo, atMax)
	}
	rest := attempts[next:]
	switch {
	case lo == 0 && len(rest) != 0:
		t.Fatalf("nothing held, yet %d more attempts", len(rest))
	case lo > 0 && (len(rest) != 1 || !same(rest[0].rate, lo/2) || rs.AtHalf != rest[0].last.res):
		t.Fatalf("after the search: attempts %+v, want one at %.2f/s measuring AtHalf %s", rest, lo/2, rs.AtHalf)
	}
}

// TestFindMaxRate runs the rate search against test servers and replays
// its probes against its documented rules (replayRateSearch), so a busy
// machine, which can only make probes miss, changes which rates are
// probed but not whether the test passes. Each server bounds the answer
// in a way a busy machine cannot break: it can slow answers down, never
// speed them up.
func TestFindMaxRate(t *testing.T) {
	const limit = 60 * time.Millisecond

	// search runs FindMaxRate with the server's probes recorded, cut
	// short after 50 (it takes about 15); reset is called after each.
	search := func(t *testing.T, opt LoadOptions, start float64, delayed *atomic.Int64, reset func()) ([]probeReport, RateSearch) {
		t.Helper()
		var probes []probeReport
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		rs, err := FindMaxRate(ctx, opt, start, limit, func(rate float64, res LoadResult, held bool) {
			probes = append(probes, probeReport{rate, res, held, delayed.Swap(0)})
			reset()
			if len(probes) == 50 {
				cancel()
			}
		})
		for _, p := range probes {
			t.Logf("%7.2f/s: %s; %d answered late; held %v", p.rate, p.res, p.delayed, p.held)
		}
		if err != nil {
			t.Fatalf("after %d probes: %v", len(probes), err)
		}
		t.Logf("max rate %.2f/s", rs.MaxRate)
		replayRateSearch(t, probes, rs, start, limit)
		return probes, rs
	}

	t.Run("server holding 200/s", func(t *testing.T) {
		// It counts arrivals over the last 100 ms and, above 200/s,
		// answers 150 ms late: a probe in which it answered more than
		// 1% of the requests late cannot be held, and no rate far above
		// its capacity can.
		const (
			capacity = 200
			window   = 100 * time.Millisecond
			late     = 150 * time.Millisecond
		)
		var (
			mu       sync.Mutex
			arrivals []time.Time
			delayed  atomic.Int64
		)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.ReadAll(r.Body) //nolint:errcheck // test server
			now := time.Now()
			mu.Lock()
			arrivals = append(arrivals, now)
			for len(arrivals) > 0 && now.Sub(arrivals[0]) > window {
				arrivals = arrivals[1:]
			}
			busy := len(arrivals) > int(capacity*window/time.Second)
			mu.Unlock()
			if busy {
				delayed.Add(1)
				time.Sleep(late)
			}
			io.WriteString(w, `{}`)
		}))
		defer srv.Close()
		idle := func() { // each probe starts with an idle server
			mu.Lock()
			arrivals = nil
			mu.Unlock()
		}
		opt := LoadOptions{URL: srv.URL, Bodies: [][]byte{[]byte(`{}`)}, Concurrency: 4, Duration: 150 * time.Millisecond}
		probes, rs := search(t, opt, 120, &delayed, idle)
		for _, p := range probes {
			n := int64(p.res.Requests)
			if p.held && p.delayed > n-int64(min(int(0.99*float64(n)), int(n)-1)) {
				t.Errorf("probe at %.1f/s held though the server answered %d of %d requests %s late", p.rate, p.delayed, n, late)
			}
		}
		if rs.MaxRate >= 2*capacity {
			t.Errorf("max rate %.1f/s for a server that holds %d/s", rs.MaxRate, capacity)
		}
	})

	t.Run("every answer later than the limit", func(t *testing.T) {
		// Runs too short to fall behind: the probes miss on p99 alone,
		// nothing is held, and the search goes down to rates under 1/s.
		var delayed atomic.Int64
		slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			delayed.Add(1)
			time.Sleep(limit + 20*time.Millisecond)
			io.WriteString(w, `{}`)
		}))
		defer slow.Close()
		opt := LoadOptions{URL: slow.URL, Bodies: [][]byte{[]byte(`{}`)}, Concurrency: 4, Duration: 150 * time.Millisecond}
		probes, rs := search(t, opt, 8, &delayed, func() {})
		if rs.MaxRate != 0 || len(probes) != 8 {
			t.Fatalf("max rate %v in %d probes, want 0 in 8 (10, 5, 2.5, 1.25/s, each retried)", rs.MaxRate, len(probes))
		}
	})

	t.Run("one connection slower than the rate", func(t *testing.T) {
		// One connection to a server taking 5 ms a request sends at most
		// 7 requests in a 30 ms run: every answer comes within the limit,
		// and rates are missed because they are not achieved.
		var delayed atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(5 * time.Millisecond)
			io.WriteString(w, `{}`)
		}))
		defer srv.Close()
		opt := LoadOptions{URL: srv.URL, Bodies: [][]byte{[]byte(`{}`)}, Concurrency: 1, Duration: 30 * time.Millisecond}
		_, rs := search(t, opt, 400, &delayed, func() {})
		if rs.MaxRate >= 7/0.030 {
			t.Errorf("max rate %.1f/s, more than one connection can send", rs.MaxRate)
		}
	})
}

// TestMeasureServerShare: against a server whose searches take 3 ms
// more than its /healthz, the share is at least that and the two p50s
// differ by it; a failing search is an error, not a share.
func TestMeasureServerShare(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/healthz" && r.Method == http.MethodGet:
			io.WriteString(w, "ok")
		case r.URL.Path == "/serve/search" && r.Method == http.MethodPost:
			if b, _ := io.ReadAll(r.Body); string(b) == "fail" {
				http.Error(w, "failed", http.StatusInternalServerError)
				return
			}
			time.Sleep(3 * time.Millisecond)
			io.WriteString(w, `{"ok":true}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	r, err := MeasureServerShare(context.Background(), srv.URL+"/serve/search", [][]byte{[]byte(`{}`)}, 20)
	if err != nil {
		t.Fatal(err)
	}
	if r.Pairs != 20 || r.Share < 3*time.Millisecond || r.Share != r.Search-r.Health {
		t.Fatalf("got %+v, want 20 pairs and a share of at least 3ms, the p50s' difference", r)
	}
	if _, err := MeasureServerShare(context.Background(), srv.URL+"/serve/search", [][]byte{[]byte("fail")}, 5); err == nil {
		t.Fatal("a failing search gave a share")
	}
}
