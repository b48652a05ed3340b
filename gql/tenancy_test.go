package gql_test

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/goccy/go-json"
)

// walkOp is an operation for TestCrossTenantWalk.
type walkOp struct {
	field, op string
	listing   bool
	audit     bool
	analytics bool
}

// walkOps are an operation on website A (siteA, search key "shop") for
// every root field of the schema: TestCrossTenantWalk runs each with
// keys that may not, and checks that every root field is here, so a
// field added later cannot skip the walk. listing marks the fields that
// answer a narrowed list rather than FORBIDDEN (a key sees its own
// websites and keys only); audit the fields an audit key may use,
// analytics those an analytics key may.
var walkOps = []walkOp{
	{field: "websites", op: `{ websites { uuid } }`, listing: true},
	{field: "website", op: `{ website(uuid: "` + siteA + `") { uuid } }`},
	{field: "searchConfiguration", op: `{ searchConfiguration(key: "shop") { key } }`},
	{field: "page", op: `{ page(key: "nope-a") { key } }`, listing: true},
	{field: "apiKeys", op: `{ apiKeys { edges { node { id websiteUuid } } } }`, listing: true},
	{field: "auditLogs", op: `{ auditLogs(filter: {websiteUuid: "` + siteA + `"}) { edges { node { id } } } }`, audit: true},
	{field: "createApiKey", op: `mutation { createApiKey(input: {name: "x", scopes: [ADMIN], websiteUuid: "` + siteA + `"}) { secret } }`},
	{field: "revokeApiKey", op: `mutation { revokeApiKey(id: "$ADMIN_A") { id } }`},
	{field: "createSearchConfiguration", op: `mutation { createSearchConfiguration(websiteUuid: "` + siteA + `", key: "walk", version: {fields: [{name: "title", weight: 1}]}) { key } }`},
	{field: "createSearchConfigurationDraft", op: `mutation { createSearchConfigurationDraft(key: "shop") { id } }`},
	{field: "updateSearchConfigurationVersion", op: `mutation { updateSearchConfigurationVersion(key: "shop", id: 2, version: {fields: [{name: "title", weight: 1}]}) { id } }`},
	{field: "publishSearchConfigurationVersion", op: `mutation { publishSearchConfigurationVersion(key: "shop", id: 2) { id } }`},
	{field: "deleteSearchConfigurationVersion", op: `mutation { deleteSearchConfigurationVersion(key: "shop", id: 2) }`},
	{field: "deleteSearchConfiguration", op: `mutation { deleteSearchConfiguration(key: "shop") }`},
	{field: "createPage", op: `mutation { createPage(websiteUuid: "` + siteA + `", key: "walk-page", version: {}) { key } }`},
	{field: "createPageDraft", op: `mutation { createPageDraft(key: "page-a") { id } }`},
	{field: "updatePageVersion", op: `mutation { updatePageVersion(key: "page-a", id: 1, version: {}) { id } }`},
	{field: "publishPageVersion", op: `mutation { publishPageVersion(key: "page-a", id: 1) { id } }`},
	{field: "deletePageVersion", op: `mutation { deletePageVersion(key: "page-a", id: 1) }`},
	{field: "deletePage", op: `mutation { deletePage(key: "page-a") }`},
	{field: "upsertRecommendationBox", op: `mutation { upsertRecommendationBox(websiteUuid: "` + siteA + `", box: {key: "walk-box", count: 2, sources: [{type: "TOP"}]}) { key } }`},
	{field: "deleteRecommendationBox", op: `mutation { deleteRecommendationBox(websiteUuid: "` + siteA + `", key: "box-a") }`},
	{field: "upsertCampaign", op: `mutation { upsertCampaign(websiteUuid: "` + siteA + `", campaign: {id: "walk", state: "ACTIVE", products: ["P01"], positions: [1]}) { id } }`},
	{field: "deleteCampaign", op: `mutation { deleteCampaign(websiteUuid: "` + siteA + `", key: "c-a") }`},
	{field: "createWebsite", op: `mutation { createWebsite(input: {name: "walk", companyId: "acme"}) { uuid } }`},
	{field: "deleteWebsite", op: `mutation { deleteWebsite(uuid: "` + siteA + `") }`},
	{field: "updateWebsite", op: `mutation { updateWebsite(uuid: "` + siteA + `", input: {name: "walked"}) { name } }`},
	{field: "product", op: `{ product(websiteUuid: "` + siteA + `", productNumber: "A100") { title } }`},
	{field: "products", op: `{ products(websiteUuid: "` + siteA + `") { totalCount } }`},
	{field: "upsertProducts", op: `mutation { upsertProducts(websiteUuid: "` + siteA + `", products: [{productNumber: "W1", title: "Walk"}]) { seq } }`},
	{field: "deleteProducts", op: `mutation { deleteProducts(websiteUuid: "` + siteA + `", productNumbers: ["A100"]) { seq } }`},
	{field: "searchAlgorithmPersonalization", op: `{ searchAlgorithmPersonalization(algorithmId: "shop") { personalizedFields { field } } }`},
	{field: "updateSearchAlgorithmPersonalization", op: `mutation { updateSearchAlgorithmPersonalization(personalization: {algorithmId: "shop", personalizedFields: [{field: "product.pi.brandAffinity", boostValue: 3}]}) { allowedFields } }`},
	{field: "analytics", op: `{ analytics(websiteUuid: "` + siteA + `", from: "2026-01-01", to: "2026-03-31") { searches } }`, analytics: true},
	{field: "setIndexedFields", op: `mutation { setIndexedFields(uuid: "` + siteA + `", fields: [{name: "brand", type: KEYWORD}]) { uuid } }`},
}

// TestCrossTenantWalk runs every query and mutation on website A with a
// key of website B (admin), of A's company's other scopes (search,
// audit where the field is not the audit log's) and expects FORBIDDEN
// and nothing changed: the stored configuration, keys and audit log are
// as they were. A listing answers only what the key may see instead.
func TestCrossTenantWalk(t *testing.T) {
	s := twoShops(t)
	adminA, _ := s.createKey(t, operator, map[string]any{"name": "admin A", "scopes": []string{"ADMIN"}, "websiteUuid": siteA})
	_, adminB := s.createKey(t, operator, map[string]any{"name": "admin B", "scopes": []string{"ADMIN"}, "websiteUuid": siteB})
	_, globex := s.createKey(t, operator, map[string]any{"name": "globex admin", "scopes": []string{"ADMIN"}, "companyId": "globex"})
	_, searchA := s.createKey(t, operator, map[string]any{"name": "search A", "scopes": []string{"SEARCH"}, "websiteUuid": siteA})
	_, auditA := s.createKey(t, operator, map[string]any{"name": "audit A", "scopes": []string{"AUDIT"}, "websiteUuid": siteA})
	_, analyticsAcme := s.createKey(t, operator, map[string]any{"name": "analytics acme", "scopes": []string{"ANALYTICS"}, "companyId": "acme"})

	// Every root field of the schema is walked.
	d := s.do(t, operator, `{ __schema { queryType { fields { name } } mutationType { fields { name } } } }`, nil).ok(t)
	var roots []string
	for _, tname := range []string{"queryType", "mutationType"} {
		for _, f := range d["__schema"].(map[string]any)[tname].(map[string]any)["fields"].([]any) {
			roots = append(roots, f.(map[string]any)["name"].(string))
		}
	}
	sort.Strings(roots)
	for _, r := range roots {
		if !slices.ContainsFunc(walkOps, func(o walkOp) bool { return o.field == r }) {
			t.Errorf("root field %s is not walked: add it to walkOps", r)
		}
	}

	before := s.state(t)
	for _, o := range walkOps {
		op := strings.ReplaceAll(o.op, "$ADMIN_A", adminA)
		for _, k := range []struct{ name, secret string }{{"admin B", adminB}, {"globex admin", globex}, {"search A", searchA}, {"audit A", auditA}, {"analytics acme", analyticsAcme}} {
			if o.audit && k.name == "audit A" {
				continue // an audit key of A reads A's audit log
			}
			if o.analytics && k.name == "analytics acme" {
				continue // an analytics key of A's company reads A's analytics
			}
			a := s.do(t, k.secret, op, nil)
			switch {
			case o.listing && a.code() == "":
				if strings.Contains(a.Raw, siteA) || strings.Contains(a.Raw, adminA) {
					t.Errorf("%s with %s lists A's: %s", o.field, k.name, a.Raw)
				}
			case a.code() != "FORBIDDEN":
				t.Errorf("%s with %s: %s, want FORBIDDEN", o.field, k.name, a.Raw)
			}
		}
	}
	if after := s.state(t); after != before {
		t.Errorf("the walk changed the store:\nbefore %s\nafter  %s", before, after)
	}
}

// state is what the walk must not change: the stored configuration,
// the stored keys and the audit log's newest entry.
func (s *shop) state(t *testing.T) string {
	t.Helper()
	f, err := s.st.Config()
	if err != nil {
		t.Fatal(err)
	}
	keys, err := s.st.Keys()
	if err != nil {
		t.Fatal(err)
	}
	d := s.do(t, operator, `{ auditLogs(first: 1) { edges { node { id } } } }`, nil).ok(t)
	b, _ := json.Marshal([]any{f, keys, d})
	return string(b)
}
