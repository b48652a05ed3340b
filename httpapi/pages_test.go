package httpapi

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/render"
)

// pagesSite is the hardware shop with two pages: "tools" (the Tools
// department, cheapest first; a draft, id 2, of Acme or on-sale products
// by newest; two facets on a phone) and "in-stock" (what is in stock,
// for the oracle's catalog).
func pagesSite() config.Website {
	w := shopSite(config.SearchVersion{})
	sorting := []config.SortOption{{Field: "price", Title: "Price"}, {Field: "created", Title: "Newest"}}
	w.Pages = []config.Page{
		{Key: "tools", Name: "Tools", Versions: []config.PageVersion{
			{ID: 1, Status: config.StatusLive, Filters: map[string]any{"hierarchies": "Tools$"}, Sorting: []string{"price asc"},
				Facets: hardwareFacets, SortOptions: sorting,
				Devices: map[string]config.Device{"MOBILE": {Facets: hardwareFacets[:2]}}},
			{ID: 2, Status: config.StatusDraft, Filters: map[string]any{"$or": []any{map[string]any{"brand": "Acme"}, map[string]any{"isOnSale": true}}},
				Sorting: []string{"created desc"}, Facets: hardwareFacets, SortOptions: sorting},
		}},
		{Key: "in-stock", Versions: []config.PageVersion{{ID: 1, Status: config.StatusLive, Filters: map[string]any{"inStock": true}}}},
	}
	return w
}

// pagePost posts body to page key and decodes the answer.
func pagePost(t *testing.T, url, key, body string, hdr ...string) reply {
	t.Helper()
	status, header, raw := send(t, "POST", url+"/serve/pages/"+key, "application/json", body, hdr...)
	r := reply{status: status, header: header, raw: string(raw)}
	if err := json.Unmarshal(raw, &r.body); err != nil {
		t.Fatalf("%s: body is not JSON: %v\n%s", body, err, raw)
	}
	return r
}

// pageNumbers are the product numbers of a json page answer, in order.
func pageNumbers(t *testing.T, r reply) []string {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	var out []string
	items, _ := r.get("products", "result").([]any)
	for _, it := range items {
		out = append(out, it.(map[string]any)["productNumber"].(string))
	}
	return out
}

// TestPageRequests: base filters, the draft by id, the default and the
// request's sorting, user filters on top with facets counted inside the
// base, firstLoad on and off, device overrides, product numbers only.
func TestPageRequests(t *testing.T) {
	url := serveShop(t, pagesSite(), hardware(), nil, Options{})
	req := func(extra, products string) string {
		return `{"url":"https://shop.test/tools","format":"json","params":{},"firstLoad":false` + extra +
			`,"products":{"start":0,"count":10,"fields":["productNumber"]` + products + `}}`
	}
	for _, tc := range []struct {
		name, key, body string
		want            []string
	}{
		{"the Tools department, cheapest first", "tools", req("", ""), []string{"P01", "P02", "P03", "P04"}},
		{"the request's sorting", "tools", req("", `,"sorting":["price desc"]`), []string{"P04", "P03", "P02", "P01"}},
		{"user filters on top", "tools", req("", `,"filters":["brand:Acme"]`), []string{"P02", "P03"}},
		{"params.filters ANDed with the page's", "tools", strings.Replace(req("", ""), `"params":{}`, `"params":{"filters":{"price":{"$gte":40}}}`, 1), []string{"P02", "P03", "P04"}},
		{"the draft: Acme or on sale, newest first", "tools", req(`,"id":2`, ""), []string{"P03", "P08", "P02", "P05"}},
		{"groups nested twenty deep", "tools", strings.Replace(req("", ""), `"params":{}`, `"params":{"filters":`+strings.Repeat(`{"$and":[`, 20)+`{"brand":"Acme"}`+strings.Repeat(`]}`, 20)+`}`, 1), []string{"P02", "P03"}},
		{"a window", "tools", strings.Replace(req("", ""), `"start":0,"count":10`, `"start":1,"count":2`, 1), []string{"P02", "P03"}},
	} {
		r := pagePost(t, url, tc.key, tc.body)
		if got := pageNumbers(t, r); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
		for _, item := range r.get("products", "result").([]any) {
			if len(item.(map[string]any)) != 1 {
				t.Errorf("%s: %v: want the product number only", tc.name, item)
			}
		}
		if r.get("products", "filters") != nil || r.get("products", "sorting") != nil || r.get("firstLoad") != false {
			t.Errorf("%s: not a first load, yet filters or sorting came back: %s", tc.name, r.raw)
		}
	}

	// A first load returns the facets, counted inside the page's base with
	// the user's filters applied disjunctively, and the sorting options.
	first := pagePost(t, url, "tools", `{"url":"u","format":"json","params":{},"firstLoad":true,"products":{"start":0,"count":10,"filters":["brand:Acme"]}}`)
	if first.status != 200 || first.get("firstLoad") != true || first.get("products", "total") != 2.0 || first.get("products", "count") != 2.0 {
		t.Fatalf("first load: %s", first.raw)
	}
	facets, _ := first.get("products", "filters").([]any)
	if len(facets) != len(hardwareFacets) {
		t.Fatalf("first load: %d facets, want %d: %s", len(facets), len(hardwareFacets), first.raw)
	}
	brands := map[string]float64{}
	for _, v := range facets[0].(map[string]any)["values"].([]any) {
		brands[v.(map[string]any)["title"].(string)] = v.(map[string]any)["count"].(float64)
	}
	if want := map[string]float64{"Acme": 2, "Müller": 1, "Bosch": 1}; fmt.Sprint(brands) != fmt.Sprint(want) {
		t.Errorf("brand facet %v, want %v: the Tools department, brand's own filter left out", brands, want)
	}
	sorting, _ := first.get("products", "sorting").([]any)
	if len(sorting) != 2 || sorting[0].(map[string]any)["ascending"].(map[string]any)["selected"] != true {
		t.Errorf("sorting %v: want price and newest, price ascending selected (the page's default)", sorting)
	} else if q := sorting[1].(map[string]any)["descending"].(map[string]any)["query"]; q != "created desc" {
		t.Errorf("sorting %v: newest's descending query %v, want \"created desc\"", sorting, q)
	}
	mobile := pagePost(t, url, "tools", `{"url":"u","format":"json","params":{},"firstLoad":true,"deviceType":"MOBILE","products":{"start":0,"count":1}}`)
	if facets, _ := mobile.get("products", "filters").([]any); len(facets) != 2 {
		t.Errorf("MOBILE: %d facets, want the device's 2", len(facets))
	}
	if item := mobile.get("products", "result").([]any)[0].(map[string]any); item["title"] != "Claw hammer" || item["price"] != 25.0 {
		t.Errorf("without fields, the whole product: %v", item)
	}
}

// TestPageErrors: an unknown page is a 404 whatever the body; a missing
// member is a 400 naming it; base filters that cannot be read are a 400
// naming where, and ones past the node bound (empty objects, a long
// list, a body's worth of groups) a 400 naming params.filters.
func TestPageErrors(t *testing.T) {
	url := serveShop(t, pagesSite(), hardware(), nil, Options{})
	ok := `{"url":"u","firstLoad":true,"params":{},"products":{"start":0,"count":1}}`
	withFilters := func(f string) string { return strings.Replace(ok, `"params":{}`, `"params":{"filters":`+f+`}`, 1) }
	for _, tc := range []struct {
		key, body string
		status    int
		field     string
	}{
		{"nope", `{}`, 404, "key"},
		{"tools", `{"firstLoad":true,"params":{},"products":{"start":0,"count":1}}`, 400, "url"},
		{"tools", `{"url":"u","params":{},"products":{"start":0,"count":1}}`, 400, "firstLoad"},
		{"tools", `{"url":"u","firstLoad":true,"products":{"start":0,"count":1}}`, 400, "params"},
		{"tools", `{"url":"u","firstLoad":true,"params":{}}`, 400, "products"},
		{"tools", `{"url":"u","firstLoad":true,"params":{},"products":{"count":1}}`, 400, "products.start"},
		{"tools", `{"url":"u","firstLoad":true,"params":{},"products":{"start":0}}`, 400, "products.count"},
		{"tools", strings.Replace(ok, `"url":"u"`, `"url":"u","id":9`, 1), 404, "id"},
		{"tools", strings.Replace(ok, `"url":"u"`, `"url":"u","format":"xml"`, 1), 400, "format"},
		{"tools", withFilters(`["brand"]`), 400, "params.filters"},
		{"tools", withFilters(`{"colour":"red"}`), 400, "params.filters.colour"},
		{"tools", withFilters(`{"$not":{"brand":"Acme"}}`), 400, "params.filters.$not"},
		{"tools", withFilters(`{"$or":{"brand":"Acme"}}`), 400, "params.filters.$or"},
		{"tools", withFilters(`{"$or":[{"brand":"Acme"},"Bosch"]}`), 400, "params.filters.$or[1]"},
		{"tools", withFilters(`{"brand":{"$gte":"A"}}`), 400, "params.filters.brand.$gte"},
		{"tools", withFilters(`{"brand":[]}`), 400, "params.filters.brand"},
		{"tools", withFilters(`{"brand":null}`), 400, "params.filters.brand"},
		{"tools", withFilters(`{"price":{"$gte":50,"$lte":10}}`), 400, "params.filters.price"},
		{"tools", withFilters(`{"price":{"$gt":5}}`), 400, "params.filters.price.$gt"},
		{"tools", withFilters(`{"inStock":"maybe"}`), 400, "params.filters.inStock"},
		{"tools", withFilters(strings.Repeat(`{"$or":[`, 34) + `{"brand":"Acme"}` + strings.Repeat(`]}`, 34)), 400, "params.filters" + strings.Repeat(".$or[0]", 33)},
		{"tools", withFilters(`{"brand":[` + strings.Repeat(`"x",`, 100) + `"y"]}`), 400, "params.filters.brand"},
		{"tools", withFilters(`{"$and":[{"$or":[` + strings.Repeat(`{},`, 500) + `{}]}]}`), 400, "params.filters"},
		{"tools", withFilters(`{"brand":[` + strings.Repeat(`"x",`, 600) + `"y"]}`), 400, "params.filters"},
		{"tools", withFilters(`{"$or":[` + strings.Repeat(`{"$and":[{},{},{},{},{},{},{},{},{},{}]},`, 23800) + `{}]}`), 400, "params.filters"},
	} {
		r := pagePost(t, url, tc.key, tc.body)
		if r.status != tc.status || r.get("success") != false || r.get("error", "field") != tc.field {
			t.Errorf("%s %s: %d %s, want %d naming %s", tc.key, tc.body, r.status, r.raw, tc.status, tc.field)
		}
	}
}

// TestPageHTML: html is a page's default format: the products rendered
// with the page's template, its javascript and style, no result; product
// data comes out escaped; a template that fails on execution (on one
// url: one failing on the sample data is refused with the configuration)
// is a clear error, not half a page.
func TestPageHTML(t *testing.T) {
	w := pagesSite()
	w.Pages[1].Versions[0].Style, w.Pages[1].Versions[0].JavaScript = ".aisle-grid{display:grid}", "console.log(1)"
	w.Pages = append(w.Pages, config.Page{Key: "broken", Versions: []config.PageVersion{{ID: 1, Status: config.StatusLive,
		Template: `<ul>{{range .Products}}<li>{{index . "title"}}</li>{{end}}</ul>{{if eq .URL "u"}}{{index .Products 99}}{{end}}`}}})
	products := hardware()
	products[1].Title = `Claw <script>alert("x")</script> hammer`
	url := serveShop(t, w, products, nil, Options{})
	r := pagePost(t, url, "in-stock", `{"url":"u","firstLoad":true,"params":{},"products":{"start":0,"count":3}}`)
	html, _ := r.get("products", "html").(string)
	if r.status != 200 || r.get("products", "result") != nil || r.get("products", "style") != ".aisle-grid{display:grid}" ||
		r.get("products", "javascript") != "console.log(1)" || r.get("products", "count") != 3.0 || r.get("products", "total") != 6.0 {
		t.Fatalf("html page: %s", r.raw)
	}
	if strings.Contains(html, "<script>") || !strings.Contains(html, "Claw &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; hammer") {
		t.Errorf("the title is not escaped: %s", html)
	}
	// The built-in template shows the facets on a first load only, and
	// its built-in style comes with it.
	for _, first := range []bool{true, false} {
		tr := pagePost(t, url, "tools", fmt.Sprintf(`{"url":"u","firstLoad":%v,"params":{},"products":{"start":0,"count":3}}`, first))
		html, _ := tr.get("products", "html").(string)
		if got := strings.Count(html, `class="aisle-facet"`); got != map[bool]int{true: len(hardwareFacets), false: 0}[first] {
			t.Errorf("tools, first load %v: %d facets rendered: %s", first, got, html)
		}
		if tr.get("products", "style") != render.DefaultStyle {
			t.Errorf("tools, no template nor style: style %v, want the built-in one", tr.get("products", "style"))
		}
	}
	b := pagePost(t, url, "broken", `{"url":"u","firstLoad":true,"params":{},"products":{"start":0,"count":3}}`)
	if b.status != 500 || b.get("error", "code") != "TEMPLATE_ERROR" || !strings.Contains(b.raw, "index out of range") || strings.Contains(b.raw, "<ul>") {
		t.Errorf("a template failing: %d %s", b.status, b.raw)
	}
}

// TestPageViewRecorded: a first load records a page view of its url for
// the visitor (the request's trackingUserId, else the retail_id cookie,
// else a new id in a cookie); a later load does not.
func TestPageViewRecorded(t *testing.T) {
	url, st := serveLiveSite(t, pagesSite(), hardware(), Options{})
	body := `{"url":"https://shop.test/tools","firstLoad":%v,"params":{},"format":"json","products":{"start":0,"count":1}}`
	wait := func(seq uint64) events.Event {
		t.Helper()
		for range 200 {
			if st.Seq() > seq {
				return lastEvent(t, st)
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Fatal("no page view was recorded")
		return events.Event{}
	}
	before := st.Seq()
	r := pagePost(t, url, "tools", fmt.Sprintf(body, true), "Cookie", "retail_id=u-cookie")
	e := wait(before)
	if r.status != 200 || e.Kind != events.Pageview || e.URL != "https://shop.test/tools" || e.User != "u-cookie" || e.Website != shopUUID {
		t.Errorf("first load: %d, logged %+v", r.status, e)
	}
	before = st.Seq()
	r = pagePost(t, url, "tools", fmt.Sprintf(body, true))
	e = wait(before)
	if c := r.header.Get("Set-Cookie"); len(e.User) != 32 || !strings.HasPrefix(c, "retail_id="+e.User+";") {
		t.Errorf("a new visitor: logged %q, Set-Cookie %q", e.User, c)
	}
	before = st.Seq()
	pagePost(t, url, "tools", fmt.Sprintf(body, false))
	time.Sleep(50 * time.Millisecond)
	if st.Seq() != before {
		t.Errorf("a later load recorded %+v", lastEvent(t, st))
	}
}

// oracleCatalog is 300 products over four brands, two departments of
// three categories, prices from 1 to 200, some in stock, some on sale.
func oracleCatalog() []catalog.Product {
	r := rand.New(rand.NewPCG(11, 30))
	brands := []string{"Acme", "Bosch", "Müller", "Zinc & Co"}
	out := make([]catalog.Product, 300)
	for i := range out {
		d, c := []string{"Tools", "Garden"}[r.IntN(2)], fmt.Sprint("C", r.IntN(3))
		out[i] = catalog.Product{ProductNumber: fmt.Sprintf("R%03d", i), Title: "thing " + fmt.Sprint(i), Brand: brands[r.IntN(len(brands))],
			Hierarchies: [][]string{{d, c}}, Price: float64(1 + r.IntN(200)), InStock: r.IntN(3) > 0, IsOnSale: r.IntN(4) == 0}
	}
	return out
}

// randomFilter is a random base filter object and the oracle that
// evaluates it on a product, nesting groups up to depth.
func randomFilter(r *rand.Rand, depth int) (map[string]any, func(p *catalog.Product) bool) {
	obj := map[string]any{}
	var conds []func(p *catalog.Product) bool
	kinds := []string{"brand", "price", "inStock", "hierarchies", "isOnSale", "$or", "$and"}
	r.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
	for _, kind := range kinds[:1+r.IntN(3)] {
		switch kind {
		case "brand":
			all := []string{"Acme", "Bosch", "Müller", "Zinc & Co", "Nobody"}
			vals := []string{all[r.IntN(len(all))]}
			if r.IntN(2) == 0 {
				vals = append(vals, all[r.IntN(len(all))])
			}
			switch r.IntN(3) {
			case 0:
				obj[kind] = vals[0]
				vals = vals[:1]
			case 1:
				obj[kind] = toAny(vals)
			default:
				obj[kind] = map[string]any{"$in": toAny(vals)}
			}
			conds = append(conds, func(p *catalog.Product) bool { return slices.Contains(vals, p.Brand) })
		case "price":
			lo, hi := float64(r.IntN(150)), float64(50+r.IntN(150))
			switch r.IntN(3) {
			case 0:
				obj[kind] = map[string]any{"$gte": lo}
				hi = 1e9
			case 1:
				obj[kind] = map[string]any{"$lte": hi}
				lo = -1
			default:
				lo, hi = min(lo, hi), max(lo, hi)
				obj[kind] = map[string]any{"$gte": lo, "$lte": hi}
			}
			conds = append(conds, func(p *catalog.Product) bool { return p.Price >= lo && p.Price <= hi })
		case "inStock", "isOnSale":
			want := r.IntN(2) == 0
			obj[kind] = want
			conds = append(conds, func(p *catalog.Product) bool {
				if kind == "inStock" {
					return p.InStock == want
				}
				return p.IsOnSale == want
			})
		case "hierarchies":
			d := []string{"Tools", "Garden"}[r.IntN(2)]
			path := []string{d}
			if r.IntN(2) == 0 {
				path = append(path, fmt.Sprint("C", r.IntN(3)))
			}
			obj[kind] = strings.Join(path, "$") + "$"
			conds = append(conds, func(p *catalog.Product) bool {
				return slices.Equal(p.Hierarchies[0][:len(path)], path)
			})
		case "$or", "$and":
			if depth == 0 {
				continue
			}
			var list []any
			var kids []func(p *catalog.Product) bool
			for range 1 + r.IntN(3) {
				o, f := randomFilter(r, depth-1)
				if r.IntN(5) == 0 { // an empty object: every product
					o, f = map[string]any{}, func(*catalog.Product) bool { return true }
				}
				list, kids = append(list, o), append(kids, f)
			}
			obj[kind] = list
			anyOf := kind == "$or"
			conds = append(conds, func(p *catalog.Product) bool {
				for _, k := range kids {
					if k(p) == anyOf {
						return anyOf
					}
				}
				return !anyOf
			})
		}
	}
	return obj, func(p *catalog.Product) bool {
		for _, c := range conds {
			if !c(p) {
				return false
			}
		}
		return true
	}
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// TestPageBaseFiltersMatchAnOracle: over random trees of conditions
// (values, lists, $in, ranges open or closed, booleans, categories) and
// empty objects under $or and $and nested three deep, a page answers
// exactly the products a brute-force evaluation allows, ANDed with the
// page's own base filter (in stock), and its total counts them.
func TestPageBaseFiltersMatchAnOracle(t *testing.T) {
	products := oracleCatalog()
	url := serveShop(t, pagesSite(), products, nil, Options{})
	r := rand.New(rand.NewPCG(5, 30))
	empty, withEmptyObjects := 0, 0
	for round := range 300 {
		obj, match := randomFilter(r, 3)
		filters, _ := json.Marshal(obj)
		if strings.Contains(string(filters), "{}") {
			withEmptyObjects++
		}
		var want []string
		for i := range products {
			if products[i].InStock && match(&products[i]) {
				want = append(want, products[i].ProductNumber)
			}
		}
		res := pagePost(t, url, "in-stock", `{"url":"u","format":"json","firstLoad":false,"params":{"filters":`+string(filters)+
			`},"products":{"start":0,"count":1000,"fields":["productNumber"],"sorting":["price asc"]}}`)
		got := pageNumbers(t, res)
		slices.Sort(got)
		if !slices.Equal(got, want) || res.get("products", "total") != float64(len(want)) {
			t.Fatalf("round %d, filters %s: %d products %v, want %d %v", round, filters, len(got), got, len(want), want)
		}
		if len(want) == 0 {
			empty++
		}
	}
	if empty > 200 || withEmptyObjects < 50 {
		t.Errorf("%d of 300 rounds allowed nothing, %d had empty objects: the trees test little", empty, withEmptyObjects)
	}
}
