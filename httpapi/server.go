// Package httpapi is the fasthttp adapter: it decodes and checks request
// bodies, calls the engine for reads and package live for writes and
// events, encodes answers, and maps errors to status codes in one place.
// It holds no business rules.
package httpapi

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/internal/jsonfield"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/metrics"
	"github.com/aisle-search/aisle/sdk"
)

// Options configures the HTTP server.
type Options struct {
	// MaxBodyBytes caps request bodies (a longer one is a 413); default
	// 1 MiB. Admin writes have their own cap, MaxWriteBytes.
	MaxBodyBytes int
	// MaxWriteBytes caps an admin write's body (a batch of products or
	// content items, a configuration), read as a stream; default 32 MiB.
	MaxWriteBytes int
	// Logger receives one line per failed request; default slog.Default().
	Logger *slog.Logger
	// Live takes the admin API's writes; nil (the default) serves no
	// admin routes.
	Live *live.Writer
	// Collector logs the events of POST /serve/collect/{kind}; nil (the
	// default) serves no such route.
	Collector *live.Collector
	// Behaviours is the visitors' behaviour POST /serve/recoms answers
	// from; nil (the default): none, so only the sources that need no
	// behaviour (ALTERNATIVES' category) have products.
	Behaviours *engine.Behaviours
	// GraphQL serves /graphql (gql.Server.Serve): body is a POST's
	// body, read and capped here, or err why it could not be; nil (the
	// default) answers 404.
	GraphQL func(ctx *fasthttp.RequestCtx, body []byte, err error)
	// GraphQLMutation reports whether a GraphQL POST's body runs a
	// mutation (gql.IsMutation), for a node of a cluster to forward it
	// to the writer; nil: none is forwarded.
	GraphQLMutation func(body []byte) bool
	// SlowRequest is the time past which a request is logged (its route,
	// status and time; never its path or body, which may name a
	// visitor); 0 (the default): none.
	SlowRequest time.Duration
	// Metrics records every request and serves GET /metrics (the
	// operator's admin key); nil (the default): neither.
	Metrics *metrics.Server
	// RateLimits are the per-client limits of the public routes; the zero
	// value (the default) sets none, DefaultRateLimits what aisle serve
	// sets.
	RateLimits RateLimits
	// Storefront serves the demo storefront (storefront.Serve): called
	// for every GET and HEAD before the API's routes, it answers true
	// when it served the request (/, /instantsearch, /store/...); nil
	// (the default) serves no storefront.
	Storefront func(ctx *fasthttp.RequestCtx) bool
	// Cluster is this node's place in a cluster: changes of logs another
	// node writes are forwarded to it (forward.go), /healthz reports the
	// replication and /readyz fails while a log lags MaxLag entries or
	// more, or stopped applying. nil (the default): a single node.
	Cluster Cluster
	// MaxLag is the lag /readyz tolerates; default 1000 entries.
	MaxLag uint64
}

// Server routes Aisle's endpoints to an engine.
type Server struct {
	eng         *engine.Engine
	opt         Options
	bufs        sync.Pool
	noBehaviour *engine.Behaviours // for Options.Behaviours nil
	limits      *rateLimiter
	forward     *forwarder // nil without Options.Cluster
}

// New makes a server for eng.
func New(eng *engine.Engine, opt Options) *Server {
	if opt.MaxBodyBytes <= 0 {
		opt.MaxBodyBytes = 1 << 20
	}
	if opt.MaxWriteBytes <= 0 {
		opt.MaxWriteBytes = 32 << 20
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	if _, err := sdk.Load(); err != nil { // built once, at start
		opt.Logger.Error("the browser SDK cannot be built: /sdk.js answers 500", "error", err)
	}
	if opt.MaxLag == 0 {
		opt.MaxLag = 1000
	}
	return &Server{eng: eng, opt: opt, noBehaviour: engine.NewBehaviours(), limits: newRateLimiter(opt.RateLimits), forward: newForwarder(opt.Cluster)}
}

// HTTPServer is a fasthttp server for s with its limits and error handler
// set, so oversized or unparsable requests still get a JSON error body.
func (s *Server) HTTPServer() *fasthttp.Server {
	return &fasthttp.Server{
		Handler:               s.Handle,
		Name:                  "aisle",
		MaxRequestBodySize:    s.opt.MaxBodyBytes,
		StreamRequestBody:     true, // longer bodies: read by the handler (body.go)
		ReadTimeout:           30 * time.Second,
		WriteTimeout:          30 * time.Second,
		IdleTimeout:           120 * time.Second,
		ReadBufferSize:        maxHeadBytes,
		Logger:                fasthttpLogger{s.opt.Logger},
		SecureErrorLogMessage: true, // fasthttp's errors quote the request otherwise
		ErrorHandler: func(ctx *fasthttp.RequestCtx, err error) {
			s.writeError(ctx, protocolError(err, s.opt.MaxBodyBytes))
		},
	}
}

// Handle is the router.
func (s *Server) Handle(ctx *fasthttp.RequestCtx) {
	path := string(ctx.Path())
	if s.opt.Metrics != nil || s.opt.SlowRequest > 0 {
		start := time.Now()
		defer func() { s.observe(ctx, path, time.Since(start)) }()
	}
	defer func() {
		if r := recover(); r != nil {
			s.opt.Logger.Error("panic in handler", "path", string(ctx.Path()), "panic", r, "stack", string(debug.Stack()))
			ctx.ResetBody()
			s.writeError(ctx, fmt.Errorf("panic: %v", r))
		}
	}()
	s.setCORS(ctx)
	if ctx.IsOptions() {
		ctx.SetStatusCode(fasthttp.StatusNoContent)
		return
	}
	if s.opt.Storefront != nil && (ctx.IsGet() || ctx.IsHead()) && s.opt.Storefront(ctx) {
		return
	}
	if err := s.limits.take(ctx, groupOf(path), 1); err != nil {
		s.writeError(ctx, err)
		return
	}
	if strings.HasPrefix(path, adminPrefix) || path == adminConfig || path == adminBackup {
		s.admin(ctx, path)
		return
	}
	if path == graphqlPath || strings.HasPrefix(path, graphqlPath+"/") {
		s.graphql(ctx)
		return
	}
	if path == collectBatchPath {
		s.post(ctx, s.collectBatch)
		return
	}
	if key, ok := strings.CutPrefix(path, pagesPrefix); ok {
		s.post(ctx, func(ctx *fasthttp.RequestCtx) error { return s.page(ctx, key) })
		return
	}
	if kind, ok := strings.CutPrefix(path, collectPrefix); ok {
		s.post(ctx, func(ctx *fasthttp.RequestCtx) error { return s.collect(ctx, kind) })
		return
	}
	switch path {
	case "/serve/search":
		s.post(ctx, s.search)
	case "/serve/recoms":
		s.post(ctx, s.recoms)
	case "/healthz":
		s.healthz(ctx)
	case readyzPath:
		s.readyz(ctx)
	case metricsPath:
		s.metrics(ctx)
	case sdk.ScriptPath, sdk.TypesPath:
		s.sdkFile(ctx, path)
	default:
		s.writeError(ctx, engine.NotFound("", "no endpoint %s", path))
	}
}

// setCORS lets pages of any origin call the API and read its answers
// without credentials, and the origins a served website lists
// (allowedOrigins) with them: only the shop's own pages may send the
// visitor's retail_id cookie and read what it answers (their history).
func (s *Server) setCORS(ctx *fasthttp.RequestCtx) {
	h := &ctx.Response.Header
	h.Set("Vary", "Origin")
	if o := ctx.Request.Header.Peek("Origin"); len(o) > 0 && s.eng.CredentialedOrigin(o) {
		h.SetBytesV("Access-Control-Allow-Origin", o)
		h.Set("Access-Control-Allow-Credentials", "true")
	} else {
		h.Set("Access-Control-Allow-Origin", "*")
	}
	h.Set("Access-Control-Allow-Methods", "POST, GET, PUT, DELETE, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
	h.Set("Access-Control-Max-Age", "86400")
}

// post checks method and content type, then runs h.
func (s *Server) post(ctx *fasthttp.RequestCtx, h func(*fasthttp.RequestCtx) error) {
	if !ctx.IsPost() {
		ctx.Response.Header.Set("Allow", "POST, OPTIONS")
		s.writeError(ctx, &engine.Error{Kind: kindMethod, Code: "METHOD_NOT_ALLOWED", Message: "use POST"})
		return
	}
	ct := string(ctx.Request.Header.ContentType())
	mt, _, _ := strings.Cut(ct, ";")
	switch strings.TrimSpace(strings.ToLower(mt)) {
	case "application/json", "text/plain", "":
	default:
		s.writeError(ctx, &engine.Error{Kind: kindMediaType, Code: "UNSUPPORTED_MEDIA_TYPE", Message: fmt.Sprintf("content type must be application/json or text/plain, got %q", ct)})
		return
	}
	if err := h(ctx); err != nil {
		s.writeError(ctx, err)
	}
}

func (s *Server) search(ctx *fasthttp.RequestCtx) error {
	var req engine.SearchRequest
	b, err := body(ctx, s.opt.MaxBodyBytes)
	if err != nil {
		return err
	}
	if err := decode(b, &req); err != nil {
		return err
	}
	if req.TrackingUserID == "" { // the visitor whose profile personalizes the ranking
		req.TrackingUserID = cookieID(ctx)
	}
	cc := watchClient(ctx)
	defer cc.stop()
	res, err := s.eng.Search(cc, &req, bearer(ctx))
	if err != nil {
		return err
	}
	s.recordImpressions(ctx, res.Impressions(req.TrackingUserID))
	s.writeJSON(ctx, res.AppendJSON)
	return nil
}

// writeJSON answers with the JSON appendJSON writes, into a pooled
// buffer.
func (s *Server) writeJSON(ctx *fasthttp.RequestCtx, appendJSON func(dst []byte) []byte) {
	buf := appendJSON(s.getBuf())
	ctx.SetContentType("application/json")
	ctx.SetBody(buf)
	s.putBuf(buf)
}

func (s *Server) getBuf() []byte {
	if b, ok := s.bufs.Get().(*[]byte); ok {
		return (*b)[:0]
	}
	return make([]byte, 0, 16<<10)
}

func (s *Server) putBuf(b []byte) {
	if cap(b) > 4<<20 {
		return
	}
	s.bufs.Put(&b)
}

func bearer(ctx *fasthttp.RequestCtx) string {
	h := string(ctx.Request.Header.Peek("Authorization"))
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// decode reads a JSON body strictly: one object, no unknown members, and
// errors that name the member and what was wrong with it.
func decode(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return engine.Invalid("", "request body is empty: send a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(jsonfield.Fill(err, body, v))
	}
	if dec.More() {
		return engine.Invalid("", "request body holds more than one JSON value")
	}
	return nil
}

func decodeError(err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var ee *engine.Error
	switch {
	case errors.As(err, &ee): // a member's own decoding refused it
		return ee
	case errors.As(err, &se):
		return engine.Invalid("", "malformed JSON at byte %d: %s", se.Offset, strings.TrimPrefix(se.Error(), "json: "))
	case errors.As(err, &te):
		field := te.Field
		if te.Struct != "" && field == "" {
			field = te.Struct
		}
		return engine.Invalid(field, "expected %s, got %s", jsonType(te.Type), te.Value)
	}
	msg := err.Error()
	if i := strings.Index(msg, "unknown field "); i >= 0 {
		name := strings.Trim(msg[i+len("unknown field "):], `"`)
		return engine.Invalid(name, "unknown field %q", name)
	}
	return engine.Invalid("", "malformed JSON: %s", strings.TrimPrefix(msg, "json: "))
}

// jsonType names the JSON a Go type is decoded from, by its kind (not
// its name: map[string]interface {} is an object).
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return jsonType(t.Elem())
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	}
	return "an object"
}

// fasthttpLogger sends fasthttp's own messages (mostly clients that broke
// the protocol, already answered by ErrorHandler) to the debug level.
type fasthttpLogger struct{ l *slog.Logger }

func (f fasthttpLogger) Printf(format string, args ...any) {
	f.l.Debug("fasthttp: " + fmt.Sprintf(format, args...))
}

// Extra error kinds only HTTP has.
const (
	kindMethod engine.Kind = 100 + iota
	kindMediaType
	kindHeadTooLarge
	kindTimeout
	kindRateLimited
)

// status maps error kinds to HTTP status codes: the one place that does.
func status(k engine.Kind) int {
	switch k {
	case engine.KindInvalid:
		return fasthttp.StatusBadRequest
	case engine.KindNotFound:
		return fasthttp.StatusNotFound
	case engine.KindUnauthorized:
		return fasthttp.StatusUnauthorized
	case engine.KindForbidden:
		return fasthttp.StatusForbidden
	case engine.KindTooLarge:
		return fasthttp.StatusRequestEntityTooLarge
	case kindMethod:
		return fasthttp.StatusMethodNotAllowed
	case kindMediaType:
		return fasthttp.StatusUnsupportedMediaType
	case kindHeadTooLarge:
		return fasthttp.StatusRequestHeaderFieldsTooLarge
	case kindTimeout:
		return fasthttp.StatusRequestTimeout
	case kindRateLimited:
		return fasthttp.StatusTooManyRequests
	case engine.KindUnavailable:
		return fasthttp.StatusServiceUnavailable
	}
	return fasthttp.StatusInternalServerError
}

// retryAfter is the seconds a client is told to wait before sending
// again a request the server could not take (engine.KindUnavailable): a
// write the disk refused (the store probes the disk every second and
// takes writes again once it can), or any request while it starts.
const retryAfter = "5"

// errorBody is the failure shape of every REST endpoint.
type errorBody struct {
	Success bool      `json:"success"`
	Error   errorInfo `json:"error"`
}

type errorInfo struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Field   string `json:"field,omitempty"`
}

func (s *Server) writeError(ctx *fasthttp.RequestCtx, err error) {
	e := live.AsError(err)
	if e.Kind == engine.KindInternal {
		s.opt.Logger.Error("request failed", "path", string(ctx.Path()), "err", err)
	}
	if e.Kind == engine.KindTooLarge {
		s.drainBody(ctx)
	}
	if e.Kind == engine.KindUnavailable {
		ctx.Response.Header.Set("Retry-After", retryAfter)
	}
	msg := e.Message
	if e.Field != "" {
		msg = e.Error()
	}
	body, _ := json.Marshal(errorBody{Error: errorInfo{Code: e.Code, Message: msg, Field: e.Field}})
	ctx.SetStatusCode(status(e.Kind))
	ctx.SetContentType("application/json")
	ctx.SetBody(body)
}
