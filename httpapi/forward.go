package httpapi

import (
	"fmt"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/replica"
)

// Cluster is this node's place in a cluster (replica.Replicator): who
// writes each log, and how far this node has applied them.
type Cluster interface {
	// Writer is the URL of the node that writes the log name, and
	// whether this node does now; "" when none is known.
	Writer(name string) (url string, writing bool)
	// Status is each log's applied and last positions.
	Status() []replica.LogStatus
}

// Forwarding. A change sent to a node that does not write its log is
// sent on, as it came (method, path, query, headers, body), to the node
// that does, and its answer is relayed (docs/decisions.md, "Replicas").
// The writer authorises it again. A forwarded request
// carries forwardedHeader and is never forwarded again: a node that
// gets one without writing its log answers 503 NO_WRITER, as it does
// when no writer is known.

// forwardedHeader marks a request one node forwarded to another.
const forwardedHeader = "X-Aisle-Forwarded"

// forwardTimeout bounds a forwarded change, the writer's work included.
const forwardTimeout = 60 * time.Second

// forwarder sends changes on to their writer; nil forwards nothing.
type forwarder struct {
	cluster Cluster
	client  *fasthttp.Client
}

func newForwarder(c Cluster) *forwarder {
	if c == nil {
		return nil
	}
	return &forwarder{cluster: c, client: &fasthttp.Client{Name: "aisle-forward", MaxResponseBodySize: 64 << 20,
		ReadTimeout: forwardTimeout, WriteTimeout: forwardTimeout}}
}

// target is the URL of the node ctx's change of the log name is to be
// sent to, ok false when it is this node's to serve: this node writes the
// log, no writer is known (Publish then refuses the change), or another
// node forwarded it already. Callers ask it before any other work on a
// change, so the writer does none twice.
func (f *forwarder) target(ctx *fasthttp.RequestCtx, name string) (url string, ok bool) {
	if f == nil || len(ctx.Request.Header.Peek(forwardedHeader)) > 0 {
		return "", false
	}
	url, writing := f.cluster.Writer(name)
	return url, !writing && url != ""
}

// send sends ctx's request on to the node at url and answers what it
// answers. body is the request's body when the caller has read it, nil
// to send the body as it arrives. A node that does not answer is told as
// 503.
func (f *forwarder) send(ctx *fasthttp.RequestCtx, url string, body []byte) error {
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	ctx.Request.Header.CopyTo(&req.Header)
	req.SetRequestURI(url + string(ctx.Request.RequestURI()))
	req.Header.Set(forwardedHeader, "1")
	switch n := ctx.Request.Header.ContentLength(); {
	case body != nil:
		req.SetBody(body)
	case n == 0:
	case n > 0 || ctx.RequestBodyStream() == nil:
		req.SetBody(ctx.PostBody())
	default: // chunked: sent on as it arrives
		req.SetBodyStream(ctx.RequestBodyStream(), -1)
	}
	if err := f.client.DoTimeout(req, resp, forwardTimeout); err != nil {
		return &engine.Error{Kind: engine.KindUnavailable, Code: "NO_WRITER",
			Message: fmt.Sprintf("the node that writes this change (%s) did not answer, so it may not have been applied; send it again shortly", url)}
	}
	resp.CopyTo(&ctx.Response)
	return nil
}
