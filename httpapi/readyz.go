package httpapi

import (
	"sync/atomic"

	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/engine"
)

// readyzPath is GET /readyz, the readiness check: 503 while the server
// starts (Gate), 200 {"ready": true} once every website of the
// configuration is opened and the visitors' events are replayed. A
// website that could not be opened does not hold readiness back: it is
// listed by /healthz.
const readyzPath = "/readyz"

// errStarting answers every API request while the server starts.
var errStarting = &engine.Error{Kind: engine.KindUnavailable, Code: "STARTING",
	Message: "the server is starting: it answers once its websites are loaded (GET /readyz says when)"}

// loading is /readyz's answer while the server starts.
type loading struct {
	Ready    bool   `json:"ready"` // false
	Phase    string `json:"phase"`
	Opened   int64  `json:"websitesOpened"`
	Websites int64  `json:"websites"`
}

// Gate lets a server listen while it loads: until Open, /healthz answers
// 200 (the process is alive), /readyz 503 with the loading's progress,
// and every other request 503 STARTING with Retry-After; after Open,
// every request goes to the opened Server. Its cost once open is one
// atomic load a request.
type Gate struct {
	starting *Server // answers errors while loading: no engine
	api      atomic.Pointer[Server]
	phase    atomic.Pointer[string]
	opened   atomic.Int64
	websites atomic.Int64
}

// NewGate makes a gate whose fasthttp server has opt's limits; the
// Server Open is given should be made with the same opt.
func NewGate(opt Options) *Gate {
	s := New(nil, opt)
	g := &Gate{starting: s}
	g.Progress("starting", 0, 0)
	return g
}

// Progress sets what /readyz reports while the server loads: the phase
// (a few words: "opening websites"), and of how many websites how many
// are opened.
func (g *Gate) Progress(phase string, opened, websites int) {
	g.phase.Store(&phase)
	g.opened.Store(int64(opened))
	g.websites.Store(int64(websites))
}

// Open hands every later request to s.
func (g *Gate) Open(s *Server) { g.api.Store(s) }

// HTTPServer is a fasthttp server for g (Server.HTTPServer's settings).
func (g *Gate) HTTPServer() *fasthttp.Server {
	srv := g.starting.HTTPServer()
	srv.Handler = g.Handle
	srv.ErrorHandler = func(ctx *fasthttp.RequestCtx, err error) {
		s := g.api.Load()
		if s == nil {
			s = g.starting
		}
		s.writeError(ctx, protocolError(err, s.opt.MaxBodyBytes))
	}
	return srv
}

// Handle routes to the opened Server, or answers as a starting one.
func (g *Gate) Handle(ctx *fasthttp.RequestCtx) {
	if s := g.api.Load(); s != nil {
		s.Handle(ctx)
		return
	}
	switch string(ctx.Path()) {
	case "/healthz":
		ctx.SetContentType("application/json")
		ctx.SetBodyString(`{"success":true}`)
	case readyzPath:
		b, _ := json.Marshal(loading{Phase: *g.phase.Load(), Opened: g.opened.Load(), Websites: g.websites.Load()}) // cannot fail
		ctx.SetStatusCode(fasthttp.StatusServiceUnavailable)
		ctx.Response.Header.Set("Retry-After", "1")
		ctx.SetContentType("application/json")
		ctx.SetBody(b)
	default:
		if ctx.Request.Header.ContentLength() != 0 {
			ctx.SetConnectionClose() // its body is left unread
		}
		g.starting.writeError(ctx, errStarting)
	}
}

// readyz answers /readyz once the server is open: 200, or in a cluster
// 503 while this node lags (readyzLagging).
func (s *Server) readyz(ctx *fasthttp.RequestCtx) {
	if s.readyzLagging(ctx) {
		return
	}
	ctx.SetContentType("application/json")
	ctx.SetBodyString(`{"ready":true}`)
}
