package httpapi

import (
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/engine"
)

// demoSite is the demo shop served on loopback, shared by this file's tests.
var demoSite struct {
	once sync.Once
	url  string // open website
	auth string // website that requires an API key
	err  error
}

func serve(t testing.TB, g *engine.Generation, maxBody int) string {
	srv := New(engine.New(g, "admin-key"), Options{MaxBodyBytes: maxBody}).HTTPServer()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln) //nolint:errcheck // ends with the test binary
	return "http://" + ln.Addr().String()
}

func demoURLs(t *testing.T) (open, auth string) {
	t.Helper()
	demoSite.once.Do(func() {
		cfg := demo.Config()
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
	req, _ := http.NewRequest("POST", url+"/serve/search", strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := reply{status: resp.StatusCode, header: resp.Header, raw: string(raw)}
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

func TestErrors(t *testing.T) {
	url, _ := demoURLs(t)
	for _, tc := range []struct {
		name, ct, body string
		status         int
		field, msg     string
	}{
		{"malformed", "application/json", `{"query":`, 400, "", "malformed JSON"},
		{"wrong type", "application/json", `{"query":"x","key":"demo","products":{"count":"5"}}`, 400, "products.count", "expected an integer"},
		{"negative start", "application/json", `{"query":"x","key":"demo","products":{"count":5,"start":-1}}`, 400, "products.start", "negative"},
		{"missing count", "application/json", `{"query":"x","key":"demo","products":{}}`, 400, "products.count", "required"},
		{"missing key", "application/json", `{"query":"x","products":{"count":1}}`, 400, "key", "required"},
		{"missing query", "application/json", `{"key":"demo","products":{"count":1}}`, 400, "query", "required"},
		{"unknown member", "application/json", `{"query":"x","key":"demo","prodcts":{"count":1}}`, 400, "prodcts", "unknown field"},
		{"unknown key", "application/json", `{"query":"x","key":"nope","products":{"count":1}}`, 404, "key", "no search configuration"},
		{"unknown version", "application/json", `{"query":"x","key":"demo","id":99,"products":{"count":1}}`, 404, "id", "no version 99"},
		{"filter on unindexed field", "application/json", `{"query":"x","key":"demo","products":{"count":1,"filters":["description:red"]}}`, 400, "filters", `"description" is not an indexed field`},
		{"bad range", "application/json", `{"query":"x","key":"demo","products":{"count":1,"filters":["price:cheap"]}}`, 400, "filters", "is not a number"},
		{"sort on unsortable", "application/json", `{"query":"x","key":"demo","products":{"count":1,"sorting":["brand asc"]}}`, 400, "sorting", "not an indexed sortable field"},
		{"bad sort order", "application/json", `{"query":"x","key":"demo","products":{"count":1,"sorting":["price up"]}}`, 400, "sorting", "field asc"},
		{"exclude unknown", "application/json", `{"query":"x","key":"demo","products":{"count":1,"excludeSiblingFilters":["nope"]}}`, 400, "products.excludeSiblingFilters", "not an indexed field"},
		{"count too large", "application/json", `{"query":"x","key":"demo","products":{"count":100000}}`, 400, "products.count", "at most"},
		{"bad format", "application/json", `{"query":"x","key":"demo","format":"xml"}`, 400, "format", "json"},
		{"bad device", "application/json", `{"query":"x","key":"demo","deviceType":"TV"}`, 400, "deviceType", "DESKTOP"},
		{"empty body", "application/json", ``, 400, "", "empty"},
		{"two values", "application/json", `{"query":"x","key":"demo"} {}`, 400, "", "more than one"},
		{"too large", "application/json", `{"query":"` + strings.Repeat("a", 70<<10) + `"}`, 413, "", "exceeds"},
		{"content type", "application/xml", `{"query":"x","key":"demo"}`, 415, "", "content type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := post(t, url, tc.ct, tc.body)
			if r.status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.status, tc.status, r.raw)
			}
			if r.get("success") != false || r.get("error", "code") == "" {
				t.Fatalf("error body %s", r.raw)
			}
			field, _ := r.get("error", "field").(string)
			msg, _ := r.get("error", "message").(string)
			if field != tc.field || !strings.Contains(msg, tc.msg) {
				t.Fatalf("error field %q message %q, want %q containing %q", field, msg, tc.field, tc.msg)
			}
		})
	}
	resp, err := http.Get(url + "/serve/search")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 {
		t.Fatalf("GET: %d", resp.StatusCode)
	}
}

func TestContentTypesAndCORS(t *testing.T) {
	url, _ := demoURLs(t)
	body := `{"query":"lamp","key":"demo","products":{"count":1}}`
	for _, ct := range []string{"application/json", "text/plain", "text/plain;charset=UTF-8", "application/json; charset=utf-8"} {
		r := post(t, url, ct, body, "Origin", "https://shop.example")
		if r.status != 200 || r.get("success") != true {
			t.Fatalf("%s: %d %s", ct, r.status, r.raw)
		}
		if r.header.Get("Access-Control-Allow-Origin") != "https://shop.example" {
			t.Fatalf("%s: CORS header %q", ct, r.header.Get("Access-Control-Allow-Origin"))
		}
	}
	req, _ := http.NewRequest("OPTIONS", url+"/serve/search", nil)
	req.Header.Set("Origin", "https://shop.example")
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "authorization, content-type")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 204 || !strings.Contains(strings.ToLower(resp.Header.Get("Access-Control-Allow-Headers")), "authorization") {
		t.Fatalf("preflight: %d %v", resp.StatusCode, resp.Header)
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
	for _, p := range r.results("products") {
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
		for _, p := range r.results("products") {
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
