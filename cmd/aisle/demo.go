package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"time"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/store"
	"github.com/aisle-search/aisle/storefront"
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
	log, err := f.logger(stderr, log)
	if err != nil {
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
	st, err := openStore(f.data, log)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := seedDemo(st, *products, f.lang, demoOrigins(f.addr), log); err != nil {
		return err
	}
	f.storefront = storefront.Serve
	return serveStore(ctx, st, f, stdout, log, func(s served) { demoBanner(stdout, s) })
}

// demoBanner tells a person what the demo serves and how to try it: the
// storefront's address first, then its websites and the API's.
func demoBanner(w io.Writer, s served) {
	fmt.Fprintf(w, `
Aisle demo is up. Open its storefront in a browser:

  http://%s/               the demo shop, built on the browser SDK (/sdk.js)
  http://%s/instantsearch  the same search page with InstantSearch.js widgets

It serves %d websites (the storefront switches between them):
`, s.addr, s.addr, len(s.websites))
	for _, g := range s.websites {
		key := ""
		if len(g.Website.Search) > 0 {
			key = g.Website.Search[0].Key
		}
		fmt.Fprintf(w, "  %-18s %s  %6d products  search key %q\n", g.Website.Name, g.Website.UUID, g.Products.Len(), key)
	}
	fmt.Fprintf(w, `Or try a search in each with curl:

  curl -s -X POST http://%s/serve/search -H 'Content-Type: application/json' \
    -d '{"query":"cordless drill","key":"demo","products":{"count":5,"fields":["title","brand","price"],"returnFilters":true}}'

  curl -s -X POST http://%s/serve/search -H 'Content-Type: application/json' \
    -d '{"query":"sofaborde","key":"demo-da","products":{"count":5,"fields":["title","brand","price"]}}'

The console's API is GraphQL; open it in a browser (GraphiQL) with the admin key:

  http://%s/graphql?apiKey=<admin key>

Press Ctrl-C to stop.
`, s.addr, s.addr, s.addr)
}

// seedDemo fills an empty store with the demo's two websites: the
// English shop of n products and the Danish one of demo.DanishProducts,
// each allowing origins (demoOrigins) credentialed calls.
// A store that already holds a catalog is served as it is.
func seedDemo(st *store.Store, n int, langName string, origins []string, log *slog.Logger) error {
	def, err := analysis.ParseLanguage(langName)
	if err != nil {
		return err
	}
	if st.Seq() > 0 {
		log.Info("data directory already holds a catalog: serving it as it is")
		return nil
	}
	start := time.Now()
	cfg := demo.Config()
	for i := range cfg.Websites {
		cfg.Websites[i].AllowedOrigins = origins
	}
	shops := []struct {
		n        int
		products func(fn func(*catalog.Product) error) error
		content  []catalog.Content
	}{
		{n, func(fn func(*catalog.Product) error) error { return demo.Each(n, demoSeed, fn) }, demo.Content(demoSeed)},
		{demo.DanishProducts, func(fn func(*catalog.Product) error) error { return demo.EachDanish(demo.DanishProducts, demoSeed, fn) }, demo.DanishContent()},
	}
	for i, shop := range shops {
		w := &cfg.Websites[i]
		b := store.Batch{Website: w.UUID}
		if i == 0 {
			b.SetConfig(&cfg)
		}
		for _, c := range shop.content {
			if err := b.PutContent(&c); err != nil {
				return err
			}
		}
		if _, err := st.Append(&b, false); err != nil {
			return err
		}
		// Indexed in the same pass and saved, so serving loads the index.
		if _, _, err := live.Import(st, w, w.Lang(def), shop.products, log, nil); err != nil {
			return err
		}
		log.Info("demo catalog generated", "website", w.UUID, "name", w.Name, "products", shop.n)
		// Its visitors' behaviour, so recommendations and popularity have
		// answers from the first second.
		users := demo.EventUsers(shop.n)
		n, err := live.ImportEvents(st, &cfg, func(fn func(*events.Event, []byte) error) error {
			return demo.Events(w.UUID, shop.products, users, demoSeed, func(e *events.Event) error { return fn(e, nil) })
		})
		if err != nil {
			return fmt.Errorf("demo behaviour: %w", err)
		}
		log.Info("demo behaviour generated", "website", w.UUID, "visitors", users, "events", n)
	}
	log.Info("demo generated", "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// demoOrigins are the origins of pages the demo serves on addr, which
// its websites list in allowedOrigins: the address as given and, on the
// loopback, under both of its names.
func demoOrigins(addr string) []string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil
	}
	switch host {
	case "", "127.0.0.1", "localhost":
		return []string{"http://127.0.0.1:" + port, "http://localhost:" + port}
	}
	return []string{"http://" + net.JoinHostPort(host, port)}
}
