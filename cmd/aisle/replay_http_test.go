package main

import (
	"strconv"
	"strings"
)

// httpReplays are what every route shares: /healthz, addresses that
// name no route, CORS preflights and origins, and requests HTTP itself
// refuses (a head over 4 KiB, a Content-Length that is no number, a
// broken chunked body), beside a chunked body that is fine.
func httpReplays() []replayRequest {
	const search = `{"query":"wok","key":"demo","products":{"count":1,"fields":["productNumber"]}}`
	get := func(name, path string, header ...string) replayRequest {
		return replayRequest{name: name, method: "GET", path: path, header: header}
	}
	return []replayRequest{
		get("healthz", "/healthz"),
		{name: "healthz by POST", method: "POST", path: "/healthz"},
		get("healthz with a query", "/healthz?verbose=1"),
		get("error: the root", "/"),
		get("error: /serve", "/serve"),
		get("error: an unknown route", "/serve/searches"),
		get("error: a route in capitals", "/Serve/Search"),
		get("error: favicon", "/favicon.ico"),
		postJSON("a search with a query string", "/serve/search?debug=1", search),
		postJSON("a search at a doubled slash", "//serve/search", search),
		postJSON("a page key percent-encoded", "/serve/pages/de%6Do", `{"url":"u","firstLoad":false,"format":"json","params":{},"products":{"start":0,"count":1,"fields":["productNumber"]}}`),
		{name: "preflight of a search", method: "OPTIONS", path: "/serve/search",
			header: []string{"Origin: https://elsewhere.example", "Access-Control-Request-Method: POST", "Access-Control-Request-Headers: content-type"}},
		{name: "preflight from the demo's own origin", method: "OPTIONS", path: "/serve/collect/view",
			header: []string{"Origin: http://localhost:0", "Access-Control-Request-Method: POST"}},
		{name: "preflight of an admin write", method: "OPTIONS", path: "/admin/v1/config",
			header: []string{"Origin: https://elsewhere.example", "Access-Control-Request-Method: PUT", "Access-Control-Request-Headers: authorization"}},
		{name: "OPTIONS of no route", method: "OPTIONS", path: "/nowhere"},
		postJSON("a search from the demo's own origin", "/serve/search", search, "Origin: http://127.0.0.1:0"),
		postJSON("a search from the demo's origin by its other name", "/serve/search", search, "Origin: http://localhost:0"),
		postJSON("a search from the demo's host on another port", "/serve/search", search, "Origin: http://127.0.0.1:8080"),
		postJSON("a search from another origin", "/serve/search", search, "Origin: https://elsewhere.example"),
		postJSON("error: from the demo's own origin", "/serve/search", `{}`, "Origin: http://127.0.0.1:0"),
		{name: "a chunked search body", method: "POST", path: "/serve/search",
			header: []string{"Content-Type: application/json", "Transfer-Encoding: chunked"}, body: chunked(search, 20)},
		{name: "error: a broken chunked body", method: "POST", path: "/serve/search",
			header: []string{"Content-Type: application/json", "Transfer-Encoding: chunked"}, body: "zz\r\n{}\r\n0\r\n\r\n"},
		{name: "error: Content-Length that is no number", method: "POST", path: "/serve/search",
			header: []string{"Content-Type: application/json", "Content-Length: 12x"}},
		{name: "error: a head over 4 KiB", method: "POST", path: "/serve/search",
			header: []string{"Content-Type: application/json", "X-Long: " + strings.Repeat("x", 5000)}, body: search},
		{name: "error: a Transfer-Encoding other than chunked", method: "POST", path: "/serve/search",
			header: []string{"Content-Type: application/json", "Transfer-Encoding: gzip"}, body: search},
		get("healthz at the end", "/healthz"),
	}
}

// chunked is body in chunks of at most n bytes, as Transfer-Encoding:
// chunked sends it.
func chunked(body string, n int) string {
	var b strings.Builder
	for len(body) > 0 {
		c := body[:min(n, len(body))]
		body = body[len(c):]
		b.WriteString(strconv.FormatInt(int64(len(c)), 16) + "\r\n" + c + "\r\n")
	}
	b.WriteString("0\r\n\r\n")
	return b.String()
}
