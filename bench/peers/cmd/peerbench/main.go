// Command peerbench compares Aisle with peer engines (Bleve, PostgreSQL
// full-text search, Sphinx) on one catalog and the benchmark's query
// classes, in one process and one run, interleaved so drift falls on all
// engines alike, once the machine has settled after the loads (settle).
// `aisle bench --engines …` runs it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/bench"
	"github.com/aisle-search/aisle/bench/peers"
	"github.com/aisle-search/aisle/engine"
)

func main() {
	var o options
	flag.StringVar(&o.catalog, "catalog", "demo", "the suite's catalog: "+strings.Join(bench.Suites, ", "))
	flag.IntVar(&o.products, "products", 100000, "generated catalog size (demo)")
	flag.StringVar(&o.shared, "shared", "", "shared data dir (found above the working directory when empty)")
	flag.StringVar(&o.engines, "engines", "aisle,bleve,postgres,sphinx", "comma-separated engines; aisle always runs first")
	flag.IntVar(&o.queries, "queries", 300, "requests per class")
	flag.IntVar(&o.rounds, "rounds", 2, "passes over the requests")
	flag.StringVar(&o.jsonOut, "json", "", "write the figures as JSON to this file")
	flag.StringVar(&o.svgOut, "svg", "", "write a latency chart (SVG, or PNG by suffix) to this file")
	from := flag.String("from", "", "draw --svg from this saved --json report instead of running")
	flag.Parse()
	if *from != "" {
		if err := redraw(*from, o.svgOut); err != nil {
			fmt.Fprintln(os.Stderr, "peerbench:", err)
			os.Exit(1)
		}
		return
	}
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "peerbench: unexpected argument %q\n", flag.Arg(0))
		os.Exit(2)
	}
	if err := run(context.Background(), o, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "peerbench:", err)
		os.Exit(1)
	}
}

type options struct {
	catalog, shared, engines, jsonOut, svgOut string
	products, queries, rounds                 int
}

// peer is a started peer engine.
type peer struct {
	searcher bench.Searcher
	search   func(term string, k int) ([]string, error)
	close    func() error
	rep      bench.PeerEngine
}

func run(ctx context.Context, o options, stdout, stderr io.Writer) error {
	names := strings.Split(o.engines, ",")
	for _, e := range names {
		if !slices.Contains([]string{"aisle", "bleve", "postgres", "sphinx"}, e) {
			return fmt.Errorf("unknown engine %q (aisle, bleve, postgres, sphinx)", e)
		}
	}
	suite, err := bench.LoadSuite(o.catalog, o.products, o.shared)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "peerbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	rep := bench.PeerReport{Catalog: o.catalog, Date: time.Now().UTC().Format(time.DateOnly),
		Machine: fmt.Sprintf("%s/%s, %d cores", runtime.GOOS, runtime.GOARCH, runtime.NumCPU())}
	fmt.Fprintf(stderr, "aisle: importing %s…\n", o.catalog)
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	g, st, imp, err := bench.Import(ctx, filepath.Join(tmp, "aisle"), suite, log, nil)
	if err != nil {
		return err
	}
	defer st.Close()
	rep.Products = g.Products.Len()
	_, rssBefore := bench.Memory()
	rep.Engines = append(rep.Engines, bench.PeerEngine{Engine: "aisle", BuildSeconds: imp.TotalSeconds, DiskBytes: imp.DiskBytes,
		MemoryBytes: imp.RSSBytes, MemoryKind: "process RSS (Aisle alone)"})
	searchers := []bench.Searcher{bench.AisleSearcher(g)}
	ndcg := map[string]func(string, int) ([]string, error){"aisle": bench.SearchNumbers(g, suite.Key)}

	var started []*peer
	defer func() {
		for _, p := range started {
			p.close() //nolint:errcheck // best effort at exit
		}
	}()
	for _, name := range names {
		if name == "aisle" {
			continue
		}
		fmt.Fprintf(stderr, "%s: loading %s…\n", name, o.catalog)
		p, err := startPeer(name, filepath.Join(tmp, name), suite, rssBefore)
		if errors.Is(err, peers.ErrNoPostgres) || errors.Is(err, peers.ErrNoSphinx) {
			fmt.Fprintf(stderr, "%s: skipped: %v\n", name, err)
			rep.Skipped = append(rep.Skipped, name+": "+err.Error())
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		started = append(started, p)
		fmt.Fprintf(stderr, "%s: %d products in %.1fs\n", name, rep.Products, p.rep.BuildSeconds)
		rep.Engines = append(rep.Engines, p.rep)
		searchers = append(searchers, p.searcher)
		ndcg[name] = p.search
	}

	fmt.Fprintf(stderr, "waiting for the engines' background work to end…\n")
	waited := time.Now()
	for g.Warming() && ctx.Err() == nil {
		time.Sleep(50 * time.Millisecond)
	}
	settle(2 * time.Minute)
	fmt.Fprintf(stderr, "settled after %.1fs\n", time.Since(waited).Seconds())
	queries := suite.Queries(g)
	for _, c := range suite.Classes {
		reqs, err := bench.Requests(g, suite.Key, queries, c, o.queries, uint64(c))
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "class %d (%s)…\n", c, c)
		rs, err := bench.Compare(searchers, c, reqs, o.rounds)
		if err != nil {
			return err
		}
		rep.Results = append(rep.Results, rs)
	}
	if suite.Judgments != nil {
		for i := range rep.Engines {
			e := &rep.Engines[i]
			fmt.Fprintf(stderr, "%s: NDCG@10 over %d judged terms…\n", e.Engine, len(suite.Judgments))
			if e.NDCG, _, err = bench.NDCG(suite.Judgments, 10, ndcg[e.Engine]); err != nil {
				return fmt.Errorf("%s: %w", e.Engine, err)
			}
		}
	}

	fmt.Fprintf(stdout, "\n%s catalog, %d products, %s, %s\n", o.catalog, rep.Products, rep.Machine, rep.Date)
	for _, e := range rep.Engines {
		line := fmt.Sprintf("%-9s load %6.1fs, disk %5.0f MB, memory %5.0f MB (%s)", e.Engine, e.BuildSeconds, float64(e.DiskBytes)/1e6, float64(e.MemoryBytes)/1e6, e.MemoryKind)
		if suite.Judgments != nil {
			line += fmt.Sprintf(", NDCG@10 %.4f", e.NDCG)
		}
		fmt.Fprintln(stdout, line)
	}
	for _, s := range rep.Skipped {
		fmt.Fprintln(stdout, "skipped:", s)
	}
	bench.Print(stdout, rep.Results)
	if o.jsonOut != "" {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(o.jsonOut, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	if o.svgOut != "" {
		return peers.LatencyChart(o.svgOut, chartTitle(&rep), rep.Results)
	}
	return nil
}

func chartTitle(r *bench.PeerReport) string {
	return fmt.Sprintf("%s catalog, %d products: latency per query class (%s)", r.Catalog, r.Products, r.Date)
}

// redraw draws the chart of a saved report.
func redraw(from, to string) error {
	if to == "" {
		return errors.New("--from needs --svg FILE to draw into")
	}
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	var rep bench.PeerReport
	if err := json.Unmarshal(b, &rep); err != nil {
		return fmt.Errorf("%s: %w", from, err)
	}
	return peers.LatencyChart(to, chartTitle(&rep), rep.Results)
}

// startPeer loads the suite into a peer engine.
func startPeer(name, dir string, suite *bench.Suite, rssBefore int64) (*peer, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	k := func(r func(*engine.SearchRequest, bool) ([]string, error)) func(string, int) ([]string, error) {
		return func(term string, n int) ([]string, error) {
			q := term
			return r(&engine.SearchRequest{Query: &q, Key: &suite.Key, Products: &engine.ProductSettings{
				ContentSettings: engine.ContentSettings{PageSettings: engine.PageSettings{Count: &n}}}}, false)
		}
	}
	switch name {
	case "bleve":
		b, err := peers.NewBleve(filepath.Join(dir, "idx"), suite.Products)
		if err != nil {
			return nil, err
		}
		_, rss := bench.Memory()
		return &peer{searcher: peers.BleveSearcher(b), search: k(b.Search), close: b.Close,
			rep: bench.PeerEngine{Engine: name, BuildSeconds: b.Build.Seconds(), DiskBytes: b.SizeBytes(),
				MemoryBytes: max(rss-rssBefore, 0), MemoryKind: "RSS it adds to this process, mapped index files included"}}, nil
	case "postgres":
		p, err := peers.NewPostgres(dir, suite.Products)
		if err != nil {
			return nil, err
		}
		return &peer{searcher: peers.PostgresSearcher(p), search: k(p.Search), close: p.Close,
			rep: bench.PeerEngine{Engine: name, BuildSeconds: p.Build.Seconds(), DiskBytes: p.SizeBytes(),
				MemoryBytes: p.RSSBytes(), MemoryKind: "server RSS, summed over its processes"}}, nil
	case "sphinx":
		s, err := peers.NewSphinx(dir, suite.Products)
		if err != nil {
			return nil, err
		}
		return &peer{searcher: peers.SphinxSearcher(s), search: k(s.Search), close: s.Close,
			rep: bench.PeerEngine{Engine: name, BuildSeconds: s.Build.Seconds(), DiskBytes: s.SizeBytes(),
				MemoryBytes: s.RSSBytes(), MemoryKind: "searchd RSS"}}, nil
	}
	return nil, fmt.Errorf("unknown engine %q", name)
}
