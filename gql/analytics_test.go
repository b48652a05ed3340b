package gql_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/gql"
)

const analyticsQuery = `query ($w: ID!, $from: String!, $to: String!, $n: Int) {
  analytics(websiteUuid: $w, from: $from, to: $to, first: $n) {
    websiteUuid from to searches noResultSearches
    topSearches { query searches clicks purchases clickThroughRate conversionRate }
    noResultQueries { query searches }
    topClickedProducts { productNumber clicks }
    topPurchasedProducts { productNumber orders units }
    recommendationBoxes { key impressions clicks purchases clickThroughRate }
    campaigns { key impressions clicks purchases clickThroughRate }
  }
}`

// TestAnalyticsOverHTTP: events posted to /serve/collect and a
// recommendations call answer the analytics query: searches, the one
// that found nothing, a search's click and purchase, products clicked
// and bought, the box's impression, click and purchase. An analytics
// key of the website's company reads them; a key of another website,
// or of another scope, is refused.
func TestAnalyticsOverHTTP(t *testing.T) {
	s := twoShops(t)
	post := func(path, body string) {
		t.Helper()
		resp, err := http.Post(s.url+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: %s", path, body, resp.Status)
		}
	}
	w := fmt.Sprintf("%q", siteA)
	for _, pn := range []string{"A100", "A200", "B100"} {
		post("/serve/collect/view", `{"websiteUuid": `+w+`, "trackingUserId": "someone", "productNumber": "`+pn+`"}`)
	}
	post("/serve/collect/search", `{"websiteUuid": `+w+`, "trackingUserId": "kim", "query": " Cordless  DRILL", "results": 3}`)
	post("/serve/collect/search", `{"websiteUuid": `+w+`, "trackingUserId": "ari", "query": "unicorn", "results": 0}`)
	post("/serve/collect/click", `{"websiteUuid": `+w+`, "trackingUserId": "kim", "productNumber": "A100", "shown": {"source": "search", "key": "shop", "position": 1}}`)
	post("/serve/recoms", `{"websiteUuid": `+w+`, "trackingUserId": "kim", "requests": [{"key": "box-a"}]}`)
	post("/serve/collect/click", `{"websiteUuid": `+w+`, "trackingUserId": "kim", "productNumber": "A200", "shown": {"source": "recoms", "key": "box-a"}}`)
	post("/serve/collect/purchase", `{"websiteUuid": `+w+`, "trackingUserId": "kim", "orderNumber": "o-1", "lines": [{"productNumber": "A100", "quantity": 2}, {"productNumber": "a200"}]}`)

	today := time.Now().UTC().Format(time.DateOnly)
	vars := map[string]any{"w": siteA, "from": today, "to": today, "n": 5}
	want := `{"campaigns":[],"from":"` + today + `","noResultQueries":[{"query":"unicorn","searches":1}],"noResultSearches":1,` +
		`"recommendationBoxes":[{"clickThroughRate":1,"clicks":1,"impressions":1,"key":"box-a","purchases":1}],"searches":2,"to":"` + today + `",` +
		`"topClickedProducts":[{"clicks":1,"productNumber":"A100"},{"clicks":1,"productNumber":"A200"}],` +
		`"topPurchasedProducts":[{"orders":1,"productNumber":"A100","units":2},{"orders":1,"productNumber":"A200","units":1}],` +
		`"topSearches":[{"clickThroughRate":1,"clicks":1,"conversionRate":1,"purchases":1,"query":"cordless drill","searches":1},` +
		`{"clickThroughRate":0,"clicks":0,"conversionRate":0,"purchases":0,"query":"unicorn","searches":1}],"websiteUuid":"` + siteA + `"}`
	var got string
	for deadline := time.Now().Add(10 * time.Second); ; { // the box's impression is recorded without waiting for the disk
		got = mustJSON(s.do(t, operator, analyticsQuery, vars).ok(t)["analytics"])
		if got == want || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got != want {
		t.Errorf("analytics\n got %s\nwant %s", got, want)
	}

	_, analyticsAcme := s.createKey(t, operator, map[string]any{"name": "analytics acme", "scopes": []string{"ANALYTICS"}, "companyId": "acme"})
	if a := s.do(t, analyticsAcme, analyticsQuery, vars); mustJSON(a.ok(t)["analytics"]) != want {
		t.Errorf("the company's analytics key: %s", a.Raw)
	}
	_, adminB := s.createKey(t, operator, map[string]any{"name": "admin B", "scopes": []string{"ADMIN"}, "websiteUuid": siteB})
	_, searchA := s.createKey(t, operator, map[string]any{"name": "search A", "scopes": []string{"SEARCH"}, "websiteUuid": siteA})
	for name, key := range map[string]string{"another website's": adminB, "a search key's": searchA, "the company's analytics key on B": analyticsAcme} {
		v := vars
		if strings.Contains(name, "on B") {
			v = map[string]any{"w": siteB, "from": today, "to": today}
		}
		if a := s.do(t, key, analyticsQuery, v); a.code() != "FORBIDDEN" || strings.Contains(a.Raw, "unicorn") {
			t.Errorf("%s: %s, want FORBIDDEN", name, a.Raw)
		}
	}
	if a := s.do(t, "", analyticsQuery, vars); a.Status != http.StatusUnauthorized {
		t.Errorf("no key: %d %s", a.Status, a.Raw)
	}
	for _, bad := range []map[string]any{
		{"w": siteA, "from": "2026-13-01", "to": today},
		{"w": siteA, "from": today, "to": "2020-01-01"},
		{"w": siteA, "from": "2024-01-01", "to": "2025-06-01"},
		{"w": siteA, "from": today, "to": today, "n": 101},
	} {
		if a := s.do(t, operator, analyticsQuery, bad); a.code() != "BAD_USER_INPUT" {
			t.Errorf("%v: %s, want BAD_USER_INPUT", bad, a.Raw)
		}
	}
}

// TestAnalyticsOfEachWebsite: over generated months of events of two
// websites, the query answers each website's own aggregates for random
// ranges (the aggregates are checked against a brute force in package
// behaviour).
func TestAnalyticsOfEachWebsite(t *testing.T) {
	s := twoShops(t)
	r := rand.New(rand.NewPCG(3, 4))
	start := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	pns := []string{"A100", "A200", "B100", "B200", "C100"}
	for i := range 3000 {
		site := []string{siteA, siteB}[r.IntN(2)]
		at := start.Add(time.Duration(i) * 50 * time.Minute)
		user := fmt.Sprint("v", r.IntN(30))
		e := &events.Event{Website: site, User: user, Time: at.UnixMilli()}
		switch r.IntN(4) {
		case 0:
			n := r.IntN(2) * 7
			e.Kind, e.Query, e.Results = events.Search, []string{"drill", "hose", "sofa", "lamp"}[r.IntN(4)], &n
		case 1:
			e.Kind, e.ProductNumber, e.Shown = events.Click, pns[r.IntN(len(pns))], &events.Shown{Source: events.SourceSearch, Key: "shop"}
		case 2:
			e.Kind, e.OrderNumber, e.ProductNumbers = events.Purchase, fmt.Sprint("o", i), []string{pns[r.IntN(len(pns))]}
		default:
			e.Kind, e.Shown = events.Impression, &events.Shown{Source: events.SourceRecoms, Key: fmt.Sprint("box-", r.IntN(3))}
		}
		s.bhv.Fold(e)
	}
	for range 10 {
		from := start.AddDate(0, 0, r.IntN(100)-5)
		to := from.AddDate(0, 0, r.IntN(60))
		var answers [2]string
		for i, site := range []string{siteA, siteB} {
			vars := map[string]any{"w": site, "from": from.Format(time.DateOnly), "to": to.Format(time.DateOnly), "n": 3}
			answers[i] = mustJSON(s.do(t, operator, analyticsQuery, vars).ok(t)["analytics"])
			var want any // through JSON: the answer's members are in name order
			if err := json.Unmarshal([]byte(mustJSON(gql.AnalyticsOf(site, s.bhv.Model(site).Analytics(behaviour.DayOf(from.UnixMilli()), behaviour.DayOf(to.UnixMilli()), 3)))), &want); err != nil {
				t.Fatal(err)
			}
			if answers[i] != mustJSON(want) {
				t.Fatalf("%s %s to %s:\n got %s\nwant %s", site, from, to, answers[i], want)
			}
		}
		if answers[0] == answers[1] && strings.Contains(answers[0], `"searches":1`) {
			t.Errorf("both websites answer %s", answers[0])
		}
	}
}
