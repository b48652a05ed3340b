package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeRecomsFromAHandBuiltLog: a behaviour log imported with aisle
// import --events and replayed by aisle serve answers every source over
// HTTP exactly as worked out by hand, and one call repeats nothing.
//
// Counts (views, carts, buys; the repeated order O1 counts once):
// P1 2 views 2 buys (TOP 12), P3 1 view 2 buys (11), P5 1 view 1 cart
// 1 buy (9), P4 1 view 1 buy (6), P2 2 views (2), P6 1 view but out of
// stock (one of P2's views names only its page). Bought together with
// P1: P3 twice. Co-viewed with P4: P5.
func TestServeRecomsFromAHandBuiltLog(t *testing.T) {
	dir := t.TempDir()
	feed := writeFile(t, dir, "feed.jsonl", strings.Join([]string{
		`{"productNumber":"P1","title":"Cordless Drill","brand":"Voltmax","price":99,"inStock":true,"hierarchies":[["Tools","Drills"]]}`,
		`{"productNumber":"P2","title":"Hammer Drill","brand":"Voltmax","price":149,"inStock":true,"hierarchies":[["Tools","Drills"]],"url":"https://shop.test/p/hammer-drill"}`,
		`{"productNumber":"P3","title":"Drill Bits","brand":"Acme","price":15,"inStock":true,"hierarchies":[["Tools","Drills"]]}`,
		`{"productNumber":"P4","title":"Garden Hose","brand":"Flow","price":25,"inStock":true,"hierarchies":[["Garden"]]}`,
		`{"productNumber":"P5","title":"Hose Reel","brand":"Flow","price":40,"inStock":true,"hierarchies":[["Garden"]]}`,
		`{"productNumber":"P6","title":"Rake","brand":"Flow","price":20,"inStock":false,"hierarchies":[["Garden"]]}`,
	}, "\n")+"\n")
	data := filepath.Join(dir, "shop")
	mustRun(t, "import", "--data", data, "--quiet", "--website", shopSite, feed)
	at := time.Now().Add(-time.Hour).UnixMilli()
	var log []string
	event := func(kind, user, rest string) {
		// One time for all: counts tie exactly where the log says so.
		log = append(log, fmt.Sprintf(`{"kind":%q,"websiteUuid":%q,"trackingUserId":%q,"time":%d,%s}`, kind, shopSite, user, at, rest))
	}
	event("view", "u1", `"productNumber":"P1"`)
	event("view", "u1", `"productNumber":"P2"`)
	event("purchase", "u1", `"orderNumber":"O1","productNumbers":["P1","P3"]`)
	event("view", "u2", `"productNumber":"P1"`)
	event("view", "u2", `"productNumber":"P3"`)
	event("purchase", "u2", `"orderNumber":"O2","productNumbers":["P1","P3"]`)
	event("view", "u3", `"productNumber":"P4"`)
	event("view", "u3", `"productNumber":"P5"`)
	event("cart", "u3", `"productNumbers":["P5"]`)
	event("purchase", "u3", `"orderNumber":"O3","productNumbers":["P4","P5"]`)
	event("view", "u3", `"productNumber":"P6"`)
	event("view", "u4", `"url":"https://shop.test/p/hammer-drill?ref=mail"`)   // P2's page
	event("purchase", "u1", `"orderNumber":"O1","productNumbers":["P1","P3"]`) // a retry
	mustRun(t, "import", "--data", data, "--events", "--quiet", writeFile(t, dir, "events.jsonl", strings.Join(log, "\n")+"\n"))

	s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k")
	ask := func(body string) []string {
		t.Helper()
		status, raw := s.admin(t, "", "POST", "/serve/recoms", "application/json", body)
		var got struct {
			Success   bool
			Responses []struct {
				Success  bool
				Code     string
				Products []struct{ ProductNumber string }
			}
		}
		if err := json.Unmarshal([]byte(raw), &got); status != http.StatusOK || err != nil || !got.Success {
			t.Fatalf("%s: %d %s", body, status, raw)
		}
		var out []string
		for _, r := range got.Responses {
			if !r.Success {
				out = append(out, r.Code)
				continue
			}
			var pns []string
			for _, p := range r.Products {
				pns = append(pns, p.ProductNumber)
			}
			out = append(out, strings.Join(pns, " "))
		}
		return out
	}
	one := func(source, extra string) string {
		got := ask(`{"websiteUuid":"` + shopSite + `"` + extra + `,"requests":[{"trackingKey":"t","count":10,"fields":["productNumber"],"sources":[{"type":"` + source + `"}]` + extraContext(source) + `}]}`)
		return got[0]
	}
	for _, tc := range []struct{ source, extra, want string }{
		{"TOP", "", "P1 P3 P5 P4 P2"},
		{"MOST_BOUGHT", "", "P1 P3 P4 P5"},
		{"MOST_VIEWED", "", "P1 P2 P3 P4 P5"},
		{"BOUGHT_TOGETHER", "", "P3"},
		{"ALTERNATIVES", "", "P5"},
		{"RETARGETED", `,"trackingUserId":"u3"`, "P5 P4"},
		{"RECENTLY_BOUGHT", `,"trackingUserId":"u1"`, "P3 P1"},
		{"RETARGETED", `,"trackingUserId":"u4"`, "P2"}, // a view of P2's page
	} {
		if got := one(tc.source, tc.extra); got != tc.want {
			t.Errorf("%s%s: %q, want %q", tc.source, tc.extra, got, tc.want)
		}
	}
	got := ask(`{"websiteUuid":"` + shopSite + `","requests":[` +
		`{"trackingKey":"a","count":2,"sources":[{"type":"TOP"}]},` +
		`{"trackingKey":"b","count":2,"sources":[{"type":"MOST_VIEWED"}]},` +
		`{"trackingKey":"c","count":2,"context":{"productNumbers":["P1"]},"sources":[{"type":"BOUGHT_TOGETHER"},{"type":"TOP"}]}]}`)
	if strings.Join(got, " | ") != "P1 P3 | P2 P4 | P5" {
		t.Errorf("one call of three: %q, want P1 P3 | P2 P4 | P5 (nothing twice; the context left out)", strings.Join(got, " | "))
	}
}

// extraContext is the context a source's request needs in the test's
// log: P1 for BOUGHT_TOGETHER, P4 for ALTERNATIVES.
func extraContext(source string) string {
	switch source {
	case "BOUGHT_TOGETHER":
		return `,"context":{"productNumbers":["P1"]}`
	case "ALTERNATIVES":
		return `,"context":{"productNumbers":["P4"]}`
	}
	return ""
}
