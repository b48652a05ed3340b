package main

import (
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/storefront"
)

var demoBannerRE = regexp.MustCompile(`Aisle demo is up\. Open its storefront in a browser:\n\n  http://(\S+)/ +the demo shop.*\n  http://\S+/instantsearch +the same search page.*\n\nIt serves 2 websites.*:\n  Aisle Demo Shop +00000000-0000-4000-8000-000000000001 +(\d+) products  search key "demo"\n  Aisle Demo Butik +00000000-0000-4000-8000-000000000002 +2000 products  search key "demo-da"\n`)

// TestDemoServesProductsUnderKeyDemo: README.md, "go run ./cmd/aisle demo
// ... Flags: --addr HOST:PORT, --data DIR (keep the pebble directory; a
// temporary one otherwise), --admin-key KEY ..., --products N", and the
// banner's search configuration key "demo". A second start on the kept
// directory serves the same shop without generating it again.
func TestDemoServesProductsUnderKeyDemo(t *testing.T) {
	data := filepath.Join(t.TempDir(), "demo")
	s := startCLI(t, "demo", "--products", "240", "--addr", "127.0.0.1:0", "--admin-key", "k", "--data", data)
	// The banner follows the log's "listening" line, which startCLI waits for.
	m := demoBannerRE.FindStringSubmatch(s.stdout.String())
	for deadline := time.Now().Add(10 * time.Second); m == nil && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		m = demoBannerRE.FindStringSubmatch(s.stdout.String())
	}
	if m == nil || m[1] != s.addr || m[2] != "240" {
		t.Fatalf("banner for %s:\n%s", s.addr, s.stdout.String())
	}
	// The banner's storefront: the page, with its policy.
	if status, body, csp := get(t, "http://"+s.addr+"/"); status != 200 || !strings.Contains(body, `<script src="/sdk.js"`) || csp != storefront.CSP {
		t.Errorf("GET / on aisle demo: %d, CSP %q, %.200s", status, csp, body)
	}
	// The banner's console address answers GraphQL with the admin key.
	if !strings.Contains(s.stdout.String(), "http://"+s.addr+"/graphql?apiKey=<admin key>") {
		t.Errorf("the banner names no GraphQL address:\n%s", s.stdout.String())
	}
	status, body := s.admin(t, "", "GET", "/graphql?apiKey=k&query="+url.QueryEscape("{ websites { name } }"), "", "")
	if status != 200 || !strings.Contains(body, "Aisle Demo Shop") || !strings.Contains(body, "Aisle Demo Butik") {
		t.Errorf("GraphQL with the admin key: %d %s", status, body)
	}
	if n := s.total(t, "demo", "*"); n != 240 {
		t.Errorf("wildcard under key demo found %d, want 240", n)
	}
	if n := s.total(t, "demo", "lamp"); n == 0 || n >= 240 {
		t.Errorf("lamp found %d of 240 demo products", n)
	}
	// The Danish website: its own catalog, stemmed as Danish (a plural
	// finds the singular), and neither website sees the other's products.
	sofabord, sofaborde := s.total(t, "demo-da", "sofabord"), s.total(t, "demo-da", "sofaborde")
	if sofabord == 0 || sofabord != sofaborde || s.total(t, "demo-da", "*") != 2000 {
		t.Errorf("demo-da: sofabord %d, sofaborde %d, all %d; want the same nonzero count, of 2000", sofabord, sofaborde, s.total(t, "demo-da", "*"))
	}
	if a, b := s.total(t, "demo", "sofabord"), s.total(t, "demo-da", "cordless"); a != 0 || b != 0 {
		t.Errorf("a website finds the other's products: sofabord in demo %d, cordless in demo-da %d", a, b)
	}
	// The demo's boxes answer from its generated behaviour.
	status, body = s.admin(t, "", "POST", "/serve/recoms", "text/plain", `{"websiteUuid":"00000000-0000-4000-8000-000000000001","requests":[
		{"key":"demo-top"},{"key":"demo-alternatives","context":{"productNumbers":["AI-000001"]}},{"key":"demo-bought-together","context":{"productNumbers":["AI-000002"]}}]}`)
	var recoms struct {
		Success   bool
		Responses []struct {
			Key      string
			Success  bool
			Products []struct{ ProductNumber string }
		}
	}
	if err := json.Unmarshal([]byte(body), &recoms); status != 200 || err != nil || len(recoms.Responses) != 3 {
		t.Fatalf("recoms: %d %s", status, body)
	}
	for _, r := range recoms.Responses {
		if !r.Success || len(r.Products) == 0 {
			t.Errorf("box %s: success %v, %d products:\n%s", r.Key, r.Success, len(r.Products), body)
		}
	}
	// The README's page: the Garden department, its base filters and
	// facets; html by default.
	status, body = s.admin(t, "", "POST", "/serve/pages/demo", "application/json",
		`{"url":"https://shop.example/garden","firstLoad":true,"format":"json","params":{"filters":{"price":{"$lte":50}}},"products":{"start":0,"count":12}}`)
	var page struct {
		Success  bool
		Products struct {
			Count, Total int
			Result       []struct {
				Hierarchies [][]string
				Price       float64
			}
			Filters []any
		}
	}
	if err := json.Unmarshal([]byte(body), &page); status != 200 || err != nil || !page.Success || page.Products.Total == 0 || len(page.Products.Filters) != 4 {
		t.Fatalf("page demo: %d %s", status, body)
	}
	for _, p := range page.Products.Result {
		if p.Hierarchies[0][0] != "Garden" || p.Price > 50 {
			t.Errorf("page demo: %+v is not a Garden product of at most 50", p)
		}
	}
	if status, body = s.admin(t, "", "POST", "/serve/pages/demo", "text/plain", `{"url":"u","firstLoad":false,"params":{},"products":{"start":0,"count":4}}`); status != 200 || !strings.Contains(body, `"html":"\u003cdiv class=\"aisle-page\"`) {
		t.Errorf("page demo in html: %d %.300s", status, body)
	}
	s.shutdown(t)
	// Each website's visitors' behaviour is generated with it, and
	// replayed by the restart below.
	if n := regexp.MustCompile(`demo behaviour generated.*visitors=(\d+) events=(\d+)`).FindAllStringSubmatch(s.stderr.String(), -1); len(n) != 2 || n[0][2] == "0" || n[1][2] == "0" {
		t.Errorf("the demo's behaviour, per website: %q", n)
	}

	s = startCLI(t, "demo", "--products", "999", "--addr", "127.0.0.1:0", "--admin-key", "k", "--data", data)
	if m := demoBannerRE.FindStringSubmatch(s.stdout.String()); m == nil || m[2] != "240" {
		t.Errorf("restart banner should count the 240 products served, not --products:\n%s", s.stdout.String())
	}
	if n := s.total(t, "demo", "*"); n != 240 {
		t.Errorf("restart on the kept --data: %d products, want the 240 generated before", n)
	}
	s.shutdown(t)
	if logs := s.stderr.String(); !strings.Contains(logs, "already holds a catalog") || !strings.Contains(logs, `msg="index loaded"`) || !strings.Contains(logs, "visitors' events replayed") {
		t.Errorf("restart on the kept --data generated or rebuilt the shop:\n%s", logs)
	}
}

// TestDemoWithoutDataUsesTemporaryDirectory: README.md, "--data DIR (keep
// the pebble directory; a temporary one otherwise)": the demo's directory
// is made under TMPDIR and removed when it stops.
func TestDemoWithoutDataUsesTemporaryDirectory(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("AISLE_DATA", "")
	s := startCLI(t, "demo", "--products", "50", "--addr", "127.0.0.1:0", "--admin-key", "k")
	running, err := filepath.Glob(filepath.Join(tmp, "aisle-demo-*"))
	if err != nil || len(running) != 1 {
		t.Fatalf("while serving, TMPDIR holds %q (%v), want one aisle-demo-* directory", running, err)
	}
	if n := s.total(t, "demo", "*"); n != 50 {
		t.Errorf("wildcard found %d, want 50", n)
	}
	s.shutdown(t)
	if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) != 0 {
		t.Errorf("after stopping, TMPDIR still holds %q", left)
	}
}

// TestServeHasNoStorefront: aisle serve answers the storefront's paths
// as any unknown path (404), so a production server shows no demo shop.
func TestServeHasNoStorefront(t *testing.T) {
	s := startCLI(t, "serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--admin-key", "k")
	for _, path := range []string{"/", "/instantsearch", "/store/store.js"} {
		if status, body, csp := get(t, "http://"+s.addr+path); status != 404 || csp != "" || !strings.Contains(body, "NOT_FOUND") {
			t.Errorf("GET %s on aisle serve: %d, CSP %q, %.200s; want the API's 404", path, status, csp, body)
		}
	}
}

// get GETs url and returns the status, the body and the
// Content-Security-Policy header.
func get(t *testing.T, url string) (int, string, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(raw), resp.Header.Get("Content-Security-Policy")
}
