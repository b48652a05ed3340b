package httpapi

import (
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/metrics"
)

// TestMetricsAllocateNothing: recording a request's route, status and
// time in Options.Metrics adds no allocation to the request, whatever
// its path's length.
func TestMetricsAllocateNothing(t *testing.T) {
	for _, path := range []string{"/healthz", "/serve/pages/a-page-key-longer-than-thirty-two-bytes"} {
		allocs := func(opt Options) float64 {
			s := New(engine.New("k"), opt)
			var ctx fasthttp.RequestCtx
			ctx.Request.Header.SetMethod("GET")
			ctx.Request.SetRequestURI(path)
			s.Handle(&ctx) // the first sight of a route and code makes its counter
			return testing.AllocsPerRun(200, func() {
				ctx.Response.Reset()
				s.Handle(&ctx)
			})
		}
		without, with := allocs(Options{}), allocs(Options{Metrics: metrics.New()})
		if with > without {
			t.Errorf("%s: %v allocations a request with metrics, %v without", path, with, without)
		}
	}
}
