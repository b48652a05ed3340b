package gql

import (
	"bytes"
	"strings"

	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"
)

// request is a GraphQL request as the endpoint takes it.
type request struct {
	Query         string         `json:"query"`
	Variables     map[string]any `json:"variables"`
	OperationName string         `json:"operationName"`
}

// decodeRequest reads a request: POST with a JSON body (as
// application/json, or as text/plain so a browser sends it without a
// preflight), or GET with query, variables (JSON) and operationName in
// the query string; body is the POST's body, which the transport has
// read and capped. get reports a GET, which may run queries only.
func decodeRequest(ctx *fasthttp.RequestCtx, body []byte) (r request, get bool, err error) {
	switch {
	case ctx.IsGet():
		get = true
		args := ctx.QueryArgs()
		if len(ctx.URI().QueryString()) > MaxQueryBytes {
			return r, true, limitError("the query string has more than %d bytes", MaxQueryBytes)
		}
		r.Query, r.OperationName = string(args.Peek("query")), string(args.Peek("operationName"))
		if v := args.Peek("variables"); len(v) > 0 {
			if err := json.Unmarshal(v, &r.Variables); err != nil {
				return r, true, badInput("variables", "is not a JSON object: "+err.Error())
			}
		}
	case ctx.IsPost():
		mt, _, _ := strings.Cut(string(ctx.Request.Header.ContentType()), ";")
		switch strings.ToLower(strings.TrimSpace(mt)) {
		case "application/json", "text/plain", "application/graphql-response+json":
		default:
			return r, false, &Error{Code: CodeBadInput, Message: "the body must be JSON sent as application/json or text/plain: {\"query\": ..., \"variables\": {...}, \"operationName\": ...}"}
		}
		if len(body) > MaxQueryBytes {
			return r, false, limitError("the body has more than %d bytes", MaxQueryBytes)
		}
		d := json.NewDecoder(bytes.NewReader(body))
		d.DisallowUnknownFields()
		if err := d.Decode(&r); err != nil {
			return r, false, badInput("", "the body is not a GraphQL request {\"query\": ..., \"variables\": {...}, \"operationName\": ...}: "+err.Error())
		}
	default:
		return r, false, &Error{Code: CodeBadInput, Message: "use POST, or GET for a query"}
	}
	if strings.TrimSpace(r.Query) == "" {
		return r, get, badInput("query", "is required: a GraphQL document")
	}
	return r, get, nil
}

// apiKey is the request's key: ?apiKey= (the spec's), else
// Authorization: Bearer.
func apiKey(ctx *fasthttp.RequestCtx) string {
	if k := ctx.QueryArgs().Peek("apiKey"); len(k) > 0 {
		return string(k)
	}
	h := ctx.Request.Header.Peek("Authorization")
	if len(h) > 7 && strings.EqualFold(string(h[:7]), "bearer ") {
		return strings.TrimSpace(string(h[7:]))
	}
	return ""
}
