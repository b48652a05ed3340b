package gql_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/internal/testshop"
)

const productQuery = `query ($uuid: ID!, $pn: String!) { product(websiteUuid: $uuid, productNumber: $pn) {
	productNumber title price brand hierarchies variantProductNumbers extraData { key value } extraDataNumber { key value } } }`

// TestProductLookup: a product is found by its number, compared as
// search compares numbers (case-folded); a number no product has is
// null, not an error.
func TestProductLookup(t *testing.T) {
	s := twoShops(t)
	for _, c := range []struct{ pn, want string }{
		{"A100", "A100"},
		{"a100", "A100"},
		{"NOPE", ""},
	} {
		d := s.do(t, operator, productQuery, map[string]any{"uuid": siteA, "pn": c.pn}).ok(t)
		p, _ := d["product"].(map[string]any)
		switch {
		case c.want == "" && d["product"] != nil:
			t.Errorf("product %q: %v, want null", c.pn, d["product"])
		case c.want != "" && (p == nil || p["productNumber"] != c.want):
			t.Errorf("product %q: %v, want %s", c.pn, d["product"], c.want)
		}
	}
	d := s.do(t, operator, productQuery, map[string]any{"uuid": siteA, "pn": "A100"}).ok(t)
	p := d["product"].(map[string]any)
	if p["title"] != "Cordless Drill 18V" || p["price"] != 99.5 || p["brand"] != "Makita" ||
		fmt.Sprint(p["hierarchies"]) != "[[Tools Power Tools Drills]]" || fmt.Sprint(p["extraData"]) != "[map[key:color value:Red] map[key:size value:M]]" {
		t.Errorf("A100: %v", p)
	}
}

// pageWalk walks the products connection of website uuid for query in
// pages of size, answering the product numbers in order and the
// totalCount the first page gives.
func (s *shop) pageWalk(t *testing.T, uuid, query string, size int) (pns []string, total int) {
	t.Helper()
	vars := map[string]any{"uuid": uuid, "q": query, "n": size}
	for page := 0; ; page++ {
		if page > 100 {
			t.Fatal("the walk does not end")
		}
		d := s.do(t, operator, `query ($uuid: ID!, $q: String, $n: Int, $after: String) { products(websiteUuid: $uuid, query: $q, first: $n, after: $after) {
			edges { cursor node { productNumber } } pageInfo { endCursor hasNextPage } totalCount } }`, vars).ok(t)
		c := d["products"].(map[string]any)
		if page == 0 {
			total = int(c["totalCount"].(float64))
		}
		edges := c["edges"].([]any)
		if len(edges) > size {
			t.Fatalf("page %d has %d edges, asked %d", page, len(edges), size)
		}
		for _, e := range edges {
			pns = append(pns, e.(map[string]any)["node"].(map[string]any)["productNumber"].(string))
		}
		info := c["pageInfo"].(map[string]any)
		if info["hasNextPage"] != true {
			return pns, total
		}
		if len(edges) == 0 || info["endCursor"] != edges[len(edges)-1].(map[string]any)["cursor"] {
			t.Fatalf("page %d: endCursor %v is not its last edge's cursor", page, info["endCursor"])
		}
		vars["after"] = info["endCursor"]
	}
}

// TestProductsConnection: walking the catalog in pages of 3 sees every
// product of testshop once, and totalCount is their number; a query
// narrows the list to what it matches; bad pages are named.
func TestProductsConnection(t *testing.T) {
	s := twoShops(t)
	var want []string
	for _, p := range testshop.Products() {
		want = append(want, p.ProductNumber)
	}
	got, total := s.pageWalk(t, siteA, "", 3)
	if total != len(want) {
		t.Errorf("totalCount %d, want %d", total, len(want))
	}
	sorted := slices.Sorted(slices.Values(got))
	if !slices.Equal(sorted, slices.Sorted(slices.Values(want))) {
		t.Errorf("the walk saw %v, want each of %v once", got, want)
	}

	drills, total := s.pageWalk(t, siteA, "drill", 3)
	if len(drills) == 0 || len(drills) >= len(want) || total != len(drills) {
		t.Errorf("query drill: %v (total %d), want fewer than all %d", drills, total, len(want))
	}
	if search := s.search(t, "shop", "drill", 0); !slices.Equal(search, drills) {
		t.Errorf("query drill: %v, /serve/search answers %v", drills, search)
	}

	for _, c := range []struct{ args, field string }{
		{`first: 0`, "first"},
		{`first: 101`, "first"},
		{`after: "!!"`, "after"},
		{`after: "OTk5OTk"`, "after"}, // offset 99999: the page would end past 100,000
	} {
		a := s.do(t, operator, `{ products(websiteUuid: "`+siteA+`", `+c.args+`) { totalCount } }`, nil)
		if a.code() != "BAD_USER_INPUT" || a.Errors[0].Extensions["field"] != c.field {
			t.Errorf("%s: %s, want BAD_USER_INPUT on %s", c.args, a.Raw, c.field)
		}
	}
}

// TestProductsWithoutSearch: a website with no search configuration
// lists its products in index order, each once; a query is refused.
func TestProductsWithoutSearch(t *testing.T) {
	s := twoShops(t)
	for _, key := range []string{"shop-b", "plain-b", "bare-b"} {
		s.do(t, operator, `mutation ($k: String!) { deleteSearchConfiguration(key: $k) }`, map[string]any{"k": key}).ok(t)
	}
	var want []string
	for _, p := range testshop.Products() {
		want = append(want, p.ProductNumber)
	}
	got, total := s.pageWalk(t, siteB, "", 3)
	if total != len(want) || !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
		t.Errorf("the walk of B saw %v (total %d), want each of %v once", got, total, want)
	}
	a := s.do(t, operator, `{ products(websiteUuid: "`+siteB+`", query: "drill") { totalCount } }`, nil)
	if a.code() != "BAD_USER_INPUT" || a.Errors[0].Extensions["field"] != "query" {
		t.Errorf("a query on a website with no search configuration: %s", a.Raw)
	}
}

const upsertMutation = `mutation ($uuid: ID!, $ps: [ProductInput!]!) { upsertProducts(websiteUuid: $uuid, products: $ps) { seq added updated deleted notFound } }`

// TestUpsertProducts: products upserted are found by product and by
// /serve/search once the mutation answers; a batch with an invalid
// product is refused naming it and changes nothing; a batch past 100
// products is refused and points to the REST feed.
func TestUpsertProducts(t *testing.T) {
	s := twoShops(t)
	ps := []map[string]any{
		{"productNumber": "Z1", "title": "Zebra mallet", "price": 12.5, "brand": "Zed", "extraData": []any{map[string]any{"key": "color", "value": "Black"}}},
		{"productNumber": "A100", "title": "Cordless Drill 18V mk2", "price": 89},
	}
	d := s.do(t, operator, upsertMutation, map[string]any{"uuid": siteA, "ps": ps}).ok(t)
	r := d["upsertProducts"].(map[string]any)
	if r["added"] != 1.0 || r["updated"] != 1.0 || r["deleted"] != 0.0 || r["seq"].(float64) <= 0 {
		t.Errorf("upsertProducts answered %v", r)
	}
	// The write's audit entry names the mutation and its key.
	d = s.do(t, operator, `{ auditLogs(first: 1) { edges { node { websiteUuid auditLogSession { authenticatedEntityName sessionEvents } } } } }`, nil).ok(t)
	if got := fmt.Sprint(d["auditLogs"]); !strings.Contains(got, siteA) || !strings.Contains(got, "sessionEvents:[upsertProducts]") || !strings.Contains(got, "authenticatedEntityName:cli") {
		t.Errorf("the upsert's audit entry: %s", got)
	}
	p := s.do(t, operator, productQuery, map[string]any{"uuid": siteA, "pn": "z1"}).ok(t)["product"].(map[string]any)
	if p["title"] != "Zebra mallet" || fmt.Sprint(p["extraData"]) != "[map[key:color value:Black]]" {
		t.Errorf("Z1 after the upsert: %v", p)
	}
	if got := s.search(t, "shop", "zebra", 0); !slices.Equal(got, []string{"Z1"}) {
		t.Errorf("/serve/search zebra after the upsert: %v", got)
	}
	if got := s.search(t, "shop-b", "zebra", 0); len(got) != 0 {
		t.Errorf("website B finds A's new product: %v", got)
	}

	// An invalid product refuses the batch, naming it; nothing changes.
	before := s.catalogState(t)
	bad := []map[string]any{{"productNumber": "Z2", "title": "Fine"}, {"productNumber": "Z3", "price": 1}}
	a := s.do(t, operator, upsertMutation, map[string]any{"uuid": siteA, "ps": bad})
	if a.code() != "BAD_USER_INPUT" || a.Errors[0].Extensions["field"] != "products[1].title" || !strings.Contains(a.Errors[0].Message, "nothing was applied") {
		t.Errorf("a product without a title: %s", a.Raw)
	}
	// So is a member of the wrong type.
	a = s.do(t, operator, `mutation { upsertProducts(websiteUuid: "`+siteA+`", products: [{productNumber: "Z4", title: "x", price: "cheap"}]) { seq } }`, nil)
	if a.code() != "BAD_USER_INPUT" {
		t.Errorf("a price that is not a number: %s", a.Raw)
	}
	// And more than 100 products.
	many := make([]map[string]any, 101)
	for i := range many {
		many[i] = map[string]any{"productNumber": fmt.Sprintf("M%d", i), "title": "Many"}
	}
	a = s.do(t, operator, upsertMutation, map[string]any{"uuid": siteA, "ps": many})
	if a.code() != "BAD_USER_INPUT" || a.Errors[0].Extensions["field"] != "products" || !strings.Contains(a.Errors[0].Message, "/admin/v1/websites/"+siteA+"/products") {
		t.Errorf("101 products: %s", a.Raw)
	}
	if after := s.catalogState(t); after != before {
		t.Errorf("a refused batch changed the catalog:\nbefore %s\nafter  %s", before, after)
	}
}

// catalogState is website A's catalog as the products connection lists
// it, whole.
func (s *shop) catalogState(t *testing.T) string {
	t.Helper()
	d := s.do(t, operator, `{ products(websiteUuid: "`+siteA+`", first: 100) { totalCount edges { node { productNumber title price } } } }`, nil).ok(t)
	return fmt.Sprint(d)
}

// TestDeleteProducts: the numbers found are deleted in one change, the
// others listed in notFound; a list past 1,000 is refused.
func TestDeleteProducts(t *testing.T) {
	s := twoShops(t)
	d := s.do(t, operator, `mutation ($uuid: ID!, $pns: [String!]!) { deleteProducts(websiteUuid: $uuid, productNumbers: $pns) { seq added deleted notFound } }`,
		map[string]any{"uuid": siteA, "pns": []string{"a100", "NOPE"}}).ok(t)
	r := d["deleteProducts"].(map[string]any)
	if r["deleted"] != 1.0 || fmt.Sprint(r["notFound"]) != "[NOPE]" {
		t.Errorf("deleteProducts answered %v", r)
	}
	if d := s.do(t, operator, productQuery, map[string]any{"uuid": siteA, "pn": "A100"}).ok(t); d["product"] != nil {
		t.Errorf("A100 after its delete: %v", d["product"])
	}
	if d := s.do(t, operator, productQuery, map[string]any{"uuid": siteB, "pn": "A100"}).ok(t); d["product"] == nil {
		t.Errorf("deleting A's A100 deleted B's")
	}
	many := make([]string, 1001)
	for i := range many {
		many[i] = fmt.Sprintf("M%d", i)
	}
	a := s.do(t, operator, `mutation ($pns: [String!]!) { deleteProducts(websiteUuid: "`+siteA+`", productNumbers: $pns) { seq } }`, map[string]any{"pns": many})
	if a.code() != "BAD_USER_INPUT" || a.Errors[0].Extensions["field"] != "productNumbers" {
		t.Errorf("1,001 numbers: %s", a.Raw)
	}
}

// TestProductsForbidden: a search key of website A (the storefront's)
// and an admin key of website B may use no products field on A, and
// change nothing.
func TestProductsForbidden(t *testing.T) {
	s := twoShops(t)
	_, searchA := s.createKey(t, operator, map[string]any{"name": "search A", "scopes": []string{"SEARCH"}, "websiteUuid": siteA})
	_, adminB := s.createKey(t, operator, map[string]any{"name": "admin B", "scopes": []string{"ADMIN"}, "websiteUuid": siteB})
	before := s.catalogState(t)
	for _, op := range []string{
		`{ product(websiteUuid: "` + siteA + `", productNumber: "A100") { title } }`,
		`{ products(websiteUuid: "` + siteA + `") { totalCount } }`,
		`mutation { upsertProducts(websiteUuid: "` + siteA + `", products: [{productNumber: "X1", title: "Intruder"}]) { seq } }`,
		`mutation { deleteProducts(websiteUuid: "` + siteA + `", productNumbers: ["A100"]) { seq } }`,
	} {
		for _, k := range []struct{ name, secret string }{{"search A", searchA}, {"admin B", adminB}} {
			if a := s.do(t, k.secret, op, nil); a.code() != "FORBIDDEN" || a.Data["product"] != nil {
				t.Errorf("%s: %s: %s, want FORBIDDEN", k.name, op, a.Raw)
			}
		}
	}
	if after := s.catalogState(t); after != before {
		t.Errorf("forbidden calls changed the catalog:\nbefore %s\nafter  %s", before, after)
	}
	// B's admin key reads its own website.
	if a := s.do(t, adminB, `{ product(websiteUuid: "`+siteB+`", productNumber: "A100") { title } }`, nil); a.code() != "" {
		t.Errorf("B's admin key on B: %s", a.Raw)
	}
}

// TestProductDescriptions: Product and ProductInput and every field of
// theirs are described, none by the name-made fallback.
func TestProductDescriptions(t *testing.T) {
	s := twoShops(t)
	for _, name := range []string{"Product", "ProductInput", "ProductConnection", "ProductEdge", "ProductWriteResult"} {
		d := s.do(t, operator, `query ($n: String!) { __type(name: $n) { description fields { name description } inputFields { name description } } }`, map[string]any{"n": name}).ok(t)
		typ := d["__type"].(map[string]any)
		if typ["description"] == "" || typ["description"] == nil {
			t.Errorf("%s has no description", name)
		}
		for _, list := range []string{"fields", "inputFields"} {
			fs, _ := typ[list].([]any)
			for _, f := range fs {
				f := f.(map[string]any)
				desc, _ := f["description"].(string)
				if desc == "" || strings.HasSuffix(desc, " of this product.") {
					t.Errorf("%s.%s is described %q", name, f["name"], desc)
				}
			}
		}
	}
}
