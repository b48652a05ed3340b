package httpapi

import (
	stdjson "encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/internal/expect"
)

// The search promises of docs/decisions.md ("Search") and
// docs/configuration.md, each on a catalog small enough to state the
// answer in full.

// mugs are twelve products with the same title, so every search for
// "mug" scores them equally; fed out of product-number order, priced by
// their number, M12 out of stock.
func mugs() []catalog.Product {
	var out []catalog.Product
	for _, i := range []int{7, 3, 11, 1, 9, 5, 12, 2, 10, 4, 8, 6} {
		out = append(out, catalog.Product{ProductNumber: fmt.Sprintf("M%02d", i), Title: "Plain mug", Price: float64(i), InStock: i != 12})
	}
	return out
}

// TestLimits: "Body 1 MiB; `count` ≤ 1000; `start + count` ≤ 100,000; at
// most 100 filters; query ≤ 512 bytes" (docs/decisions.md, Limits), on a
// server with the default Options: each limit is reached and passed by
// one.
func TestLimits(t *testing.T) {
	url := hardwareShop(t)
	filters := func(n int) string {
		fs := make([]string, n)
		for i := range fs {
			fs[i] = fmt.Sprintf(`"brand:b%d"`, i)
		}
		return `"count":1,"filters":[` + strings.Join(fs, ",") + `]`
	}
	for _, tc := range []struct {
		name, body string
		status     int
		field      string
	}{
		{"count 1000", q("*", `"count":1000`), 200, ""},
		{"count 1001", q("*", `"count":1001`), 400, "products.count"},
		{"categories count 1001", `{"query":"*","key":"shop","categories":{"count":1001}}`, 400, "categories.count"},
		{"start+count 100000", q("*", `"start":99000,"count":1000`), 200, ""},
		{"start+count 100001", q("*", `"start":99001,"count":1000`), 400, "products.start"},
		{"start 100000 count 0", q("*", `"start":100000,"count":0`), 200, ""},
		{"100 filters", q("*", filters(100)), 200, ""},
		{"101 filters", q("*", filters(101)), 400, "products.filters"},
		{"query 512 bytes", q(strings.Repeat("a", 510)+"é", `"count":1`), 200, ""},
		{"query 513 bytes in 512 characters", q(strings.Repeat("a", 511)+"é", `"count":1`), 400, "query"},
	} {
		r := post(t, url, "application/json", tc.body)
		field, _ := r.get("error", "field").(string)
		if r.status != tc.status || field != tc.field {
			t.Errorf("%s: %d field %q, want %d field %q: %.300s", tc.name, r.status, field, tc.status, tc.field, r.raw)
		}
	}
	// The body: 1 MiB exactly is read (JSON allows the padding); a byte
	// more is answered 413 (from the declared length: the handler never
	// reads past the first MiB).
	small := q("*", `"count":1`)
	if r := post(t, url, "application/json", small+strings.Repeat(" ", 1<<20-len(small))); r.status != 200 {
		t.Errorf("a body of 1 MiB: %d %.300s", r.status, r.raw)
	}
	if status, _, raw := sendSized(t, url, 1<<20+1); status != 413 || !strings.Contains(string(raw), `"BODY_TOO_LARGE"`) {
		t.Errorf("a body of 1 MiB + 1: %d %s", status, raw)
	}
}

// TestEmptyQueryIsWildcard: "`""` (or only spaces) is the wildcard, like
// `*`" (docs/decisions.md, Empty query).
func TestEmptyQueryIsWildcard(t *testing.T) {
	url := hardwareShop(t)
	want := productNumbers(t, searchOK(t, url, q("*", `"count":20,"fields":["productNumber"]`)))
	if len(want) != 8 {
		t.Fatalf("* lists %v, want all 8 products", want)
	}
	for _, query := range []string{"", "   ", " * "} {
		r := searchOK(t, url, q(query, `"count":20,"fields":["productNumber"]`))
		if got := productNumbers(t, r); !slices.Equal(got, want) || total(r) != 8 {
			t.Errorf("query %q lists %v (total %d), want %v", query, got, total(r), want)
		}
	}
}

// TestWildcardListsInProductNumberOrder: "a wildcard without sorting lists
// the catalog in product-number order" (docs/decisions.md, Default sort),
// whatever order the feed came in.
func TestWildcardListsInProductNumberOrder(t *testing.T) {
	url := hardwareShop(t)
	got := productNumbers(t, searchOK(t, url, q("*", `"count":20,"fields":["productNumber"]`)))
	want := []string{"P01", "P02", "P03", "P04", "P05", "P06", "P07", "P08"}
	if !slices.Equal(got, want) {
		t.Errorf("* lists %v, want %v", got, want)
	}
}

// TestEqualScoresInProductNumberOrder: "Equal scores are ordered by doc id
// (product-number order), so paging is stable" (docs/decisions.md,
// Tie-break). Twelve mugs share a title and so a score.
func TestEqualScoresInProductNumberOrder(t *testing.T) {
	url := serveShop(t, shopSite(config.SearchVersion{}), mugs(), nil, Options{})
	var paged []string
	for start := 0; start < 12; start += 5 {
		r := searchOK(t, url, q("mug", fmt.Sprintf(`"start":%d,"count":5,"fields":["productNumber","score"]`, start)))
		paged = append(paged, productNumbers(t, r)...)
		scores := map[any]bool{}
		for _, p := range expect.Some(t, "mugs", r.results("products")) {
			scores[p["score"]] = true
		}
		if len(scores) != 1 {
			t.Fatalf("the mugs do not score alike: %v", scores)
		}
	}
	var want []string
	for i := 1; i <= 12; i++ {
		want = append(want, fmt.Sprintf("M%02d", i))
	}
	if !slices.Equal(paged, want) {
		t.Errorf("pages of 5 list %v, want %v", paged, want)
	}
}

// TestLastWordIsPrefixUnlessQueryEndsInSpace: "The last word also matches
// as a prefix unless the query ends in a space" (docs/decisions.md,
// As-you-type).
func TestLastWordIsPrefixUnlessQueryEndsInSpace(t *testing.T) {
	url := hardwareShop(t)
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"secat", []string{"P08"}},
		{"felco secat", []string{"P08"}},
		// Only the last word: "secat" here is no prefix, so P08 is not
		// among the products matching some of the words.
		{"secat hammer", []string{"P01", "P02", "P04"}},
		{"secat ", nil},
		{"secateurs ", []string{"P08"}},
	} {
		r := searchOK(t, url, q(tc.query, `"count":10,"fields":["productNumber"]`))
		if got := resultNumbers(t, r, "results"); !slices.Equal(got, tc.want) {
			t.Errorf("%q finds %v, want %v", tc.query, got, tc.want)
		}
	}
}

// TestTypoEditsByWordLength: "One edit from 5 letters, two from 9
// (transpositions count as one), on the word's stem, and on the word as
// typed one edit from 4 letters, two from 9; never for words containing
// digits. Typo routes are tried only when a word has no exact or prefix
// match" (docs/decisions.md, Typos); typedTypos false leaves the typed
// word's out.
func TestTypoEditsByWordLength(t *testing.T) {
	off := false
	plain := serveShop(t, shopSite(config.SearchVersion{TypedTypos: &off}), []catalog.Product{{ProductNumber: "T2", Title: "Desk lamp"}}, nil, Options{})
	if got := resultNumbers(t, searchOK(t, plain, q("lamq ", `"count":10,"fields":["productNumber"]`)), "results"); len(got) != 0 {
		t.Errorf("lamq with typedTypos false finds %v: the stem is 4 letters, no typos", got)
	}
	url := serveShop(t, shopSite(config.SearchVersion{}), []catalog.Product{
		{ProductNumber: "T1", Title: "Oak chair"},
		{ProductNumber: "T2", Title: "Desk lamp"},
		{ProductNumber: "T3", Title: "Spiral notebook"},
		{ProductNumber: "T4", Title: "Pine bookshelf"},
		{ProductNumber: "T5", Title: "Wifi router AX3000"},
		{ProductNumber: "T6", Title: "Bike chain"},
		{ProductNumber: "T7", Title: "LED ceiling light"},
	}, nil, Options{})
	for _, tc := range []struct {
		query, why string
		want       []string
	}{
		{"lamp", "as typed", []string{"T2"}},
		{"lamq", "4 letters as typed: one edit", []string{"T2"}},
		{"lxmq", "4 letters: not two edits", nil},
		{"lam", "3 letters: no typos", nil},
		{"celing", "its stem is two edits from ceiling's, the word as typed one", []string{"T7"}},
		{"chaxr", "5 letters: one edit", []string{"T1"}},
		{"chair", "an exact match: no typo routes (chain is one edit away)", []string{"T1"}},
		{"chaim", "no exact match: every word one edit away", []string{"T1", "T6"}},
		{"chiar", "5 letters: a transposition is one edit", []string{"T1"}},
		{"chxxr", "5 letters: not two edits", nil},
		{"notebopk", "8 letters: one edit", []string{"T3"}},
		{"nptebopk", "8 letters: not two edits", nil},
		{"bookshxlx", "9 letters: two edits", []string{"T4"}},
		{"bxxkshxlf", "9 letters: not three edits", nil},
		{"ax3000", "as typed", []string{"T5"}},
		{"ax3001", "a word with a digit: no typos", nil},
		{"ax30000", "a word with a digit: no typos", nil},
		{"chai5", "a word with a digit: no typos, even to a word without", nil},
	} {
		// A trailing space keeps the prefix route out of it.
		r := searchOK(t, url, q(tc.query+" ", `"count":10,"fields":["productNumber"]`))
		if got := resultNumbers(t, r, "results"); !slices.Equal(got, tc.want) {
			t.Errorf("%q (%s) finds %v, want %v", tc.query, tc.why, got, tc.want)
		}
	}
}

// TestExactVariantNumberFirst: "A query equal to a product number or
// variant number puts that product first" (docs/decisions.md, Exact
// product number), even above products that name it in their title.
func TestExactVariantNumberFirst(t *testing.T) {
	url := serveShop(t, shopSite(config.SearchVersion{}), []catalog.Product{
		{ProductNumber: "A1", Title: "VX-100 charger for VX-100"},
		{ProductNumber: "A2", Title: "Cable for the VX-100"},
		{ProductNumber: "TA-1", Title: "Travel adapter", VariantProductNumbers: []string{"VX-100", "VX-200"}},
		{ProductNumber: "A3", Title: "Spare fuse for the TA-1 adapter"},
	}, nil, Options{})
	for _, query := range []string{"VX-100", "vx-100", "VX-200", "TA-1", "ta-1"} {
		r := searchOK(t, url, q(query, `"count":3,"fields":["productNumber"]`))
		if got := productNumbers(t, r); got[0] != "TA-1" {
			t.Errorf("%q lists %v, want TA-1 first", query, got)
		}
	}
	// Without the exact number, the title wins: the check above is not
	// the ranking's doing.
	r := searchOK(t, url, q("VX 100", `"count":3,"fields":["productNumber"]`))
	if got := productNumbers(t, r); got[0] == "TA-1" {
		t.Errorf("VX 100 lists %v: the variant product comes first without being asked for exactly", got)
	}
}

// TestSortBySeveralFields: "Sorting strings accept `field`, `field asc`,
// `field desc`; several sort in order" (docs/decisions.md, Sorting
// strings): ties on the first are broken by the second.
func TestSortBySeveralFields(t *testing.T) {
	url := hardwareShop(t)
	// Ratings: P08 5; P01 4.5 (25), P03 4.5 (89); P02 4 (49.5), P06 4
	// (25.01); P05 3.5; P04 and P07 have none (120, 10).
	for _, tc := range []struct {
		sorting []string
		want    []string
	}{
		{[]string{"extraDataNumber.rating desc", "price asc"}, []string{"P08", "P01", "P03", "P06", "P02", "P05", "P07", "P04"}},
		{[]string{"extraDataNumber.rating desc", "price desc"}, []string{"P08", "P03", "P01", "P02", "P06", "P05", "P04", "P07"}},
		{[]string{"extraDataNumber.rating", "price"}, []string{"P05", "P06", "P02", "P01", "P03", "P08", "P07", "P04"}},
		{[]string{"extraDataNumber.rating asc", "created desc"}, []string{"P05", "P06", "P02", "P03", "P01", "P08", "P04", "P07"}},
	} {
		sorting, _ := stdjson.Marshal(tc.sorting)
		r := searchOK(t, url, q("*", `"count":10,"fields":["productNumber"],"sorting":`+string(sorting)))
		if got := productNumbers(t, r); !slices.Equal(got, tc.want) {
			t.Errorf("%v lists %v, want %v", tc.sorting, got, tc.want)
		}
	}
}

// TestSortMissingValuesLast: "Products without a value for the sort field
// come last in either direction" (docs/decisions.md, Sorting strings).
func TestSortMissingValuesLast(t *testing.T) {
	url := hardwareShop(t)
	for _, tc := range []struct {
		sort string
		want []string
	}{
		{"extraDataNumber.rating asc", []string{"P05", "P02", "P06", "P01", "P03", "P08", "P04", "P07"}},
		{"extraDataNumber.rating desc", []string{"P08", "P01", "P03", "P02", "P06", "P05", "P04", "P07"}},
	} {
		r := searchOK(t, url, q("*", fmt.Sprintf(`"count":10,"fields":["productNumber"],"sorting":[%q]`, tc.sort)))
		if got := productNumbers(t, r); !slices.Equal(got, tc.want) {
			t.Errorf("%s lists %v, want %v", tc.sort, got, tc.want)
		}
	}
}

// TestRangeFiltersInclusive: "Range filters are inclusive; either end may
// be empty; a single value `price:25` means exactly 25"
// (docs/decisions.md, Range filters).
func TestRangeFiltersInclusive(t *testing.T) {
	url := hardwareShop(t)
	// Prices: P07 10, P05 24.99, P01 25, P06 25.01, P02 49.5, P08 50, P03 89, P04 120.
	checkFilters(t, url, []filterCase{
		{"price:25", []string{"P01"}},
		{"price:24.99,25.01", []string{"P01", "P05", "P06"}},
		{"price:,25", []string{"P01", "P05", "P07"}},
		{"price:25,", []string{"P01", "P02", "P03", "P04", "P06", "P08"}},
		{"price:50,50", []string{"P08"}},
		{"price:10,10", []string{"P07"}},
		{"price:120,", []string{"P04"}},
		{"price:25.001,25.009", nil},
	})
}

// TestDateBoundsUnixSecondsAndISO: "Date bounds accept ISO 8601 dates and
// times or unix seconds" (docs/decisions.md, Range filters). P06 was
// created at unix second 1,700,000,000 and P07 one second earlier.
func TestDateBoundsUnixSecondsAndISO(t *testing.T) {
	url := hardwareShop(t)
	after := []string{"P03", "P04", "P06", "P08"}
	before := []string{"P01", "P02", "P05", "P07"}
	checkFilters(t, url, []filterCase{
		{"created:1700000000,", after},
		{"created:2023-11-14T22:13:20Z,", after},
		{"created:2023-11-14T23:13:20+01:00,", after},
		{"created:2023-11-14T22:13:20,", after},
		{"created:,1699999999", before},
		{"created:,2023-11-14T22:13:19Z", before},
		{"created:1700000000", []string{"P06"}},
		{"created:2024-01-01,2024-02-01", []string{"P03", "P08"}},
		{"created:1699999999,1700000000", []string{"P06", "P07"}},
	})
}

// TestFilterValuesFoldCaseAndAccents: "Filter values of keyword fields
// match case- and accent-insensitively (`brand:muller` finds `Müller`).
// An unknown value matches nothing; an unknown field is a 400"
// (docs/decisions.md, Filter values).
func TestFilterValuesFoldCaseAndAccents(t *testing.T) {
	url := hardwareShop(t)
	checkFilters(t, url, []filterCase{
		{"brand:Müller", []string{"P01"}},
		{"brand:muller", []string{"P01"}},
		{"brand:MÜLLER", []string{"P01"}},
		{"brand:zinc & co", []string{"P06"}},
		{"extraData.size:m", []string{"P01"}},
		{"hierarchies:tools$hand tools$", []string{"P01", "P02"}},
		{"brand:nobody", nil},
		{"brand:mull", nil},
	})
	r := post(t, url, "application/json", q("*", `"count":10,"filters":["colour:red"]`))
	if r.status != 400 || r.get("error", "field") != "filters" {
		t.Errorf("a filter on an unknown field: %d %s", r.status, r.raw)
	}
}

// TestInitialContentFixedProductNumbers: "`initialContent` returned in
// `products.initialContent` when a search finds no products, or on
// `returnInitialContent`: fixed `productNumbers`" (docs/configuration.md),
// in the configured order.
func TestInitialContentFixedProductNumbers(t *testing.T) {
	url := serveShop(t, shopSite(config.SearchVersion{
		InitialContent: &config.InitialContent{ProductNumbers: []string{"P08", "P02", "P05"}},
	}), hardware(), nil, Options{})
	want := []string{"P08", "P02", "P05"}
	r := searchOK(t, url, q("zzqqxx", `"count":5`))
	if got := resultNumbers(t, r, "initialContent"); total(r) != 0 || !slices.Equal(got, want) {
		t.Errorf("zero results: total %d, initial content %v, want %v", total(r), got, want)
	}
	r = searchOK(t, url, q("hammer", `"count":5,"returnInitialContent":true`))
	if got := resultNumbers(t, r, "initialContent"); total(r) == 0 || !slices.Equal(got, want) {
		t.Errorf("returnInitialContent: total %d, initial content %v, want %v", total(r), got, want)
	}
}

// TestInitialContentDefaultCount10: "`filters` + `sorting` + `count`
// (default 10)" (docs/configuration.md, initialContent).
func TestInitialContentDefaultCount10(t *testing.T) {
	url := serveShop(t, shopSite(config.SearchVersion{
		InitialContent: &config.InitialContent{Filters: []string{"inStock:true"}, Sorting: []string{"price desc"}},
	}), mugs(), nil, Options{})
	r := searchOK(t, url, q("teapot", `"count":5`))
	want := []string{"M11", "M10", "M09", "M08", "M07", "M06", "M05", "M04", "M03", "M02"}
	if got := resultNumbers(t, r, "initialContent"); !slices.Equal(got, want) {
		t.Errorf("initial content %v, want %v (in stock, priciest first, ten)", got, want)
	}
}

// content is two items of each content kind under a "Garden" hierarchy
// and one under "Workshop".
func content() []catalog.Content {
	var out []catalog.Content
	for _, k := range catalog.ContentKinds {
		out = append(out,
			catalog.Content{Kind: k, ID: string(k) + "-1", Title: "Garden tools guide", Hierarchy: []string{"Garden", "Tools"}},
			catalog.Content{Kind: k, ID: string(k) + "-2", Title: "Garden hoses", Hierarchy: []string{"Garden", "Watering"}},
			catalog.Content{Kind: k, ID: string(k) + "-3", Title: "Garden parties", Hierarchy: []string{"Garden"}},
			catalog.Content{Kind: k, ID: string(k) + "-4", Title: "Tool care", Hierarchy: []string{"Workshop", "Tools"}},
		)
	}
	return out
}

// TestContentFilterByHierarchy: content results' "`filters` may use
// `hierarchy:A$B$`" (docs/decisions.md, Content results), for each of
// categories, brands, site pages and blog posts.
func TestContentFilterByHierarchy(t *testing.T) {
	url := serveShop(t, shopSite(config.SearchVersion{}), hardware(), content(), Options{})
	for _, k := range catalog.ContentKinds {
		for _, tc := range []struct {
			query, filter string
			want          []string
		}{
			{"*", "hierarchy:Garden$Tools$", []string{"Garden tools guide"}},
			{"*", "hierarchy:Garden$", []string{"Garden tools guide", "Garden hoses", "Garden parties"}},
			{"*", "hierarchy:garden$watering$", []string{"Garden hoses"}},
			{"tools", "hierarchy:Workshop$", []string{"Tool care"}},
			{"*", "hierarchy:Tools$", nil},
		} {
			body := fmt.Sprintf(`{"query":%q,"key":"shop","%s":{"count":10,"filters":[%q]}}`, tc.query, k, tc.filter)
			r := searchOK(t, url, body)
			var got []string
			for _, it := range r.results(string(k)) {
				got = append(got, it["title"].(string))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s %q %s: %v, want %v", k, tc.query, tc.filter, got, tc.want)
			}
		}
	}
}

// TestContentResultMembers: "Content results (categories, brands, site
// pages, blog posts) are the stored item: `title`, `description`, `url`,
// `keywords`, `hierarchy`, `imgUrl`, `extraData`" (docs/decisions.md),
// and `fields` picks among them.
func TestContentResultMembers(t *testing.T) {
	var items []catalog.Content
	for _, k := range catalog.ContentKinds {
		items = append(items, catalog.Content{Kind: k, ID: "id-" + string(k), Title: "Lawn care", Description: "Keep it green",
			URL: "https://shop.example/" + string(k) + "/lawn", Keywords: "grass mowing", Hierarchy: []string{"Garden", "Lawn"},
			ImgURL: "https://shop.example/lawn.jpg", ExtraData: map[string]string{"icon": "leaf", "tone": "green"}})
	}
	url := serveShop(t, shopSite(config.SearchVersion{}), hardware(), items, Options{})
	for _, k := range catalog.ContentKinds {
		r := searchOK(t, url, fmt.Sprintf(`{"query":"lawn","key":"shop","%s":{"count":1}}`, k))
		got := expect.Some(t, string(k), r.results(string(k)))[0]
		want := map[string]any{"title": "Lawn care", "description": "Keep it green", "url": "https://shop.example/" + string(k) + "/lawn",
			"keywords": "grass mowing", "hierarchy": []any{"Garden", "Lawn"}, "imgUrl": "https://shop.example/lawn.jpg",
			"extraData": map[string]any{"icon": "leaf", "tone": "green"}}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s result %v, want %v", k, got, want)
		}
		r = searchOK(t, url, fmt.Sprintf(`{"query":"lawn","key":"shop","%s":{"count":1,"fields":["title","extraData.icon"]}}`, k))
		if got := string(member(t, r.raw, string(k), "results")); got != `[{"title":"Lawn care","extraData":{"icon":"leaf"}}]` {
			t.Errorf("%s with fields: %s", k, got)
		}
	}
}

// TestCustomTemplateForHTML: "`template`: Go `html/template` source for
// `format: "html"` [...] it receives `.Query`, `.Products`, `.Total`,
// `.Start` [...]" (docs/configuration.md).
func TestCustomTemplateForHTML(t *testing.T) {
	url := serveShop(t, shopSite(config.SearchVersion{
		Template: `<p>{{.Total}} for {{.Query}} from {{.Start}}:{{range .Products}} {{index . "productNumber"}}{{end}}{{range .Categories}} [{{index . "title"}}]{{end}}</p>`,
	}), hardware(), content(), Options{})
	r := searchOK(t, url, `{"query":"hammer","key":"shop","format":"html","products":{"count":5,"sorting":["price asc"]},"categories":{"count":1,"filters":["hierarchy:Workshop$"]}}`)
	if got, want := r.get("html"), `<p>3 for hammer from 0: P01 P02 P04</p>`; got != want {
		// The categories' "tools" does not match "hammer": none listed.
		t.Errorf("html %q, want %q", got, want)
	}
	r = searchOK(t, url, `{"query":"hose","key":"shop","format":"html","products":{"count":1,"start":1},"categories":{"count":1,"filters":["hierarchy:Garden$"]}}`)
	if got, want := r.get("html"), `<p>1 for hose from 1: [Garden hoses]</p>`; got != want {
		t.Errorf("html %q, want %q", got, want)
	}
}

// TestHTMLFormatReturnsHTMLAndCounters: "`html` Present when format is
// html [...]; `results` absent when format is html, in which case only the
// counters are present" (spec, Search response).
func TestHTMLFormatReturnsHTMLAndCounters(t *testing.T) {
	url := serveShop(t, shopSite(config.SearchVersion{Fields: []config.SearchField{{Name: "title", Weight: 5}, {Name: "hierarchies", Weight: 1}}}), hardware(), content(), Options{})
	r := searchOK(t, url, `{"query":"garden","key":"shop","format":"html","products":{"count":1},"categories":{"count":2},"redirects":{"count":1}}`)
	html, _ := r.get("html").(string)
	if !strings.Contains(html, `class="aisle-products"`) || !strings.Contains(html, "Garden hose") {
		t.Errorf("html %q", html)
	}
	for kind, want := range map[string]map[string]any{
		"products":   {"start": 0.0, "requestedCount": 1.0, "returnedCount": 1.0, "totalCount": 4.0},
		"categories": {"start": 0.0, "requestedCount": 2.0, "returnedCount": 2.0, "totalCount": 3.0},
		"redirects":  {"start": 0.0, "requestedCount": 1.0, "returnedCount": 0.0, "totalCount": 0.0},
	} {
		got, _ := r.get(kind).(map[string]any)
		if got == nil || got["results"] != nil || got["initialContent"] != nil {
			t.Errorf("%s: %v, want counters and no results", kind, got)
			continue
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s.%s = %v, want %v", kind, k, got[k], v)
			}
		}
	}
}

// TestScoreOnlyWhenFieldsAbsentOrNamed: "Product results always carry
// `suggestedResult`; `score` only when `fields` is absent or names it"
// (docs/decisions.md, Fields).
func TestScoreOnlyWhenFieldsAbsentOrNamed(t *testing.T) {
	url := hardwareShop(t)
	for _, tc := range []struct {
		fields string
		want   []string // the members of every result, sorted; nil: all stored ones plus score
	}{
		{``, nil},
		{`,"fields":["title"]`, []string{"suggestedResult", "title"}},
		{`,"fields":["title","score"]`, []string{"score", "suggestedResult", "title"}},
		{`,"fields":["score"]`, []string{"score", "suggestedResult"}},
		{`,"fields":["productNumber","extraData.size"]`, []string{"extraData", "productNumber", "suggestedResult"}},
	} {
		// P01 and P02, hammers with a size.
		r := searchOK(t, url, q("hammer", `"count":5,"filters":["extraData.size:M","extraData.size:L"]`+tc.fields))
		for _, p := range expect.Some(t, "hammers", r.results("products")) {
			got := slices.Sorted(maps.Keys(p))
			if tc.want == nil {
				if _, ok := p["score"].(float64); !ok || !slices.Contains(got, "suggestedResult") || !slices.Contains(got, "title") {
					t.Errorf("no fields: members %v, want the stored product with score and suggestedResult", got)
				}
				continue
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("fields %s: members %v, want %v", tc.fields, got, tc.want)
			}
		}
	}
}

// TestFieldsDottedNames: "a dotted name returns the nested object with
// only the requested members (`{"extraData": {"size": "M"}}`)"
// (docs/decisions.md, Fields).
func TestFieldsDottedNames(t *testing.T) {
	url := hardwareShop(t)
	// P01 has extraData {"size": "M", "color": "red"} and extraDataNumber {"rating": 4.5}.
	for _, tc := range []struct{ fields, want string }{
		{`["productNumber","extraData.size"]`, `{"productNumber":"P01","extraData":{"size":"M"},"suggestedResult":false}`},
		{`["extraData.size","productNumber"]`, `{"extraData":{"size":"M"},"productNumber":"P01","suggestedResult":false}`},
		{`["extraData.color","extraData.size"]`, `{"extraData":{"color":"red","size":"M"},"suggestedResult":false}`},
		{`["extraData.size","extraDataNumber.rating"]`, `{"extraData":{"size":"M"},"extraDataNumber":{"rating":4.5},"suggestedResult":false}`},
		{`["extraData","extraData.size"]`, `{"extraData":{"color":"red","size":"M"},"suggestedResult":false}`},
		{`["extraData.size","extraData"]`, `{"extraData":{"color":"red","size":"M"},"suggestedResult":false}`},
	} {
		r := searchOK(t, url, q("claw", `"count":1,"fields":`+tc.fields))
		if got := string(member(t, r.raw, "products", "results")); got != "["+tc.want+"]" {
			t.Errorf("fields %s: %s, want [%s]", tc.fields, got, tc.want)
		}
	}
}

// shears is a catalog for a two-word synonym: "pruning shears" and
// "secateurs" find each other.
func shears(t *testing.T) string {
	return serveShop(t, shopSite(config.SearchVersion{
		Synonyms: []config.Synonym{{Terms: []string{"pruning shears", "secateurs"}}},
	}), []catalog.Product{
		{ProductNumber: "S1", Title: "Pruning shears deluxe"},
		{ProductNumber: "S2", Title: "Felco secateurs"},
		{ProductNumber: "S3", Title: "Pruning saw"},
		{ProductNumber: "S4", Title: "Garden shears"},
	}, nil, Options{})
}

// suggestedOf maps r's product numbers to their suggestedResult.
func suggestedOf(t *testing.T, r reply) map[string]any {
	t.Helper()
	out := map[string]any{}
	for _, p := range r.results("products") {
		out[p["productNumber"].(string)] = p["suggestedResult"]
	}
	return out
}

// TestMultiWordSynonymsBothSides: "Multi-word synonyms are supported on
// both sides; a multi-word source is recognised as consecutive words of
// the query" (docs/decisions.md, Data); "every word of a phrase must be in
// the product" and "Products found only through a synonym are
// `suggestedResult: true`" (docs/configuration.md, synonyms).
func TestMultiWordSynonymsBothSides(t *testing.T) {
	url := shears(t)
	for _, tc := range []struct {
		query string
		want  map[string]any // product number → suggestedResult
	}{
		// A one-word source finds the two-word phrase, whole.
		{"secateurs", map[string]any{"S2": false, "S1": true}},
		// A two-word source finds the one-word synonym.
		{"pruning shears", map[string]any{"S1": false, "S2": true}},
		{"Pruning  Shears ", map[string]any{"S1": false, "S2": true}},
	} {
		r := searchOK(t, url, q(tc.query, `"count":10,"fields":["productNumber"]`))
		got := suggestedOf(t, r)
		if !maps.Equal(got, tc.want) {
			t.Errorf("%q finds %v, want %v", tc.query, got, tc.want)
		}
	}
	// Not consecutive: no synonym; the words themselves still match.
	r := searchOK(t, url, q("shears pruning", `"count":10,"fields":["productNumber"]`))
	if got := suggestedOf(t, r); got["S2"] != nil || got["S1"] != false {
		t.Errorf(`"shears pruning" finds %v: want S1 and not S2`, got)
	}
}

// TestSuggestedStatusOverWholeResultSet: "Suggested status is computed
// over the whole result set, not only the page" (docs/decisions.md).
func TestSuggestedStatusOverWholeResultSet(t *testing.T) {
	url := shears(t)
	for _, tc := range []struct {
		products string
		first    string
	}{
		{`"count":1,"fields":["productNumber"]`, "S2"}, // the page holds only the direct product
		{`"count":1,"start":1,"fields":["productNumber"]`, "S1"},
		{`"count":0`, ""},
	} {
		r := searchOK(t, url, q("secateurs", tc.products))
		if s := r.get("products", "suggestedProductStatus"); s != "MIXED" {
			t.Errorf("%s: status %v, want MIXED", tc.products, s)
		}
		if tc.first != "" {
			if got := productNumbers(t, r); !slices.Equal(got, []string{tc.first}) {
				t.Errorf("%s: page %v, want [%s]", tc.products, got, tc.first)
			}
		}
	}
	if s := searchOK(t, url, q("felco", `"count":1`)).get("products", "suggestedProductStatus"); s != "NO_SUGGESTED" {
		t.Errorf("felco: status %v, want NO_SUGGESTED", s)
	}
}

// TestRedirectFragmentAndOriginalURL: "Redirect URLs get the fragment
// `#aisle-redirect=<trackingCode>`; `originalUrl` is the configured URL"
// (docs/decisions.md); queries are "compared folded, spaces collapsed"
// (docs/configuration.md, redirects).
func TestRedirectFragmentAndOriginalURL(t *testing.T) {
	const target = "https://shop.example/help/returns?from=search"
	url := serveShop(t, shopSite(config.SearchVersion{
		Redirects: []config.Redirect{{Queries: []string{"returns", "Money back"}, Title: "Returns & refunds", URL: target, TrackingCode: "r-ret"}},
	}), hardware(), nil, Options{})
	want := map[string]any{"title": "Returns & refunds", "url": target + "#aisle-redirect=r-ret", "trackingCode": "r-ret", "originalUrl": target}
	for _, query := range []string{"returns", "  RETURNS ", "money   back", "MÖNEY BACK"} {
		r := searchOK(t, url, fmt.Sprintf(`{"query":%q,"key":"shop","redirects":{"count":1}}`, query))
		items := r.results("redirects")
		if len(items) != 1 || !maps.Equal(items[0], want) || r.get("redirects", "totalCount") != 1.0 {
			t.Errorf("%q: redirects %s, want [%v]", query, member(t, r.raw, "redirects"), want)
		}
	}
	r := searchOK(t, url, `{"query":"return","key":"shop","redirects":{"count":1}}`)
	if items := r.results("redirects"); len(items) != 0 {
		t.Errorf("return (not a configured query) redirects to %v", items)
	}
}

// TestFewMatchesRelaxToSomeWords: "When fewer than 10 products match every
// word of a multi-word query, products matching some of the words follow
// them, those matching more words first" (docs/decisions.md, Matching).
func TestFewMatchesRelaxToSomeWords(t *testing.T) {
	var products []catalog.Product
	for i := 1; i <= 9; i++ {
		products = append(products, catalog.Product{ProductNumber: fmt.Sprintf("C%02d", i), Title: "Oak chair"})
	}
	products = append(products,
		catalog.Product{ProductNumber: "R1", Title: "Red oak chair"},
		catalog.Product{ProductNumber: "R2", Title: "Red oak table"},
		catalog.Product{ProductNumber: "R3", Title: "Red lamp"},
		catalog.Product{ProductNumber: "R4", Title: "Blue rug"},
	)
	url := serveShop(t, shopSite(config.SearchVersion{}), products, nil, Options{})
	// One product has all three words: then two words, then one.
	r := searchOK(t, url, q("red oak chair ", `"count":3,"fields":["productNumber"]`))
	if got := productNumbers(t, r); total(r) != 12 || got[0] != "R1" || got[1] != "R2" {
		t.Errorf("red oak chair: total %d, first %v; want 12 (all but the rug), R1 then R2", total(r), got)
	}
	r = searchOK(t, url, q("red oak chair ", `"count":20,"fields":["productNumber"]`))
	if got := productNumbers(t, r); got[len(got)-1] != "R3" {
		t.Errorf("red oak chair lists %v: want R3, with one word, last", got)
	}
	// Ten products have both words: no relaxing.
	r = searchOK(t, url, q("oak chair ", `"count":20,"fields":["productNumber"]`))
	if got := productNumbers(t, r); len(got) != 10 || slices.Contains(got, "R2") {
		t.Errorf("oak chair lists %v: want the 10 oak chairs only", got)
	}
}

// TestOneWaySynonyms: "`{"from": "tv", "terms": [...]}` is one-way"
// (docs/configuration.md, synonyms).
func TestOneWaySynonyms(t *testing.T) {
	url := serveShop(t, shopSite(config.SearchVersion{
		Synonyms: []config.Synonym{{From: "tv", Terms: []string{"television"}}},
	}), []catalog.Product{
		{ProductNumber: "V1", Title: "Smart TV"},
		{ProductNumber: "V2", Title: "Television stand"},
	}, nil, Options{})
	for _, tc := range []struct {
		query string
		want  map[string]any
	}{
		{"tv ", map[string]any{"V1": false, "V2": true}},
		{"television ", map[string]any{"V2": false}},
	} {
		r := searchOK(t, url, q(tc.query, `"count":10,"fields":["productNumber"]`))
		if got := suggestedOf(t, r); !maps.Equal(got, tc.want) {
			t.Errorf("%q finds %v, want %v", tc.query, got, tc.want)
		}
	}
}

// TestReturnFiltersDefaultFalse: "`returnFilters` default is false (the
// SDK's default)" (docs/decisions.md).
func TestReturnFiltersDefaultFalse(t *testing.T) {
	url := hardwareShop(t)
	for _, tc := range []struct {
		products string
		want     bool
	}{{`"count":1`, false}, {`"count":1,"returnFilters":false`, false}, {`"count":1,"returnFilters":true`, true}} {
		r := searchOK(t, url, q("*", tc.products))
		if _, got := r.get("products").(map[string]any)["filters"]; got != tc.want {
			t.Errorf("%s: filters present %v, want %v", tc.products, got, tc.want)
		}
	}
}

// TestAcceptedNotYetUsed: "`trackingUserId` and
// `includeRetailMediaInReview` are accepted so spec clients work
// unchanged" (docs/decisions.md).
func TestAcceptedNotYetUsed(t *testing.T) {
	url := hardwareShop(t)
	plain := searchOK(t, url, q("hammer", `"count":5,"fields":["productNumber"]`))
	r := searchOK(t, url, `{"query":"hammer","key":"shop","trackingUserId":"u-123","includeRetailMediaInReview":true,"products":{"count":5,"fields":["productNumber"]}}`)
	if got, want := productNumbers(t, r), productNumbers(t, plain); !slices.Equal(got, want) {
		t.Errorf("with tracking members: %v, without: %v", got, want)
	}
}

// TestDeviceOverrides: "`devices`: `DESKTOP` / `MOBILE` overrides of
// `facets`, `sorting`, `maxFacetValues`" (docs/configuration.md); a
// request without deviceType gets the version's own settings.
func TestDeviceOverrides(t *testing.T) {
	url := serveShop(t, shopSite(config.SearchVersion{
		Facets:         hardwareFacets,
		Sorting:        []config.SortOption{{Field: "price", Title: "Price"}, {Field: "created", Title: "Newest"}},
		MaxFacetValues: 3,
		Devices: map[string]config.Device{
			"MOBILE":  {Facets: hardwareFacets[:1], Sorting: []config.SortOption{{Field: "title", Title: "Name"}}, MaxFacetValues: 1},
			"DESKTOP": {MaxFacetValues: 4},
		},
	}), hardware(), nil, Options{})
	names := func(r reply, member string) []string {
		var out []string
		for _, v := range expect.Some(t, member, r.get("products", member).([]any)) {
			out = append(out, v.(map[string]any)["name"].(string))
		}
		return out
	}
	for _, tc := range []struct {
		device         string
		facets, sorted []string
		brands         int
	}{
		{"", []string{"brand", "hierarchies", "price", "isOnSale", "created"}, []string{"price", "created"}, 3},
		{`"deviceType":"DESKTOP",`, []string{"brand", "hierarchies", "price", "isOnSale", "created"}, []string{"price", "created"}, 4},
		{`"deviceType":"MOBILE",`, []string{"brand"}, []string{"title"}, 1},
	} {
		r := searchOK(t, url, `{"query":"*","key":"shop",`+tc.device+`"products":{"count":0,"returnFilters":true}}`)
		if got := names(r, "filters"); !slices.Equal(got, tc.facets) {
			t.Errorf("%s facets %v, want %v", tc.device, got, tc.facets)
		}
		if got := names(r, "sorting"); !slices.Equal(got, tc.sorted) {
			t.Errorf("%s sorting %v, want %v", tc.device, got, tc.sorted)
		}
		if got := len(values(facet(r, "brand"))); got != tc.brands {
			t.Errorf("%s: %d brand values, want %d", tc.device, got, tc.brands)
		}
	}
}
