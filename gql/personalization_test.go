package gql_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-json"
)

const setPersonalization = `mutation ($id: ID!, $fields: [PersonalizationFieldInput!]!) {
  updateSearchAlgorithmPersonalization(personalization: {algorithmId: $id, personalizedFields: $fields}) {
    allowedFields availableFields personalizedFields { field boostValue }
  }
}`

// fields is a personalizedFields variable: field, boostValue pairs.
func fields(pairs ...any) []any {
	out := []any{}
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, map[string]any{"field": pairs[i], "boostValue": pairs[i+1]})
	}
	return out
}

var allFields = []any{"product.pi.budgetZone", "product.pi.productCluster", "product.pi.brandAffinity",
	"product.pi.categoryAffinity", "product.pi.colorAffinity", "product.pi.sizeAffinity"}

// TestPersonalizationMutation: the spec's mutation sets, replaces and
// clears an algorithm's fields (0 leaves one out), answers the stored
// list with availableFields and the allowed ones, reads back through
// searchAlgorithmPersonalization, writes an audit entry, and refuses
// each of the spec's error conditions with nothing changed.
func TestPersonalizationMutation(t *testing.T) {
	s := twoShops(t)
	set := func(key string, id string, fs []any) answer {
		return s.do(t, key, setPersonalization, map[string]any{"id": id, "fields": fs})
	}
	d := set(operator, "shop", fields("product.pi.brandAffinity", 7, "product.pi.colorAffinity", 0, "product.pi.budgetZone", 10)).ok(t)
	got := d["updateSearchAlgorithmPersonalization"].(map[string]any)
	want := map[string]any{
		"availableFields":    allFields,
		"allowedFields":      []any{"product.pi.budgetZone", "product.pi.productCluster", "product.pi.brandAffinity", "product.pi.categoryAffinity", "product.pi.colorAffinity"},
		"personalizedFields": fields("product.pi.brandAffinity", 7, "product.pi.budgetZone", 10),
	}
	if a, b := mustJSON(got), mustJSON(want); a != b {
		t.Errorf("answer %s\nwant   %s", a, b)
	}
	read := func() string {
		d := s.do(t, operator, `{ searchAlgorithmPersonalization(algorithmId: "shop") { personalizedFields { field boostValue } } }`, nil).ok(t)
		return mustJSON(d["searchAlgorithmPersonalization"].(map[string]any)["personalizedFields"])
	}
	if r := read(); r != mustJSON(want["personalizedFields"]) {
		t.Errorf("read back %s", r)
	}
	nodes, _, _ := s.auditNodes(t, operator, map[string]any{"first": 1})
	if n := nodes[0]; n["resourceType"] != "SEARCH_CONFIG" || mustJSON(n["changedFields"]) != `["personalization"]` ||
		!slices.Contains(n["auditLogSession"].(map[string]any)["sessionEvents"].([]any), any("updateSearchAlgorithmPersonalization")) {
		t.Errorf("audit entry %v", n)
	}

	stored := read()
	for _, c := range []struct {
		name, key, id string
		fs            []any
		code, msg     string
	}{
		{"unknown algorithm", operator, "nope", fields("product.pi.brandAffinity", 1), "NOT_FOUND", "Invalid algorithm ID"},
		{"unknown field", operator, "shop", fields("product.pi.shoeSize", 1), "BAD_USER_INPUT", "Invalid field name"},
		{"field twice", operator, "shop", fields("product.pi.brandAffinity", 1, "product.pi.brandAffinity", 2), "BAD_USER_INPUT", "Invalid field name"},
		{"boost above 10", operator, "shop", fields("product.pi.brandAffinity", 11), "BAD_USER_INPUT", "Invalid boost value"},
		{"negative boost", operator, "shop", fields("product.pi.brandAffinity", -1), "BAD_USER_INPUT", "Invalid boost value"},
		{"boost not an integer", operator, "shop", fields("product.pi.brandAffinity", 2.5), "BAD_USER_INPUT", "Invalid boost value"},
		{"boost a string", operator, "shop", fields("product.pi.brandAffinity", "3"), "BAD_USER_INPUT", "Invalid boost value"},
		{"bad field after a good one", operator, "shop", fields("product.pi.budgetZone", 3, "brand", 3), "BAD_USER_INPUT", "Invalid field name"},
		{"invalid key", "aisle_0000000000000000_" + strings.Repeat("0", 64), "shop", fields(), "UNAUTHORIZED", "Unauthorized"},
		{"no key", "", "shop", fields(), "UNAUTHORIZED", "Unauthorized"},
	} {
		a := set(c.key, c.id, c.fs)
		if a.code() != c.code || !strings.HasPrefix(a.Errors[0].Message, c.msg) && !strings.Contains(a.Errors[0].Message, c.msg) {
			t.Errorf("%s: %s, want %s %q", c.name, a.Raw, c.code, c.msg)
		}
		if r := read(); r != stored {
			t.Errorf("%s changed the stored fields: %s", c.name, r)
		}
	}
	_, adminB := s.createKey(t, operator, map[string]any{"name": "admin B", "scopes": []string{"ADMIN"}, "websiteUuid": siteB})
	if a := set(adminB, "shop", fields()); a.code() != "FORBIDDEN" {
		t.Errorf("B's admin key on A's algorithm: %s", a.Raw)
	}
	if a := s.do(t, adminB, `{ searchAlgorithmPersonalization(algorithmId: "shop") { allowedFields } }`, nil); a.code() != "FORBIDDEN" {
		t.Errorf("B's admin key reading A's algorithm: %s", a.Raw)
	}
	// An empty list removes every boost.
	d = set(operator, "shop", fields()).ok(t)
	if r := mustJSON(d["updateSearchAlgorithmPersonalization"].(map[string]any)["personalizedFields"]); r != "[]" || read() != "[]" {
		t.Errorf("after an empty list: %s, read %s", r, read())
	}
}

// TestPersonalizationRanksForEachVisitor: through real HTTP, events
// collected for two visitors (one into Kestrel mugs, one into Ardent)
// order one search and one page differently for each, the retail_id
// cookie standing for trackingUserId; with every boost at 0 both see
// the anonymous order.
func TestPersonalizationRanksForEachVisitor(t *testing.T) {
	s := twoShops(t)
	var mugs []any
	for i := range 8 {
		brand, colour := "Kestrel", "green"
		if i%2 == 1 {
			brand, colour = "Ardent", "black"
		}
		mugs = append(mugs, map[string]any{"productNumber": fmt.Sprintf("M%02d", i), "title": "Travel Mug", "brand": brand, "price": 12 + i,
			"extraData": []any{map[string]any{"key": "color", "value": colour}}, "hierarchies": [][]string{{"Kitchen", "Mugs"}}})
	}
	s.do(t, operator, `mutation ($p: [ProductInput!]!) { upsertProducts(websiteUuid: "`+siteA+`", products: $p) { seq } }`, map[string]any{"p": mugs}).ok(t)
	s.do(t, operator, `mutation { updatePageVersion(key: "page-a", id: 1, version: {searchConfig: "shop"}) { id } }`, nil).ok(t)
	for _, e := range []struct{ user, pn string }{{"kim", "M02"}, {"kim", "M04"}, {"ari", "M03"}, {"ari", "M05"}} {
		s.collect(t, "view", fmt.Sprintf(`{"websiteUuid": %q, "trackingUserId": %q, "productNumber": %q}`, siteA, e.user, e.pn))
	}
	searchAs := func(user, cookie string) string {
		return brandsOf(s.serve(t, "/serve/search", user, cookie, `{"key": "shop", "query": "mug", "products": {"count": 4, "fields": ["brand"]}}`))
	}
	pageAs := func(user, cookie string) string {
		return brandsOf(s.serve(t, "/serve/pages/page-a", user, cookie, `{"url": "https://shop.test/all", "firstLoad": false, "format": "json", "params": {"filters": {"brand": {"$in": ["Kestrel", "Ardent"]}}}, "products": {"start": 0, "count": 4, "fields": ["brand"]}}`))
	}
	for _, c := range []struct {
		name string
		get  func(user, cookie string) string
	}{{"search", searchAs}, {"page", pageAs}} {
		s.do(t, operator, setPersonalization, map[string]any{"id": "shop", "fields": fields(allFields[2], 10, allFields[4], 10)}).ok(t)
		anon := c.get("", "")
		if kim, ari, kimCookie := c.get("kim", ""), c.get("ari", ""), c.get("", "kim"); kim != "KKKK" || ari != "AAAA" || kimCookie != kim {
			t.Errorf("%s: kim sees %s, ari %s, kim by cookie %s (anonymous %s): want KKKK, AAAA, KKKK", c.name, kim, ari, kimCookie, anon)
		}
		s.do(t, operator, setPersonalization, map[string]any{"id": "shop", "fields": fields(allFields[2], 0, allFields[4], 0)}).ok(t)
		if kim, ari := c.get("kim", ""), c.get("ari", ""); kim != anon || ari != anon {
			t.Errorf("%s with every boost at 0: kim sees %s, ari %s, want the anonymous %s", c.name, kim, ari, anon)
		}
	}
}

// collect posts one event of kind.
func (s *shop) collect(t *testing.T, kind, body string) {
	t.Helper()
	resp, err := http.Post(s.url+"/serve/collect/"+kind, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("collect %s: %s", body, resp.Status)
	}
}

// serve posts body to path for visitor user (as trackingUserId) or
// cookie (as the retail_id cookie) and returns the products' brands.
func (s *shop) serve(t *testing.T, path, user, cookie, body string) []string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	if user != "" {
		m["trackingUserId"] = user
	}
	req, _ := http.NewRequest("POST", s.url+path, strings.NewReader(mustJSON(m)))
	req.Header.Set("Content-Type", "application/json")
	if cookie != "" {
		req.AddCookie(&http.Cookie{Name: "retail_id", Value: cookie})
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	type hit struct {
		Brand string `json:"brand"`
	}
	var out struct {
		Products struct {
			Results []hit `json:"results"` // a search's
			Result  []hit `json:"result"`  // a page's
		} `json:"products"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %s %v", path, resp.Status, err)
	}
	var brands []string
	for _, r := range append(out.Products.Results, out.Products.Result...) {
		brands = append(brands, r.Brand)
	}
	return brands
}

// brandsOf is each brand's initial.
func brandsOf(brands []string) string {
	out := ""
	for _, b := range brands {
		out += b[:1]
	}
	return out
}
