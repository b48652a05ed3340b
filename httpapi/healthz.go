package httpapi

import (
	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"
)

// healthFailure is a website /healthz reports as not served.
type healthFailure struct {
	WebsiteUUID string `json:"websiteUuid"`
	Error       string `json:"error"`
}

// healthz is the liveness check: 200 {"success": true} while the process
// serves. Websites of the configuration that could not be opened (their
// stored data or configuration cannot be served; the others are served)
// are listed in "notServed", each with why. A node of a cluster reports
// its "replication": each log's applied and last positions, lag and
// writer, and the largest lag.
func (s *Server) healthz(ctx *fasthttp.RequestCtx) {
	ctx.SetContentType("application/json")
	failed := s.eng.Failed()
	repl, _ := s.replicationOf()
	if len(failed) == 0 && repl == nil {
		ctx.SetBodyString(`{"success":true}`)
		return
	}
	body := struct {
		Success     bool            `json:"success"`
		NotServed   []healthFailure `json:"notServed,omitempty"`
		Replication *replication    `json:"replication,omitempty"`
	}{Success: true, Replication: repl}
	for _, f := range failed {
		body.NotServed = append(body.NotServed, healthFailure{f.UUID, f.Err.Error()})
	}
	data, _ := json.Marshal(body) // strings only: cannot fail
	ctx.SetBody(data)
}
