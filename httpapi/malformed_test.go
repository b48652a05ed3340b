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
	"testing"
	"time"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/internal/golden"
)

// rawAnswer writes req on a new connection to url's server, closes its
// side for writing, and reads everything the server sends back.
func rawAnswer(t *testing.T, url string, req []byte) []byte {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(20 * time.Second)); err != nil {
		t.Fatal(err)
	}
	go func() {
		conn.Write(req) //nolint:errcheck // the server may answer and close first
		conn.(*net.TCPConn).CloseWrite()
	}()
	out, _ := io.ReadAll(conn) // a reset after the answer is no failure
	return out
}

// TestMalformedRequestsEchoNothing: "Nothing private in errors or logs":
// every request fasthttp cannot read, or whose chunked body breaks, sent
// over TCP with the admin key in its Authorization header, is answered
// with the JSON error body, its status and a fixed message, and neither
// the answer nor the log (at debug level, where fasthttp's own messages
// go) holds the key. The answers are kept in
// testdata/errors/malformed-http.json.
func TestMalformedRequestsEchoNothing(t *testing.T) {
	const key = "s3cret-admin-key-Zq7"
	logs := &syncBuffer{}
	opt := Options{MaxBodyBytes: 1 << 10, Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	url := listen(t, New(engine.New(key, buildShop(t, shopSite(config.SearchVersion{}), hardware(), nil)), opt))
	liveURL := serveLiveOpts(t, Options{}) // its admin key is "admin-key"

	head := func(key, more string) string {
		return "POST /serve/search HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer " + key + "\r\n" + more
	}
	auth := "Authorization: Bearer " + key + "\r\n"
	long := strings.Repeat("a", 5000)
	adminWrite := "POST /admin/v1/websites/" + shopUUID + "/products HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer admin-key\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n"
	for _, tc := range []struct {
		name, req  string
		live       bool // to the live server, with its admin key
		status     int
		code, want string // want: in the message
	}{
		{"long website id", "POST /admin/v1/websites/" + long + "/products HTTP/1.1\r\nHost: a\r\n" + auth + "\r\n", false, 431, "HEADERS_TOO_LARGE", "exceed 4096 bytes"},
		{"long uri: key inside the buffer", "POST /serve/search?x=" + strings.Repeat("a", 3000) + " HTTP/1.1\r\n" + auth + "X-Long: " + strings.Repeat("b", 2000) + "\r\n\r\n", false, 431, "HEADERS_TOO_LARGE", "exceed 4096 bytes"},
		{"long header", head(key, "X-Long: "+long+"\r\n\r\n"), false, 431, "HEADERS_TOO_LARGE", "exceed 4096 bytes"},
		{"many headers", head(key, strings.Repeat("X-A: b\r\n", 800)+"\r\n"), false, 431, "HEADERS_TOO_LARGE", "exceed 4096 bytes"},
		{"header line without colon", head(key, "no colon here\r\n\r\n"), false, 400, "INVALID_REQUEST", "request line or header"},
		{"nul in a header", head(key, "X-A: b\x00c\r\n\r\n"), false, 400, "INVALID_REQUEST", "request line or header"},
		{"bare LF lines", "POST /serve/search HTTP/1.1\nHost: a\n" + auth + "X-A\n\n", false, 400, "INVALID_REQUEST", "request line or header"},
		{"head cut short", head(key, ""), false, 400, "INVALID_REQUEST", "connection ended"},
		{"content-length not a number", head(key, "Content-Length: 12x\r\n\r\n"), false, 400, "INVALID_REQUEST", "Content-Length is not a number"},
		{"negative content-length", head(key, "Content-Length: -5\r\n\r\n"), false, 400, "INVALID_REQUEST", "request line or header"},
		{"two content-lengths", head(key, "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}"), false, 400, "INVALID_REQUEST", "more than one Content-Length"},
		{"gzip transfer-encoding", head(key, "Transfer-Encoding: gzip\r\n\r\n"), false, 400, "INVALID_REQUEST", "Transfer-Encoding other than chunked"},
		{"chunk size not hex", head(key, "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"), false, 400, "INVALID_REQUEST", "malformed chunked body"},
		{"chunk without CRLF", head(key, "Transfer-Encoding: chunked\r\n\r\n2\r\n{}xx0\r\n\r\n"), false, 400, "INVALID_REQUEST", "malformed chunked body"},
		{"chunked body too large", head(key, "Transfer-Encoding: chunked\r\n\r\n800\r\n"+strings.Repeat(" ", 0x800)+"\r\n0\r\n\r\n"), false, 413, "BODY_TOO_LARGE", "exceeds 1024 bytes"},
		{"body cut short", head(key, "Content-Length: 100\r\n\r\n{\"query\""), false, 400, "INVALID_REQUEST", "connection ended"},
		{"no method", " /serve/search HTTP/1.1\r\nHost: a\r\n" + auth + "\r\n", false, 400, "INVALID_REQUEST", "no method"},
		{"nul in the method", "P\x00ST /serve/search HTTP/1.1\r\nHost: a\r\n" + auth + "\r\n", false, 400, "INVALID_REQUEST", "method is not a method"},
		{"no path", "POST  HTTP/1.1\r\nHost: a\r\n" + auth + "\r\n", false, 400, "INVALID_REQUEST", "no path"},
		{"extra spaces", "POST  /serve/search  HTTP/1.1\r\nHost: a\r\n" + auth + "\r\n", false, 400, "INVALID_REQUEST", "request line or header"},
		{"bad absolute uri", "POST http://[::1/serve/search HTTP/1.1\r\nHost: a\r\n" + auth + "\r\n", false, 400, "INVALID_REQUEST", "request line or header"},
		{"non-UTF-8 path", "POST /serve/\xff\xfe HTTP/1.1\r\nHost: a\r\n" + auth + "\r\n", false, 404, "NOT_FOUND", "no endpoint"},
		{"non-UTF-8 header", head(key, "X-A: \xff\xfe\r\nContent-Length: 2\r\n\r\n{}"), false, 400, "INVALID_REQUEST", "query"},
		{"non-UTF-8 body", head(key, "Content-Length: 4\r\n\r\n\"\xff\xfe\""), false, 400, "INVALID_REQUEST", "expected an object"},
		{"admin write: chunk size not hex", adminWrite + "zz\r\n", true, 400, "INVALID_REQUEST", "malformed chunked body"},
		{"admin write: chunk without CRLF", adminWrite + "2\r\n{}xx0\r\n\r\n", true, 400, "INVALID_REQUEST", "malformed chunked body"},
	} {
		u, secret := url, key
		if tc.live {
			u, secret = liveURL, "admin-key"
		}
		out := rawAnswer(t, u, []byte(tc.req))
		if bytes.Contains(out, []byte(secret)) {
			t.Errorf("%s: the answer holds the key: %q", tc.name, out)
		}
		resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(out)), nil)
		if err != nil {
			t.Errorf("%s: no HTTP answer (%v): %q", tc.name, err, out)
			continue
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var body struct {
			Success *bool
			Error   struct{ Code, Message, Field string }
		}
		dec := stdjson.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&body); err != nil || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s: %d %q %s: not the error body (%v)", tc.name, resp.StatusCode, resp.Header.Get("Content-Type"), raw, err)
			continue
		}
		if resp.StatusCode != tc.status || body.Success == nil || *body.Success || body.Error.Code != tc.code || !strings.Contains(body.Error.Message, tc.want) {
			t.Errorf("%s: %d %s, want %d %s saying %q", tc.name, resp.StatusCode, raw, tc.status, tc.code, tc.want)
		}
		name, _ := stdjson.Marshal(tc.name)
		golden.Check(t, "errors/malformed-http/"+strings.NewReplacer(" ", "-", ":", "").Replace(strings.ToLower(tc.name))+".json",
			pretty(t, fmt.Appendf(nil, `{"request":%s,"status":%d,"body":%s}`, name, resp.StatusCode, raw)))
	}
	if log := logs.String(); strings.Contains(log, key) {
		t.Errorf("the log holds the key:\n%s", log)
	}
}
