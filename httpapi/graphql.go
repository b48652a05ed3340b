package httpapi

import (
	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/internal/background"
	"github.com/aisle-search/aisle/replica"
)

// graphqlPath is the GraphQL endpoint (package gql).
const graphqlPath = "/graphql"

// graphql serves graphqlPath through Options.GraphQL on a background
// thread, as the admin routes are: a POST's body is read here, at most
// maxGraphQLBytes, and a failure to read it (a longer one: the 413) is
// answered there, in GraphQL's shape.
func (s *Server) graphql(ctx *fasthttp.RequestCtx) {
	if s.opt.GraphQL == nil {
		s.writeError(ctx, engine.NotFound("", "no endpoint %s", graphqlPath))
		return
	}
	var b []byte
	var err error
	if ctx.IsPost() {
		b, err = body(ctx, maxGraphQLBytes)
		if err != nil && engine.AsError(err).Kind == engine.KindTooLarge {
			s.drainBody(ctx) // as writeError does: the client reads the 413 rather than a reset
		}
	}
	if url, ok := s.forward.target(ctx, replica.ServerLog); ok && err == nil && ctx.IsPost() && s.opt.GraphQLMutation != nil && s.opt.GraphQLMutation(b) {
		// Mutations change the server's log (and websites' logs, which its
		// writer writes too): sent on to its writer, as admin changes
		// are. The writer parses the document once: it never gets here.
		if ferr := s.forward.send(ctx, url, b); ferr != nil {
			s.writeError(ctx, ferr)
		}
		return
	}
	background.Run(func() { s.opt.GraphQL(ctx, b, err) })
}

// maxGraphQLBytes caps a GraphQL request's body: a document and its
// variables (gql.MaxQueryBytes bounds the document itself).
const maxGraphQLBytes = 256 << 10
