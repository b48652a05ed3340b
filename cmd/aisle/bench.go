package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/goccy/go-json"

	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/bench"
	"github.com/aisle-search/aisle/engine"
)

// serverSharePairs is how many /healthz and search pairs measure each
// class's server share.
const serverSharePairs = 2000

// runBench is aisle bench: the suite imported into a data directory, a
// real `aisle serve` started on it, then each query class measured in
// process and over HTTP, printed and written as JSON (--json); or,
// instead of the classes, the writes (--live), event ingestion
// (--events) or the hostile bodies (--hostile) against that server; or
// the peer comparison (--engines), which bench/peers runs; or the soak
// (--soak, runSoak). aisle bench report renders the saved reports into
// docs/benchmarks.md.
func runBench(ctx context.Context, args []string, stdout, stderr io.Writer, log *slog.Logger) error {
	if len(args) > 0 && args[0] == "report" {
		return runBenchReport(args[1:], stdout, stderr)
	}
	f, err := parseBenchFlags(args, stderr)
	if err != nil {
		return err
	}
	if f.peers() {
		return runPeerBench(ctx, stdout, stderr, f.peerArgs())
	}
	if f.soak > 0 {
		return runSoak(ctx, stdout, stderr, log, &f)
	}
	suite, err := bench.LoadSuite(f.catalog, f.products, f.shared)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	dir := f.data
	if dir == "" {
		tmp, err := os.MkdirTemp("", "aisle-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	fmt.Fprintf(stderr, "importing the %s catalog into %s…\n", f.catalog, dir)
	g, st, imp, err := bench.Import(ctx, dir, suite, log, func(done int) {
		if done%100000 == 0 {
			fmt.Fprintf(stderr, "  %d products fed\n", done)
		}
	})
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	// The generation is in memory; the serve process needs the directory.
	if err := st.Close(); err != nil {
		return err
	}
	rep := bench.Report{Catalog: f.catalog, Products: g.Products.Len(), Import: imp, Concurrent: f.concurrency,
		Machine:    fmt.Sprintf("%s/%s, %d cores", runtime.GOOS, runtime.GOARCH, runtime.NumCPU()),
		P99LimitMs: bench.Millis(f.p99), HTTPSeconds: f.duration.Seconds()}

	if f.replicas {
		return runReplicasBench(ctx, stdout, stderr, &rep, g, suite, dir, &f)
	}
	// The HTTP runs load a real `aisle serve` on the imported directory,
	// in its own process: its memory is the server's alone, and the load
	// generator's work does not share its runtime.
	srv, err := startServe(ctx, dir, stderr)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	defer srv.close()
	rep.Serve = bench.ServeReport{LoadSeconds: srv.load.Seconds(), RSSBytes: bench.SettledRSS(srv.cmd.Process.Pid, 5*time.Second)}
	if imp.JSONBytes > 0 {
		rep.Serve.RSSOverJSON = float64(rep.Serve.RSSBytes) / float64(imp.JSONBytes)
	}
	switch {
	case f.events:
		return runEventsBench(ctx, stdout, stderr, &rep, g, suite, srv, f.concurrency, f.eventBatch, f.duration)
	case f.hostile:
		return runHostileBench(ctx, stdout, stderr, &rep, g, suite, srv, f.hostileRounds, f.jsonOut)
	case f.live:
		return runLiveBench(ctx, stdout, stderr, &rep, g, suite, dir, srv, &f)
	}

	// The steady state: the lists Open and Import warm in the background
	// are built (searches meanwhile are scored exhaustively).
	warm := time.Now()
	for g.Warming() && ctx.Err() == nil {
		time.Sleep(50 * time.Millisecond)
	}
	fmt.Fprintf(stderr, "impact lists and term weights built (waited %.1fs)\n", time.Since(warm).Seconds())
	aisle := bench.AisleSearcher(g)
	queries := suite.Queries(g)
	for _, c := range suite.Classes {
		reqs, err := bench.Requests(g, suite.Key, queries, c, f.queries, uint64(c))
		if err != nil {
			return err
		}
		cr, err := measureClass(ctx, &f, c, aisle, reqs, srv, stderr)
		if err != nil {
			return err
		}
		rep.Classes = append(rep.Classes, cr)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if suite.Judgments != nil {
		if rep.NDCG, rep.NDCGTerms, err = bench.NDCG(suite.Judgments, 10, bench.SearchNumbers(g, suite.Key)); err != nil {
			return fmt.Errorf("bench: %w", err)
		}
	}
	printReport(stdout, &rep)
	return writeReport(f.jsonOut, &rep)
}

// measureClass measures one query class over its requests: in process
// (aisle, f.rounds passes), then against the server: closed loop over
// f.concurrency connections for f.duration, the server's share of a
// search, and with f.rateSearch the highest open-loop rate whose p99
// stays under f.p99, and half that rate.
func measureClass(ctx context.Context, f *benchFlags, c bench.Class, aisle bench.Searcher, reqs []bench.Request, srv *serveProc, stderr io.Writer) (bench.ClassReport, error) {
	fmt.Fprintf(stderr, "class %d (%s): in process…\n", c, c)
	res, err := bench.Compare([]bench.Searcher{aisle}, c, reqs, f.rounds)
	if err != nil {
		return bench.ClassReport{}, err
	}
	cr := bench.ClassReport{Class: c.String(), InProcess: res[0]}
	bodies := make([][]byte, len(reqs))
	for i, r := range reqs {
		bodies[i] = r.Body
	}
	url := srv.url + "/serve/search"
	fmt.Fprintf(stderr, "class %d (%s): HTTP, %d connections for %s…\n", c, c, f.concurrency, f.duration)
	lr, err := bench.Load(ctx, bench.LoadOptions{URL: url, Bodies: bodies, Concurrency: f.concurrency, Duration: f.duration})
	if err != nil {
		return cr, err
	}
	if lr.Errors > 0 && lr.Errors == lr.Requests {
		return cr, fmt.Errorf("bench: class %s: all %d HTTP requests failed; the server said:\n%s", c, lr.Requests, srv.out.String())
	}
	cr.HTTPQPS, cr.HTTPP50ms, cr.HTTPP95ms, cr.HTTPP99ms = lr.QPS, bench.Millis(lr.P50), bench.Millis(lr.P95), bench.Millis(lr.P99)
	cr.Requests, cr.Errors = lr.Requests, lr.Errors
	share, err := bench.MeasureServerShare(ctx, url, bodies, serverSharePairs)
	if err != nil {
		return cr, fmt.Errorf("bench: class %s: %w", c, err)
	}
	cr.ServerShareUs = float64(share.Share) / float64(time.Microsecond)
	cr.HealthP50us = float64(share.Health) / float64(time.Microsecond)
	if !f.rateSearch || lr.QPS <= 0 {
		return cr, nil
	}
	// Open loop needs more connections than closed: a late answer must
	// not hold back the next request's send.
	opt := bench.LoadOptions{URL: url, Bodies: bodies, Concurrency: max(4*f.concurrency, 32), Duration: f.duration}
	rs, err := bench.FindMaxRate(ctx, opt, lr.QPS/2, f.p99, func(r float64, res bench.LoadResult, held bool) {
		verdict := "held"
		if !held {
			verdict = "missed"
		}
		fmt.Fprintf(stderr, "  %.0f/s: p99 %.2fms, %d errors: %s\n", r, bench.Millis(res.P99), res.Errors, verdict)
	})
	if err != nil {
		return cr, err
	}
	cr.MaxRate, cr.MaxRateP99ms = rs.MaxRate, bench.Millis(rs.AtMax.P99)
	cr.HalfP50ms, cr.HalfP99ms = bench.Millis(rs.AtHalf.P50), bench.Millis(rs.AtHalf.P99)
	return cr, nil
}

// writeReport writes rep as indented JSON to path, ending in a newline;
// an empty path writes nothing.
func writeReport(path string, rep *bench.Report) error {
	if path == "" {
		return nil
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return fmt.Errorf("bench: encode the report: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("bench: write the report: %w", err)
	}
	return nil
}

// serveProc is an `aisle serve` child process.
type serveProc struct {
	cmd     *exec.Cmd
	url     string
	start   time.Time
	load    time.Duration // from start until /readyz answered 200
	out     *strings.Builder
	exited  chan struct{} // closed when the process has ended
	waitErr error         // the process's end, once exited is closed
}

// startServe runs this executable's serve command on dir, on a free
// loopback port, and waits until it is ready (/readyz answers 200: it
// listens while it loads).
func startServe(ctx context.Context, dir string, stderr io.Writer) (*serveProc, error) {
	p, err := launchServe(ctx, dir, stderr)
	if err != nil {
		return nil, err
	}
	return p, p.ready(10 * time.Minute)
}

// launchServe starts this executable's serve command on dir with more
// flags, on a free loopback port, and does not wait: ready does.
func launchServe(ctx context.Context, dir string, stderr io.Writer, flags ...string) (*serveProc, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	p := &serveProc{url: "http://" + addr, out: &strings.Builder{}, start: time.Now()}
	// The bench is one client measuring the server: no rate limit.
	p.cmd = exec.CommandContext(ctx, exe, append([]string{"serve", "--data", dir, "--addr", addr, "--admin-key", "bench", "--rate-collect", "0"}, flags...)...)
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	fmt.Fprintf(stderr, "starting aisle serve on %s…\n", addr)
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start aisle serve: %w", err)
	}
	p.exited = make(chan struct{})
	go func() { p.waitErr = p.cmd.Wait(); close(p.exited) }()
	return p, nil
}

// ready waits up to limit until the server answers /readyz with 200,
// and notes how long it took since it started.
func (p *serveProc) ready(limit time.Duration) error {
	if err := waitReady(p.url, p.exited, limit); err != nil {
		select {
		case <-p.exited:
			return fmt.Errorf("aisle serve exited (%v) before answering:\n%s", p.waitErr, p.out.String())
		default:
		}
		p.cmd.Process.Kill()
		return err
	}
	p.load = time.Since(p.start)
	return nil
}

// errExited is waitReady's server that ended first.
var errExited = errors.New("the server exited")

// waitReady polls url's /readyz until it answers 200 (the server has
// loaded; /healthz answers while it loads), the server exits (exited is
// closed: errExited) or limit passes.
func waitReady(url string, exited <-chan struct{}, limit time.Duration) error {
	start := time.Now()
	for {
		select {
		case <-exited:
			return errExited
		case <-time.After(20 * time.Millisecond):
		}
		if code, _, err := fasthttp.GetTimeout(nil, url+"/readyz", time.Second); err == nil && code == fasthttp.StatusOK {
			return nil
		}
		if time.Since(start) > limit {
			return fmt.Errorf("aisle serve was not ready within %s", limit)
		}
	}
}

// stop ends the server.
func (p *serveProc) stop() {
	p.cmd.Process.Signal(syscall.SIGTERM) //nolint:errcheck // it may be gone
}

// close stops the server and waits for it to exit, killing it when it
// has not a minute after SIGTERM: the caller removes its directory next,
// and a server left behind outlives the bench (and a test) holding it.
func (p *serveProc) close() {
	p.stop()
	if p.wait() != nil {
		p.cmd.Process.Kill() //nolint:errcheck // it may be gone
		<-p.exited
	}
}

// wait waits up to a minute for the server to exit after stop.
func (p *serveProc) wait() error {
	select {
	case <-p.exited:
		return nil
	case <-time.After(time.Minute):
		return errors.New("still running a minute after SIGTERM")
	}
}

// runPeerBench runs the bench/peers module's peerbench from the checkout
// the working directory is in: the peers are a module of their own so
// Aisle's does not depend on them.
func runPeerBench(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	dir, err := findPeers()
	if err != nil {
		return err
	}
	var pass []string
	for i := 0; i < len(args); i += 2 {
		if args[i+1] != "" {
			pass = append(pass, args[i]+"="+args[i+1])
		}
	}
	fmt.Fprintf(stderr, "running the peer comparison: (cd %s && go run ./cmd/peerbench %s)\n", dir, strings.Join(pass, " "))
	cmd := exec.CommandContext(ctx, "go", append([]string{"run", "./cmd/peerbench"}, pass...)...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, stdout, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("bench: peerbench: %w", err)
	}
	return nil
}

// findPeers finds bench/peers above the working directory.
func findPeers() (string, error) {
	mod, err := findAbove(filepath.Join("bench", "peers", "go.mod"))
	if err != nil {
		return "", errors.New("bench: the peer engines live in the bench/peers module of an Aisle checkout; run aisle bench inside the checkout, or: cd bench/peers && go run ./cmd/peerbench --help")
	}
	return filepath.Dir(mod), nil
}

// findAbove finds rel, a path relative to a checkout's root, in the
// working directory or the nearest directory above it that holds it.
func findAbove(rel string) (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		p := filepath.Join(d, rel)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no %s in or above %s", rel, wd)
		}
	}
}

func printReport(out io.Writer, r *bench.Report) {
	im := &r.Import
	fmt.Fprintf(out, "\nAisle on %s: %s catalog, %d products (%.0f MB of JSON)\n", r.Machine, r.Catalog, r.Products, float64(im.JSONBytes)/1e6)
	fmt.Fprintf(out, "import: feed %.1fs (%.0f products/s), index %.1fs (%.0f/s), total %.1fs (%.0f/s)\n",
		im.FeedSeconds, im.FeedPerSec, im.IndexSeconds, im.IndexPerSec, im.TotalSeconds, im.TotalPerSec)
	fmt.Fprintf(out, "disk %.0f MB (index %.0f MB); importing process after GC: RSS %.0f MB, heap %.0f MB\n",
		float64(im.DiskBytes)/1e6, float64(im.IndexDiskSize)/1e6, float64(im.RSSBytes)/1e6, float64(im.HeapBytes)/1e6)
	fmt.Fprintf(out, "aisle serve on it: ready in %.1fs, RSS %.0f MB (%.2f× the JSON)\n",
		r.Serve.LoadSeconds, float64(r.Serve.RSSBytes)/1e6, r.Serve.RSSOverJSON)
	if r.NDCGTerms > 0 {
		fmt.Fprintf(out, "NDCG@10 on the Home Depot judgments: %.4f over %d terms\n", r.NDCG, r.NDCGTerms)
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "class\tQPS\tp50\tp95\tp99\tallocs/q\tHTTP QPS (c=%d)\tp50\tp99\tserver share\thealthz p50\tmax rate p99<%.0fms\tp99 there\tp99 at ½ rate\terrors\t\n", r.Concurrent, r.P99LimitMs)
	for _, c := range r.Classes {
		ip := c.InProcess
		fmt.Fprintf(tw, "%s\t%.0f\t%.0fµs\t%.0fµs\t%.0fµs\t%.0f\t%.0f\t%.2fms\t%.2fms\t%.0fµs\t%.0fµs\t%.0f/s\t%.2fms\t%.2fms\t%d\t\n", c.Class,
			ip.QPS, ip.P50us, ip.P95us, ip.P99us, ip.AllocsPerQuery, c.HTTPQPS, c.HTTPP50ms, c.HTTPP99ms, c.ServerShareUs, c.HealthP50us, c.MaxRate, c.MaxRateP99ms, c.HalfP99ms, c.Errors)
	}
	tw.Flush()
}

// runLiveBench is aisle bench --live: the write phases against the
// running server, then a restart, timed until the server answers.
func runLiveBench(ctx context.Context, stdout, stderr io.Writer, rep *bench.Report, g *engine.Generation, suite *bench.Suite, dir string, srv *serveProc, f *benchFlags) error {
	reqs, err := bench.Requests(g, suite.Key, suite.Queries(g), bench.ClassFacets, f.queries, uint64(bench.ClassFacets))
	if err != nil {
		return err
	}
	bodies := make([][]byte, len(reqs))
	for i, r := range reqs {
		bodies[i] = r.Body
	}
	pns := make([]string, g.Products.Len())
	for d := range pns {
		pns[d] = g.Products.Key(uint32(d))
	}
	lr, err := bench.Live(ctx, bench.LiveOptions{URL: srv.url, AdminKey: "bench", Website: suite.Website.UUID, Key: suite.Key,
		Products: pns, Searches: bodies, Updates: f.updates, Adds: f.updates, Bulk: 100000, BatchSize: f.writeBatch, WriteRate: f.writeRate, Duration: f.duration, Budget: f.liveBudget,
		Log: func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }})
	if err != nil {
		return fmt.Errorf("bench: %w\nthe server said:\n%s", err, srv.out.String())
	}
	fmt.Fprintln(stderr, "live: restarting aisle serve…")
	srv.stop()
	if err := srv.wait(); err != nil {
		return fmt.Errorf("bench: aisle serve did not stop: %w", err)
	}
	again, err := startServe(ctx, dir, stderr)
	if err != nil {
		return fmt.Errorf("bench: restart: %w", err)
	}
	defer again.close()
	fmt.Fprintf(stdout, "\nAisle on %s: %s catalog, %d products; aisle serve ready in %.1fs\n", rep.Machine, rep.Catalog, rep.Products, rep.Serve.LoadSeconds)
	fmt.Fprintf(stdout, "single-product updates: %d of %d in the %s budget; visible to search p50 %.0fms, p99 %.0fms (the write's answer p50 %.0fms, p99 %.0fms)\n",
		lr.Updates, lr.UpdatesPlanned, f.liveBudget, lr.VisibleP50ms, lr.VisibleP99ms, lr.WriteP50ms, lr.WriteP99ms)
	pace := "unpaced"
	if lr.SustainedRate > 0 {
		pace = fmt.Sprintf("paced to %.0f/s", lr.SustainedRate)
	}
	fmt.Fprintf(stdout, "sustained writes of %d products (%s) for %s: %.0f updates/s; class-3 search p99 %.2fms alone, %.2fms beside the writes (%.1f×, %d errors)\n",
		lr.SustainedBatch, pace, f.duration, lr.SustainedUpdatesPerSec, lr.SearchP99ms, lr.SearchP99Writing, lr.SearchP99Writing/lr.SearchP99ms, lr.SearchErrors)
	fmt.Fprintf(stdout, "a partial update of %d products: searchable in %.1fs\n", lr.BulkProducts, lr.BulkSeconds)
	fmt.Fprintf(stdout, "new products, one at a time: %d; found by search p50 %.0fms, p99 %.0fms; their deletes gone p50 %.0fms, p99 %.0fms\n",
		lr.Adds, lr.AddP50ms, lr.AddP99ms, lr.DeleteP50ms, lr.DeleteP99ms)
	fmt.Fprintf(stdout, "restart after the writes: answering in %.1fs\n", again.load.Seconds())
	return nil
}

// runEventsBench is aisle bench --events: behaviour events posted to the
// running server over conc connections for dur, one per request, then
// in batches of batch; every answer comes once its events are durable.
func runEventsBench(ctx context.Context, stdout, stderr io.Writer, rep *bench.Report, g *engine.Generation, suite *bench.Suite, srv *serveProc, conc, batch int, dur time.Duration) error {
	pns := make([]string, g.Products.Len())
	for d := range pns {
		pns[d] = g.Products.Key(uint32(d))
	}
	fmt.Fprintf(stdout, "\nAisle on %s: %s catalog, %d products; event ingestion over %d connections, %s each\n", rep.Machine, rep.Catalog, rep.Products, conc, dur)
	for _, run := range []struct {
		name, path string
		batch      int
	}{{"single events", "/serve/collect/view", 0}, {fmt.Sprintf("batches of %d", batch), "/serve/collect", batch}} {
		fmt.Fprintf(stderr, "events: %s…\n", run.name)
		bodies := bench.EventBodies(suite.Website.UUID, pns, run.batch, 1000, uint64(run.batch)+1)
		lr, err := bench.Load(ctx, bench.LoadOptions{URL: srv.url + run.path, Bodies: bodies, Concurrency: conc, Duration: dur})
		if err != nil {
			return err
		}
		if lr.Errors > 0 {
			return fmt.Errorf("bench: %s: %d of %d requests failed; the server said:\n%s", run.name, lr.Errors, lr.Requests, srv.out.String())
		}
		fmt.Fprintf(stdout, "%-16s %8.0f events/s  (%d requests, p50 %.2fms, p99 %.2fms)\n", run.name, lr.QPS*float64(max(run.batch, 1)), lr.Requests, bench.Millis(lr.P50), bench.Millis(lr.P99))
	}
	return nil
}

// runHostileBench is aisle bench --hostile: each hostile body sent
// rounds times to the running server, one at a time, with the server's
// CPU a request.
func runHostileBench(ctx context.Context, stdout, stderr io.Writer, rep *bench.Report, g *engine.Generation, suite *bench.Suite, srv *serveProc, rounds int, jsonOut string) error {
	w := suite.Website
	pageKey, boxKey := "none", "none"
	if len(w.Pages) > 0 {
		pageKey = w.Pages[0].Key
	}
	if len(w.Boxes) > 0 {
		boxKey = w.Boxes[0].Key
	}
	bodies := bench.HostileBodies(w.UUID, suite.Key, pageKey, boxKey, g.Products.Key(0))
	fmt.Fprintf(stderr, "sending %d hostile bodies %d times each…\n", len(bodies), rounds)
	res, err := bench.RunHostile(ctx, srv.url, srv.cmd.Process.Pid, bodies, rounds)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	rep.Hostile = res
	fmt.Fprintf(stdout, "\nAisle on %s: %s catalog, %d products; hostile bodies, %d of each, one at a time\n", rep.Machine, rep.Catalog, rep.Products, rounds)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "body\tbytes\tstatus\tserver CPU/request\twall p50\twall max\t\n")
	for _, r := range res {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1fms\t%.1fms\t%.1fms\t\n", r.Name, r.Bytes, r.Status, r.CPUms, r.P50ms, r.MaxMs)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return writeReport(jsonOut, rep)
}
