package httpapi

import (
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/gql"
	"github.com/aisle-search/aisle/metrics"
	"github.com/aisle-search/aisle/sdk"
)

// metricsPath is GET /metrics: Options.Metrics in the Prometheus text
// format, for the operator's admin key (Authorization: Bearer).
const metricsPath = "/metrics"

// The indexes of metrics.Routes metricsRoute answers.
var routeIndex = func() map[string]int {
	m := make(map[string]int, len(metrics.Routes))
	for i, r := range metrics.Routes {
		m[r] = i
	}
	return m
}()

// metricsRoute is the metrics route label's index for path: a bounded
// set, whatever the path.
func metricsRoute(path string) int {
	name := "other"
	switch {
	case path == "/serve/search":
		name = "search"
	case strings.HasPrefix(path, pagesPrefix):
		name = "pages"
	case path == "/serve/recoms":
		name = "recoms"
	case path == collectBatchPath || strings.HasPrefix(path, collectPrefix):
		name = "collect"
	case strings.HasPrefix(path, "/admin/"):
		name = "admin"
	case path == gql.Path || strings.HasPrefix(path, gql.Path+"/"):
		name = "graphql"
	case path == sdk.ScriptPath || path == sdk.TypesPath:
		name = "sdk"
	case path == "/healthz" || path == readyzPath:
		name = "health"
	case path == metricsPath:
		name = "metrics"
	case path == "/" || path == "/instantsearch" || strings.HasPrefix(path, "/store/"):
		name = "storefront"
	}
	return routeIndex[name]
}

// metrics answers GET metricsPath.
func (s *Server) metrics(ctx *fasthttp.RequestCtx) {
	if s.opt.Metrics == nil {
		s.writeError(ctx, engine.NotFound("", "no endpoint %s: this server reports no metrics", metricsPath))
		return
	}
	if !ctx.IsGet() && !ctx.IsHead() {
		ctx.Response.Header.Set("Allow", "GET, HEAD")
		s.writeError(ctx, &engine.Error{Kind: kindMethod, Code: "METHOD_NOT_ALLOWED", Message: "use GET"})
		return
	}
	if _, err := s.eng.Admit(bearer(ctx), access.ScopeAdmin, ""); err != nil {
		s.writeError(ctx, err)
		return
	}
	s.opt.Metrics.Serve(ctx)
}

// observe records an answered request in Options.Metrics, and logs it
// when it took longer than Options.SlowRequest.
func (s *Server) observe(ctx *fasthttp.RequestCtx, path string, took time.Duration) {
	route, status := metricsRoute(path), ctx.Response.StatusCode()
	if s.opt.Metrics != nil {
		s.opt.Metrics.Observe(route, status, took)
	}
	if s.opt.SlowRequest > 0 && took > s.opt.SlowRequest {
		s.opt.Logger.Warn("slow request", "route", metrics.Routes[route], "method", string(ctx.Method()), "status", status, "took", took.Round(time.Microsecond))
	}
}
