package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/aisle-search/aisle/bench"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/demo"
)

// The soak's load beside the mix.
const (
	soakLoadShare     = 0.8                    // of the mix's highest rate
	soakWriteEvery    = 500 * time.Millisecond // a partial update of soakWriteProducts
	soakWriteProducts = 10
	soakImportAt      = 0.1 // of the soak: when the feed import starts
	soakProgressEvery = 10 * time.Second
)

// errSoakFailed is a soak that ran and failed its rule: a request failed
// or the resident set was still growing.
var errSoakFailed = errors.New("soak failed")

// soakWindow is the width of the soak's rows: a minute, or ten seconds
// in a soak under five minutes.
func soakWindow(d time.Duration) time.Duration {
	if d < 5*time.Minute {
		return 10 * time.Second
	}
	return time.Minute
}

// soakRSSEvery is how often the soak samples the resident set: about
// 120 samples over the soak, at least a second and at most five apart.
func soakRSSEvery(d time.Duration) time.Duration {
	return min(max(d/120, time.Second), 5*time.Second)
}

// soakServer is the server a soak loads, and how its resident set is
// read.
type soakServer struct {
	url, adminKey string
	rssSource     string
	rss           func() (int64, error)
	proc          *serveProc // nil with --url
	tmp           string     // the temporary data directory, removed at close
}

// close stops the child and removes its temporary directory.
func (s *soakServer) close() {
	if s.proc != nil {
		s.proc.close()
	}
	if s.tmp != "" {
		os.RemoveAll(s.tmp)
	}
}

// runSoak is aisle bench --soak: the demo catalog in a fresh data
// directory served by a child aisle serve (or the server at --url), the
// mix's highest rate measured closed-loop for --duration, then the mix
// open-loop at soakLoadShare of it for --soak with the writes and a feed
// import beside it; printed window by window, written as JSON (--json)
// and as a curve of the resident set (--svg). It fails (errSoakFailed)
// on any failed request or a resident set still growing in the last
// third (bench.ResidentGrowth).
func runSoak(ctx context.Context, stdout, stderr io.Writer, log *slog.Logger, f *benchFlags) error {
	stderr = &lockedWriter{w: stderr} // the load's goroutines report to it side by side
	rep := bench.Report{Catalog: "demo", Products: f.products, Concurrent: f.concurrency,
		Machine:     fmt.Sprintf("%s/%s, %d cores", runtime.GOOS, runtime.GOARCH, runtime.NumCPU()),
		HTTPSeconds: f.duration.Seconds()}
	srv, err := startSoakServer(ctx, stderr, log, f, &rep)
	if err != nil {
		return err
	}
	defer srv.close()
	cat, err := loadSoakCatalog(f.products)
	if err != nil {
		return err
	}
	schedule, shares, of := soakSchedule(cat)
	s := &bench.SoakReport{Seconds: f.soak.Seconds(), Connections: f.concurrency, MaxRateSeconds: f.duration.Seconds(),
		LoadShare: soakLoadShare, Mix: shares, MixOf: of, WriteEverySeconds: soakWriteEvery.Seconds(), WriteProducts: soakWriteProducts,
		WindowSeconds: soakWindow(f.soak).Seconds(), RSSSource: srv.rssSource, RSSEverySeconds: soakRSSEvery(f.soak).Seconds()}
	rep.Soak = s

	fmt.Fprintf(stderr, "soak: the mix's highest rate, closed loop over %d connections for %s…\n", f.concurrency, f.duration)
	probe := bench.NewTally(time.Now(), f.duration)
	if s.MaxRate, err = bench.RunMixed(ctx, bench.MixedOptions{URL: srv.url, Schedule: schedule, Connections: f.concurrency, Duration: f.duration}, probe); err != nil {
		return err
	}
	if n, errs := probe.Errors(); n > 0 {
		return fmt.Errorf("bench: soak: %d requests failed in the closed-loop run; the first:\n%s", n, soakErrorLines(errs))
	}
	s.Rate = soakLoadShare * s.MaxRate
	fmt.Fprintf(stderr, "soak: %.0f requests/s at most; now %.0f/s (%.0f%%) for %s, open loop over %d connections…\n",
		s.MaxRate, s.Rate, 100*soakLoadShare, f.soak, f.concurrency)
	if err := soak(ctx, stderr, srv, cat, schedule, f, s); err != nil {
		return err
	}
	printSoak(stdout, &rep)
	if err := writeReport(f.jsonOut, &rep); err != nil {
		return err
	}
	if f.svgOut != "" {
		title := fmt.Sprintf("aisle serve's resident set, soak of %s at %.0f requests/s: demo catalog, %s products", f.soak, s.Rate, strconv.Itoa(f.products))
		if err := os.WriteFile(f.svgOut, bench.SoakChart(title, s), 0o644); err != nil {
			return fmt.Errorf("bench: write the chart: %w", err)
		}
	}
	if !s.Passed {
		return fmt.Errorf("bench: %w: %d failed requests; %s", errSoakFailed, s.Failures, s.Growth)
	}
	return nil
}

// startSoakServer is the server at --url, or a child aisle serve on a
// fresh data directory (--data, or a temporary one) seeded with the
// demo catalog of f.products products and its visitors' behaviour.
func startSoakServer(ctx context.Context, stderr io.Writer, log *slog.Logger, f *benchFlags, rep *bench.Report) (*soakServer, error) {
	if f.url != "" {
		srv := &soakServer{url: strings.TrimRight(f.url, "/"), adminKey: f.adminKey, rssSource: "process_resident_memory_bytes of the server's /metrics"}
		srv.rss = func() (int64, error) { return scrapeRSS(ctx, srv.url, srv.adminKey) }
		if _, err := srv.rss(); err != nil {
			return nil, fmt.Errorf("bench: --url %s: %w", f.url, err)
		}
		return srv, nil
	}
	dir, tmp := f.data, ""
	if dir == "" {
		var err error
		if tmp, err = os.MkdirTemp("", "aisle-soak-"); err != nil {
			return nil, err
		}
		dir = tmp
	}
	p, err := seedAndServe(ctx, stderr, log, dir, f.products)
	if err != nil {
		if tmp != "" {
			os.RemoveAll(tmp)
		}
		return nil, err
	}
	pid := p.cmd.Process.Pid
	rep.Serve = bench.ServeReport{LoadSeconds: p.load.Seconds(), RSSBytes: bench.SettledRSS(pid, 5*time.Second)}
	return &soakServer{url: p.url, adminKey: "bench", proc: p, tmp: tmp, rssSource: "VmRSS of the aisle serve child (/proc/PID/status)",
		rss: func() (int64, error) {
			if n := bench.ProcessRSS(pid); n > 0 {
				return n, nil
			}
			return 0, fmt.Errorf("no resident set in /proc/%d/status: the server has exited", pid)
		}}, nil
}

// seedAndServe seeds dir with the demo catalog of n products, as aisle
// demo does (a directory that holds a catalog is served as it is), and
// starts aisle serve on it.
func seedAndServe(ctx context.Context, stderr io.Writer, log *slog.Logger, dir string, n int) (*serveProc, error) {
	fmt.Fprintf(stderr, "soak: the demo catalog of %d products into %s…\n", n, dir)
	st, err := openStore(dir, log)
	if err != nil {
		return nil, err
	}
	if err := seedDemo(st, n, "en", nil, log); err != nil {
		st.Close()
		return nil, err
	}
	if err := st.Close(); err != nil {
		return nil, err
	}
	p, err := startServe(ctx, dir, stderr)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	return p, nil
}

// scrapeRSS reads process_resident_memory_bytes from the server's
// /metrics.
func scrapeRSS(ctx context.Context, url, adminKey string) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/metrics", nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+adminKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, fmt.Errorf("the resident set from /metrics: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		return 0, fmt.Errorf("the resident set from /metrics: %s answered %d: %s", url, resp.StatusCode, b)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "process_resident_memory_bytes "); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return 0, fmt.Errorf("the resident set from /metrics: %q: %w", sc.Text(), err)
			}
			return int64(f), nil
		}
	}
	return 0, errors.New("the resident set from /metrics: no process_resident_memory_bytes")
}

// soak runs the mix open-loop at s.Rate for f.soak with the writes, the
// feed import, the resident set's samples and the progress lines beside
// it, and fills in s.
func soak(ctx context.Context, stderr io.Writer, srv *soakServer, cat *soakCatalog, schedule []bench.SoakRequest, f *benchFlags, s *bench.SoakReport) error {
	start := time.Now()
	end := start.Add(f.soak)
	t := bench.NewTally(start, soakWindow(f.soak))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu      sync.Mutex
		samples []bench.RSSSample
		rssErr  error
		wg      sync.WaitGroup
	)
	sample := func() int64 {
		n, err := srv.rss()
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			rssErr = cmp.Or(rssErr, err)
			return 0
		}
		samples = append(samples, bench.RSSSample{Seconds: time.Since(start).Seconds(), Bytes: n})
		return n
	}
	sample()
	wg.Go(func() { // the resident set, until the end
		every := soakRSSEvery(f.soak)
		for k := 1; ; k++ {
			at := start.Add(time.Duration(k) * every)
			if at.After(end) {
				return
			}
			if !sleepUntil(ctx, at) {
				return
			}
			sample()
		}
	})
	wg.Go(func() { soakWrites(ctx, srv, cat, start, end, t) })
	wg.Go(func() { // the feed import
		at := start.Add(time.Duration(soakImportAt * float64(f.soak)))
		if !sleepUntil(ctx, at) {
			return
		}
		im := soakImport(ctx, srv, f.products, at, t)
		mu.Lock()
		im.AtSeconds = at.Sub(start).Seconds()
		s.Imports = append(s.Imports, im)
		mu.Unlock()
		fmt.Fprintf(stderr, "soak: feed import of %d products in %d batches took %.1fs\n", im.Products, im.Batches, im.Seconds)
	})
	wg.Go(func() { // progress
		for k := 1; ; k++ {
			if !sleepUntil(ctx, start.Add(time.Duration(k)*soakProgressEvery)) || time.Now().After(end) {
				return
			}
			answered, failed, p99 := t.Recent()
			mu.Lock()
			rss := int64(0)
			if len(samples) > 0 {
				rss = samples[len(samples)-1].Bytes
			}
			mu.Unlock()
			fmt.Fprintf(stderr, "soak %s of %s: %d answered, %d failed, p99 %.2fms in the last %s, RSS %.0f MB\n",
				time.Since(start).Round(time.Second), f.soak, answered, failed, bench.Millis(p99), soakProgressEvery, float64(rss)/1e6)
		}
	})
	_, err := bench.RunMixed(ctx, bench.MixedOptions{URL: srv.url, Schedule: schedule, Connections: f.concurrency, Duration: f.soak, Rate: s.Rate}, t)
	if err == nil && time.Now().Before(end) {
		err = ctx.Err()
	}
	if err != nil {
		cancel()
		wg.Wait()
		return err
	}
	wg.Wait() // the writes and the samples end at the end; an import still running is waited for
	sample()
	if rssErr != nil {
		return fmt.Errorf("bench: soak: %w", rssErr)
	}
	s.RSS = samples
	s.Windows, s.Total = t.Windows(end, samples)
	s.Kinds = t.Kinds()
	s.Failures, s.Errors = t.Errors()
	g, err := bench.ResidentGrowth(samples, f.soak.Seconds())
	if err != nil {
		return fmt.Errorf("bench: soak: %w", err)
	}
	s.Growth = g
	s.Passed = s.Failures == 0 && !g.Growing
	return nil
}

// soakWrites sends a partial update of soakWriteProducts products (a
// new price, and the stock) every soakWriteEvery from start until end,
// each counted in t by when it was due.
func soakWrites(ctx context.Context, srv *soakServer, cat *soakCatalog, start, end time.Time, t *bench.Tally) {
	url := srv.url + "/admin/v1/websites/" + config.DemoUUID + "/products?partial=true"
	for k := 0; ; k++ {
		due := start.Add(time.Duration(k) * soakWriteEvery)
		if !due.Before(end) || !sleepUntil(ctx, due) {
			return
		}
		var body bytes.Buffer
		for j := range soakWriteProducts {
			i := (k*soakWriteProducts + j) * 7919 % len(cat.numbers)
			fmt.Fprintf(&body, `{"productNumber":%q,"price":%d.%02d,"inStock":%t}`+"\n", cat.numbers[i], 5+(k+j)%200, (k*j)%100, (k+j)%5 != 0)
		}
		status, answer, err := post(ctx, url, srv.adminKey, "application/x-ndjson", body.Bytes())
		switch {
		case err != nil:
			t.Failed("admin write", due, 0, err.Error())
		case status/100 != 2:
			t.Failed("admin write", due, status, answer)
		default:
			t.Wrote(due)
		}
	}
}

// soakImport pushes every product of the demo catalog of n products to
// the server, each priced a unit more than the catalog has it, as a
// shop's nightly feed of the whole catalog would come: through the admin
// API in batches (aisle import --url). A batch the server refuses is
// counted in t as failed, and ends the import.
func soakImport(ctx context.Context, srv *soakServer, n int, at time.Time, t *bench.Tally) bench.SoakImport {
	p := newPusher(ctx, srv.url, srv.adminKey, config.DemoUUID)
	err := demo.Each(n, demoSeed, func(prod *catalog.Product) error {
		prod.Price++
		prod.PriceFormatted = ""
		return p.put(prod)
	})
	if err == nil {
		err = p.flush()
	}
	if err != nil {
		t.Failed("feed import", at, 0, err.Error())
	}
	return bench.SoakImport{Seconds: time.Since(at).Seconds(), Products: p.totals.Products, Batches: p.totals.Chunks}
}

// post sends body to url with the admin key and returns the status and
// at most 300 bytes of the answer.
func post(ctx context.Context, url, adminKey, contentType string, body []byte) (int, string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Authorization", "Bearer "+adminKey)
	req.Header.Set("Content-Type", contentType)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, string(b), nil
}

// sleepUntil waits until t, false when ctx ends first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// soakErrorLines is the failures, one a line, indented.
func soakErrorLines(errs []bench.SoakError) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "  %s\n", e)
	}
	return b.String()
}

// printSoak prints a soak's report: the load, each window, the whole
// run, each kind of request, the first failures and the verdict.
func printSoak(out io.Writer, r *bench.Report) {
	s := r.Soak
	fmt.Fprintf(out, "\nAisle on %s: demo catalog, %d products; soak of %s\n", r.Machine, r.Products, time.Duration(s.Seconds*float64(time.Second)))
	var mix []string
	for _, m := range s.Mix {
		mix = append(mix, fmt.Sprintf("%d %s", m.Count, m.Kind))
	}
	fmt.Fprintf(out, "mix, of every %d requests: %s\n", s.MixOf, strings.Join(mix, ", "))
	fmt.Fprintf(out, "highest rate (closed loop, %d connections, %.0fs): %.0f/s; the soak at %.0f%% of it: %.0f/s open loop, latency from each request's due time\n",
		s.Connections, s.MaxRateSeconds, s.MaxRate, 100*s.LoadShare, s.Rate)
	fmt.Fprintf(out, "beside it: a partial update of %d products (price, stock) every %s", s.WriteProducts, time.Duration(s.WriteEverySeconds*float64(time.Second)))
	for _, im := range s.Imports {
		fmt.Fprintf(out, "; a feed import of %d products in %d batches at %.0fs, %.1fs long", im.Products, im.Batches, im.AtSeconds, im.Seconds)
	}
	fmt.Fprintf(out, "\nresident set: %s, every %.0fs\n", s.RSSSource, s.RSSEverySeconds)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "from\trequests\terrors\twrites\tp50\tp99\tRSS max\t\n")
	row := func(label string, w bench.SoakWindow) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.2fms\t%.2fms\t%.0f MB\t\n", label, w.Requests, w.Errors, w.Writes, w.P50ms, w.P99ms, float64(w.RSSBytes)/1e6)
	}
	for _, w := range s.Windows {
		row(time.Duration(w.FromSeconds*float64(time.Second)).String(), w)
	}
	row("all", s.Total)
	tw.Flush()
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "kind\trequests\terrors\tp50\tp99\t\n")
	for _, k := range s.Kinds {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.2fms\t%.2fms\t\n", k.Kind, k.Requests, k.Errors, k.P50ms, k.P99ms)
	}
	tw.Flush()
	if s.Failures > 0 {
		fmt.Fprintf(out, "%d requests failed; the first %d:\n%s", s.Failures, len(s.Errors), soakErrorLines(s.Errors))
	}
	fmt.Fprintf(out, "resident set, %s\n", s.Growth)
	verdict, growing := "PASS", "not growing"
	if !s.Passed {
		verdict = "FAIL"
	}
	if s.Growth.Growing {
		growing = "still growing"
	}
	fmt.Fprintf(out, "%s: %d failed requests, resident set %s\n", verdict, s.Failures, growing)
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
