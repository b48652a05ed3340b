package gql

import (
	"github.com/goccy/go-json"
	"github.com/graphql-go/graphql/language/ast"
	"github.com/graphql-go/graphql/language/parser"
	"github.com/graphql-go/graphql/language/source"
)

// IsMutation reports whether a POST's body, a GraphQL request, runs a
// mutation: a node of a cluster forwards those to the node that writes
// (httpapi.Options.GraphQLMutation). A body that is no request, or whose
// document does not parse, is not one: it is answered where it arrived.
func IsMutation(body []byte) bool {
	var r struct {
		Query         string `json:"query"`
		OperationName string `json:"operationName"`
	}
	if json.Unmarshal(body, &r) != nil || len(r.Query) > MaxQueryBytes {
		return false
	}
	doc, err := parser.Parse(parser.ParseParams{Source: source.NewSource(&source.Source{Body: []byte(r.Query), Name: "GraphQL request"})})
	if err != nil {
		return false
	}
	op, err := operation(doc, r.OperationName)
	return err == nil && op.Operation == ast.OperationTypeMutation
}
