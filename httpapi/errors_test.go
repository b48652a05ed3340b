package httpapi

import (
	"bufio"
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/internal/golden"
)

// send makes one request and returns its status, headers and body.
func send(t *testing.T, method, url, contentType, body string, hdr ...string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
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
	return readResponse(t, resp)
}

// sendSized posts a body of length spaces to /serve/search, declared by
// Content-Length, and reads the answer; the server may answer before it
// has read the whole body.
func sendSized(t *testing.T, url string, length int) (int, http.Header, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	head := fmt.Sprintf("POST /serve/search HTTP/1.1\r\nHost: aisle\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", length)
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	// The body, written beside the answer being read: a server that
	// answers early stops reading it.
	go func() {
		io.Copy(conn, io.LimitReader(spaces{}, int64(length)))
		conn.(*net.TCPConn).CloseWrite()
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	return readResponse(t, resp)
}

// readResponse reads and closes resp's body.
func readResponse(t *testing.T, resp *http.Response) (int, http.Header, []byte) {
	t.Helper()
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, raw
}

// errorCase is one failing request; its answer is kept in
// testdata/errors/<name>.json.
type errorCase struct {
	name   string
	server string // "demo", "auth" (requires an API key) or "broken" (a template that fails)
	method string // POST when empty
	path   string // /serve/search when empty
	ct     string
	body   string
	length int // send only a head declaring a body of this length
	hdr    []string
	status int
	code   string
	field  string
}

// TestErrorBodies checks the error table of docs/decisions.md code by
// code: "Every REST failure is {"success": false, "error": {"code": ...,
// "message": ..., "field": ...}}" with the status its code names, and
// `field` "the dotted request member at fault". Each answer is a golden
// file under testdata/errors/.
func TestErrorBodies(t *testing.T) {
	demoURL, authURL := demoURLs(t)
	logs := &syncBuffer{}
	// A template failing on one query only: one failing on the sample
	// data is refused with the configuration.
	brokenURL := serveShop(t, shopSite(config.SearchVersion{Template: `<p>{{if eq .Query "hammer"}}{{index .Products 99}}{{end}}</p>`}), hardware(), nil,
		Options{Logger: slog.New(slog.NewTextHandler(logs, nil))})
	servers := map[string]string{"demo": demoURL, "auth": authURL, "broken": brokenURL}
	const js = "application/json"
	tooManyFilters := `{"query":"x","key":"demo","products":{"count":1,"filters":[` + strings.Repeat(`"brand:b",`, 100) + `"brand:b"]}}`
	cases := []errorCase{
		// 400 INVALID_REQUEST: malformed JSON, wrong type, unknown member,
		// missing required member, bad filter or sorting string, filter
		// or sort on a field that is not indexed.
		{name: "malformed-json", ct: js, body: `{"query":`, status: 400, code: "INVALID_REQUEST"},
		{name: "empty-body", ct: js, body: ``, status: 400, code: "INVALID_REQUEST"},
		{name: "two-json-values", ct: js, body: `{"query":"x","key":"demo"} {}`, status: 400, code: "INVALID_REQUEST"},
		{name: "not-an-object", ct: js, body: `["x"]`, status: 400, code: "INVALID_REQUEST"},
		{name: "wrong-type-count", ct: js, body: `{"query":"x","key":"demo","products":{"count":"5"}}`, status: 400, code: "INVALID_REQUEST", field: "products.count"},
		{name: "wrong-type-query", ct: js, body: `{"query":5,"key":"demo"}`, status: 400, code: "INVALID_REQUEST", field: "query"},
		{name: "wrong-type-filters", ct: js, body: `{"query":"x","key":"demo","products":{"count":1,"filters":"brand:Acme"}}`, status: 400, code: "INVALID_REQUEST", field: "products.filters"},
		{name: "wrong-type-page-filters", path: "/serve/pages/demo", ct: js, body: `{"url":"u","firstLoad":false,"params":{"filters":[1,2]},"products":{"start":0,"count":1}}`, status: 400, code: "INVALID_REQUEST", field: "params.filters"},
		{name: "unknown-member", ct: js, body: `{"query":"x","key":"demo","prodcts":{"count":1}}`, status: 400, code: "INVALID_REQUEST", field: "prodcts"},
		{name: "missing-query", ct: js, body: `{"key":"demo","products":{"count":1}}`, status: 400, code: "INVALID_REQUEST", field: "query"},
		{name: "missing-key", ct: js, body: `{"query":"x","products":{"count":1}}`, status: 400, code: "INVALID_REQUEST", field: "key"},
		{name: "missing-count", ct: js, body: `{"query":"x","key":"demo","products":{}}`, status: 400, code: "INVALID_REQUEST", field: "products.count"},
		{name: "missing-redirects-count", ct: js, body: `{"query":"x","key":"demo","redirects":{}}`, status: 400, code: "INVALID_REQUEST", field: "redirects.count"},
		{name: "negative-start", ct: js, body: `{"query":"x","key":"demo","products":{"count":5,"start":-1}}`, status: 400, code: "INVALID_REQUEST", field: "products.start"},
		{name: "negative-count", ct: js, body: `{"query":"x","key":"demo","categories":{"count":-1}}`, status: 400, code: "INVALID_REQUEST", field: "categories.count"},
		{name: "flag-bad-string", ct: js, body: `{"query":"x","key":"demo","products":{"count":1,"returnFilters":"yes"}}`, status: 400, code: "INVALID_REQUEST", field: "products.returnFilters"},
		{name: "flag-number", path: "/serve/pages/demo", ct: js, body: `{"url":"u","firstLoad":1,"params":{},"products":{"start":0,"count":1}}`, status: 400, code: "INVALID_REQUEST", field: "firstLoad"},
		{name: "page-params-not-an-object", path: "/serve/pages/demo", ct: js, body: `{"url":"u","firstLoad":false,"params":["filters"],"products":{"start":0,"count":1}}`, status: 400, code: "INVALID_REQUEST", field: "params"},
		{name: "bad-format", ct: js, body: `{"query":"x","key":"demo","format":"xml"}`, status: 400, code: "INVALID_REQUEST", field: "format"},
		{name: "bad-device", ct: js, body: `{"query":"x","key":"demo","deviceType":"TV"}`, status: 400, code: "INVALID_REQUEST", field: "deviceType"},
		{name: "filter-without-colon", ct: js, body: `{"query":"x","key":"demo","products":{"count":1,"filters":["brand"]}}`, status: 400, code: "INVALID_REQUEST", field: "filters"},
		{name: "filter-unknown-field", ct: js, body: `{"query":"x","key":"demo","products":{"count":1,"filters":["colour:red"]}}`, status: 400, code: "INVALID_REQUEST", field: "filters"},
		{name: "filter-unindexed-field", ct: js, body: `{"query":"x","key":"demo","products":{"count":1,"filters":["description:red"]}}`, status: 400, code: "INVALID_REQUEST", field: "filters"},
		{name: "filter-text-field", ct: js, body: `{"query":"x","key":"demo","products":{"count":1,"filters":["title:lamp"]}}`, status: 400, code: "INVALID_REQUEST", field: "filters"},
		{name: "filter-bad-number", ct: js, body: `{"query":"x","key":"demo","products":{"count":1,"filters":["price:cheap"]}}`, status: 400, code: "INVALID_REQUEST", field: "filters"},
		{name: "filter-empty-range", ct: js, body: `{"query":"x","key":"demo","products":{"count":1,"filters":["price:,"]}}`, status: 400, code: "INVALID_REQUEST", field: "filters"},
		{name: "filter-range-reversed", ct: js, body: `{"query":"x","key":"demo","products":{"count":1,"filters":["price:50,10"]}}`, status: 400, code: "INVALID_REQUEST", field: "filters"},
		{name: "filter-bad-date", ct: js, body: `{"query":"x","key":"demo","products":{"count":1,"filters":["created:yesterday,"]}}`, status: 400, code: "INVALID_REQUEST", field: "filters"},
		{name: "filter-bad-boolean", ct: js, body: `{"query":"x","key":"demo","products":{"count":1,"filters":["inStock:maybe"]}}`, status: 400, code: "INVALID_REQUEST", field: "filters"},
		{name: "filter-empty-hierarchy", ct: js, body: `{"query":"x","key":"demo","products":{"count":1,"filters":["hierarchies:"]}}`, status: 400, code: "INVALID_REQUEST", field: "filters"},
		{name: "content-filter-unknown-field", ct: js, body: `{"query":"x","key":"demo","categories":{"count":1,"filters":["brand:Acme"]}}`, status: 400, code: "INVALID_REQUEST", field: "categories.filters"},
		{name: "sort-unsortable-field", ct: js, body: `{"query":"x","key":"demo","products":{"count":1,"sorting":["brand asc"]}}`, status: 400, code: "INVALID_REQUEST", field: "sorting"},
		{name: "sort-unknown-field", ct: js, body: `{"query":"x","key":"demo","products":{"count":1,"sorting":["popularity desc"]}}`, status: 400, code: "INVALID_REQUEST", field: "sorting"},
		{name: "sort-bad-order", ct: js, body: `{"query":"x","key":"demo","products":{"count":1,"sorting":["price up"]}}`, status: 400, code: "INVALID_REQUEST", field: "sorting"},
		{name: "exclude-unknown-field", ct: js, body: `{"query":"x","key":"demo","products":{"count":1,"excludeSiblingFilters":["nope"]}}`, status: 400, code: "INVALID_REQUEST", field: "products.excludeSiblingFilters"},
		// 400 for the limits: count ≤ 1000, start + count ≤ 100,000, at
		// most 100 filters, query ≤ 512 bytes.
		{name: "limit-count", ct: js, body: `{"query":"x","key":"demo","products":{"count":1001}}`, status: 400, code: "INVALID_REQUEST", field: "products.count"},
		{name: "limit-content-count", ct: js, body: `{"query":"x","key":"demo","blogPosts":{"count":1001}}`, status: 400, code: "INVALID_REQUEST", field: "blogPosts.count"},
		{name: "limit-start-plus-count", ct: js, body: `{"query":"x","key":"demo","products":{"count":1000,"start":99001}}`, status: 400, code: "INVALID_REQUEST", field: "products.start"},
		{name: "limit-filters", ct: js, body: tooManyFilters, status: 400, code: "INVALID_REQUEST", field: "products.filters"},
		{name: "limit-query", ct: js, body: `{"query":"` + strings.Repeat("a", 513) + `","key":"demo"}`, status: 400, code: "INVALID_REQUEST", field: "query"},
		// 401 UNAUTHORIZED.
		{name: "unauthorized-missing-key", server: "auth", ct: js, body: `{"query":"x","key":"demo","products":{"count":1}}`, status: 401, code: "UNAUTHORIZED"},
		{name: "unauthorized-wrong-key", server: "auth", ct: js, body: `{"query":"x","key":"demo","products":{"count":1}}`, hdr: []string{"Authorization", "Bearer wrong"}, status: 401, code: "UNAUTHORIZED"},
		// 404 NOT_FOUND: unknown configuration key or version id, unknown path.
		{name: "not-found-key", ct: js, body: `{"query":"x","key":"nope","products":{"count":1}}`, status: 404, code: "NOT_FOUND", field: "key"},
		{name: "not-found-version", ct: js, body: `{"query":"x","key":"demo","id":99,"products":{"count":1}}`, status: 404, code: "NOT_FOUND", field: "id"},
		{name: "not-found-path", path: "/serve/nothing", ct: js, body: `{}`, status: 404, code: "NOT_FOUND"},
		// 405, 413, 415.
		{name: "method-get", method: "GET", status: 405, code: "METHOD_NOT_ALLOWED"},
		{name: "method-put", method: "PUT", ct: js, body: `{"query":"x","key":"demo"}`, status: 405, code: "METHOD_NOT_ALLOWED"},
		{name: "body-too-large", ct: js, length: 64<<10 + 1, status: 413, code: "BODY_TOO_LARGE"},
		{name: "content-type-xml", ct: "application/xml", body: `{"query":"x","key":"demo"}`, status: 415, code: "UNSUPPORTED_MEDIA_TYPE"},
		{name: "content-type-form", ct: "application/x-www-form-urlencoded", body: `query=x`, status: 415, code: "UNSUPPORTED_MEDIA_TYPE"},
		// 500 TEMPLATE_ERROR: the shop's template failed; its message is
		// the shop's to read, and no half page is sent.
		{name: "internal-template", server: "broken", ct: js, body: `{"query":"hammer","key":"shop","format":"html","products":{"count":5}}`, status: 500, code: "TEMPLATE_ERROR"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := servers[tc.server]
			if tc.server == "" {
				url = servers["demo"]
			}
			method, path := tc.method, tc.path
			if method == "" {
				method = "POST"
			}
			if path == "" {
				path = "/serve/search"
			}
			var status int
			var hdr http.Header
			var raw []byte
			if tc.length > 0 {
				status, hdr, raw = sendSized(t, url, tc.length)
			} else {
				status, hdr, raw = send(t, method, url+path, tc.ct, tc.body, tc.hdr...)
			}
			if status != tc.status {
				t.Errorf("status %d, want %d: %s", status, tc.status, raw)
			}
			if ct := hdr.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
			var body struct {
				Success *bool `json:"success"`
				Error   struct {
					Code, Message, Field string
				} `json:"error"`
			}
			dec := stdjson.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&body); err != nil {
				t.Fatalf("error body %s: %v", raw, err)
			}
			if body.Success == nil || *body.Success || body.Error.Code != tc.code || body.Error.Field != tc.field || body.Error.Message == "" {
				t.Errorf("error body %s, want code %s field %q", raw, tc.code, tc.field)
			}
			req := method + " " + path
			if tc.ct != "" {
				req += " (" + tc.ct + ")"
			}
			for i := 0; i+1 < len(tc.hdr); i += 2 {
				req += fmt.Sprintf(" [%s: %s]", tc.hdr[i], tc.hdr[i+1])
			}
			if tc.length > 0 {
				req += fmt.Sprintf(" [a body of %d spaces]", tc.length)
			}
			reqJSON, _ := stdjson.Marshal(req)
			record := fmt.Sprintf(`{"request":%s,"sent":%s,"status":%d,"body":%s}`, reqJSON, sent(tc.body), status, raw)
			golden.Check(t, "errors/"+tc.name+".json", pretty(t, []byte(record)))
		})
	}
	// The 500's detail is in the log and nowhere in the answer.
	if log := logs.String(); !strings.Contains(log, "index out of range") || !strings.Contains(log, "request failed") {
		t.Errorf("the internal error's detail is not logged: %q", log)
	}
}

// sent is a request body as a golden file shows it: the JSON itself when
// it is short and valid, a string (cut at 120 bytes) otherwise.
func sent(body string) []byte {
	if len(body) <= 300 && stdjson.Valid([]byte(body)) {
		return []byte(body)
	}
	if len(body) > 120 {
		body = fmt.Sprintf("%s… (%d bytes)", body[:120], len(body))
	}
	b, _ := stdjson.Marshal(body)
	return b
}

// syncBuffer is a bytes.Buffer the server's goroutines may write to while
// the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// spaces reads as endless spaces.
type spaces struct{}

func (spaces) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}
