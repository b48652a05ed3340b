package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"text/tabwriter"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/bench"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/httpapi"
)

// benchReport is what aisle bench measured, also written as JSON.
type benchReport struct {
	Catalog    string        `json:"catalog"`
	Products   int           `json:"products"`
	BuildSec   float64       `json:"buildSeconds"`
	PerSec     float64       `json:"productsPerSecond"`
	HeapMB     uint64        `json:"heapMB"`
	Machine    string        `json:"machine"`
	Classes    []classReport `json:"classes"`
	NDCG       float64       `json:"ndcg10,omitempty"`
	NDCGTerms  int           `json:"ndcgTerms,omitempty"`
	Concurrent int           `json:"concurrency"`
}

type classReport struct {
	Class       string  `json:"class"`
	InProcP50us float64 `json:"inProcessP50us"`
	InProcP99us float64 `json:"inProcessP99us"`
	HTTPQPS     float64 `json:"httpQPS"`
	HTTPP50ms   float64 `json:"httpP50ms"`
	HTTPP95ms   float64 `json:"httpP95ms"`
	HTTPP99ms   float64 `json:"httpP99ms"`
	HTTPMaxms   float64 `json:"httpMaxMs"`
	Requests    int     `json:"requests"`
	Errors      int     `json:"errors"`
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer, log *slog.Logger) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cat := fs.String("catalog", "demo", "`CATALOG`: demo (generated), flipkart or homedepot")
	n := fs.Int("products", 100000, "generated catalog size `N` (demo only)")
	shared := fs.String("shared", "", "the shared data `DIR` (found above the working directory when empty)")
	conc := fs.Int("concurrency", 8, "HTTP connections `C`")
	dur := fs.Duration("duration", 5*time.Second, "HTTP load per query class")
	jsonOut := fs.String("json", "", "also write the report as JSON to `FILE`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("bench: unexpected argument %q", fs.Arg(0))
	case *n < 1:
		return fmt.Errorf("bench: --products %d: want at least 1", *n)
	case *conc < 1:
		return fmt.Errorf("bench: --concurrency %d: want at least 1", *conc)
	case *dur <= 0:
		return fmt.Errorf("bench: --duration %s: want a positive duration, so each load run ends", *dur)
	}
	var (
		w       *config.Website
		key     string
		src     bench.Products
		queries []string
		judged  bench.Judgments
	)
	switch *cat {
	case "demo":
		cfg := demo.Config()
		w, key, src, queries = &cfg.Websites[0], "demo", bench.Generated(*n, 42), demo.Queries(2000, 7)
	case "flipkart", "homedepot":
		dir := *shared
		if dir == "" {
			var err error
			if dir, err = bench.FindSharedData(); err != nil {
				return err
			}
		}
		var err error
		if src, err = bench.CSVCatalog(dir, *cat); err != nil {
			return err
		}
		cfg := config.Default()
		w, key = &cfg.Websites[0], config.DefaultKey
		if *cat == "homedepot" {
			if judged, err = bench.LoadJudgments(filepath.Join(dir, "homedepot", "judgments-dev.csv")); err != nil {
				return err
			}
			queries = judged.Terms()
		} else {
			queries = demo.Queries(2000, 7) // replaced below by title words
		}
	default:
		return fmt.Errorf("bench: unknown catalog %q (demo, flipkart, homedepot)", *cat)
	}
	fmt.Fprintf(stderr, "building the %s catalog…\n", *cat)
	start := time.Now()
	last := -1
	g, err := engine.Build(w, analysis.English, engine.Source{Products: src}, func(done int) {
		if done != last { // the last batch is reported twice
			fmt.Fprintf(stderr, "\r  %d products indexed", done)
			last = done
		}
	})
	fmt.Fprintln(stderr)
	if err != nil {
		return fmt.Errorf("bench: build the %s catalog: %w", *cat, err)
	}
	build := time.Since(start)
	if *cat == "flipkart" {
		queries = titleWords(g, 2000)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	rep := benchReport{Catalog: *cat, Products: g.Products.Len(), BuildSec: build.Seconds(),
		PerSec: float64(g.Products.Len()) / build.Seconds(), HeapMB: ms.HeapAlloc >> 20,
		Machine: fmt.Sprintf("%s/%s, %d cores", runtime.GOOS, runtime.GOARCH, runtime.NumCPU()), Concurrent: *conc}

	srv := httpapi.New(engine.New(g, ""), httpapi.Options{Logger: log}).HTTPServer()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go srv.Serve(ln) //nolint:errcheck // shut down below
	defer srv.Shutdown()
	url := "http://" + ln.Addr().String() + "/serve/search"

	for _, c := range bench.Classes {
		reqs, err := bench.Requests(g, key, queries, c, 1000, uint64(c))
		if err != nil {
			return err
		}
		lats := make([]time.Duration, 0, len(reqs))
		var buf []byte
		for _, r := range reqs {
			t0 := time.Now()
			res, err := g.Search(r.Req)
			if err != nil {
				return fmt.Errorf("class %s: %w", c, err)
			}
			buf = res.AppendJSON(buf[:0])
			lats = append(lats, time.Since(t0))
		}
		p50, _, p99, _ := bench.Percentiles(lats)
		bodies := make([][]byte, len(reqs))
		for i, r := range reqs {
			bodies[i] = r.Body
		}
		fmt.Fprintf(stderr, "loading class %d (%s) for %s…\n", c, c, *dur)
		lr, err := bench.Load(ctx, bench.LoadOptions{URL: url, Bodies: bodies, Concurrency: *conc, Duration: *dur})
		if err != nil {
			return err
		}
		rep.Classes = append(rep.Classes, classReport{Class: c.String(), InProcP50us: us(p50), InProcP99us: us(p99),
			HTTPQPS: lr.QPS, HTTPP50ms: ms3(lr.P50), HTTPP95ms: ms3(lr.P95), HTTPP99ms: ms3(lr.P99),
			HTTPMaxms: ms3(lr.Max), Requests: lr.Requests, Errors: lr.Errors})
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if judged != nil {
		if rep.NDCG, rep.NDCGTerms, err = bench.NDCG(judged, 10, bench.SearchNumbers(g, key)); err != nil {
			return fmt.Errorf("bench: %w", err)
		}
	}
	printReport(stdout, &rep)
	if *jsonOut != "" {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return fmt.Errorf("bench: encode the report: %w", err)
		}
		if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
			return fmt.Errorf("bench: write the report: %w", err)
		}
	}
	return nil
}

func us(d time.Duration) float64  { return float64(d.Nanoseconds()) / 1e3 }
func ms3(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

func printReport(out io.Writer, r *benchReport) {
	fmt.Fprintf(out, "\nAisle on %s: %s catalog, %d products, indexed in %.2fs (%.0f products/s), heap %d MB\n",
		r.Machine, r.Catalog, r.Products, r.BuildSec, r.PerSec, r.HeapMB)
	if r.NDCGTerms > 0 {
		fmt.Fprintf(out, "NDCG@10 on the Home Depot judgments: %.4f over %d terms\n", r.NDCG, r.NDCGTerms)
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "class\tin-process p50\tp99\tHTTP QPS (c=%d)\tp50\tp95\tp99\terrors\t\n", r.Concurrent)
	for _, c := range r.Classes {
		fmt.Fprintf(tw, "%s\t%.0fµs\t%.0fµs\t%.0f\t%.2fms\t%.2fms\t%.2fms\t%d\t\n", c.Class, c.InProcP50us, c.InProcP99us, c.HTTPQPS, c.HTTPP50ms, c.HTTPP95ms, c.HTTPP99ms, c.Errors)
	}
	tw.Flush()
}

// titleWords draws one- and two-word queries from the catalog's titles.
func titleWords(g *engine.Generation, n int) []string {
	out := make([]string, 0, n)
	for d := 0; d < g.Products.Len() && len(out) < n; d += 7 {
		var p struct{ Title string }
		if json.Unmarshal(g.Products.Stored(uint32(d)), &p) != nil {
			continue
		}
		words := splitWords(p.Title)
		if len(words) == 0 {
			continue
		}
		q := words[len(words)/2]
		if len(words) > 1 && d%2 == 0 {
			q = words[0] + " " + words[len(words)-1]
		}
		out = append(out, q)
	}
	return out
}

func splitWords(s string) []string {
	var out []string
	cur := []rune{}
	for _, r := range s {
		if r == ' ' || r == ',' || r == '(' || r == ')' {
			if len(cur) > 2 {
				out = append(out, string(cur))
			}
			cur = cur[:0]
			continue
		}
		cur = append(cur, r)
	}
	if len(cur) > 2 {
		out = append(out, string(cur))
	}
	return out
}
