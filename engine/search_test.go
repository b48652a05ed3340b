package engine

import (
	"bytes"
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/internal/expect"
	"github.com/aisle-search/aisle/internal/golden"
	"github.com/aisle-search/aisle/internal/testshop"
)

// The shop fixture is a small hand-written catalog whose every answer a
// reader can work out by hand: eight products, five content items, and
// two search configurations covering the documented settings.

// shopGen builds the shop fixture's generation.
func shopGen(t testing.TB) *Generation {
	t.Helper()
	g, err := shopBuild(shopWebsite(), shopProducts(), shopContent())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func shopBuild(w *config.Website, products []catalog.Product, content []catalog.Content) (*Generation, error) {
	return Build(w, analysis.English, Source{Products: sliceSource(products), Content: func(fn func(*catalog.Content) error) error {
		for i := range content {
			if err := fn(&content[i]); err != nil {
				return err
			}
		}
		return nil
	}}, nil)
}

// shopRequest decodes a request body as the HTTP adapter does: unknown
// members are errors.
func shopRequest(t testing.TB, body string) *SearchRequest {
	t.Helper()
	var req SearchRequest
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		t.Fatalf("request %s: %v", body, err)
	}
	return &req
}

// shopSearch answers body on g and returns the response body, decoded.
func shopSearch(t testing.TB, g *Generation, body string) map[string]any {
	t.Helper()
	res, err := g.Search(shopRequest(t, body))
	if err != nil {
		t.Fatalf("search %s: %v", body, err)
	}
	var out map[string]any
	if err := json.Unmarshal(res.AppendJSON(nil), &out); err != nil {
		t.Fatalf("search %s: the body is not JSON: %v\n%s", body, err, res.AppendJSON(nil))
	}
	return out
}

// productNumbers lists the productNumber of each item of a results or
// initialContent list.
func productNumbers(t testing.TB, list any) []string {
	t.Helper()
	items, ok := list.([]any)
	if !ok {
		t.Fatalf("%v is not a list", list)
	}
	out := []string{}
	for _, it := range items {
		pn, _ := it.(map[string]any)["productNumber"].(string)
		out = append(out, pn)
	}
	return out
}

// TestResponseBodies pins whole response bodies (docs/decisions.md and the
// spec's response shapes: counters, fields, score and suggestedResult,
// sorting, initial content, content kinds, redirects, html) for a table of
// requests over the shop fixture: one golden file per request.
func TestResponseBodies(t *testing.T) {
	g := shopGen(t)
	for _, tc := range []struct{ name, body string }{
		// Fields absent: the stored product, score and suggestedResult.
		{"all-fields", `{"query":"drill","key":"shop","products":{"count":5}}`},
		// Only productNumber: suggestedResult always, score not named.
		{"product-number-only", `{"query":"drill","key":"bare","products":{"count":5,"fields":["productNumber"]}}`},
		// Score named: it comes after the stored fields.
		{"fields-with-score", `{"query":"drill","key":"bare","products":{"count":5,"fields":["title","score","price"]}}`},
		// Dotted names keep the nesting with only the named members; a
		// repeated or missing name adds nothing.
		{"dotted-fields", `{"query":"drill","key":"bare","products":{"count":5,"fields":["extraData.size","productNumber","extraData.color","extraData.nope","productNumber","nope","extraDataNumber.rating"]}}`},
		// A dotted name beside its whole object returns the whole object;
		// a dotted name into a list returns nothing.
		{"dotted-and-whole", `{"query":"cordless","key":"bare","products":{"count":5,"fields":["extraData.color","extraData","hierarchies.x"]}}`},
		// Paging: start skips, the counters stay exact.
		{"second-page", `{"query":"*","key":"bare","products":{"start":2,"count":2,"fields":["productNumber"]}}`},
		{"page-past-end", `{"query":"*","key":"bare","products":{"start":8,"count":3,"fields":["productNumber"]}}`},
		{"count-zero", `{"query":"drill","key":"bare","products":{"count":0}}`},
		// Sorting: selected flags on the first sorting string.
		{"sorted-desc", `{"query":"","key":"shop","products":{"count":3,"sorting":["price desc"],"fields":["productNumber","price"]}}`},
		{"sorted-title", `{"query":"","key":"shop","products":{"count":3,"sorting":["title","price desc"],"fields":["productNumber","title"]}}`},
		// Filters and facets.
		{"facets", `{"query":"*","key":"shop","products":{"count":2,"fields":["productNumber"],"returnFilters":true,"filters":["price:20,150","inStock:true"]}}`},
		// Device overrides: MOBILE's facets, sorting and one value per
		// facet (selected values always); DESKTOP overrides only sorting,
		// so the version's two values per facet stay.
		{"device-mobile", `{"query":"*","key":"shop","deviceType":"MOBILE","products":{"count":1,"fields":["productNumber"],"returnFilters":true,"filters":["brand:gardena"]}}`},
		{"device-desktop-draft", `{"query":"*","key":"shop","id":2,"deviceType":"DESKTOP","products":{"count":1,"fields":["productNumber"],"returnFilters":true}}`},
		// Synonyms: couch finds the sofa as suggested.
		{"synonym-mixed", `{"query":"couch","key":"shop","products":{"count":5,"fields":["productNumber"]}}`},
		// Nothing found: the configured initial content.
		{"no-results-initial", `{"query":"zebra","key":"shop","products":{"count":5,"fields":["productNumber","price"]}}`},
		{"asked-initial", `{"query":"hose","key":"shop","products":{"count":5,"fields":["productNumber"],"returnInitialContent":true}}`},
		{"initial-by-number", `{"query":"zebra","key":"shop","id":2,"products":{"count":5,"fields":["productNumber","score"]}}`},
		{"initial-all-fields", `{"query":"zebra","key":"shop","id":2,"products":{"count":5}}`},
		{"initial-empty-listing", `{"query":"zebra","key":"plain","products":{"count":5}}`},
		{"no-initial-configured", `{"query":"zebra","key":"bare","products":{"count":5}}`},
		// Content kinds, in the response's order.
		{"content", `{"query":"drill","key":"shop","blogPosts":{"count":5},"categories":{"count":5},"brands":{"count":5},"sitePages":{"count":5}}`},
		{"content-fields", `{"query":"drill","key":"shop","blogPosts":{"count":5,"fields":["title","extraData.author","hierarchy"]}}`},
		{"content-filtered", `{"query":"","key":"shop","blogPosts":{"start":0,"count":5,"filters":["hierarchy:Guides$Garden"],"fields":["title"]}}`},
		{"content-paged", `{"query":"drill","key":"shop","blogPosts":{"start":1,"count":1,"fields":["title"]}}`},
		{"content-and-products", `{"query":"makita","key":"shop","brands":{"count":5},"products":{"count":5,"fields":["productNumber"]}}`},
		// Redirects.
		{"redirect", `{"query":"  returns   POLICY ","key":"shop","redirects":{"count":1}}`},
		{"redirect-no-code", `{"query":"contact us","key":"shop","redirects":{"count":3}}`},
		{"redirect-none", `{"query":"drill","key":"shop","redirects":{"count":3}}`},
		{"redirect-paged", `{"query":"refund","key":"shop","redirects":{"start":1,"count":3}}`},
		{"redirect-count-zero", `{"query":"refund","key":"shop","redirects":{"count":0}}`},
		// Escaping: the query and stored strings stay valid JSON.
		{"escaped-query", "{\"query\":\"lamp \\\"nova\\\" <led> & \\u2028\",\"key\":\"bare\",\"products\":{\"count\":1,\"fields\":[\"title\"]}}"},
		// html: counters without results, then the rendered template.
		{"html", `{"query":"drill","key":"shop","id":2,"format":"html","products":{"count":5},"categories":{"count":5},"brands":{"count":1},"sitePages":{"count":1},"blogPosts":{"count":5},"redirects":{"count":1}}`},
		{"html-suggested", `{"query":"couch","key":"shop","id":2,"format":"html","products":{"start":1,"count":5}}`},
		{"html-initial", `{"query":"zebra","key":"shop","id":2,"format":"html","products":{"count":5}}`},
		{"html-facets", `{"query":"drill","key":"shop","id":2,"format":"html","deviceType":"DESKTOP","products":{"count":2,"returnFilters":true}}`},
		{"html-redirect", `{"query":"refund","key":"shop","id":2,"format":"html","redirects":{"count":1},"sitePages":{"count":1},"brands":{"count":1}}`},
		{"html-default-template", `{"query":"drill","key":"shop","format":"html","products":{"count":2},"categories":{"count":1}}`},
		{"html-default-template-empty", `{"query":"refund","key":"shop","format":"html","products":{"count":2},"redirects":{"count":1}}`},
		{"query-only", `{"query":"drill","key":"shop"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := g.Search(shopRequest(t, tc.body))
			if err != nil {
				t.Fatal(err)
			}
			body := res.AppendJSON(nil)
			var indented bytes.Buffer
			if err := json.Indent(&indented, body, "", "  "); err != nil {
				t.Fatalf("the body is not JSON: %v\n%s", err, body)
			}
			text := "request: " + tc.body + "\n" + indented.String()
			if res.HTML != "" {
				// The rendered page again, unescaped, for the reader.
				text += "\nhtml:\n" + res.HTML
			}
			golden.Check(t, "bodies/"+tc.name+".json", []byte(text))
		})
	}
}

// TestSuggestedStatusThreeValues: "NO_SUGGESTED (no product found via AI
// synonyms), MIXED (some), ONLY_SUGGESTED (all)" (spec), and docs/
// decisions.md "Suggested status is computed over the whole result set,
// not only the page".
func TestSuggestedStatusThreeValues(t *testing.T) {
	g := shopGen(t)
	for _, tc := range []struct {
		query, status string
		results       []string
		suggested     []bool
	}{
		{"drill", NoSuggested, []string{"A200"}, []bool{false}},
		// The page holds only the direct match; the status still counts
		// the sofa found through the synonym.
		{"couch", MixedSuggest, []string{"C200"}, []bool{false}},
		{"settee", OnlySuggested, []string{"C100"}, []bool{true}},
		{"zebra", NoSuggested, []string{}, []bool{}},
	} {
		out := shopSearch(t, g, fmt.Sprintf(`{"query":%q,"key":"shop","products":{"count":1,"fields":["productNumber"]}}`, tc.query))
		p := out["products"].(map[string]any)
		if p["suggestedProductStatus"] != tc.status {
			t.Errorf("%q: suggestedProductStatus %v, want %s", tc.query, p["suggestedProductStatus"], tc.status)
		}
		got := productNumbers(t, p["results"])
		if len(tc.results) > 0 && (len(got) != 1 || got[0] != tc.results[0]) {
			t.Errorf("%q: results %v, want %v first", tc.query, got, tc.results)
		}
		for i, it := range p["results"].([]any) {
			if s := it.(map[string]any)["suggestedResult"]; s != tc.suggested[i] {
				t.Errorf("%q: result %d suggestedResult %v, want %v", tc.query, i, s, tc.suggested[i])
			}
		}
	}
}

// TestInitialContentOncePerGeneration: "It depends only on the version and
// the catalog, so it is computed once per generation" (engine/search.go):
// two searches share one computed list, and another generation computes
// its own.
func TestInitialContentOncePerGeneration(t *testing.T) {
	g := shopGen(t)
	search := func(g *Generation) []string {
		res, err := g.Search(shopRequest(t, `{"query":"zebra","key":"shop","products":{"count":3}}`))
		if err != nil {
			t.Fatal(err)
		}
		ini := expect.Some(t, "initial content", res.Products.Initial)
		out := []string{fmt.Sprintf("%p", &ini[0])}
		for _, h := range ini {
			out = append(out, g.Products.Key(h.Doc))
		}
		return out
	}
	a, b := search(g), search(g)
	if strings.Join(a, " ") != strings.Join(b, " ") {
		t.Fatalf("initial content computed twice: %v, then %v", a, b)
	}
	// Sorted by price ascending, three of the four on sale.
	if got := strings.Join(a[1:], " "); got != "B200 D100 A100" {
		t.Fatalf("initial content %s, want B200 D100 A100", got)
	}
	c := search(shopGen(t))
	if c[0] == a[0] || strings.Join(c[1:], " ") != strings.Join(a[1:], " ") {
		t.Fatalf("another generation: %v, first %v", c, a)
	}
	// Until here g holds its list, so the other generation's cannot
	// reuse its address.
	runtime.KeepAlive(g)
}

// TestInitialContentAllFiltersDefaultCount: initial content by "`filters`
// + `sorting` + `count` (default 10)" (docs/configuration.md): every
// filter applies, fields ANDed, and an omitted count lists ten.
func TestInitialContentAllFiltersDefaultCount(t *testing.T) {
	w := shopWebsite()
	w.Search[0].Versions[0].InitialContent = &config.InitialContent{Filters: []string{"isOnSale:true", "inStock:true"}, Sorting: []string{"price asc"}}
	products := shopProducts()
	for i := range 15 {
		// The three cheapest are on sale but sold out.
		products = append(products, catalog.Product{ProductNumber: fmt.Sprintf("X%03d", i), Title: "Spare part", Price: float64(1 + i), IsOnSale: true, InStock: i >= 3})
	}
	g, err := shopBuild(w, products, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	byPrice := slices.Clone(products)
	slices.SortStableFunc(byPrice, func(a, b catalog.Product) int { return cmp.Compare(a.Price, b.Price) })
	for _, p := range byPrice {
		if p.IsOnSale && p.InStock && len(want) < 10 {
			want = append(want, p.ProductNumber)
		}
	}
	res := shopSearch(t, g, `{"query":"zebra","key":"shop","products":{"count":3,"fields":["productNumber"]}}`)
	got := productNumbers(t, res["products"].(map[string]any)["initialContent"])
	if len(want) != 10 || !slices.Equal(got, want) {
		t.Errorf("initial content %v, want %v", got, want)
	}
}

// The test shop (package testshop): its products, content items and
// website.
const shopUUID = testshop.UUID

func shopProducts() []catalog.Product { return testshop.Products() }
func shopContent() []catalog.Content  { return testshop.Content() }
func shopWebsite() *config.Website    { return testshop.Website() }

// current is the test shop's current generation.
func current(t *testing.T, eng *Engine) *Generation {
	t.Helper()
	g, ok := eng.Website(shopUUID)
	if !ok {
		t.Fatal("the shop is not served")
	}
	return g
}
