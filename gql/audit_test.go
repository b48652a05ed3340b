package gql_test

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/live"
)

const auditPage = `query ($f: AuditLogFilterInput, $s: AuditLogSort, $n: Int, $after: String) {
  auditLogs(filter: $f, sort: $s, first: $n, after: $after) {
    edges { cursor node { id sourceId sequenceKey websiteUuid companyId keypoint endpoint changedFields resourceTitle resourceType createdAt
      auditLogSession { sessionId authenticatedEntityName sessionEvents } } }
    pageInfo { endCursor hasNextPage }
  }
}`

// auditNodes is one page of auditLogs: its nodes, end cursor and
// whether another follows.
func (s *shop) auditNodes(t *testing.T, key string, vars map[string]any) (nodes []map[string]any, end string, more bool) {
	t.Helper()
	d := s.do(t, key, auditPage, vars).ok(t)
	c := d["auditLogs"].(map[string]any)
	for _, e := range c["edges"].([]any) {
		nodes = append(nodes, e.(map[string]any)["node"].(map[string]any))
	}
	pi := c["pageInfo"].(map[string]any)
	end, _ = pi["endCursor"].(string)
	return nodes, end, pi["hasNextPage"].(bool)
}

// TestAuditEntries: each kind of admin change writes its entry, with
// the resource, what changed, who made it and the keypoint and endpoint
// marks; a REST write and a GraphQL mutation are the same change.
func TestAuditEntries(t *testing.T) {
	s := twoShops(t)
	_, admin := s.createKey(t, operator, map[string]any{"name": "console A", "scopes": []string{"ADMIN"}, "websiteUuid": siteA})
	s.do(t, admin, `mutation { createSearchConfigurationDraft(key: "shop") { id } }`, nil).ok(t)
	s.do(t, admin, `mutation { publishSearchConfigurationVersion(key: "shop", id: 3) { id } }`, nil).ok(t)
	s.do(t, admin, `mutation { deleteSearchConfigurationVersion(key: "shop", id: 2) }`, nil).ok(t)
	s.do(t, admin, `mutation { updateWebsite(uuid: "`+siteA+`", input: {name: "Renamed"}) { name } }`, nil).ok(t)
	s.do(t, admin, `mutation { upsertRecommendationBox(websiteUuid: "`+siteA+`", box: {key: "box-a", count: 3, sources: [{type: "TOP"}], template: "<b>x</b>"}) { key } }`, nil).ok(t)
	status, _ := s.rest(t, admin, "POST", "/admin/v1/websites/"+siteA+"/products", `[{"productNumber":"AU1","title":"Audit tape"}]`)
	if status != 200 {
		t.Fatalf("REST write: %d", status)
	}

	nodes, _, _ := s.auditNodes(t, operator, map[string]any{"n": 20})
	type want struct {
		typ, source, changed string
		keypoint, endpoint   bool
		events               string
	}
	wants := []want{ // newest first
		{live.ResourceFeedConfig, "catalog", "products", false, false, "POST /admin/v1/websites/{websiteUuid}/products"},
		{live.ResourceRecomConfig, "box-a", "count", false, false, "upsertRecommendationBox"}, // one change, two entries
		{live.ResourceRecomDesign, "box-a", "template", false, false, "upsertRecommendationBox"},
		{live.ResourceWebsite, siteA, "name", false, false, "updateWebsite"},
		{live.ResourceSearchConfig, "shop", "versions[2]", false, true, "deleteSearchConfigurationVersion"},
		{live.ResourceSearchConfig, "shop", "versions[1].status,versions[3].status", true, false, "publishSearchConfigurationVersion"},
		{live.ResourceSearchConfig, "shop", "versions[3]", false, false, "createSearchConfigurationDraft"},
		{live.ResourceAPIKey, "", "name,scopes,websiteUuid", true, false, "createApiKey"},
	}
	if len(nodes) < len(wants) {
		t.Fatalf("%d entries, want at least %d: %v", len(nodes), len(wants), nodes)
	}
	for i, w := range wants {
		n := nodes[i]
		var changed []string
		for _, c := range n["changedFields"].([]any) {
			changed = append(changed, c.(string))
		}
		sess, _ := n["auditLogSession"].(map[string]any)
		var events []string
		for _, e := range sess["sessionEvents"].([]any) {
			events = append(events, e.(string))
		}
		who := sess["authenticatedEntityName"]
		wantWho := "console A"
		if w.typ == live.ResourceAPIKey {
			wantWho = "cli"
		}
		if n["resourceType"] != w.typ || (w.source != "" && n["sourceId"] != w.source) || strings.Join(changed, ",") != w.changed ||
			n["keypoint"] != w.keypoint || n["endpoint"] != w.endpoint || !slices.Contains(events, w.events) || who != wantWho ||
			n["companyId"] != "acme" || n["websiteUuid"] != siteA {
			t.Errorf("entry %d: %v\nwant %+v by %s", i, n, w, wantWho)
		}
		if !strings.HasPrefix(n["sequenceKey"].(string), w.typ+":"+siteA+":") {
			t.Errorf("entry %d: sequenceKey %v", i, n["sequenceKey"])
		}
	}

	// Filters: by resource type, keypoint, source, and time.
	for _, c := range []struct {
		filter map[string]any
		n      int
	}{
		{map[string]any{"resourceType": "SEARCH_CONFIG"}, 3},
		{map[string]any{"resourceType": "SEARCH_CONFIG", "keypoint": "true"}, 1},
		{map[string]any{"sourceId": "box-a"}, 2},
		{map[string]any{"endpoint": "true", "websiteUuid": siteA}, 1},
		{map[string]any{"companyId": "globex"}, 1}, // B's catalog, written by the test's setup
		{map[string]any{"createdAtBefore": "2000-01-01T00:00:00Z"}, 0},
		{map[string]any{"createdAtAfter": "2000-01-01T00:00:00Z", "resourceType": "WEBSITE"}, 1},
	} {
		got, _, _ := s.auditNodes(t, operator, map[string]any{"f": c.filter, "n": 100})
		if len(got) != c.n {
			t.Errorf("filter %v: %d entries, want %d", c.filter, len(got), c.n)
		}
	}
}

// TestAuditPagination walks the audit log of a website holding over
// 1,000 entries in pages of 7, newest and oldest first, while other
// changes are written, and sees each entry that was there when the walk
// began exactly once, in order.
func TestAuditPagination(t *testing.T) {
	s := twoShops(t)
	w := s.writer.As(live.Actor{Name: "seeder", Session: "seed"})
	key := func(i int) error { // a key of B: the cheapest change of B's
		_, _, _, err := w.CreateKey(access.Spec{Name: fmt.Sprintf("k%d", i), Scopes: []access.Scope{access.ScopeSearch}, Website: siteB})
		return err
	}
	for i := range 1000 {
		if err := key(i); err != nil {
			t.Fatal(err)
		}
	}
	filter := map[string]any{"websiteUuid": siteB}
	var before []string // every entry of B, oldest first
	for after := ""; ; {
		vars := map[string]any{"f": filter, "s": "CREATED_AT_ASC", "n": 100}
		if after != "" {
			vars["after"] = after
		}
		nodes, end, more := s.auditNodes(t, operator, vars)
		for _, n := range nodes {
			before = append(before, n["id"].(string))
		}
		if !more {
			break
		}
		after = end
	}
	if len(before) < 1000 {
		t.Fatalf("%d entries of website B, want at least 1,000", len(before))
	}
	for _, sort := range []string{"CREATED_AT_DESC", "CREATED_AT_ASC"} {
		t.Run(sort, func(t *testing.T) {
			var wg sync.WaitGroup
			stop := make(chan struct{})
			wg.Add(1)
			go func() { // changes of B beside the walk
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					_ = key(1000 + i)
				}
			}()
			var order []string
			after := ""
			for len(order) < len(before)+7 {
				vars := map[string]any{"f": filter, "s": sort, "n": 7}
				if after != "" {
					vars["after"] = after
				}
				nodes, end, more := s.auditNodes(t, operator, vars)
				for _, n := range nodes {
					order = append(order, n["id"].(string))
				}
				if !more {
					break
				}
				after = end
			}
			close(stop)
			wg.Wait()
			seen := map[string]int{}
			for _, id := range order {
				seen[id]++
			}
			for _, id := range before {
				if seen[id] != 1 {
					t.Fatalf("entry %s seen %d times", id, seen[id])
				}
			}
			sorted := slices.Clone(order)
			slices.Sort(sorted)
			if sort == "CREATED_AT_DESC" {
				slices.Reverse(sorted)
			}
			if !slices.Equal(sorted, order) {
				t.Errorf("the walk is not in %s order", sort)
			}
		})
	}
}

// rest sends a REST admin request with key and answers its status and
// body.
func (s *shop) rest(t *testing.T, key, method, path, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, s.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
