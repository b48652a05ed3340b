package httpapi

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/internal/expect"
)

func search(t *testing.T, body string) reply {
	t.Helper()
	url, _ := demoURLs(t)
	r := post(t, url, "text/plain", body)
	if r.status != 200 {
		t.Fatalf("%s: %d %s", body, r.status, r.raw)
	}
	return r
}

func facet(r reply, name string) map[string]any {
	fs, _ := r.get("products", "filters").([]any)
	for _, f := range fs {
		if m := f.(map[string]any); m["name"] == name {
			return m
		}
	}
	return nil
}

func values(f map[string]any) []map[string]any {
	var out []map[string]any
	vs, _ := f["values"].([]any)
	for _, v := range vs {
		out = append(out, v.(map[string]any))
	}
	return out
}

func total(r reply) int { return int(r.get("products", "totalCount").(float64)) }

func TestFacetQueriesRoundTrip(t *testing.T) {
	r := search(t, `{"query":"*","key":"demo","products":{"count":0,"returnFilters":true}}`)
	for _, name := range []string{"brand", "hierarchies", "inStock", "isOnSale", "extraData.color"} {
		f := facet(r, name)
		if f == nil {
			t.Fatalf("no facet %s", name)
		}
		vs := values(f)
		if len(vs) == 0 {
			t.Fatalf("facet %s has no values", name)
		}
		for _, v := range vs[:min(3, len(vs))] {
			q := v["query"].(string)
			got := search(t, fmt.Sprintf(`{"query":"*","key":"demo","products":{"count":0,"filters":[%q]}}`, q))
			if total(got) != int(v["count"].(float64)) {
				t.Errorf("%s: facet count %v, filtering gives %d", q, v["count"], total(got))
			}
		}
	}
	if f := facet(r, "inStock"); f["settings"].(map[string]any)["filteringText"] == nil || f["settings"].(map[string]any)["type"] != "BOOLEAN" {
		t.Errorf("BOOLEAN settings %v", f["settings"])
	}
	price := facet(r, "price")
	if price["min"] == nil || price["max"] == nil || price["selectedMin"] != nil {
		t.Errorf("RANGE facet %v", price)
	}
}

func TestDisjunctiveAndSiblingExclusion(t *testing.T) {
	all := search(t, `{"query":"*","key":"demo","products":{"count":0,"returnFilters":true}}`)
	brands := expect.AtLeast(t, "brand values", 2, values(facet(all, "brand")))
	b1, b2 := brands[0]["query"].(string), brands[1]["query"].(string)
	both := search(t, fmt.Sprintf(`{"query":"*","key":"demo","products":{"count":0,"returnFilters":true,"filters":[%q,%q,"inStock:true"]}}`, b1, b2))
	// Several values of one field are ORed.
	one := search(t, fmt.Sprintf(`{"query":"*","key":"demo","products":{"count":0,"filters":[%q,"inStock:true"]}}`, b1))
	two := search(t, fmt.Sprintf(`{"query":"*","key":"demo","products":{"count":0,"filters":[%q,"inStock:true"]}}`, b2))
	if total(both) != total(one)+total(two) {
		t.Fatalf("OR of two brands %d != %d + %d", total(both), total(one), total(two))
	}
	// Brand counts ignore the brand filter but honour inStock; selected values are marked.
	inStock := search(t, `{"query":"*","key":"demo","products":{"count":0,"returnFilters":true,"filters":["inStock:true"]}}`)
	want := map[string]float64{}
	for _, v := range expect.Some(t, "in-stock brand values", values(facet(inStock, "brand"))) {
		want[v["query"].(string)] = v["count"].(float64)
	}
	selected := 0
	for _, v := range expect.Some(t, "brand values", values(facet(both, "brand"))) {
		if v["count"] != want[v["query"].(string)] {
			t.Errorf("%s: disjunctive count %v, want %v", v["query"], v["count"], want[v["query"].(string)])
		}
		if v["selected"] == true {
			selected++
		}
	}
	if selected != 2 {
		t.Errorf("%d brand values selected, want 2", selected)
	}
	// excludeSiblingFilters: counted within the result set, so only the two brands.
	ex := search(t, fmt.Sprintf(`{"query":"*","key":"demo","products":{"count":0,"returnFilters":true,"excludeSiblingFilters":["brand"],"filters":[%q,%q,"inStock:true"]}}`, b1, b2))
	vs := values(facet(ex, "brand"))
	if len(vs) != 2 {
		t.Fatalf("excluded siblings: %d brand values, want 2", len(vs))
	}
	if vs[0]["count"].(float64)+vs[1]["count"].(float64) != float64(total(ex)) {
		t.Errorf("excluded-sibling counts do not add up to the result total")
	}
}

func TestRangeAndHierarchyFilters(t *testing.T) {
	r := search(t, `{"query":"*","key":"demo","products":{"count":50,"fields":["price"],"filters":["price:20,50"],"returnFilters":true}}`)
	for _, p := range expect.Some(t, "products priced 20..50", r.results("products")) {
		if v := p["price"].(float64); v < 20 || v > 50 {
			t.Fatalf("price %v outside 20..50", v)
		}
	}
	pf := facet(r, "price")
	if pf["selectedMin"] != "20" || pf["selectedMax"] != "50" {
		t.Errorf("selectedMin/Max %v %v", pf["selectedMin"], pf["selectedMax"])
	}
	open := search(t, `{"query":"*","key":"demo","products":{"count":0,"filters":["price:,50"]}}`)
	above := search(t, `{"query":"*","key":"demo","products":{"count":0,"filters":["price:50.001,"]}}`)
	if total(open)+total(above) != 6000 {
		t.Errorf("open ranges %d + %d != 6000", total(open), total(above))
	}
	top := search(t, `{"query":"*","key":"demo","products":{"count":0,"returnFilters":true}}`)
	dept := expect.Some(t, "departments", values(facet(top, "hierarchies")))[0]
	q := dept["query"].(string)
	if strings.Count(q, "$") != 1 {
		t.Fatalf("top-level value %q", q)
	}
	sub := search(t, fmt.Sprintf(`{"query":"*","key":"demo","products":{"count":5,"fields":["hierarchies"],"returnFilters":true,"filters":[%q]}}`, q))
	if total(sub) != int(dept["count"].(float64)) {
		t.Errorf("%s: %d products, facet said %v", q, total(sub), dept["count"])
	}
	name := strings.TrimSuffix(strings.TrimPrefix(q, "hierarchies:"), "$")
	for _, p := range expect.Some(t, "department products", sub.results("products")) {
		found := false
		for _, h := range p["hierarchies"].([]any) {
			found = found || h.([]any)[0] == name
		}
		if !found {
			t.Errorf("product outside %s: %v", name, p["hierarchies"])
		}
	}
	// Drill-down: children of the selected department are offered.
	children := 0
	for _, v := range values(facet(sub, "hierarchies")) {
		if strings.HasPrefix(v["query"].(string), q) && v["query"] != q {
			children++
		}
	}
	if children == 0 {
		t.Errorf("no subcategories offered under %s", q)
	}
}

func TestSorting(t *testing.T) {
	for _, tc := range []struct {
		sort, field string
		desc        bool
	}{
		{"price asc", "price", false}, {"price desc", "price", true},
		{"extraDataNumber.rating desc", "extraDataNumber", true}, {"title asc", "title", false}, {"created desc", "created", true},
	} {
		r := search(t, fmt.Sprintf(`{"query":"lamp","key":"demo","products":{"count":30,"sorting":[%q]}}`, tc.sort))
		var prev any
		for _, p := range expect.AtLeast(t, tc.sort, 2, r.results("products")) {
			v := p[tc.field]
			if tc.field == "extraDataNumber" {
				v = v.(map[string]any)["rating"]
			}
			if tc.field == "title" {
				v = analysis.FoldString(v.(string))
			}
			if prev != nil && less(v, prev) != tc.desc && v != prev {
				t.Fatalf("%s: %v after %v", tc.sort, v, prev)
			}
			prev = v
		}
		options := expect.Counter{What: tc.sort + ": sorting options for the field"}
		for _, s := range r.get("products", "sorting").([]any) {
			m := s.(map[string]any)
			if strings.HasPrefix(tc.sort, m["name"].(string)+" ") {
				options.N++
				dir := "ascending"
				if tc.desc {
					dir = "descending"
				}
				if m[dir].(map[string]any)["selected"] != true {
					t.Errorf("%s: sorting option not marked selected", tc.sort)
				}
			}
		}
		options.Check(t)
	}
}

func less(a, b any) bool {
	switch a := a.(type) {
	case float64:
		return a < b.(float64)
	case string:
		return a < b.(string)
	}
	return false
}

func TestSynonymsAndSuggested(t *testing.T) {
	// hoodie → sweater is one-way and no product says hoodie.
	r := search(t, `{"query":"hoodie","key":"demo","products":{"count":5}}`)
	if total(r) == 0 {
		t.Fatal("hoodie found nothing through its synonym")
	}
	if r.get("products", "suggestedProductStatus") != "ONLY_SUGGESTED" {
		t.Errorf("status %v", r.get("products", "suggestedProductStatus"))
	}
	for _, p := range expect.Some(t, "hoodie products", r.results("products")) {
		if p["suggestedResult"] != true {
			t.Errorf("product not marked suggested: %v", p["title"])
		}
	}
	r = search(t, `{"query":"drill","key":"demo","products":{"count":5}}`)
	if r.get("products", "suggestedProductStatus") != "NO_SUGGESTED" {
		t.Errorf("drill status %v", r.get("products", "suggestedProductStatus"))
	}
	// settee is in some sofas' keywords; sofa and couch find the rest.
	r = search(t, `{"query":"settee","key":"demo","products":{"count":200,"fields":["keywords"]}}`)
	if r.get("products", "suggestedProductStatus") != "MIXED" {
		t.Errorf("settee status %v", r.get("products", "suggestedProductStatus"))
	}
	for _, p := range expect.Some(t, "settee products", r.results("products")) {
		kw, _ := p["keywords"].(string)
		if strings.Contains(strings.ToLower(kw), "settee") == p["suggestedResult"].(bool) {
			t.Errorf("suggestedResult %v for keywords %q", p["suggestedResult"], kw)
		}
	}
}

func TestRedirectsAndInitialContent(t *testing.T) {
	r := search(t, `{"query":"Return  Policy","key":"demo","redirects":{"count":1},"products":{"count":1}}`)
	items := r.results("redirects")
	if len(items) != 1 || !strings.Contains(items[0]["url"].(string), "#aisle-redirect=redirect-returns") || items[0]["trackingCode"] != "redirect-returns" || strings.Contains(items[0]["originalUrl"].(string), "#") {
		t.Fatalf("redirect %v", items)
	}
	r = search(t, `{"query":"zzqqxx","key":"demo","products":{"count":5}}`)
	init, _ := r.get("products", "initialContent").([]any)
	if total(r) != 0 || len(init) != 12 {
		t.Fatalf("zero results: total %d, initial content %d items", total(r), len(init))
	}
	r = search(t, `{"query":"lamp","key":"demo","products":{"count":5,"returnInitialContent":true}}`)
	if init, _ := r.get("products", "initialContent").([]any); len(init) != 12 || total(r) == 0 {
		t.Fatal("returnInitialContent ignored")
	}
	if r := search(t, `{"query":"lamp","key":"demo","products":{"count":5}}`); r.get("products", "initialContent") != nil {
		t.Fatal("initial content returned unasked")
	}
}

func TestVersionsDevicesAndHTML(t *testing.T) {
	facetNames := func(r reply) []string {
		var out []string
		for _, f := range r.get("products", "filters").([]any) {
			out = append(out, f.(map[string]any)["name"].(string))
		}
		return out
	}
	live := search(t, `{"query":"*","key":"demo","products":{"count":0,"returnFilters":true}}`)
	draft := search(t, `{"query":"*","key":"demo","id":2,"products":{"count":0,"returnFilters":true}}`)
	if slices.Contains(facetNames(live), "extraData.material") || !slices.Contains(facetNames(draft), "extraData.material") {
		t.Errorf("live %v, draft %v", facetNames(live), facetNames(draft))
	}
	mobile := search(t, `{"query":"*","key":"demo","deviceType":"MOBILE","products":{"count":0,"returnFilters":true}}`)
	if len(facetNames(mobile)) >= len(facetNames(live)) {
		t.Errorf("mobile facets %v, desktop %v", facetNames(mobile), facetNames(live))
	}
	h := search(t, `{"query":"lamp","key":"demo","format":"html","products":{"count":3},"categories":{"count":2}}`)
	html, _ := h.get("html").(string)
	if !strings.Contains(html, `class="aisle-products"`) || h.get("products", "results") != nil || h.get("products", "totalCount") == nil {
		t.Fatalf("html response %s", h.raw[:min(400, len(h.raw))])
	}
}

// TestTypoPrefixAndSKU: a misspelt word finds what the word finds, the
// last word matches as a prefix, and a product number puts its product
// first (docs/decisions.md, Typos, As-you-type, Exact product number).
func TestTypoPrefixAndSKU(t *testing.T) {
	numbers := func(query string, directOnly bool) map[string]bool {
		r := search(t, fmt.Sprintf(`{"query":%q,"key":"demo","products":{"count":1000,"fields":["productNumber"]}}`, query))
		out := map[string]bool{}
		for _, p := range r.results("products") {
			if !directOnly || p["suggestedResult"] == false {
				out[p["productNumber"].(string)] = true
			}
		}
		return out
	}
	// The word as typed, with a trailing space so it is not a prefix too;
	// its products found through a synonym are not the typo's business.
	for _, tc := range []struct{ typed, word string }{
		{"drlil", "drill"}, {"lampp", "lamp"}, {"lam", "lamp"}, {"sofaa", "sofa"},
	} {
		want, got := numbers(tc.word+" ", true), numbers(tc.typed, false)
		if len(want) == 0 || len(want) >= 1000 {
			t.Fatalf("%q finds %d products directly: pick a word that finds some, and fewer than a page", tc.word, len(want))
		}
		var missed []string
		for pn := range want {
			if !got[pn] {
				missed = append(missed, pn)
			}
		}
		if len(missed) > 0 {
			slices.Sort(missed)
			t.Errorf("%q finds %d products that %q does not: %v", tc.word, len(missed), tc.typed, missed[:min(5, len(missed))])
		}
	}
	one := search(t, `{"query":"*","key":"demo","products":{"count":1,"start":1234,"fields":["productNumber"]}}`)
	pn := expect.Some(t, "product 1234", one.results("products"))[0]["productNumber"].(string)
	r := search(t, fmt.Sprintf(`{"query":%q,"key":"demo","products":{"count":3,"fields":["productNumber"]}}`, strings.ToLower(pn)))
	if got := r.results("products"); len(got) == 0 || got[0]["productNumber"] != pn {
		t.Errorf("product number %s not first: %v", pn, got)
	}
}
