package httpapi

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/internal/expect"
	"github.com/aisle-search/aisle/internal/golden"
)

// The facet promises of docs/decisions.md ("Hierarchy facets", "Facet
// values", "Range filters") and docs/configuration.md (maxFacetValues,
// devices), on the hardware shop: brands Acme 3, Bosch 2, Felco 1,
// Müller 1, Zinc & Co 1; on sale 2 of 8; departments Garden 4 (Cutting 2,
// Watering 2) and Tools 4 (Hand Tools 2 > Hammers 2, Power Tools 2 >
// Drills 2).

// facetsOf searches the hardware shop with returnFilters and the given
// filters (a JSON array's inside).
func facetsOf(t *testing.T, url, query, filters string) reply {
	t.Helper()
	return searchOK(t, url, q(query, `"count":0,"returnFilters":true,"filters":[`+filters+`]`))
}

// titles lists the title member of each value of facet f.
func titles(t *testing.T, f map[string]any) []string {
	t.Helper()
	var out []string
	for _, v := range expect.Some(t, fmt.Sprintf("values of facet %v", f["name"]), values(f)) {
		out = append(out, v["title"].(string))
	}
	return out
}

// queries lists the query member of each value of facet f.
func queries(t *testing.T, f map[string]any) []string {
	t.Helper()
	var out []string
	for _, v := range expect.Some(t, fmt.Sprintf("values of facet %v", f["name"]), values(f)) {
		out = append(out, v["query"].(string))
	}
	return out
}

// TestFacetValueOrder: "Facet values of LIST facets are ordered by count,
// then title; BOOLEAN ones `true` first" (docs/decisions.md, Facet
// values).
func TestFacetValueOrder(t *testing.T) {
	url := hardwareShop(t)
	r := facetsOf(t, url, "*", "")
	if got, want := titles(t, facet(r, "brand")), []string{"Acme", "Bosch", "Felco", "Müller", "Zinc & Co"}; !slices.Equal(got, want) {
		t.Errorf("brand values %v, want %v", got, want)
	}
	// true (2 products) before false (6).
	if got, want := titles(t, facet(r, "isOnSale")), []string{"true", "false"}; !slices.Equal(got, want) {
		t.Errorf("isOnSale values %v, want %v", got, want)
	}
	// Drilled down, the departments count 4 and the rest 2: among those
	// the node's own name decides, not its path.
	r = facetsOf(t, url, "*", `"hierarchies:Tools$Hand Tools$Hammers$"`)
	if got, want := titles(t, facet(r, "hierarchies")), []string{"Garden", "Tools", "Hammers", "Hand Tools", "Power Tools"}; !slices.Equal(got, want) {
		t.Errorf("hierarchy values %v, want %v", got, want)
	}
	// Among hammers (P01 Müller, P02 Acme, P04 Bosch) one each: by title.
	r = facetsOf(t, url, "hammer", "")
	if got, want := titles(t, facet(r, "brand")), []string{"Acme", "Bosch", "Müller"}; !slices.Equal(got, want) {
		t.Errorf("hammer brand values %v, want %v", got, want)
	}
}

// TestHierarchyFacetDrillDown: "Hierarchy facets return the top level
// always, plus the children of every selected node and of its ancestors
// [...]; a value's `title` is the node's own name and `query` the full
// path" (docs/decisions.md, Hierarchy facets).
func TestHierarchyFacetDrillDown(t *testing.T) {
	url := hardwareShop(t)
	for _, tc := range []struct {
		filters string
		want    []string // value queries without "hierarchies:", in order
	}{
		{``, []string{"Garden$", "Tools$"}},
		{`"hierarchies:Garden$"`, []string{"Garden$", "Tools$", "Garden$Cutting$", "Garden$Watering$"}},
		// The selected node's children (none), its parent's and the top's.
		{`"hierarchies:Tools$Hand Tools$Hammers$"`, []string{"Garden$", "Tools$", "Tools$Hand Tools$Hammers$", "Tools$Hand Tools$", "Tools$Power Tools$"}},
		{`"hierarchies:Tools$Power Tools$"`, []string{"Garden$", "Tools$", "Tools$Power Tools$Drills$", "Tools$Hand Tools$", "Tools$Power Tools$"}},
		// Two selected nodes open both branches.
		{`"hierarchies:Tools$Hand Tools$","hierarchies:Garden$Cutting$"`, []string{"Garden$", "Tools$", "Garden$Cutting$", "Tools$Hand Tools$Hammers$", "Tools$Hand Tools$", "Tools$Power Tools$", "Garden$Watering$"}},
	} {
		r := facetsOf(t, url, "*", tc.filters)
		f := facet(r, "hierarchies")
		var want []string
		for _, v := range tc.want {
			want = append(want, "hierarchies:"+v)
		}
		if got := queries(t, f); !slices.Equal(got, want) {
			t.Errorf("filters [%s]: values %v, want %v", tc.filters, got, want)
		}
		for _, v := range values(f) {
			path := v["query"].(string)[len("hierarchies:"):]
			levels := splitPath(path)
			if v["title"] != levels[len(levels)-1] {
				t.Errorf("value %s: title %q, want the node's own name %q", path, v["title"], levels[len(levels)-1])
			}
		}
	}
}

// splitPath splits "A$B$" into its levels.
func splitPath(p string) []string {
	var out []string
	start := 0
	for i := 0; i < len(p); i++ {
		if p[i] == '$' {
			out = append(out, p[start:i])
			start = i + 1
		}
	}
	return out
}

// TestFacetValuesWithoutProductsLeftOutUnlessSelected: "Values with no
// products are left out unless selected" (docs/decisions.md, Facet
// values).
func TestFacetValuesWithoutProductsLeftOutUnlessSelected(t *testing.T) {
	url := hardwareShop(t)
	// No hammer is Felco's or Zinc & Co's; Felco is selected.
	r := facetsOf(t, url, "hammer", `"brand:Felco"`)
	got := map[string][2]any{}
	for _, v := range expect.Some(t, "brand values", values(facet(r, "brand"))) {
		got[v["title"].(string)] = [2]any{v["count"], v["selected"]}
	}
	want := map[string][2]any{"Acme": {1.0, false}, "Bosch": {1.0, false}, "Müller": {1.0, false}, "Felco": {0.0, true}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("brand values (count, selected) %v, want %v", got, want)
	}
	// No hammer is on sale: only false is offered.
	if got := titles(t, facet(facetsOf(t, url, "hammer", ""), "isOnSale")); !slices.Equal(got, []string{"false"}) {
		t.Errorf("isOnSale values %v, want [false]", got)
	}
}

// TestMaxFacetValuesKeepsSelected: "`maxFacetValues` values returned per
// LIST facet (default 100); selected values are always returned"
// (docs/configuration.md).
func TestMaxFacetValuesKeepsSelected(t *testing.T) {
	url := serveShop(t, shopSite(config.SearchVersion{Facets: hardwareFacets, MaxFacetValues: 2}), hardware(), nil, Options{})
	for _, tc := range []struct {
		filters string
		want    []string
	}{
		{``, []string{"Acme", "Bosch"}},
		{`"brand:Acme"`, []string{"Acme", "Bosch"}},
		{`"brand:Zinc & Co"`, []string{"Acme", "Bosch", "Zinc & Co"}},
		{`"brand:Müller","brand:Zinc & Co"`, []string{"Acme", "Bosch", "Müller", "Zinc & Co"}},
	} {
		r := facetsOf(t, url, "*", tc.filters)
		if got := titles(t, facet(r, "brand")); !slices.Equal(got, tc.want) {
			t.Errorf("filters [%s]: brand values %v, want %v", tc.filters, got, tc.want)
		}
	}
}

// TestMaxFacetValuesDefault100: "At most `maxFacetValues` (100 by
// default) are returned per facet; selected values always are"
// (docs/decisions.md, Facet values).
func TestMaxFacetValuesDefault100(t *testing.T) {
	var products []catalog.Product
	for i := range 101 {
		// B000 has two products, the others one each: B100 is the last.
		products = append(products, catalog.Product{ProductNumber: fmt.Sprintf("Q%03d", i), Title: "Widget", Brand: fmt.Sprintf("B%03d", i)})
	}
	products = append(products, catalog.Product{ProductNumber: "Q999", Title: "Widget", Brand: "B000"})
	url := serveShop(t, shopSite(config.SearchVersion{Facets: hardwareFacets[:1]}), products, nil, Options{})
	got := titles(t, facet(facetsOf(t, url, "*", ""), "brand"))
	if len(got) != 100 || got[0] != "B000" || got[99] != "B099" {
		t.Errorf("%d brand values %v…%v, want 100: B000…B099", len(got), got[:min(2, len(got))], got[max(0, len(got)-2):])
	}
	got = titles(t, facet(facetsOf(t, url, "*", `"brand:B100"`), "brand"))
	if len(got) != 101 || got[100] != "B100" {
		t.Errorf("with B100 selected: %d brand values, last %q; want 101, B100 last", len(got), got[len(got)-1])
	}
}

// TestMobileMaxFacetValues: "`devices`: `DESKTOP` / `MOBILE` overrides of
// `facets`, `sorting`, `maxFacetValues`" (docs/configuration.md), as the
// demo configures MOBILE: at most 10 values.
func TestMobileMaxFacetValues(t *testing.T) {
	body := func(device string) string {
		return `{"query":"*","key":"demo",` + device + `"products":{"count":0,"returnFilters":true}}`
	}
	desktop := titles(t, facet(search(t, body(``)), "brand"))
	if len(desktop) <= 10 {
		t.Fatalf("the demo has %d brands: too few to see the mobile limit", len(desktop))
	}
	if d := titles(t, facet(search(t, body(`"deviceType":"DESKTOP",`)), "brand")); !slices.Equal(d, desktop) {
		t.Errorf("DESKTOP brands %d, default %d", len(d), len(desktop))
	}
	mobile := titles(t, facet(search(t, body(`"deviceType":"MOBILE",`)), "brand"))
	if !slices.Equal(mobile, desktop[:10]) {
		t.Errorf("MOBILE brand values %v, want the first 10 of desktop's %v", mobile, desktop[:10])
	}
	// A selected brand past the mobile cap is still returned.
	last := desktop[len(desktop)-1]
	sel := search(t, fmt.Sprintf(`{"query":"*","key":"demo","deviceType":"MOBILE","products":{"count":0,"returnFilters":true,"filters":[%q]}}`, "brand:"+last))
	if got := titles(t, facet(sel, "brand")); len(got) != 11 || got[10] != last {
		t.Errorf("MOBILE with %s selected: %v", last, got)
	}
}

// TestRangeFacetMinMaxStrings: "RANGE facets answer `min`/`max` as strings
// (numbers in shortest form, dates in RFC 3339 UTC)" (docs/decisions.md,
// Range filters).
func TestRangeFacetMinMaxStrings(t *testing.T) {
	url := hardwareShop(t)
	for _, tc := range []struct {
		query, filters string
		field          string
		want           map[string]any
	}{
		{"*", ``, "price", map[string]any{"min": "10", "max": "120"}},
		{"*", ``, "created", map[string]any{"min": "2022-05-05T00:00:00Z", "max": "2024-03-15T00:00:00Z"}},
		{"hammer", ``, "price", map[string]any{"min": "25", "max": "120"}},
		{"sledge", ``, "price", map[string]any{"min": "49.5", "max": "49.5"}},
		{"*", `"price:24.99,49.5"`, "price", map[string]any{"min": "10", "max": "120", "selectedMin": "24.99", "selectedMax": "49.5"}},
		// Bounds past ±1e308 are still bounds, not open ends.
		{"*", `"price:-1.5e308,1.5e308"`, "price", map[string]any{"min": "10", "max": "120", "selectedMin": "-15" + strings.Repeat("0", 307), "selectedMax": "15" + strings.Repeat("0", 307)}},
		{"*", `"created:1700000000,"`, "created", map[string]any{"min": "2022-05-05T00:00:00Z", "max": "2024-03-15T00:00:00Z", "selectedMin": "2023-11-14T22:13:20Z", "selectedMax": "2024-03-15T00:00:00Z"}},
		{"*", `"created:2023-01-01,2023-12-31T23:00:00+01:00"`, "created", map[string]any{"min": "2022-05-05T00:00:00Z", "max": "2024-03-15T00:00:00Z", "selectedMin": "2023-01-01T00:00:00Z", "selectedMax": "2023-12-31T22:00:00Z"}},
	} {
		f := facet(facetsOf(t, url, tc.query, tc.filters), tc.field)
		got := map[string]any{}
		for _, k := range []string{"min", "max", "selectedMin", "selectedMax"} {
			if v, ok := f[k]; ok {
				got[k] = v
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%q [%s] %s: %v, want %v", tc.query, tc.filters, tc.field, got, tc.want)
		}
	}
}

// TestFacetBodies keeps products.filters of a few requests on the
// hardware shop as golden files (testdata/facets/), one value per line:
// what a shop's page receives, in full.
func TestFacetBodies(t *testing.T) {
	url := hardwareShop(t)
	for _, tc := range []struct{ name, query, products string }{
		{"wildcard", "*", `"count":0,"returnFilters":true`},
		{"drilled-down", "*", `"count":0,"returnFilters":true,"filters":["hierarchies:Tools$Hand Tools$","price:20,50","isOnSale:false"]`},
		{"selected-without-products", "hammer", `"count":0,"returnFilters":true,"filters":["brand:felco","created:2023-01-01,"]`},
		{"exclude-siblings", "*", `"count":0,"returnFilters":true,"excludeSiblingFilters":["brand","price"],"filters":["brand:Acme","brand:Bosch","price:,50"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := q(tc.query, tc.products)
			r := searchOK(t, url, body)
			record := fmt.Sprintf(`{"request":%s,"filters":%s}`, body, member(t, r.raw, "products", "filters"))
			golden.Check(t, "facets/"+tc.name+".json", pretty(t, []byte(record)))
		})
	}
}
