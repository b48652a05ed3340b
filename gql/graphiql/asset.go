// Package graphiql is the in-browser IDE of the GraphQL admin: GraphiQL
// 3, vendored under assets/ by scripts/graphiql (npm tarballs checked
// against their pinned sha512) and embedded, so the page reaches no CDN.
//
// The gql handler serves Page at GET /graphql (Accept: text/html) with
// the header Content-Security-Policy: CSP, and Asset(name) at
// /graphql/assets/<name>.
package graphiql

import (
	"embed"
	"io/fs"
	"path"
)

// vendored holds the npm packages' files and their licenses, as
// scripts/graphiql writes them.
//
//go:embed assets/*.js assets/*.css assets/*.txt
var vendored embed.FS

// own holds the page's script and style sheet.
//
//go:embed page.js page.css
var own embed.FS

// contentTypes maps an asset's extension to its Content-Type.
var contentTypes = map[string]string{
	".js":  "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
	".txt": "text/plain; charset=utf-8",
}

type asset struct {
	body        []byte
	contentType string
}

// assets are the embedded files by name.
var assets = loadAssets()

func loadAssets() map[string]asset {
	m := make(map[string]asset)
	for _, dir := range []struct {
		fsys embed.FS
		root string
	}{{vendored, "assets"}, {own, "."}} {
		entries, err := fs.ReadDir(dir.fsys, dir.root)
		if err != nil {
			panic(err) // embedded at build time: cannot fail
		}
		for _, e := range entries {
			body, err := fs.ReadFile(dir.fsys, path.Join(dir.root, e.Name()))
			if err != nil {
				panic(err)
			}
			m[e.Name()] = asset{body: body, contentType: contentTypes[path.Ext(e.Name())]}
		}
	}
	return m
}

// Asset is the embedded file name ("graphiql.min.js", ...) with its
// content type, or ok=false. Names are flat: anything with a slash, or
// not embedded, is not found. The body is shared: do not modify it.
func Asset(name string) (body []byte, contentType string, ok bool) {
	a, ok := assets[name]
	return a.body, a.contentType, ok
}
