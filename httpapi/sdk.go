package httpapi

import (
	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/sdk"
)

// GET or HEAD /sdk.js and /aisle.d.ts: the browser SDK and its
// TypeScript declarations (package sdk; docs/sdk.md). Another method is
// a 405.
func (s *Server) sdkFile(ctx *fasthttp.RequestCtx, path string) {
	if !ctx.IsGet() && !ctx.IsHead() {
		ctx.Response.Header.Set("Allow", "GET, HEAD")
		s.writeError(ctx, &engine.Error{Kind: kindMethod, Code: "METHOD_NOT_ALLOWED", Message: "use GET"})
		return
	}
	if err := sdk.Serve(ctx, path); err != nil {
		s.writeError(ctx, err)
	}
}
