package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/store"
)

// demoSeed fixes the demo shop, so every run serves the same catalog.
const demoSeed = 42

func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer, log *slog.Logger) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f serveFlags
	f.register(fs)
	products := fs.Int("products", 25000, "number of demo `N` products to generate")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if f.data == "" {
		dir, err := os.MkdirTemp("", "aisle-demo-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		f.data = dir
	}
	st, err := openStore(f.data)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := seedDemo(st, *products, f.lang, log); err != nil {
		return err
	}
	return serveStore(ctx, st, f, stdout, log, func(s served) {
		fmt.Fprintf(stdout, `
Aisle demo shop is up on http://%s with %d products (search configuration key "demo").
Try a search:

  curl -s -X POST http://%s/serve/search -H 'Content-Type: application/json' \
    -d '{"query":"cordless drill","key":"demo","products":{"count":5,"fields":["title","brand","price"],"returnFilters":true}}'

Press Ctrl-C to stop.
`, s.addr, s.products, s.addr)
	})
}

// seedDemo fills an empty store with the demo shop; a store that already
// holds products is served as it is.
func seedDemo(st *store.Store, n int, langName string, log *slog.Logger) error {
	lang, err := analysis.ParseLanguage(langName)
	if err != nil {
		return err
	}
	if st.Seq() > 0 {
		log.Info("data directory already holds a catalog: serving it as it is")
		return nil
	}
	start := time.Now()
	var b store.Batch
	cfg := demo.Config()
	b.SetConfig(&cfg)
	for _, c := range demo.Content(demoSeed) {
		if err := b.PutContent(&c); err != nil {
			return err
		}
	}
	if _, err := st.Append(&b, false); err != nil {
		return err
	}
	// Indexed in the same pass and saved, so serving loads the index.
	if _, _, err := engine.Import(st, &cfg.Websites[0], lang, func(fn func(*catalog.Product) error) error {
		return demo.Each(n, demoSeed, fn)
	}, log, nil); err != nil {
		return err
	}
	log.Info("demo catalog generated", "products", n, "took", time.Since(start).Round(time.Millisecond))
	return nil
}
