package bench

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/valyala/fasthttp"
)

// ServerShare is what a search costs the server beyond a round trip:
// the p50 of the searches minus the p50 of /healthz, both sent on one
// connection, alternating, one at a time, so the client, the loopback
// and the HTTP parsing they share cancel out.
type ServerShare struct {
	Pairs          int
	Search, Health time.Duration // the p50s
	Share          time.Duration // Search − Health
}

// MeasureServerShare sends pairs of GET /healthz and one of bodies as a
// POST to searchURL (replayed in turn), on one connection to its host,
// until pairs pairs are answered or ctx ends. A request that fails or
// is not answered 200 is an error: a share of failures would mean
// nothing.
func MeasureServerShare(ctx context.Context, searchURL string, bodies [][]byte, pairs int) (ServerShare, error) {
	if len(bodies) == 0 || pairs < 1 {
		return ServerShare{}, errors.New("server share: no request bodies or no pairs")
	}
	u, err := url.Parse(searchURL)
	if err != nil {
		return ServerShare{}, fmt.Errorf("server share: %w", err)
	}
	hc := &fasthttp.HostClient{Addr: u.Host, MaxConns: 1, ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second}
	health, search := fasthttp.AcquireRequest(), fasthttp.AcquireRequest()
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(health)
	defer fasthttp.ReleaseRequest(search)
	defer fasthttp.ReleaseResponse(resp)
	health.SetRequestURI(u.Scheme + "://" + u.Host + "/healthz")
	search.SetRequestURI(searchURL)
	search.Header.SetMethod("POST")
	search.Header.SetContentType("application/json")
	do := func(req *fasthttp.Request) (time.Duration, error) {
		t0 := time.Now()
		if err := hc.Do(req, resp); err != nil {
			return 0, err
		}
		if resp.StatusCode() != fasthttp.StatusOK {
			return 0, fmt.Errorf("%s answered %d: %.200s", req.URI().Path(), resp.StatusCode(), resp.Body())
		}
		return time.Since(t0), nil
	}
	hs, ss := make([]time.Duration, 0, pairs), make([]time.Duration, 0, pairs)
	for i := 0; i < pairs && ctx.Err() == nil; i++ {
		h, err := do(health)
		if err != nil {
			return ServerShare{}, fmt.Errorf("server share: %w", err)
		}
		search.SetBody(bodies[i%len(bodies)])
		s, err := do(search)
		if err != nil {
			return ServerShare{}, fmt.Errorf("server share: %w", err)
		}
		hs, ss = append(hs, h), append(ss, s)
	}
	if len(ss) == 0 {
		return ServerShare{}, fmt.Errorf("server share: %w", ctx.Err())
	}
	r := ServerShare{Pairs: len(ss)}
	r.Health, _, _, _ = Percentiles(hs)
	r.Search, _, _, _ = Percentiles(ss)
	r.Share = r.Search - r.Health
	return r, nil
}
