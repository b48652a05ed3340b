package storefront_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/storefront"
	"github.com/valyala/fasthttp"
)

// serve runs Serve on a request and returns whether it answered, with
// the response.
func serve(method, path string, header map[string]string) (bool, *fasthttp.Response) {
	var ctx fasthttp.RequestCtx
	ctx.Request.Header.SetMethod(method)
	ctx.Request.SetRequestURI(path)
	for k, v := range header {
		ctx.Request.Header.Set(k, v)
	}
	ok := storefront.Serve(&ctx)
	var resp fasthttp.Response
	ctx.Response.CopyTo(&resp)
	return ok, &resp
}

// TestServe: the two pages and the assets under /store/ for GET and
// HEAD, each with the CSP; anything else is left to the caller.
func TestServe(t *testing.T) {
	for _, tc := range []struct {
		method, path string
		served       bool
		contentType  string
		holds        string // in the body
	}{
		{"GET", "/", true, "text/html; charset=utf-8", `<script src="/sdk.js"`},
		{"HEAD", "/", true, "text/html; charset=utf-8", ""},
		{"GET", "/instantsearch", true, "text/html; charset=utf-8", "/store/vendor/instantsearch.production.min.js"},
		{"GET", "/store/store.js", true, "text/javascript; charset=utf-8", "Aisle"},
		{"GET", "/store/store.css", true, "text/css; charset=utf-8", ":focus-visible"},
		{"GET", "/store/instantsearch.js", true, "text/javascript; charset=utf-8", "Aisle.instantsearch.searchClient"},
		{"GET", "/store/vendor/instantsearch.production.min.js", true, "text/javascript; charset=utf-8", "instantsearch"},
		{"GET", "/store/vendor/satellite-min.css", true, "text/css; charset=utf-8", ".ais-"},
		{"GET", "/store/vendor/instantsearch.js.LICENSE.txt", true, "text/plain; charset=utf-8", "MIT"},
		{"POST", "/", false, "", ""},
		{"PUT", "/store/store.js", false, "", ""},
		{"GET", "/store/index.html", false, "", ""}, // pages only at their paths
		{"GET", "/store/", false, "", ""},
		{"GET", "/store/nope.js", false, "", ""},
		{"GET", "/store/../storefront.go", false, "", ""},
		{"GET", "/index.html", false, "", ""},
		{"GET", "/serve/search", false, "", ""},
		{"GET", "/healthz", false, "", ""},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			ok, resp := serve(tc.method, tc.path, nil)
			if ok != tc.served {
				t.Fatalf("served %v, want %v", ok, tc.served)
			}
			if !ok {
				return
			}
			if resp.StatusCode() != 200 || string(resp.Header.ContentType()) != tc.contentType {
				t.Errorf("status %d, Content-Type %q; want 200, %q", resp.StatusCode(), resp.Header.ContentType(), tc.contentType)
			}
			if got := string(resp.Header.Peek("Content-Security-Policy")); got != storefront.CSP {
				t.Errorf("CSP %q", got)
			}
			if tc.method == "HEAD" {
				return
			}
			if !strings.Contains(string(resp.Body()), tc.holds) {
				t.Errorf("the body does not hold %q", tc.holds)
			}
		})
	}
}

// TestServeCaching: a strong ETag answered with 304, pages revalidated,
// assets cached for an hour, gzip when the client takes it.
func TestServeCaching(t *testing.T) {
	_, page := serve("GET", "/", nil)
	_, asset := serve("GET", "/store/vendor/instantsearch.production.min.js", nil)
	if got := string(page.Header.Peek("Cache-Control")); got != "no-cache" {
		t.Errorf("page Cache-Control %q", got)
	}
	if got := string(asset.Header.Peek("Cache-Control")); got != "public, max-age=3600" {
		t.Errorf("asset Cache-Control %q", got)
	}
	etag := string(asset.Header.Peek("ETag"))
	if !regexp.MustCompile(`^"[A-Za-z0-9_-]{16}"$`).MatchString(etag) {
		t.Fatalf("ETag %q", etag)
	}
	if _, again := serve("GET", "/store/vendor/instantsearch.production.min.js", map[string]string{"If-None-Match": etag}); again.StatusCode() != 304 || len(again.Body()) != 0 {
		t.Errorf("If-None-Match %s: %d with %d bytes, want 304 and none", etag, again.StatusCode(), len(again.Body()))
	}
	if _, other := serve("GET", "/store/vendor/instantsearch.production.min.js", map[string]string{"If-None-Match": `"other"`}); other.StatusCode() != 200 {
		t.Errorf("another ETag: %d, want 200", other.StatusCode())
	}
	_, gz := serve("GET", "/store/vendor/instantsearch.production.min.js", map[string]string{"Accept-Encoding": "gzip, br"})
	if string(gz.Header.Peek("Content-Encoding")) != "gzip" {
		t.Fatalf("Accept-Encoding gzip: Content-Encoding %q", gz.Header.Peek("Content-Encoding"))
	}
	r, err := gzip.NewReader(bytes.NewReader(gz.Body()))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(plain, asset.Body()) {
		t.Fatalf("the gzip body does not inflate to the asset: %v", err)
	}
	t.Logf("instantsearch.production.min.js: %d bytes, %d gzip", len(plain), len(gz.Body()))
}

// TestPagesLoadOnlyTheirOwn: every script and style sheet the pages link
// is the SDK or one of the storefront's assets, none from another site,
// and no inline script or style (the CSP would refuse them).
func TestPagesLoadOnlyTheirOwn(t *testing.T) {
	link := regexp.MustCompile(`(?:src|href)="([^"]*)"`)
	for path := range storefront.Pages {
		_, resp := serve("GET", path, nil)
		body := string(resp.Body())
		for _, m := range link.FindAllStringSubmatch(body, -1) {
			u := m[1]
			switch {
			case u == "/sdk.js", u == "data:,", strings.HasPrefix(u, "#"), u == "/", u == "/instantsearch":
			case strings.HasPrefix(u, storefront.AssetPrefix):
				if ok, _ := serve("GET", u, nil); !ok {
					t.Errorf("%s links %s, which is not served", path, u)
				}
			default:
				t.Errorf("%s links %s, not one of its own", path, u)
			}
		}
		for _, inline := range []string{"<script>", "<style", " style=", " onclick=", " onload="} {
			if strings.Contains(body, inline) {
				t.Errorf("%s holds inline %q", path, inline)
			}
		}
	}
}
