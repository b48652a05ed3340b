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
// are listed in "notServed", each with why. Websites whose impact lists
// are still being built in the background, after a start or a
// configuration change, are listed in "warming": their searches are
// answered meanwhile, scored exhaustively, so large ones are slower. A
// node of a cluster reports its "replication": each log's applied and
// last positions, lag and writer, and the largest lag.
func (s *Server) healthz(ctx *fasthttp.RequestCtx) {
	ctx.SetContentType("application/json")
	failed, warming := s.eng.Failed(), s.eng.Warming()
	repl, _ := s.replicationOf()
	if len(failed) == 0 && len(warming) == 0 && repl == nil {
		ctx.SetBodyString(`{"success":true}`)
		return
	}
	body := struct {
		Success     bool            `json:"success"`
		NotServed   []healthFailure `json:"notServed,omitempty"`
		Warming     []string        `json:"warming,omitempty"`
		Replication *replication    `json:"replication,omitempty"`
	}{Success: true, Warming: warming, Replication: repl}
	for _, f := range failed {
		body.NotServed = append(body.NotServed, healthFailure{f.UUID, f.Err.Error()})
	}
	data, _ := json.Marshal(body) // strings only: cannot fail
	ctx.SetBody(data)
}
