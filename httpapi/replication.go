package httpapi

import (
	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/replica"
)

// replication is what /healthz reports of a node of a cluster: each
// log's applied and last positions, lag and writer, and the largest lag.
type replication struct {
	Lag  uint64              `json:"lag"`
	Logs []replica.LogStatus `json:"logs"`
}

// replicationOf is s's replication, nil for a single node; caught says
// every log lags less than Options.MaxLag and none stopped applying.
func (s *Server) replicationOf() (r *replication, caught bool) {
	if s.opt.Cluster == nil {
		return nil, true
	}
	r = &replication{Logs: s.opt.Cluster.Status()}
	caught = true
	for _, l := range r.Logs {
		r.Lag = max(r.Lag, l.Lag)
		caught = caught && l.Error == "" && l.Lag < s.opt.MaxLag
	}
	return r, caught
}

// lagging is /readyz's answer while a node of a cluster lags: 503, so a
// load balancer drains it until it has caught up.
type lagging struct {
	Ready       bool         `json:"ready"` // false
	Phase       string       `json:"phase"`
	MaxLag      uint64       `json:"maxLag"`
	Replication *replication `json:"replication"`
}

// readyzLagging answers /readyz with 503 when this node lags, and
// reports whether it did.
func (s *Server) readyzLagging(ctx *fasthttp.RequestCtx) bool {
	r, caught := s.replicationOf()
	if caught {
		return false
	}
	body, _ := json.Marshal(lagging{Phase: "catching up with the cluster's logs", MaxLag: s.opt.MaxLag, Replication: r})
	ctx.SetStatusCode(fasthttp.StatusServiceUnavailable)
	ctx.SetContentType("application/json")
	ctx.SetBody(body)
	return true
}
