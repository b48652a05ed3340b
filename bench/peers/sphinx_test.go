package peers

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/bench"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/internal/expect"
)

func TestSphinxHelpers(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"pliers", "pliers", 0}, {"pliers", "plires", 1}, {"pliers", "lpiers", 1}, {"pliers", "plier", 1},
		{"pliers", "pleirs", 1}, {"pliers", "plaiers", 1}, {"pliers", "peilrs", 2}, {"", "abc", 3}, {"fjällvik", "fjälvlik", 1},
	} {
		if got := sphinxOSA(c.a, c.b); got != c.want {
			t.Errorf("sphinxOSA(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	for in, want := range map[string]string{
		`drill`: `drill`, `a-b`: `a\-b`, `"x" (y)|z`: `\"x\" \(y\)\|z`, `a\b`: `a\\b`, `@title ~x`: `\@title \~x`, `q/2 ^a$ =b <<c !d &e`: `q\/2 \^a\$ \=b \<\<c \!d \&e`,
	} {
		if got := sphinxEscape(in); got != want {
			t.Errorf("sphinxEscape(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{`it's`: `'it\'s'`, `a\b`: `'a\\b'`, "x\x00y": `'x y'`} {
		if got := sphinxQuote(in); got != want {
			t.Errorf("sphinxQuote(%q) = %q, want %q", in, got, want)
		}
	}
	if got := sphinxTrigrams("cat"); got != "__c _ca cat at_ t__" {
		t.Errorf("sphinxTrigrams(cat) = %q", got)
	}
	var words []string
	for _, tk := range sphinxTokens("Fjällvik 20V-Max, USB_C × Кофе") {
		words = append(words, tk.word)
	}
	if want := []string{"fjällvik", "20v", "max", "usb_c", "кофе"}; !slices.Equal(words, want) {
		t.Errorf("sphinxTokens = %q, want %q", words, want)
	}
}

// TestSphinx builds a 2,000-product generated catalog on a searchd of its
// own and checks every query class against brute force over the products.
func TestSphinx(t *testing.T) {
	src := bench.Generated(2000, 42)
	s, err := NewSphinx(filepath.Join(t.TempDir(), "sphinx"), src)
	if errors.Is(err, ErrNoSphinx) {
		expect.SkipOrFail(t, expect.RequirePeersEnv, err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	byNumber := map[string]*catalog.Product{}
	var all []*catalog.Product
	if err := src(func(p *catalog.Product) error {
		byNumber[p.ProductNumber] = p
		all = append(all, p)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	t.Logf("built %d docs in %v; %d KB on disk, searchd RSS %d MB", s.Docs, s.Build, s.SizeBytes()>>10, s.RSSBytes()>>20)
	if s.Docs != len(all) || s.SizeBytes() <= 0 || s.RSSBytes() <= 0 {
		t.Fatalf("Docs %d (want %d), SizeBytes %d, RSSBytes %d", s.Docs, len(all), s.SizeBytes(), s.RSSBytes())
	}

	cfg := demo.Config()
	g, err := bench.Build(&cfg.Websites[0], src)
	if err != nil {
		t.Fatal(err)
	}
	queries := demo.Queries(2000, 7)
	requests := func(t *testing.T, c bench.Class, n int) []bench.Request {
		t.Helper()
		reqs, err := bench.Requests(g, "demo", queries, c, n, uint64(c))
		if err != nil {
			t.Fatal(err)
		}
		return reqs
	}
	search := func(t *testing.T, r *engine.SearchRequest, fuzzy bool) *sphinxResult {
		t.Helper()
		res, err := s.search(r, fuzzy)
		if err != nil {
			t.Fatalf("query %q filters %q: %v", sphinxDeref(r.Query), r.Products.Filters, err)
		}
		if len(res.Hits) > res.Total {
			t.Fatalf("query %q: %d hits but total %d", sphinxDeref(r.Query), len(res.Hits), res.Total)
		}
		return res
	}
	// textMatches is the set of products Sphinx matches for q alone, the
	// reference the filters and facets are checked against (Sphinx's
	// stemming is not reimplemented here).
	textMatches := func(t *testing.T, q string) map[string]bool {
		t.Helper()
		res := search(t, searchRequest(q, len(all), nil, nil, false), false)
		if len(res.Hits) != res.Total {
			t.Fatalf("query %q alone: %d hits, total %d", q, len(res.Hits), res.Total)
		}
		set := map[string]bool{}
		for _, pn := range res.Hits {
			set[pn] = true
		}
		return set
	}

	t.Run("words", func(t *testing.T) {
		found := 0
		for _, r := range requests(t, bench.ClassWords, 30) {
			res := search(t, r.Req, false)
			if want := min(20, res.Total); len(res.Hits) != want {
				t.Errorf("query %q: %d hits, want %d of %d", *r.Req.Query, len(res.Hits), want, res.Total)
			}
			if res.Total > 0 {
				found++
			}
		}
		if found < 20 {
			t.Errorf("only %d of 30 word queries found products", found)
		}
	})

	t.Run("filtered", func(t *testing.T) {
		found := 0
		for _, r := range requests(t, bench.ClassFiltered, 25) {
			res := search(t, r.Req, false)
			if res.Total > 0 {
				found++
			}
			text := textMatches(t, *r.Req.Query)
			b := parseBrute(r.Req.Products.Filters)
			want := bruteFacets(t, byNumber, text, b).Total
			if res.Total != want {
				t.Errorf("query %q filters %q: total %d, brute force %d", *r.Req.Query, r.Req.Products.Filters, res.Total, want)
			}
			for _, pn := range res.Hits {
				if p := byNumber[pn]; p == nil || !text[pn] || !b.passAll(t, p, "") {
					t.Errorf("query %q filters %q: hit %s does not match", *r.Req.Query, r.Req.Products.Filters, pn)
				}
			}
		}
		if found < 15 {
			t.Errorf("only %d of 25 filtered requests found products", found)
		}
	})

	t.Run("facets", func(t *testing.T) {
		nonEmpty := 0
		reqs := requests(t, bench.ClassFacets, 25)
		// Two price ranges (ORed) and two brands.
		extra := searchRequest("steel", 20, []string{"price:10,20", "brand:" + all[0].Brand, "price:500,", "brand:" + all[1].Brand}, nil, true)
		reqs = append(reqs, bench.Request{Req: extra})
		for _, r := range reqs {
			res := search(t, r.Req, false)
			if res.Facets == nil {
				t.Fatalf("query %q: no facets", *r.Req.Query)
			}
			want := bruteFacets(t, byNumber, textMatches(t, *r.Req.Query), parseBrute(r.Req.Products.Filters))
			got := res.Facets
			what := fmt.Sprintf("query %q filters %q", *r.Req.Query, r.Req.Products.Filters)
			if !maps.Equal(got.Brand, want.Brand) {
				t.Errorf("%s: brand facet\n got %v\nwant %v", what, got.Brand, want.Brand)
			}
			if !maps.Equal(got.Hier, want.Hierarchies) {
				t.Errorf("%s: hierarchies facet\n got %v\nwant %v", what, got.Hier, want.Hierarchies)
			}
			if !maps.Equal(got.InStock, want.InStock) {
				t.Errorf("%s: inStock facet %v, want %v", what, got.InStock, want.InStock)
			}
			if got.PriceN != want.PriceN || want.PriceN > 0 &&
				(math.Abs(got.PriceMin-want.PriceMin) > 0.005 || math.Abs(got.PriceMax-want.PriceMax) > 0.005) {
				t.Errorf("%s: price range %v..%v over %d, want %v..%v over %d", what, got.PriceMin, got.PriceMax, got.PriceN, want.PriceMin, want.PriceMax, want.PriceN)
			}
			if res.Total != want.Total {
				t.Errorf("%s: total %d, brute force %d", what, res.Total, want.Total)
			}
			if len(want.Brand) > 1 && len(want.Hierarchies) > 1 {
				nonEmpty++
			}
			if r.Req == extra && (res.Total == 0 || len(want.Brand) < 3 || want.PriceN <= res.Total) {
				t.Errorf("%s: total %d, %d brands, price range over %d: too little to check", what, res.Total, len(want.Brand), want.PriceN)
			}
		}
		if nonEmpty < 10 {
			t.Errorf("only %d of 25 facet requests had several brands and categories to count", nonEmpty)
		}
	})

	t.Run("category", func(t *testing.T) {
		reqs := requests(t, bench.ClassCategory, 20)
		// Same-field filters are ORed, other fields ANDed.
		b1, b2 := all[0].Brand, all[1].Brand
		reqs = append(reqs,
			bench.Request{Req: searchRequest("*", 20, []string{"brand:" + b1, "brand:" + b2, "hierarchies:" + all[0].Hierarchies[0][0] + "$", "price:,200"}, nil, false)},
			bench.Request{Req: searchRequest("*", 20, []string{"price:10,20", "hierarchies:" + all[2].Hierarchies[0][0] + "$", "price:500,", "hierarchies:" + all[0].Hierarchies[0][0] + "$"}, nil, false)})
		for _, r := range reqs {
			r.Req.Products.Sorting = []string{"price asc"}
			res := search(t, r.Req, false)
			f := r.Req.Products.Filters
			b := parseBrute(f)
			want := 0
			for _, p := range all {
				if b.passAll(t, p, "") {
					want++
				}
			}
			if res.Total != want || want == 0 {
				t.Errorf("filters %q: total %d, brute force %d", f, res.Total, want)
			}
			if len(res.Hits) != min(20, want) {
				t.Errorf("filters %q: %d hits, want %d", f, len(res.Hits), min(20, want))
			}
			last := math.Inf(-1)
			for _, pn := range res.Hits {
				p := byNumber[pn]
				if p == nil || !b.passAll(t, p, "") {
					t.Errorf("filters %q: hit %s does not match", f, pn)
					continue
				}
				if p.Price < last {
					t.Errorf("filters %q: hit %s price %v after %v: not ascending", f, pn, p.Price, last)
				}
				last = p.Price
			}
		}
	})

	t.Run("typo", func(t *testing.T) {
		// Catalog words of six letters or more, each typo'd by swapping
		// two inner letters, must find what the word finds.
		var words []string
		seen := map[string]bool{}
		for _, p := range all[:300] {
			for _, tk := range sphinxTokens(p.Title) {
				w := tk.word
				if len(w) >= 6 && !seen[w] && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") == "" && s.words[w] >= 3 {
					seen[w] = true
					words = append(words, w)
				}
			}
		}
		slices.Sort(words)
		if len(words) < 10 {
			t.Fatalf("only %d test words", len(words))
		}
		step := len(words) / 12
		tested := 0
		for i := 0; i < len(words); i += step {
			w := words[i]
			typo := []byte(w)
			typo[2], typo[3] = typo[3], typo[2]
			if typo[2] == typo[3] || s.words[string(typo)] > 0 {
				continue
			}
			tested++
			exact := search(t, searchRequest(w, 20, nil, nil, false), false)
			plain := search(t, searchRequest(string(typo), 20, nil, nil, false), false)
			fuzzy := search(t, searchRequest(string(typo), 20, nil, nil, false), true)
			if exact.Total == 0 || plain.Total != 0 {
				t.Errorf("%q finds %d, typo %q without correction %d", w, exact.Total, typo, plain.Total)
			}
			if fuzzy.Query != w || fuzzy.Total != exact.Total || !slices.Equal(fuzzy.Hits, exact.Hits) {
				t.Errorf("typo %q corrected to %q finds %d %v; %q finds %d %v", typo, fuzzy.Query, fuzzy.Total, fuzzy.Hits, w, exact.Total, exact.Hits)
			}
			stem := w[:len(w)-2] // stem_en may drop an ending: "batteries" finds "battery"
			for _, pn := range fuzzy.Hits {
				if p := byNumber[pn]; !strings.Contains(strings.ToLower(sphinxProductText(p)), stem) {
					t.Errorf("typo %q: hit %s has no %q: %q", typo, pn, w, p.Title)
				}
			}
		}
		if tested < 8 {
			t.Errorf("only %d typos tested", tested)
		}
		// The benchmark's own typo requests: correction must not make
		// things worse than searching the typo as typed.
		corrected, asTyped := 0, 0
		for _, r := range requests(t, bench.ClassTypo, 30) {
			if search(t, r.Req, true).Total > 0 {
				corrected++
			}
			if search(t, r.Req, false).Total > 0 {
				asTyped++
			}
		}
		t.Logf("typo requests with results: %d/30 corrected, %d/30 as typed", corrected, asTyped)
		if corrected < asTyped || corrected < 20 {
			t.Errorf("typo requests with results: %d/30 corrected, %d/30 as typed", corrected, asTyped)
		}
	})

	t.Run("escaping", func(t *testing.T) {
		for _, q := range []string{`pliers -steel`, `"pliers`, `it's`, `a\b`, `(drill)`, `@title drill`, `MAYBE drill`,
			`drill NEAR/3 bit`, `x|y`, `~`, `=drill`, `<<`, `$`, `^`, `&`, `'; DROP TABLE products; --`, `fjällvik`, `Кофе`, "\x00", ``} {
			for _, fuzzy := range []bool{false, true} {
				search(t, searchRequest(q, 5, nil, nil, false), fuzzy)
			}
		}
		if res := search(t, searchRequest("", 5, nil, nil, false), false); res.Total != len(all) {
			t.Errorf("empty query: total %d, want all %d", res.Total, len(all))
		}
		if res := search(t, searchRequest("*", 5, []string{"brand:No Such Brand"}, nil, false), false); res.Total != 0 {
			t.Errorf("unknown brand: total %d, want 0", res.Total)
		}
	})
}

func sphinxDeref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func sphinxProductText(p *catalog.Product) string {
	parts := []string{p.Title, p.Brand, p.Description, p.Keywords}
	for _, h := range p.Hierarchies {
		parts = append(parts, h...)
	}
	return strings.Join(parts, " ")
}
