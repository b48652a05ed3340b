package gql

import (
	"strings"

	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/gql/graphiql"
)

// Path is the endpoint's path; GraphiQL's assets are under Path/assets/.
const Path = "/graphql"

// assetsPrefix is where GraphiQL's assets are served.
const assetsPrefix = Path + "/assets/"

// ide serves GraphiQL: the page to a browser's GET of Path with no
// query (Accept: text/html), its assets under assetsPrefix; it reports
// whether it answered. The page and assets are public, as the schema
// is not: every request the page sends carries the key it was opened
// with (?apiKey=).
func ide(ctx *fasthttp.RequestCtx) bool {
	if !ctx.IsGet() && !ctx.IsHead() {
		return false
	}
	path := string(ctx.Path())
	if name, ok := strings.CutPrefix(path, assetsPrefix); ok {
		body, ctype, found := graphiql.Asset(name)
		if !found {
			ctx.SetStatusCode(fasthttp.StatusNotFound)
			ctx.SetContentType("text/plain; charset=utf-8")
			ctx.SetBodyString("no such asset\n")
			return true
		}
		ctx.Response.Header.Set("Cache-Control", "public, max-age=86400")
		ctx.SetContentType(ctype)
		ctx.SetBody(body)
		return true
	}
	if path != Path || ctx.QueryArgs().Has("query") || !strings.Contains(string(ctx.Request.Header.Peek("Accept")), "text/html") {
		return false
	}
	ctx.Response.Header.Set("Content-Security-Policy", graphiql.CSP)
	ctx.Response.Header.Set("Referrer-Policy", "no-referrer")
	ctx.Response.Header.Set("Cache-Control", "no-store")
	ctx.SetContentType("text/html; charset=utf-8")
	ctx.SetBody(graphiql.Page(Path))
	return true
}
