package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/aisle-search/aisle/bench"
	"github.com/aisle-search/aisle/events"
)

// peerEngines are the engines the bench/peers module adds.
var peerEngines = []string{"bleve", "postgres", "sphinx"}

// benchFlags are aisle bench's settings, parsed and checked.
type benchFlags struct {
	catalog  string // the suite: one of bench.Suites
	products int    // generated catalog size (demo only)
	shared   string // the shared data directory ("": found above the working directory)
	engines  string // comma-separated; more than aisle runs bench/peers
	data     string // the pebble directory to import into ("": a temporary one)
	queries  int    // requests per query class
	rounds   int    // in-process passes over the requests

	concurrency int           // HTTP connections of the closed-loop run
	duration    time.Duration // each HTTP run
	rateSearch  bool          // search the highest rate with p99 under p99
	p99         time.Duration // the rate search's p99 limit
	jsonOut     string        // the report as JSON ("": not written)
	svgOut      string        // with peers: the latency chart

	live       bool          // the write phases instead of the query classes
	replicas   bool          // a cluster's lag and bootstrap instead of the query classes
	updates    int           // single-product updates to time
	writeBatch int           // products per write in the sustained run
	writeRate  float64       // updates a second the sustained run paces to (0: unpaced)
	liveBudget time.Duration // longest a phase may take

	events     bool // event ingestion instead of the query classes
	eventBatch int  // events per batch request

	hostile       bool // the hostile bodies instead of the query classes
	hostileRounds int  // times each body is sent

	soak     time.Duration // the soak's length instead of the query classes (0: no soak)
	url      string        // with soak: a running server instead of a child
	adminKey string        // with url: its admin key
}

// soakConnections is the soak's connections unless --concurrency is
// given.
const soakConnections = 16

// minSoak is the shortest soak: each third holds enough samples of the
// resident set to judge (bench.ResidentGrowth).
const minSoak = 30 * time.Second

// peers reports whether the run compares Aisle with peer engines.
func (f *benchFlags) peers() bool { return f.engines != "aisle" }

// peerArgs are peerbench's flags for the same run, as name and value
// pairs (runPeerBench leaves out the empty ones).
func (f *benchFlags) peerArgs() []string {
	return []string{"--catalog", f.catalog, "--products", fmt.Sprint(f.products),
		"--shared", f.shared, "--engines", f.engines, "--queries", fmt.Sprint(f.queries), "--rounds", fmt.Sprint(f.rounds),
		"--json", f.jsonOut, "--svg", f.svgOut}
}

// parseBenchFlags parses aisle bench's arguments (usage and parse errors
// to stderr) and checks them: an error names the flag at fault.
func parseBenchFlags(args []string, stderr io.Writer) (benchFlags, error) {
	var f benchFlags
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.catalog, "catalog", "demo", "the suite's `CATALOG`: "+strings.Join(bench.Suites, ", "))
	fs.IntVar(&f.products, "products", 100000, "generated catalog size `N` (demo only)")
	fs.StringVar(&f.shared, "shared", "", "the shared data `DIR` (found above the working directory when empty)")
	fs.StringVar(&f.engines, "engines", "aisle", "comma-separated `ENGINES`: aisle, or aisle with peers ("+strings.Join(peerEngines, ", ")+"), which runs bench/peers")
	fs.StringVar(&f.data, "data", "", "import into this pebble `DIR` (a temporary one when empty)")
	fs.IntVar(&f.queries, "queries", 500, "requests per query class `Q`")
	fs.IntVar(&f.rounds, "rounds", 2, "in-process passes over the requests")
	fs.IntVar(&f.concurrency, "concurrency", 8, "HTTP connections `C` for the closed-loop run")
	fs.DurationVar(&f.duration, "duration", 5*time.Second, "length of each HTTP run")
	fs.BoolVar(&f.rateSearch, "rate-search", true, "search the highest HTTP rate with p99 under --p99")
	fs.DurationVar(&f.p99, "p99", 20*time.Millisecond, "p99 `LIMIT` for the rate search")
	fs.StringVar(&f.jsonOut, "json", "", "also write the report as JSON to `FILE`")
	fs.StringVar(&f.svgOut, "svg", "", "with peers: write a latency chart to `FILE`; with --soak, the resident set's curve")
	fs.BoolVar(&f.live, "live", false, "measure writes while serving instead of the query classes: update visibility, sustained writes beside searches, a 100,000-product partial update, a restart")
	fs.IntVar(&f.updates, "updates", 1000, "with --live: single-product updates to time")
	fs.IntVar(&f.writeBatch, "write-batch", 5000, "with --live: products per write in the sustained run")
	fs.Float64Var(&f.writeRate, "write-rate", 5000, "with --live: product updates a second the sustained run paces its writes to (0: each write as soon as the last answers)")
	fs.DurationVar(&f.liveBudget, "live-budget", 3*time.Minute, "with --live: longest time a phase may take before it stops and reports what it measured")
	fs.BoolVar(&f.replicas, "replicas", false, "measure a cluster of three aisle serve processes with embedded NATS instead of the query classes: the lag of each replica's search behind the writer at --write-rate updates a second in writes of --write-batch products, then the time a new node takes to start from the cluster's snapshot")
	fs.BoolVar(&f.events, "events", false, "measure event ingestion instead of the query classes: single events, then batches, over --concurrency connections, each durable when answered")
	fs.IntVar(&f.eventBatch, "event-batch", 50, "with --events: events per batch request")
	fs.BoolVar(&f.hostile, "hostile", false, "send the hostile bodies (bench.HostileBodies) instead of the query classes, one at a time, and report the server's CPU per request")
	fs.IntVar(&f.hostileRounds, "hostile-rounds", 20, "with --hostile: times each body is sent")
	fs.DurationVar(&f.soak, "soak", 0, "run the soak for `DURATION` instead of the query classes: the mixed load of searches, pages, recommendations and events at 80% of its highest rate over --concurrency connections (default 16), with admin writes and a feed import, beside a real aisle serve on the demo catalog; fails on any failed request or a resident set still growing")
	fs.StringVar(&f.url, "url", "", "with --soak: load the running server at `URL` (serving the demo catalog of --products products, with --rate-collect 0) instead of starting one")
	fs.StringVar(&f.adminKey, "admin-key", "", "with --url: the server's admin `KEY`, for the writes and its /metrics")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	concurrencySet := false
	fs.Visit(func(fl *flag.Flag) { concurrencySet = concurrencySet || fl.Name == "concurrency" })
	if f.soak > 0 && !concurrencySet {
		f.concurrency = soakConnections
	}
	switch {
	case fs.NArg() > 0:
		return f, fmt.Errorf("bench: unexpected argument %q", fs.Arg(0))
	case f.products < 1:
		return f, fmt.Errorf("bench: --products %d: want at least 1", f.products)
	case f.concurrency < 1:
		return f, fmt.Errorf("bench: --concurrency %d: want at least 1", f.concurrency)
	case f.duration <= 0:
		return f, fmt.Errorf("bench: --duration %s: want a positive duration, so each load run ends", f.duration)
	case f.queries < 1 || f.rounds < 1:
		return f, fmt.Errorf("bench: --queries %d --rounds %d: want at least 1 each", f.queries, f.rounds)
	case f.p99 <= 0:
		return f, fmt.Errorf("bench: --p99 %s: want a positive limit", f.p99)
	case f.eventBatch < 1 || f.eventBatch > events.MaxBatch:
		return f, fmt.Errorf("bench: --event-batch %d: want 1 to %d", f.eventBatch, events.MaxBatch)
	case f.soak < 0 || (f.soak > 0 && f.soak < minSoak):
		return f, fmt.Errorf("bench: --soak %s: want at least %s, so each third holds enough samples of the resident set to judge", f.soak, minSoak)
	case f.replicas && (f.live || f.events || f.hostile || f.soak > 0 || f.engines != "aisle"):
		return f, errors.New("bench: --replicas runs alone: not with --live, --events, --hostile, --soak or --engines")
	case f.replicas && f.writeRate <= 0:
		return f, errors.New("bench: --replicas: --write-rate must be above 0")
	case f.soak > 0 && (f.live || f.events || f.hostile || f.engines != "aisle"):
		return f, errors.New("bench: --soak runs alone: not with --live, --events, --hostile or --engines")
	case f.soak > 0 && f.catalog != "demo":
		return f, fmt.Errorf("bench: --soak loads the demo catalog, not --catalog %s", f.catalog)
	case f.soak == 0 && (f.url != "" || f.adminKey != ""):
		return f, errors.New("bench: --url and --admin-key are for --soak")
	case f.url != "" && f.adminKey == "":
		return f, errors.New("bench: --url: --admin-key KEY is required, for the writes and /metrics")
	case f.url != "" && f.data != "":
		return f, errors.New("bench: --url loads a running server: --data is for the server the soak starts")
	}
	for e := range strings.SplitSeq(f.engines, ",") {
		if e != "aisle" && !slices.Contains(peerEngines, e) {
			return f, fmt.Errorf("bench: unknown engine %q (aisle, %s)", e, strings.Join(peerEngines, ", "))
		}
	}
	return f, nil
}
