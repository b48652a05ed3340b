package peers

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/bench"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/internal/expect"
)

const pgTestProducts = 2000

// pgFixture is one server for every subtest: starting it and loading the
// catalog is most of the test's time.
type pgFixture struct {
	pg       *Postgres
	products map[string]*catalog.Product
	gen      *engine.Generation
}

func newPGFixture(t *testing.T) *pgFixture {
	t.Helper()
	if _, err := pgFindBin(); err != nil {
		if errors.Is(err, ErrNoPostgres) {
			expect.SkipOrFail(t, expect.RequirePeersEnv, "postgres not installed: apt-get install postgresql postgresql-contrib")
		}
		t.Fatal(err)
	}
	src := bench.Generated(pgTestProducts, 42)
	f := &pgFixture{products: map[string]*catalog.Product{}}
	if err := src(func(p *catalog.Product) error { f.products[p.ProductNumber] = p; return nil }); err != nil {
		t.Fatal(err)
	}
	pg, err := NewPostgres(t.TempDir(), src)
	if err != nil {
		if errors.Is(err, ErrNoPostgres) {
			expect.SkipOrFail(t, expect.RequirePeersEnv, "postgres not installed: apt-get install postgresql postgresql-contrib")
		}
		t.Fatal(err)
	}
	f.pg = pg
	t.Cleanup(func() { pg.Close() })
	cfg := demo.Config()
	if f.gen, err = bench.Build(&cfg.Websites[0], src); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *pgFixture) requests(t *testing.T, c bench.Class, n int) []bench.Request {
	t.Helper()
	reqs, err := bench.Requests(f.gen, "demo", demo.Queries(500, 7), c, n, uint64(c))
	if err != nil {
		t.Fatal(err)
	}
	return reqs
}

// textMatches is the set PostgreSQL's text condition alone selects, the
// base the brute-force checks filter and count over.
func (f *pgFixture) textMatches(t *testing.T, q string, fuzzy bool) map[string]bool {
	t.Helper()
	sql := "SELECT product_number FROM products WHERE tsv @@ websearch_to_tsquery('english', $1)"
	if fuzzy {
		sql = "SELECT product_number FROM products WHERE tsv @@ fuzzy_tsquery($1)"
	}
	if q = strings.TrimSpace(q); q == "" || q == "*" {
		sql, q = "SELECT product_number FROM products WHERE $1::text IS NOT NULL", "*"
	}
	rows, err := f.pg.conn.Query(context.Background(), sql, q)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for rows.Next() {
		var pn string
		if err := rows.Scan(&pn); err != nil {
			t.Fatal(err)
		}
		out[pn] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func pgReqCount(r *engine.SearchRequest) int {
	if r.Products != nil && r.Products.Count != nil {
		return *r.Products.Count
	}
	return 10
}

// checkPage: the page is the first min(count, total) matches, distinct,
// each passing every filter, and agrees with Search.
func (f *pgFixture) checkPage(t *testing.T, r *engine.SearchRequest, fuzzy bool, res *pgResult, b bruteFilters, matches map[string]bool) {
	t.Helper()
	if want := min(pgReqCount(r), res.Total); len(res.Hits) != want {
		t.Errorf("%d hits, want min(count, total %d) = %d", len(res.Hits), res.Total, want)
	}
	seen := map[string]bool{}
	for _, pn := range res.Hits {
		p := f.products[pn]
		switch {
		case p == nil:
			t.Fatalf("hit %q is not in the catalog", pn)
		case seen[pn]:
			t.Errorf("hit %s twice", pn)
		case !matches[pn]:
			t.Errorf("hit %s does not match the text", pn)
		case !b.passAll(t, p, ""):
			t.Errorf("hit %s (brand %q, price %g, paths %v, in stock %v) fails filters %v", pn, p.Brand, p.Price, productPaths(p), p.InStock, b)
		}
		seen[pn] = true
	}
	hits, err := f.pg.Search(r, fuzzy)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(hits, res.Hits) {
		t.Errorf("Search returned %v, search %v", hits, res.Hits)
	}
}

func TestPostgres(t *testing.T) {
	f := newPGFixture(t)
	pg := f.pg

	t.Run("build", func(t *testing.T) {
		if pg.Docs != pgTestProducts {
			t.Errorf("Docs = %d, want %d", pg.Docs, pgTestProducts)
		}
		if pg.Build <= 0 {
			t.Errorf("Build = %v", pg.Build)
		}
		if n := pg.SizeBytes(); n < 1<<20 {
			t.Errorf("SizeBytes = %d, want at least 1 MiB", n)
		}
		if n := pg.RSSBytes(); n < 10<<20 {
			t.Errorf("RSSBytes = %d, want at least 10 MiB", n)
		}
		t.Logf("build %v, %d docs, %d KiB on disk, %d MiB resident", pg.Build, pg.Docs, pg.SizeBytes()>>10, pg.RSSBytes()>>20)
	})

	t.Run("words", func(t *testing.T) {
		nonEmpty := 0
		for _, rq := range f.requests(t, bench.ClassWords, 40) {
			res, err := pg.search(rq.Req, false)
			if err != nil {
				t.Fatal(err)
			}
			matches := f.textMatches(t, *rq.Req.Query, false)
			if res.Total != len(matches) {
				t.Errorf("%q: total %d, %d products match", *rq.Req.Query, res.Total, len(matches))
			}
			f.checkPage(t, rq.Req, false, res, nil, matches)
			if res.Total > 0 {
				nonEmpty++
			}
		}
		// Words are ANDed, and some demo queries carry a typo, so not all
		// find products.
		if nonEmpty < 20 {
			t.Errorf("only %d of 40 word queries found products", nonEmpty)
		}
	})

	t.Run("filtered", func(t *testing.T) {
		found := 0
		for _, rq := range f.requests(t, bench.ClassFiltered, 40) {
			r := rq.Req
			b := parseBrute(r.Products.Filters)
			if len(b["brand"]) != 1 || len(b["price"]) != 1 {
				t.Fatalf("class 2 request without a brand and a price range: %v", r.Products.Filters)
			}
			res, err := pg.search(r, false)
			if err != nil {
				t.Fatal(err)
			}
			matches := f.textMatches(t, *r.Query, false)
			total := bruteFacets(t, f.products, matches, b).Total
			if res.Total != total {
				t.Errorf("%q %v: total %d, brute force %d", *r.Query, r.Products.Filters, res.Total, total)
			}
			f.checkPage(t, r, false, res, b, matches)
			if len(res.Hits) > 0 {
				found++
			}
		}
		if found < 20 {
			t.Errorf("only %d of 40 filtered requests found products", found)
		}
	})

	t.Run("facets", func(t *testing.T) {
		// Values for hand-made requests: the most common brand and a
		// second-level category of the catalog.
		brands, paths := map[string]int{}, map[string]int{}
		for _, p := range f.products {
			brands[p.Brand]++
			for _, h := range productPaths(p) {
				if strings.Count(h, "$") == 2 {
					paths[h]++
				}
			}
		}
		byCount := func(m map[string]int) []string {
			ks := slices.Collect(maps.Keys(m))
			slices.SortFunc(ks, func(a, b string) int {
				if m[a] != m[b] {
					return m[b] - m[a]
				}
				return strings.Compare(a, b)
			})
			return ks
		}
		topBrands, topPaths := byCount(brands), byCount(paths)
		reqs := []*engine.SearchRequest{
			searchRequest("steel", 20, nil, nil, true),
			searchRequest("steel", 20, []string{"brand:" + topBrands[0], "brand:" + topBrands[1], "price:,80"}, nil, true),
			searchRequest("black", 20, []string{"hierarchies:" + topPaths[0], "price:20,", "inStock:true"}, nil, true),
			searchRequest("*", 20, []string{"hierarchies:" + topPaths[1], "hierarchies:" + topPaths[2], "brand:" + topBrands[2]}, []string{"price desc"}, true),
			searchRequest("*", 20, []string{"price:10,50", "price:200,300"}, []string{"price asc"}, true),
			searchRequest("zzzznothing", 20, []string{"brand:" + topBrands[0]}, nil, true),
		}
		for _, rq := range f.requests(t, bench.ClassFacets, 30) {
			reqs = append(reqs, rq.Req)
		}
		for i, r := range reqs {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				b := parseBrute(r.Products.Filters)
				res, err := pg.search(r, false)
				if err != nil {
					t.Fatal(err)
				}
				matches := f.textMatches(t, *r.Query, false)
				want := bruteFacets(t, f.products, matches, b)
				total := want.Total
				if res.Total != total {
					t.Errorf("%q %v: total %d, brute force %d", *r.Query, r.Products.Filters, res.Total, total)
				}
				got := res.Facets
				if got == nil {
					t.Fatal("no facets")
				}
				for _, c := range []struct {
					name      string
					got, want map[string]int
				}{{"brand", got.Brand, want.Brand}, {"hierarchies", got.Hierarchies, want.Hierarchies}} {
					if !maps.Equal(c.got, c.want) {
						t.Errorf("%q %v: %s facet\n got %v\nwant %v", *r.Query, r.Products.Filters, c.name, c.got, c.want)
					}
				}
				if !maps.Equal(got.InStock, want.InStock) {
					t.Errorf("%q %v: inStock facet %v, want %v", *r.Query, r.Products.Filters, got.InStock, want.InStock)
				}
				if got.HasPrice != (want.PriceN > 0) || got.PriceMin != want.PriceMin || got.PriceMax != want.PriceMax {
					t.Errorf("%q %v: price facet %v %g..%g, want %v %g..%g", *r.Query, r.Products.Filters,
						got.HasPrice, got.PriceMin, got.PriceMax, want.PriceN > 0, want.PriceMin, want.PriceMax)
				}
				f.checkPage(t, r, false, res, b, matches)
				if len(r.Products.Sorting) > 0 {
					desc := strings.HasSuffix(r.Products.Sorting[0], "desc")
					if !slices.IsSortedFunc(res.Hits, func(a, b string) int {
						c := cmp.Compare(f.products[a].Price, f.products[b].Price)
						if desc {
							return -c
						}
						return c
					}) {
						t.Errorf("hits not sorted by %s", r.Products.Sorting[0])
					}
				}
			})
		}
	})

	t.Run("category", func(t *testing.T) {
		for _, rq := range f.requests(t, bench.ClassCategory, 30) {
			r := rq.Req
			b := parseBrute(r.Products.Filters)
			if len(b["hierarchies"]) != 1 {
				t.Fatalf("class 4 request without one hierarchy filter: %v", r.Products.Filters)
			}
			res, err := pg.search(r, false)
			if err != nil {
				t.Fatal(err)
			}
			var prices []float64
			for _, p := range f.products {
				if b.passAll(t, p, "") {
					prices = append(prices, p.Price)
				}
			}
			if res.Total != len(prices) {
				t.Errorf("%v: total %d, %d products in the category", r.Products.Filters, res.Total, len(prices))
			}
			f.checkPage(t, r, false, res, b, f.textMatches(t, "*", false))
			// Sorted ascending, and the cheapest of the category.
			slices.Sort(prices)
			got := make([]float64, len(res.Hits))
			for i, pn := range res.Hits {
				got[i] = f.products[pn].Price
			}
			if want := prices[:min(len(prices), pgReqCount(r))]; !slices.Equal(got, want) {
				t.Errorf("%v: page prices %v, want the cheapest %v", r.Products.Filters, got, want)
			}
		}
	})

	t.Run("typo", func(t *testing.T) {
		// Catalog words of at least 6 letters from titles, each with two
		// inner letters swapped into a word the catalog lacks.
		seen := map[string]bool{}
		var words []string
		for _, pn := range slices.Sorted(maps.Keys(f.products)) {
			for _, w := range strings.Fields(strings.ToLower(f.products[pn].Title)) {
				if len(w) >= 6 && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") == "" && !seen[w] {
					seen[w] = true
					words = append(words, w)
				}
			}
		}
		if len(words) > 40 {
			words = words[:40]
		}
		ctx := context.Background()
		tried, missed := 0, 0
		for i, w := range words {
			b := []byte(w)
			j := 1 + i%(len(b)-3) // inner: never the first or last letter
			if b[j] == b[j+1] {
				continue
			}
			b[j], b[j+1] = b[j+1], b[j]
			typo := string(b)
			var known bool
			if err := pg.conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM words WHERE word = $1)", typo).Scan(&known); err != nil {
				t.Fatal(err)
			}
			if known {
				continue
			}
			exact := f.textMatches(t, w, false)
			if len(exact) == 0 {
				t.Fatalf("%q matches nothing", w)
			}
			if strict, err := pg.search(searchRequest(typo, 10, nil, nil, false), false); err != nil || strict.Total != 0 {
				t.Errorf("%q without typo tolerance: %v, %v", typo, strict, err)
			}
			res, err := pg.search(searchRequest(typo, pgTestProducts, nil, nil, false), true)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, pn := range res.Hits {
				got[pn] = true
			}
			lost := 0
			for pn := range exact {
				if !got[pn] {
					lost++
				}
			}
			tried++
			if lost > 0 {
				missed++
				var tsq string
				if err := pg.conn.QueryRow(ctx, "SELECT fuzzy_tsquery($1)::text", typo).Scan(&tsq); err != nil {
					t.Fatal(err)
				}
				t.Logf("%q (for %q) searched as %s: %d hits, %d of the %d products with %q missing", typo, w, tsq, len(res.Hits), lost, len(exact), w)
			}
		}
		t.Logf("%d typos, %d did not find every product of their word", tried, missed)
		// Trigram candidates ranked by edit distance can tie with another
		// word, so allow a rare miss.
		if tried < 20 || missed > tried/10 {
			t.Errorf("%d of %d typos did not find the products of their word", missed, tried)
		}
		nonEmpty := 0
		reqs := f.requests(t, bench.ClassTypo, 30)
		for _, rq := range reqs {
			res, err := pg.search(rq.Req, true)
			if err != nil {
				t.Fatal(err)
			}
			f.checkPage(t, rq.Req, true, res, nil, f.textMatches(t, *rq.Req.Query, true))
			if res.Total > 0 {
				nonEmpty++
			}
		}
		if nonEmpty < len(reqs)*3/4 {
			t.Errorf("only %d of %d typo'd queries found products", nonEmpty, len(reqs))
		}
	})

	t.Run("errors", func(t *testing.T) {
		for _, r := range []*engine.SearchRequest{
			searchRequest("steel", 10, []string{"colour:red"}, nil, false),
			searchRequest("steel", 10, []string{"price:x,3"}, nil, false),
			searchRequest("steel", 10, nil, []string{"title asc"}, false),
		} {
			if _, err := pg.Search(r, false); err == nil {
				t.Errorf("%v %v: no error", r.Products.Filters, r.Products.Sorting)
			}
		}
		// Defaults: no products settings is a page of 10; no query is all.
		res, err := pg.search(&engine.SearchRequest{}, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) != 10 || res.Total != pgTestProducts {
			t.Errorf("empty request: %d hits of %d", len(res.Hits), res.Total)
		}
	})

	t.Run("close", func(t *testing.T) {
		srv := pg.srv
		if err := pg.Close(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-srv.exited:
		default:
			t.Error("server still running after Close")
		}
		if _, err := os.Stat(srv.root); !os.IsNotExist(err) {
			t.Errorf("%s still there after Close: %v", srv.root, err)
		}
		if err := pg.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
		if _, err := pg.Search(searchRequest("steel", 10, nil, nil, false), false); err == nil {
			t.Error("Search after Close: no error")
		}
	})
}
