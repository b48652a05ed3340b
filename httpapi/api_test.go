package httpapi

import (
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/internal/expect"
)

// demoSite is the demo shop served on loopback, shared by this file's tests.
var demoSite struct {
	once sync.Once
	url  string // open website
	auth string // website that requires an API key
	err  error
}

func serve(t testing.TB, g *engine.Generation, maxBody int) string {
	srv := New(engine.New("admin-key", g), Options{MaxBodyBytes: maxBody}).HTTPServer()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln) //nolint:errcheck // ends with the test binary
	return "http://" + ln.Addr().String()
}

// demoGeneration is n demo products (demo.Each, seed 42) built under
// the demo configuration's first website.
func demoGeneration(t *testing.T, n int) *engine.Generation {
	t.Helper()
	cfg := demo.Config()
	g, err := engine.Build(&cfg.Websites[0], analysis.English, engine.Source{
		Products: func(fn func(*catalog.Product) error) error { return demo.Each(n, 42, fn) },
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func demoURLs(t *testing.T) (open, auth string) {
	t.Helper()
	demoSite.once.Do(func() {
		cfg := demo.Config()
		cfg.Websites[0].AllowedOrigins = []string{shopOrigin}
		src := engine.Source{
			Products: func(fn func(*catalog.Product) error) error { return demo.Each(6000, 42, fn) },
			Content: func(fn func(*catalog.Content) error) error {
				for _, c := range demo.Content(42) {
					if err := fn(&c); err != nil {
						return err
					}
				}
				return nil
			},
		}
		g, err := engine.Build(&cfg.Websites[0], analysis.English, src, nil)
		if err != nil {
			demoSite.err = err
			return
		}
		demoSite.url = serve(t, g, 64<<10)
		locked := cfg.Websites[0]
		locked.RequireAPIKey, locked.APIKeys = true, []string{"k1"}
		g2, err := engine.Assemble(&locked, analysis.English, g.Products, src.Content)
		if err != nil {
			demoSite.err = err
			return
		}
		demoSite.auth = serve(t, g2, 0)
	})
	if demoSite.err != nil {
		t.Fatal(demoSite.err)
	}
	return demoSite.url, demoSite.auth
}

type reply struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

func post(t *testing.T, url, contentType, body string, hdr ...string) reply {
	t.Helper()
	status, header, raw := send(t, "POST", url+"/serve/search", contentType, body, hdr...)
	r := reply{status: status, header: header, raw: string(raw)}
	if err := json.Unmarshal(raw, &r.body); err != nil {
		t.Fatalf("%s: body is not JSON: %v\n%s", body, err, raw)
	}
	return r
}

func (r reply) get(path ...string) any {
	var v any = r.body
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

func (r reply) results(kind string) []map[string]any {
	var out []map[string]any
	items, _ := r.get(kind, "results").([]any)
	for _, it := range items {
		out = append(out, it.(map[string]any))
	}
	return out
}

// TestContentTypes: "`application/json` and `text/plain` (any charset); a
// missing content type is read as JSON" (docs/decisions.md, Content types).
func TestContentTypes(t *testing.T) {
	url, _ := demoURLs(t)
	body := `{"query":"lamp","key":"demo","products":{"count":1}}`
	for _, ct := range []string{"application/json", "text/plain", "text/plain;charset=UTF-8", "application/json; charset=utf-8", "TEXT/PLAIN; charset=iso-8859-1", ""} {
		r := post(t, url, ct, body)
		if r.status != 200 || r.get("success") != true || r.get("products", "returnedCount") != 1.0 {
			t.Errorf("Content-Type %q: %d %s", ct, r.status, r.raw)
		}
	}
}

// shopOrigin is the demo website's allowedOrigins in these tests.
const shopOrigin = "https://shop.example"

// TestCORS: every response carries Access-Control-Allow-Origin: the
// caller's origin with Access-Control-Allow-Credentials: true when a
// served website lists it in allowedOrigins, else * without credentials,
// so a page of another origin can search but never read a visitor's
// cookie-keyed answers; OPTIONS answers 204 (docs/decisions.md, CORS).
func TestCORS(t *testing.T) {
	url, _ := demoURLs(t)
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
	}{
		{"search", "POST", "/serve/search", `{"query":"lamp","key":"demo","products":{"count":1}}`, 200},
		{"recoms", "POST", "/serve/recoms", `{"websiteUuid":"` + config.DemoUUID + `","requests":[{"key":"demo-top"}]}`, 200},
		{"bad request", "POST", "/serve/search", `{"query":"lamp"}`, 400},
		{"unknown path", "POST", "/nowhere", `{}`, 404},
		{"wrong method", "GET", "/serve/search", ``, 405},
		{"preflight", "OPTIONS", "/serve/search", ``, 204},
	} {
		for _, origin := range []string{shopOrigin, "https://evil.example", "https://shop.example.evil", ""} {
			var hdr []string
			if origin != "" {
				hdr = []string{"Origin", origin, "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "authorization, content-type"}
			}
			status, h, raw := send(t, tc.method, url+tc.path, "text/plain", tc.body, hdr...)
			if status != tc.status {
				t.Errorf("%s: status %d, want %d: %s", tc.name, status, tc.status, raw)
			}
			allowOrigin, creds := h.Get("Access-Control-Allow-Origin"), h.Values("Access-Control-Allow-Credentials")
			switch {
			case origin == shopOrigin && (allowOrigin != origin || len(creds) != 1 || creds[0] != "true" || !strings.Contains(h.Get("Vary"), "Origin")):
				t.Errorf("%s from the listed origin: Allow-Origin %q, Allow-Credentials %q, Vary %q", tc.name, allowOrigin, creds, h.Get("Vary"))
			case origin != shopOrigin && (allowOrigin != "*" || len(creds) != 0):
				t.Errorf("%s from %q: Allow-Origin %q, Allow-Credentials %q; want * and none", tc.name, origin, allowOrigin, creds)
			}
			if !strings.Contains(strings.ToLower(h.Get("Access-Control-Allow-Headers")), "authorization") {
				t.Errorf("%s: Allow-Headers %q lacks Authorization", tc.name, h.Get("Access-Control-Allow-Headers"))
			}
		}
	}
}

func TestAPIKeys(t *testing.T) {
	_, auth := demoURLs(t)
	body := `{"query":"lamp","key":"demo","products":{"count":1}}`
	for _, tc := range []struct {
		header string
		status int
	}{
		{"", 401}, {"Bearer wrong", 401}, {"Basic k1", 401}, {"Bearer k1", 200}, {"bearer k1", 200}, {"Bearer admin-key", 200},
	} {
		var r reply
		if tc.header == "" {
			r = post(t, auth, "application/json", body)
		} else {
			r = post(t, auth, "application/json", body, "Authorization", tc.header)
		}
		if r.status != tc.status {
			t.Errorf("Authorization %q: %d, want %d: %s", tc.header, r.status, tc.status, r.raw)
		}
	}
}

func TestSearchShape(t *testing.T) {
	url, _ := demoURLs(t)
	r := post(t, url, "application/json", `{"query":"lamp","key":"demo","products":{"count":3,"fields":["title","extraData.color","extraDataNumber.rating"],"returnFilters":true},"categories":{"count":2},"brands":{"count":2},"sitePages":{"count":2},"blogPosts":{"count":2},"redirects":{"count":1}}`)
	if r.status != 200 || r.get("success") != true || r.get("query") != "lamp" {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	for _, kind := range []string{"products", "categories", "brands", "sitePages", "blogPosts", "redirects"} {
		for _, k := range []string{"start", "requestedCount", "returnedCount", "totalCount", "results"} {
			if r.get(kind, k) == nil {
				t.Errorf("%s lacks %s", kind, k)
			}
		}
	}
	for _, p := range expect.Some(t, "lamp products", r.results("products")) {
		keys := make([]string, 0, len(p))
		for k := range p {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if strings.Join(keys, ",") != "extraData,extraDataNumber,suggestedResult,title" {
			t.Errorf("product fields %v", keys)
		}
		if ed := p["extraData"].(map[string]any); len(ed) != 1 || ed["color"] == nil {
			t.Errorf("extraData %v", ed)
		}
	}
	for _, k := range []string{"filters", "sorting", "suggestedProductStatus"} {
		if r.get("products", k) == nil {
			t.Errorf("products lacks %s", k)
		}
	}
	// A type is searched only when present.
	r = post(t, url, "application/json", `{"query":"lamp","key":"demo","brands":{"count":2}}`)
	if r.get("products") != nil || r.get("brands") == nil || r.get("categories") != nil {
		t.Fatalf("types not requested came back: %s", r.raw)
	}
}

func TestPagination(t *testing.T) {
	url, _ := demoURLs(t)
	page := func(start int) reply {
		return post(t, url, "application/json", `{"query":"*","key":"demo","products":{"count":7,"start":`+itoa(start)+`,"fields":["productNumber"]}}`)
	}
	p1, p2 := page(0), page(7)
	seen := map[any]bool{}
	for _, r := range []reply{p1, p2} {
		if r.get("products", "returnedCount") != 7.0 || r.get("products", "requestedCount") != 7.0 || r.get("products", "totalCount") != 6000.0 {
			t.Fatalf("counts %s", r.raw)
		}
		for _, p := range expect.Some(t, "page", r.results("products")) {
			if seen[p["productNumber"]] {
				t.Fatalf("%v on both pages", p["productNumber"])
			}
			seen[p["productNumber"]] = true
		}
	}
	last := page(5997)
	if last.get("products", "returnedCount") != 3.0 {
		t.Fatalf("last page %s", last.raw)
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
