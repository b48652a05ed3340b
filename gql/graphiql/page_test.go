package graphiql_test

import (
	"bytes"
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/gql/graphiql"
	"github.com/aisle-search/aisle/internal/golden"
)

// linked are the assets the page loads, in its order.
var linked = []string{
	"graphiql.min.css",
	"page.css",
	"react.production.min.js",
	"react-dom.production.min.js",
	"graphiql.min.js",
	"page.js",
}

func TestAssets(t *testing.T) {
	const (
		js  = "text/javascript; charset=utf-8"
		css = "text/css; charset=utf-8"
		txt = "text/plain; charset=utf-8"
	)
	for _, tc := range []struct {
		name, contentType string
		holds             string // text the body must hold
	}{
		{"graphiql.min.js", js, `window.GraphiQL = `},
		{"graphiql.min.css", css, ".graphiql-container"},
		{"react.production.min.js", js, `"18.3.1"`},
		{"react-dom.production.min.js", js, `"18.3.1"`},
		{"page.js", js, "ReactDOM.createRoot"},
		{"page.css", css, "#graphiql"},
		{"graphiql.LICENSE.txt", txt, "MIT License"},
		{"react.LICENSE.txt", txt, "MIT License"},
		{"react-dom.LICENSE.txt", txt, "MIT License"},
	} {
		body, contentType, ok := graphiql.Asset(tc.name)
		if !ok {
			t.Errorf("%s: not found", tc.name)
			continue
		}
		if contentType != tc.contentType {
			t.Errorf("%s: content type %q, want %q", tc.name, contentType, tc.contentType)
		}
		if !bytes.Contains(body, []byte(tc.holds)) {
			t.Errorf("%s (%d bytes) does not hold %q", tc.name, len(body), tc.holds)
		}
	}
	for _, name := range []string{
		"", ".", "assets", "assets/graphiql.min.js", "/graphiql.min.js", "../graphiql/page.go",
		"page.go", "asset.go", "LICENSE", "graphiql.min.js.map", "GRAPHIQL.MIN.JS", "graphiql.min.js\x00",
	} {
		if body, contentType, ok := graphiql.Asset(name); ok || body != nil || contentType != "" {
			t.Errorf("Asset(%q) = %d bytes, %q, %v; want nothing", name, len(body), contentType, ok)
		}
	}
}

func TestPageGolden(t *testing.T) {
	golden.Check(t, "page.html", graphiql.Page("/graphql"))
}

// links are the src and href attributes of a page, unescaped.
var links = regexp.MustCompile(`(?:src|href)="([^"]*)"`)

// TestPageLinksOnlyLocalAssets: the page loads each asset from under the
// endpoint, every one embedded, and names no other site: no "http", no
// "//" anywhere in it.
func TestPageLinksOnlyLocalAssets(t *testing.T) {
	for _, endpoint := range []string{"/graphql", "/admin/v1/graphql"} {
		page := graphiql.Page(endpoint)
		// The attribute http-equiv is the one "http" the page may hold.
		bare := bytes.ReplaceAll(page, []byte("<meta http-equiv="), nil)
		for _, bad := range []string{"http", "//"} {
			if i := bytes.Index(bare, []byte(bad)); i >= 0 {
				t.Errorf("Page(%q) holds %q: ...%s...", endpoint, bad, bare[max(0, i-40):min(len(bare), i+40)])
			}
		}
		var got []string
		for _, m := range links.FindAllSubmatch(page, -1) {
			link := html.UnescapeString(string(m[1]))
			if link == "data:," { // the empty favicon
				continue
			}
			name, ok := strings.CutPrefix(link, endpoint+"/assets/")
			if !ok {
				t.Errorf("Page(%q) links %q, not under %s/assets/", endpoint, link, endpoint)
				continue
			}
			if _, _, ok := graphiql.Asset(name); !ok {
				t.Errorf("Page(%q) links %q, not an asset", endpoint, link)
			}
			got = append(got, name)
		}
		if !slices.Equal(got, linked) {
			t.Errorf("Page(%q) links %q, want %q", endpoint, got, linked)
		}
		if !bytes.Contains(page, []byte(`data-url="`+endpoint+`"`)) {
			t.Errorf("Page(%q) does not name its endpoint:\n%s", endpoint, page)
		}
	}
}

// tag is an element's tag as html/template writes it, its attributes'
// values in double quotes.
var tag = regexp.MustCompile(`<(/?[a-zA-Z!]+)((?:\s+[a-zA-Z-]+(?:="[^"<>]*")?)*)\s*>`)

// attribute is one attribute of a tag.
var attribute = regexp.MustCompile(`\s+([a-zA-Z-]+)(?:="[^"]*")?`)

// shape is the page's tags' and attributes' names, in order; "<?" for a
// "<" that starts no well-formed tag.
func shape(page []byte) []string {
	var names []string
	tags := tag.FindAllSubmatch(page, -1)
	for _, m := range tags {
		names = append(names, "<"+string(m[1]))
		for _, a := range attribute.FindAllSubmatch(m[2], -1) {
			names = append(names, string(a[1]))
		}
	}
	for range bytes.Count(page, []byte("<")) - len(tags) {
		names = append(names, "<?")
	}
	return names
}

// TestPageEscapesTheEndpoint: an endpoint path holding markup, quotes
// or a script URL adds no element and no attribute to the page.
func TestPageEscapesTheEndpoint(t *testing.T) {
	want := shape(graphiql.Page("/graphql"))
	if len(want) < 20 || slices.Contains(want, "<?") {
		t.Fatalf("the page's shape is %q", want)
	}
	for _, endpoint := range []string{
		`/a"><script>alert(1)</script>`,
		`/a' onload='alert(1)`,
		`/a" onload="alert(1)`,
		`javascript:alert(1)`,
		`/a</div><img src=x onerror=alert(1)>`,
		"/a\n<script>",
		`/a&amp;b`,
	} {
		page := graphiql.Page(endpoint)
		if got := shape(page); !slices.Equal(got, want) {
			t.Errorf("Page(%q) has the tags and attributes\n%q\nwant\n%q", endpoint, got, want)
		}
		if bytes.Contains(page, []byte("javascript:")) {
			t.Errorf("Page(%q) links a script URL:\n%s", endpoint, page)
		}
	}
}

// TestCSP: the header's policy is the page's meta policy plus
// frame-ancestors, and allows no inline script, no eval, no other site.
func TestCSP(t *testing.T) {
	meta := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindSubmatch(graphiql.Page("/graphql"))
	if meta == nil {
		t.Fatal("the page has no Content-Security-Policy meta element")
	}
	policy := html.UnescapeString(string(meta[1]))
	if graphiql.CSP != policy+"; frame-ancestors 'none'" {
		t.Errorf("CSP is %q, the page's policy %q", graphiql.CSP, policy)
	}
	for _, bad := range []string{"unsafe-inline", "unsafe-eval", "http", "*", "//"} {
		if strings.Contains(graphiql.CSP, bad) {
			t.Errorf("CSP holds %q: %s", bad, graphiql.CSP)
		}
	}
	for _, directive := range []string{"default-src 'none'", "script-src 'self';", "connect-src 'self';", "base-uri 'none'"} {
		if !strings.Contains(graphiql.CSP, directive) {
			t.Errorf("CSP lacks %q: %s", directive, graphiql.CSP)
		}
	}
}
