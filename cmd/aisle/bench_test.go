package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/bench"
	"github.com/aisle-search/aisle/internal/expect"
)

// TestMain lets the test binary stand in for the aisle command: aisle
// bench starts `aisle serve` from its own executable, which under go test
// is this binary.
func TestMain(m *testing.M) {
	if os.Getenv("AISLE_TEST_AS_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestBenchEvents: aisle bench --events posts single events and batches
// to a real aisle serve and reports each run's rate, with no errors.
func TestBenchEvents(t *testing.T) {
	t.Setenv("AISLE_TEST_AS_MAIN", "1") // for the serve process
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"bench", "--events", "--products", "300", "--duration", "300ms", "--event-batch", "5", "--concurrency", "4"}, &out, &errOut)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	for _, re := range []*regexp.Regexp{
		regexp.MustCompile(`event ingestion over 4 connections`),
		regexp.MustCompile(`single events +[1-9]\d* events/s +\(\d+ requests, p50 [\d.]+ms, p99 [\d.]+ms\)`),
		regexp.MustCompile(`batches of 5 +[1-9]\d* events/s`),
	} {
		if !re.MatchString(out.String()) {
			t.Errorf("no line like %q in:\n%s", re, out.String())
		}
	}
}

func TestBenchAndEvalFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--products", "0"}, "--products 0"},
		{[]string{"bench", "--products", "-5"}, "--products -5"},
		{[]string{"bench", "--concurrency", "0"}, "--concurrency 0"},
		{[]string{"bench", "--duration", "0s"}, "--duration 0s"},
		{[]string{"bench", "--catalog", "acme"}, `unknown catalog "acme"`},
		{[]string{"bench", "--engines", "aisle,lucene"}, `unknown engine "lucene"`},
		{[]string{"bench", "--queries", "0"}, "--queries 0"},
		{[]string{"bench", "--p99", "0s"}, "--p99 0s"},
		{[]string{"bench", "extra"}, `unexpected argument "extra"`},
		{[]string{"bench", "--events", "--event-batch", "0"}, "--event-batch 0"},
		{[]string{"bench", "--events", "--event-batch", "501"}, "--event-batch 501"},
		{[]string{"bench", "--catalog", "homedepot", "--shared", "/nonexistent"}, "catalog homedepot"},
		{[]string{"eval", "--k", "0"}, "--k 0"},
		{[]string{"eval", "--shared", "/nonexistent"}, "catalog homedepot"},
		{[]string{"tune", "--folds", "1"}, "--folds 1"},
		{[]string{"tune", "--rounds", "0"}, "--rounds 0"},
		{[]string{"tune", "--k", "0"}, "--k 0"},
		{[]string{"tune", "extra"}, `unexpected argument "extra"`},
		{[]string{"tune", "--shared", "/nonexistent"}, "judgments-dev.csv"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run(context.Background(), tc.args, &out, &errOut)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// rateProbe is one probe of aisle bench's rate search, as it logs it.
type rateProbe struct {
	rate  string // as logged, %.0f
	p99ms float64
	errs  int
	held  bool
}

var (
	httpClassRE = regexp.MustCompile(`^class \d+ \((.+)\): HTTP, `)
	rateProbeRE = regexp.MustCompile(`^  (\d+)/s: p99 ([0-9.]+)ms, (\d+) errors: (held|missed)$`)
)

// rateProbes reads each class's rate search probes from aisle bench's
// progress log.
func rateProbes(log string) map[string][]rateProbe {
	out := map[string][]rateProbe{}
	class := ""
	for line := range strings.Lines(log) {
		line = strings.TrimRight(line, "\n")
		if m := httpClassRE.FindStringSubmatch(line); m != nil {
			class = m[1]
		} else if m := rateProbeRE.FindStringSubmatch(line); m != nil && class != "" {
			p99, _ := strconv.ParseFloat(m[2], 64)
			errs, _ := strconv.Atoi(m[3])
			out[class] = append(out[class], rateProbe{m[1], p99, errs, m[4] == "held"})
		}
	}
	return out
}

// TestBenchDemo runs the whole command on a tiny generated catalog: build,
// in-process searches, HTTP load on loopback, table and JSON report. It
// checks the report's structure and its figures against each other, never
// against wall-clock bounds: percentiles in order, the rate search's
// answer the highest rate its logged probes held, under the p99 limit,
// and the last probe at half of it.
func TestBenchDemo(t *testing.T) {
	report := filepath.Join(t.TempDir(), "report.json")
	t.Setenv("AISLE_TEST_AS_MAIN", "1") // for the serve process
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"bench", "--products", "300", "--concurrency", "2", "--duration", "100ms", "--queries", "50", "--json", report}, &out, &errOut)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "300 products") || !strings.Contains(out.String(), "words+filters+facets") || !strings.Contains(out.String(), "healthz p50") {
		t.Fatalf("table:\n%s", out.String())
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var rep bench.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	im := rep.Import
	if rep.Products != 300 || len(rep.Classes) != len(bench.Classes) || rep.Concurrent != 2 || im.Products != 300 || rep.P99LimitMs != 20 || rep.HTTPSeconds != 0.1 {
		t.Fatalf("report %+v", rep)
	}
	if rep.Serve.RSSBytes <= 0 || rep.Serve.LoadSeconds <= 0 || !strings.Contains(out.String(), "aisle serve on it") {
		t.Fatalf("serve process: %+v", rep.Serve)
	}
	if im.JSONBytes < 300*200 || im.DiskBytes <= 0 || im.RSSBytes <= 0 || im.TotalPerSec <= 0 || im.FeedSeconds+im.IndexSeconds > im.TotalSeconds*1.01 {
		t.Fatalf("import %+v", im)
	}
	probes := rateProbes(errOut.String())
	for _, c := range expect.Some(t, "classes", rep.Classes) {
		ip := c.InProcess
		if ip.QPS <= 0 || ip.P50us <= 0 || ip.P95us < ip.P50us || ip.P99us < ip.P95us {
			t.Errorf("class %s in process: %+v", c.Class, ip)
		}
		if c.HTTPQPS <= 0 || c.Requests <= 0 || c.Errors != 0 || c.HTTPP50ms <= 0 || c.HTTPP95ms < c.HTTPP50ms || c.HTTPP99ms < c.HTTPP95ms || c.HealthP50us <= 0 {
			t.Errorf("class %s over HTTP: %+v", c.Class, c)
		}
		// The rate search ran and logged its probes; its answer is the
		// highest rate held before the last probe, which measured half of
		// it. A rate is held with no errors and p99 under the limit.
		ps := expect.AtLeast(t, "rate probes of class "+c.Class, 2, probes[c.Class])
		search, half := ps[:len(ps)-1], ps[len(ps)-1]
		if len(search) > 1 && !half.held && search[len(search)-1].rate == half.rate && !search[len(search)-1].held {
			search, half = search[:len(search)-1], search[len(search)-1] // the half run's retry
		}
		highest := 0.0
		for _, p := range search {
			if p.held && (p.errs != 0 || p.p99ms > rep.P99LimitMs) { // logged rounded to 0.01 ms
				t.Errorf("class %s: probe %+v held over the %vms limit", c.Class, p, rep.P99LimitMs)
			}
			if r, _ := strconv.ParseFloat(p.rate, 64); p.held && r > highest {
				highest = r
			}
		}
		switch {
		case fmt.Sprintf("%.0f", c.MaxRate) != fmt.Sprintf("%.0f", highest):
			t.Errorf("class %s: max rate %.0f/s, but the probes held up to %.0f/s: %+v", c.Class, c.MaxRate, highest, ps)
		case c.MaxRate > 0 && (c.MaxRateP99ms <= 0 || c.MaxRateP99ms >= rep.P99LimitMs):
			t.Errorf("class %s: p99 %vms at the max rate, limit %vms", c.Class, c.MaxRateP99ms, rep.P99LimitMs)
		case c.MaxRate > 0 && (half.rate != fmt.Sprintf("%.0f", c.MaxRate/2) || c.HalfP50ms <= 0 || c.HalfP99ms < c.HalfP50ms):
			t.Errorf("class %s: half of %.0f/s measured at %s/s: p50 %vms, p99 %vms", c.Class, c.MaxRate, half.rate, c.HalfP50ms, c.HalfP99ms)
		case c.MaxRate == 0 && (c.HalfP50ms != 0 || c.HalfP99ms != 0 || half.held):
			t.Errorf("class %s: nothing held, yet %+v", c.Class, c)
		}
	}
}

// TestFindPeers finds the peers module from inside the checkout and says
// how to run it from outside one.
func TestFindPeers(t *testing.T) {
	dir, err := findPeers()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "cmd", "peerbench", "main.go")); err != nil {
		t.Fatalf("found %s, which holds no peerbench: %v", dir, err)
	}
	t.Chdir(t.TempDir())
	if _, err := findPeers(); err == nil || !strings.Contains(err.Error(), "cd bench/peers") {
		t.Fatalf("outside a checkout: %v", err)
	}
}

// liveLineRE are aisle bench --live's report lines, with the figures a
// run must fill.
var liveLineRE = []*regexp.Regexp{
	regexp.MustCompile(`single-product updates: 5 of 5 in the 20s budget; visible to search p50 \d+ms, p99 \d+ms`),
	regexp.MustCompile(`sustained writes of 50 products \(paced to 1000/s\) for 300ms: [1-9]\d* updates/s; class-3 search p99 [\d.]+ms alone, [\d.]+ms beside the writes \([\d.]+×, 0 errors\)`),
	regexp.MustCompile(`a partial update of 300 products: searchable in [\d.]+s`),
	regexp.MustCompile(`new products, one at a time: 5; found by search p50 \d+ms, p99 \d+ms; their deletes gone p50 \d+ms, p99 \d+ms`),
	regexp.MustCompile(`restart after the writes: answering in [\d.]+s`),
}

// TestBenchLive: aisle bench --live runs its phases against a real
// aisle serve and reports each (their targets are in
// docs/benchmarks.md).
func TestBenchLive(t *testing.T) {
	t.Setenv("AISLE_TEST_AS_MAIN", "1") // for the serve process
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"bench", "--live", "--products", "300", "--updates", "5", "--duration", "300ms", "--queries", "20", "--live-budget", "20s", "--write-batch", "50", "--write-rate", "1000"}, &out, &errOut)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	for _, re := range liveLineRE {
		if !re.MatchString(out.String()) {
			t.Errorf("no line like %q in:\n%s", re, out.String())
		}
	}
	// Paced to 1,000 a second, the writes never ran at twice that.
	if m := regexp.MustCompile(`for 300ms: (\d+) updates/s`).FindStringSubmatch(out.String()); m != nil {
		if rate, _ := strconv.Atoi(m[1]); rate > 2000 {
			t.Errorf("writes paced to 1000/s ran at %d/s", rate)
		}
	}
}

// TestBenchHostile: aisle bench --hostile sends every hostile body to a
// real aisle serve and reports, for each, an answer (never a 5xx) and
// the server's CPU a request, in the table and the JSON report.
func TestBenchHostile(t *testing.T) {
	report := filepath.Join(t.TempDir(), "report.json")
	t.Setenv("AISLE_TEST_AS_MAIN", "1") // for the serve process
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"bench", "--products", "300", "--hostile", "--hostile-rounds", "2", "--json", report}, &out, &errOut)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "server CPU/request") || !strings.Contains(out.String(), "recoms: 2,000 requests of a billion") {
		t.Fatalf("table:\n%s", out.String())
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var rep bench.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	bodies := bench.HostileBodies("u", "k", "p", "b", "pn")
	if len(rep.Hostile) != len(bodies) {
		t.Fatalf("%d results for %d bodies", len(rep.Hostile), len(bodies))
	}
	for i, r := range rep.Hostile {
		if r.Name != bodies[i].Name || r.Status < 200 || r.Status >= 500 || r.CPUms < 0 || r.P50ms <= 0 || r.MaxMs < r.P50ms {
			t.Errorf("%+v", r)
		}
	}
}

// TestWaitReady: the bench waits for /readyz, not /healthz, which a
// loading server already answers.
func TestWaitReady(t *testing.T) {
	var ready atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/healthz":
			w.Write([]byte(`{"success":true}`))
		case r.URL.Path == "/readyz" && ready.Load():
			w.Write([]byte(`{"ready":true}`))
		default:
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	done := make(chan error, 1)
	go func() { done <- waitReady(srv.URL, nil, time.Minute) }()
	select {
	case err := <-done:
		t.Fatalf("waitReady returned (%v) while /readyz answered 503", err)
	case <-time.After(300 * time.Millisecond):
	}
	ready.Store(true)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	close(exited)
	ready.Store(false)
	if err := waitReady(srv.URL, exited, time.Minute); !errors.Is(err, errExited) {
		t.Errorf("a server that exited: %v, want errExited", err)
	}
}
