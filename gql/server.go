package gql

import (
	"context"
	"log/slog"

	"github.com/goccy/go-json"
	"github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/gqlerrors"
	"github.com/graphql-go/graphql/language/ast"
	"github.com/graphql-go/graphql/language/location"
	"github.com/graphql-go/graphql/language/parser"
	"github.com/graphql-go/graphql/language/source"
	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/live"
)

// Options are what the endpoint serves from.
type Options struct {
	// Engine finds keys and serves the websites' current generations.
	Engine *engine.Engine
	// Live takes every mutation; required.
	Live *live.Writer
	// Behaviours holds the campaigns' counters; nil: none.
	Behaviours *engine.Behaviours
	// Logger receives internal errors; default slog.Default().
	Logger *slog.Logger
}

// Server is the GraphQL endpoint.
type Server struct {
	opt    Options
	schema graphql.Schema
}

// New builds the schema; an error is a fault of the schema's code.
func New(opt Options) (*Server, error) {
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	s := &Server{opt: opt}
	schema, err := s.build()
	if err != nil {
		return nil, err
	}
	s.schema = schema
	return s, nil
}

// Schema is the admin schema, for introspection in tests and tools.
func (s *Server) Schema() *graphql.Schema { return &s.schema }

// call is one request's state, which resolvers find in their context.
type call struct {
	s   *Server
	who access.Principal
	// session ties the audit entries of one request together; events
	// are the names of the mutations it runs, in order.
	session string
	events  []string
}

type callKey struct{}

// callOf is the request state of a resolver's context.
func callOf(ctx context.Context) *call { return ctx.Value(callKey{}).(*call) }

// response is the endpoint's answer: data beside errors, as GraphQL
// over HTTP has it.
type response struct {
	Data   any        `json:"data,omitempty"`
	Errors []errorOut `json:"errors,omitempty"`
}

// errorOut is a GraphQL error as the answer carries it: where in the
// document (when known), at which path of data (when a field failed),
// and extensions.code always.
type errorOut struct {
	Message    string                    `json:"message"`
	Locations  []location.SourceLocation `json:"locations,omitempty"`
	Path       []any                     `json:"path,omitempty"`
	Extensions map[string]any            `json:"extensions"`
}

// Serve answers a request to /graphql (a browser's GET of it opens
// GraphiQL, whose assets are under /graphql/assets/); body is a POST's body, read and
// capped by the transport, or bodyErr why it could not be (a body past
// the cap: a 413). A request that is not GraphQL is a 400, one without
// a valid key a 401; any other answer is a 200 whose errors say what
// failed, each with extensions.code.
func (s *Server) Serve(ctx *fasthttp.RequestCtx, body []byte, bodyErr error) {
	if ide(ctx) {
		return
	}
	if bodyErr != nil {
		e, _ := asError(bodyErr)
		status := fasthttp.StatusBadRequest
		if engine.AsError(bodyErr).Kind == engine.KindTooLarge {
			status = fasthttp.StatusRequestEntityTooLarge
		}
		s.fail(ctx, status, e)
		return
	}
	r, get, err := decodeRequest(ctx, body)
	if err != nil {
		s.fail(ctx, fasthttp.StatusBadRequest, err)
		return
	}
	key := apiKey(ctx)
	who, err := s.opt.Engine.Principal(key)
	if err != nil {
		msg := "Unauthorized: the API key is not valid"
		if key == "" {
			msg = "Unauthorized: send an API key as ?apiKey=<key> or Authorization: Bearer <key>"
		}
		s.fail(ctx, fasthttp.StatusUnauthorized, &Error{Code: CodeUnauthorized, Message: msg})
		return
	}
	doc, op, err := s.prepare(r, get)
	if err == errGetMutation {
		ctx.Response.Header.Set("Allow", "POST")
		s.fail(ctx, fasthttp.StatusMethodNotAllowed, err)
		return
	}
	if err != nil {
		s.fail(ctx, fasthttp.StatusOK, err)
		return
	}
	c := &call{s: s, who: who, session: live.Session(ctx.Request.Header.Peek("X-Aisle-Session"))}
	res := graphql.Execute(graphql.ExecuteParams{
		Schema: s.schema, AST: doc, OperationName: op.Name.Value, Args: r.Variables,
		Context: context.WithValue(context.Background(), callKey{}, c),
	})
	s.write(ctx, fasthttp.StatusOK, response{Data: res.Data, Errors: coded(res.Errors)})
}

// prepare parses, bounds and validates r's document and finds the
// operation to run: a GET may run a query only.
func (s *Server) prepare(r request, get bool) (*ast.Document, *ast.OperationDefinition, error) {
	doc, err := parser.Parse(parser.ParseParams{Source: source.NewSource(&source.Source{Body: []byte(r.Query), Name: "GraphQL request"})})
	if err != nil {
		return nil, nil, err
	}
	op, err := operation(doc, r.OperationName)
	if err != nil {
		return nil, nil, err
	}
	if get && op.Operation != ast.OperationTypeQuery {
		return nil, nil, errGetMutation
	}
	if err := checkLimits(doc, op, r.Variables); err != nil {
		return nil, nil, err
	}
	if err := checkVariableTypes(doc); err != nil {
		return nil, nil, err
	}
	if v := graphql.ValidateDocument(&s.schema, doc, nil); !v.IsValid {
		return nil, nil, validationErrors(v.Errors)
	}
	if err := checkIntegers(&s.schema, op, r.Variables); err != nil {
		return nil, nil, err
	}
	if op.Name == nil {
		op.Name = ast.NewName(&ast.Name{Value: ""})
	}
	return doc, op, nil
}

// errGetMutation refuses a mutation sent as a GET (a link or an image
// could send one): a 405.
var errGetMutation = badInput("", "a GET may run a query only: send a mutation as a POST")

// operation is doc's operation named name, or its only one.
func operation(doc *ast.Document, name string) (*ast.OperationDefinition, error) {
	var found *ast.OperationDefinition
	n := 0
	for _, d := range doc.Definitions {
		op, ok := d.(*ast.OperationDefinition)
		if !ok {
			continue
		}
		n++
		if name == "" || op.Name != nil && op.Name.Value == name {
			found = op
		}
	}
	switch {
	case name == "" && n > 1:
		return nil, badInput("operationName", "the document has several operations: name the one to run")
	case found == nil && name != "":
		return nil, badInput("operationName", "the document has no operation named "+name)
	case found == nil:
		return nil, badInput("query", "the document has no operation")
	}
	return found, nil
}

// validationErrors is graphql-go's validation errors, coded.
type validationErrors []gqlerrors.FormattedError

func (v validationErrors) Error() string { return v[0].Message }

// fail answers err alone, with status.
func (s *Server) fail(ctx *fasthttp.RequestCtx, status int, err error) {
	v, ok := err.(validationErrors)
	if !ok {
		v = validationErrors{gqlerrors.FormatError(err)}
	}
	s.write(ctx, status, response{Errors: coded(v)})
}

// coded gives every error an extensions.code: graphql-go's own errors
// (a syntax error, a document the schema refuses, a variable of the
// wrong type) are BAD_USER_INPUT.
func coded(errs []gqlerrors.FormattedError) []errorOut {
	out := make([]errorOut, len(errs))
	for i, e := range errs {
		out[i] = errorOut{Message: e.Message, Locations: e.Locations, Path: e.Path, Extensions: e.Extensions}
		if out[i].Extensions == nil {
			if ours, ok := e.OriginalError().(*Error); ok {
				out[i].Extensions = ours.Extensions()
			} else {
				out[i].Extensions = map[string]any{"code": CodeBadInput}
			}
		}
	}
	return out
}

// write sends a response as JSON.
func (s *Server) write(ctx *fasthttp.RequestCtx, status int, r response) {
	b, err := json.Marshal(r)
	if err != nil {
		s.opt.Logger.Error("graphql: encode the answer", "err", err)
		b = []byte(`{"errors":[{"message":"internal error","extensions":{"code":"INTERNAL"}}]}`)
	}
	ctx.SetStatusCode(status)
	ctx.SetContentType("application/json")
	ctx.SetBody(b)
}

// resolver wraps a resolver: it finds the request's state, turns its
// error into a coded one, and a panic into INTERNAL, logged.
func resolver(fn func(c *call, p graphql.ResolveParams) (any, error)) graphql.FieldResolveFn {
	return func(p graphql.ResolveParams) (out any, err error) {
		c := callOf(p.Context)
		defer func() {
			if r := recover(); r != nil {
				c.s.opt.Logger.Error("graphql: panic in a resolver", "field", p.Info.FieldName, "panic", r)
				out, err = nil, &Error{Code: CodeInternal, Message: "internal error"}
			}
		}()
		out, err = fn(c, p)
		if err != nil {
			e, internal := asError(err)
			if internal {
				c.s.opt.Logger.Error("graphql: resolver failed", "field", p.Info.FieldName, "err", err)
			}
			return nil, e
		}
		return out, nil
	}
}
