package gql_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// createKey makes a key with key as the caller and returns its id and
// secret, failing the test on an error.
func (s *shop) createKey(t *testing.T, key string, input map[string]any) (id, secret string) {
	t.Helper()
	d := s.do(t, key, `mutation ($in: CreateApiKeyInput!) { createApiKey(input: $in) { key { id name scopes websiteUuid companyId createdAt } secret } }`, map[string]any{"in": input}).ok(t)
	c := d["createApiKey"].(map[string]any)
	return c["key"].(map[string]any)["id"].(string), c["secret"].(string)
}

// TestKeys: the operator's key makes keys of a website, of a company
// and of the server; a website's admin key makes keys of its website
// only and lists only those; a revoked key is refused at once; the REST
// admin routes take the same keys; secrets are shown once and never
// listed.
func TestKeys(t *testing.T) {
	s := twoShops(t)
	adminA, secretAdminA := s.createKey(t, operator, map[string]any{"name": "console A", "scopes": []string{"ADMIN"}, "websiteUuid": siteA})
	_, secretAcme := s.createKey(t, operator, map[string]any{"name": "acme auditors", "scopes": []string{"AUDIT"}, "companyId": "acme"})
	// A key shows its reach: a website's has no company, a company's no website.
	d := s.do(t, operator, `{ apiKeys { edges { node { name scopes websiteUuid companyId createdAt } } } }`, nil).ok(t)
	if got := mustJSON(d); !strings.Contains(got, `{"companyId":null,"createdAt":`) || !strings.Contains(got, `"companyId":"acme"`) ||
		!strings.Contains(got, `"scopes":["AUDIT"],"websiteUuid":null`) || !strings.Contains(got, `"websiteUuid":"`+siteA+`"`) {
		t.Errorf("apiKeys: %s", got)
	}
	searchA, secretSearchA := s.createKey(t, secretAdminA, map[string]any{"name": "storefront A", "scopes": []string{"SEARCH"}, "websiteUuid": siteA})

	// A website's admin key makes nothing beyond its website.
	for _, in := range []map[string]any{
		{"name": "x", "scopes": []string{"SEARCH"}, "websiteUuid": siteB},
		{"name": "x", "scopes": []string{"ADMIN"}, "companyId": "acme"},
		{"name": "x", "scopes": []string{"ADMIN"}},
	} {
		a := s.do(t, secretAdminA, `mutation ($in: CreateApiKeyInput!) { createApiKey(input: $in) { secret } }`, map[string]any{"in": in})
		if a.code() != "FORBIDDEN" {
			t.Errorf("admin key of A making %v: %s, want FORBIDDEN", in, a.Raw)
		}
	}
	// Bad input is named.
	a := s.do(t, operator, `mutation { createApiKey(input: {name: "", scopes: [SEARCH]}) { secret } }`, nil)
	if a.code() != "BAD_USER_INPUT" {
		t.Errorf("a key without a name: %s", a.Raw)
	}
	a = s.do(t, operator, `mutation { createApiKey(input: {name: "x", scopes: [SEARCH], websiteUuid: "00000000-0000-4000-8000-0000000000ff"}) { secret } }`, nil)
	if a.code() != "NOT_FOUND" {
		t.Errorf("a key of a website not served: %s", a.Raw)
	}

	// Listing: the operator sees every stored key, A's admin key A's
	// keys, the company audit key none (it may not list keys).
	list := func(key string) (ids []string, raw string) {
		after := ""
		for {
			a := s.do(t, key, `query ($after: String) { apiKeys(first: 1, after: $after) { edges { node { id name scopes websiteUuid companyId } } pageInfo { endCursor hasNextPage } } }`,
				map[string]any{"after": after})
			if a.code() != "" {
				return nil, a.Raw
			}
			raw += a.Raw
			c := a.Data["apiKeys"].(map[string]any)
			for _, e := range c["edges"].([]any) {
				ids = append(ids, e.(map[string]any)["node"].(map[string]any)["id"].(string))
			}
			pi := c["pageInfo"].(map[string]any)
			if !pi["hasNextPage"].(bool) {
				return ids, raw
			}
			after = pi["endCursor"].(string)
		}
	}
	if ids, raw := list(operator); len(ids) != 3 || strings.Contains(raw, "aisle_") {
		t.Errorf("the operator lists %v (want 3 keys, no secret): %s", ids, raw)
	}
	if ids, _ := list(secretAdminA); len(ids) != 2 || !slices.Contains(ids, adminA) || !slices.Contains(ids, searchA) {
		t.Errorf("A's admin key lists %v, want its own and A's search key", ids)
	}
	if _, raw := list(secretAcme); !strings.Contains(raw, "FORBIDDEN") {
		t.Errorf("an audit key lists keys: %s", raw)
	}

	// The REST admin routes take the keys: A's admin key writes A, not
	// B; A's search key writes nothing.
	for _, c := range []struct {
		key, site string
		status    int
	}{
		{secretAdminA, siteA, 200},
		{secretAdminA, siteB, 403},
		{secretSearchA, siteA, 403},
		{secretAcme, siteA, 403},
		{"nobody", siteA, 401},
	} {
		req, _ := http.NewRequest("POST", s.url+"/admin/v1/websites/"+c.site+"/products", strings.NewReader(`[{"productNumber":"K1","title":"Key ring"}]`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+c.key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("REST write to %s with key %.16s…: %d, want %d", c.site, c.key, resp.StatusCode, c.status)
		}
	}

	// Revoking: A's admin key revokes A's search key; the key is refused
	// from the answer on; it cannot revoke a key of the operator's.
	d = s.do(t, secretAdminA, `mutation ($id: ID!) { revokeApiKey(id: $id) { id name } }`, map[string]any{"id": searchA}).ok(t)
	if d["revokeApiKey"].(map[string]any)["id"] != searchA {
		t.Errorf("revokeApiKey answered %v", d)
	}
	if a := s.do(t, secretSearchA, `{ websites { uuid } }`, nil); a.Status != 401 || a.code() != "UNAUTHORIZED" {
		t.Errorf("a revoked key: %d %s", a.Status, a.Raw)
	}
	if a := s.do(t, secretAdminA, `mutation ($id: ID!) { revokeApiKey(id: $id) { id } }`, map[string]any{"id": searchA}); a.code() != "NOT_FOUND" {
		t.Errorf("revoking twice: %s", a.Raw)
	}
}
