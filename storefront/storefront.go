// Package storefront is the demo shop `aisle demo` serves to a browser:
// a storefront at / built only on the browser SDK (GET /sdk.js), and at
// /instantsearch the same search page built with InstantSearch.js
// widgets on the SDK's InstantSearch adapter. Its pages, style sheet and
// scripts are embedded (go:embed), with InstantSearch.js and its theme
// vendored under assets/vendor by scripts/instantsearch, so the pages
// reach no CDN.
//
// Its boundary: it serves static files and nothing else. It calls no
// engine and holds no business rules; every answer the pages show comes
// from the public /serve routes through the SDK, as on a shop's own site.
// httpapi calls Serve for GET and HEAD requests when
// httpapi.Options.Storefront is set, which only aisle demo does.
package storefront

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"io/fs"
	"path"
	"strings"
	"sync"

	"github.com/valyala/fasthttp"
)

// CSP is the Content-Security-Policy the pages and assets are served
// with: scripts, style sheets and requests to the page's own origin
// only, no inline script, no eval; images from data: URLs (the product
// tiles draw no remote image). frame-ancestors 'none': no other site
// frames the shop.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// AssetPrefix is the path the pages' assets are served under.
const AssetPrefix = "/store/"

// Pages maps the paths of the two pages to their embedded files.
var Pages = map[string]string{
	"/":              "index.html",
	"/instantsearch": "instantsearch.html",
}

//go:embed assets
var files embed.FS

// contentTypes maps an asset's extension to its Content-Type.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".txt":  "text/plain; charset=utf-8",
	".svg":  "image/svg+xml",
}

// asset is an embedded file, with its gzip form made on first use.
type asset struct {
	body        []byte
	contentType string
	etag        string
	gz          func() []byte // nil when gzip does not pay
}

// assets are the embedded files by their path under assets/
// ("store.js", "vendor/satellite-min.css").
var assets = load()

func load() map[string]*asset {
	m := make(map[string]*asset)
	err := fs.WalkDir(files, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(files, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		a := &asset{body: body, contentType: contentTypes[path.Ext(p)],
			etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`}
		if len(body) > 1024 && a.contentType != "" && a.contentType != contentTypes[".svg"] {
			a.gz = sync.OnceValue(func() []byte { return gzipped(body) })
		}
		m[strings.TrimPrefix(p, "assets/")] = a
		return nil
	})
	if err != nil {
		panic(err) // embedded at build time: cannot fail
	}
	return m
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b) //nolint:errcheck // a bytes.Buffer does not fail
	w.Close()  //nolint:errcheck
	return buf.Bytes()
}

// Serve answers a GET or HEAD of one of Pages or of an asset under
// AssetPrefix, and reports whether it did; any other request it leaves
// alone (false), for the caller to route. Pages are served with
// Cache-Control: no-cache, assets for an hour, both with an ETag
// (If-None-Match answers 304) and gzip when the client takes it.
func Serve(ctx *fasthttp.RequestCtx) bool {
	if !ctx.IsGet() && !ctx.IsHead() {
		return false
	}
	p := string(ctx.Path())
	name, page := Pages[p]
	if !page {
		rest, ok := strings.CutPrefix(p, AssetPrefix)
		if !ok {
			return false
		}
		name = rest
	}
	a, ok := assets[name]
	if !ok || (!page && path.Ext(name) == ".html") {
		return false
	}
	h := &ctx.Response.Header
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("ETag", a.etag)
	h.Add("Vary", "Accept-Encoding")
	if page {
		h.Set("Cache-Control", "no-cache")
	} else {
		h.Set("Cache-Control", "public, max-age=3600")
	}
	h.SetContentType(a.contentType)
	if match := ctx.Request.Header.Peek("If-None-Match"); len(match) > 0 && bytes.Contains(match, []byte(a.etag)) {
		ctx.SetStatusCode(fasthttp.StatusNotModified)
		return true
	}
	body := a.body
	if a.gz != nil && bytes.Contains(ctx.Request.Header.Peek("Accept-Encoding"), []byte("gzip")) {
		body = a.gz()
		h.Set("Content-Encoding", "gzip")
	}
	ctx.SetStatusCode(fasthttp.StatusOK)
	ctx.SetBody(body) // HEAD: fasthttp sends the length and no body
	return true
}
