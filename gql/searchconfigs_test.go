package gql_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/goccy/go-json"
)

// search runs /serve/search on key (version id when not 0) and answers
// its product numbers.
func (s *shop) search(t *testing.T, key, query string, id int) []string {
	t.Helper()
	body := map[string]any{"query": query, "key": key, "products": map[string]any{"count": 10, "fields": []string{"productNumber"}}}
	if id != 0 {
		body["id"] = id
	}
	b, _ := json.Marshal(body)
	resp, err := http.Post(s.url+"/serve/search", "application/json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Products struct {
			Results []struct {
				ProductNumber string `json:"productNumber"`
			} `json:"results"`
		} `json:"products"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	var pns []string
	for _, r := range out.Products.Results {
		pns = append(pns, r.ProductNumber)
	}
	return pns
}

// TestSearchConfigurationVersions: a draft copied from the live version,
// changed, found by its id in /serve/search, published (the old live
// version becomes a draft, in one change), and deleted; the live
// version cannot be deleted; bad settings are named and change nothing;
// a key of another website may do none of it.
func TestSearchConfigurationVersions(t *testing.T) {
	s := twoShops(t)
	d := s.do(t, operator, `mutation { createSearchConfigurationDraft(key: "shop") { id status synonyms { from terms } } }`, nil).ok(t)
	draft := d["createSearchConfigurationDraft"].(map[string]any)
	if draft["id"] != 3.0 || draft["status"] != "draft" { // the shop has versions 1 (live) and 2
		t.Fatalf("draft: %v", draft)
	}
	// The draft learns that a "mallet" is a hammer.
	vars := map[string]any{"v": map[string]any{
		"fields":   []any{map[string]any{"name": "title", "weight": 5}, map[string]any{"name": "brand", "weight": 3}},
		"synonyms": []any{map[string]any{"terms": []string{"mallet", "hammer"}}},
	}}
	s.do(t, operator, `mutation ($v: SearchConfigurationVersionInput!) { updateSearchConfigurationVersion(key: "shop", id: 3, version: $v) { id } }`, vars).ok(t)
	if got := s.search(t, "shop", "mallet", 3); len(got) == 0 {
		t.Errorf("the draft (id 3) finds nothing for mallet")
	}
	if got := s.search(t, "shop", "mallet", 0); len(got) != 0 {
		t.Errorf("the live version finds %v for mallet before the draft is published", got)
	}

	// Bad settings are named, and change nothing.
	bad := s.do(t, operator, `mutation { updateSearchConfigurationVersion(key: "shop", id: 3, version: {fields: [{name: "title", weight: 1}], facets: [{field: "nope", type: LIST, title: "x"}]}) { id } }`, nil)
	if bad.code() != "BAD_USER_INPUT" || !strings.HasPrefix(bad.Errors[0].Message, "version.facets[0]") || !strings.Contains(bad.Errors[0].Message, "nope") {
		t.Errorf("a facet on a field that is not indexed: %s", bad.Raw)
	}
	bad = s.do(t, operator, `mutation { updateSearchConfigurationVersion(key: "shop", id: 3, version: {fields: [{name: 5}]}) { id } }`, nil)
	if bad.code() != "BAD_USER_INPUT" {
		t.Errorf("a number for a name: %s", bad.Raw)
	}

	// A key of website B may not touch A's configuration.
	_, secretB := s.createKey(t, operator, map[string]any{"name": "admin B", "scopes": []string{"ADMIN"}, "websiteUuid": siteB})
	for _, m := range []string{
		`mutation { publishSearchConfigurationVersion(key: "shop", id: 3) { id } }`,
		`mutation { deleteSearchConfigurationVersion(key: "shop", id: 2) }`,
		`mutation { createSearchConfigurationDraft(key: "shop") { id } }`,
	} {
		if a := s.do(t, secretB, m, nil); a.code() != "FORBIDDEN" {
			t.Errorf("B's admin key: %s: %s", m, a.Raw)
		}
	}

	// Publishing swaps the statuses in one change.
	s.do(t, operator, `mutation { publishSearchConfigurationVersion(key: "shop", id: 3) { id status } }`, nil).ok(t)
	if got := s.search(t, "shop", "mallet", 0); len(got) == 0 {
		t.Errorf("the published version finds nothing for mallet")
	}
	d = s.do(t, operator, `{ searchConfiguration(key: "shop") { id key versions { id status } } }`, nil).ok(t)
	vs := d["searchConfiguration"].(map[string]any)["versions"].([]any)
	if len(vs) != 3 || vs[0].(map[string]any)["status"] != "draft" || vs[2].(map[string]any)["status"] != "live" {
		t.Errorf("after publishing version 3: %v", vs)
	}
	if a := s.do(t, operator, `mutation { deleteSearchConfigurationVersion(key: "shop", id: 3) }`, nil); a.code() != "BAD_USER_INPUT" {
		t.Errorf("deleting the live version: %s", a.Raw)
	}
	s.do(t, operator, `mutation { deleteSearchConfigurationVersion(key: "shop", id: 1) }`, nil).ok(t)
	if got := s.search(t, "shop", "mallet", 1); got != nil {
		t.Errorf("a deleted version still answers: %v", got)
	}
}
