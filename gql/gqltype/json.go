package gqltype

import (
	"strconv"

	"github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"
)

// JSON is the scalar of Go's interface{} and map[string]any members (a
// page's base filters, a box source's filters): any JSON value, written
// and read as it is. A literal in a document reads as encoding/json reads
// the same JSON (numbers are float64, objects map[string]any); a variable
// inside a literal is refused.
var JSON = graphql.NewScalar(graphql.ScalarConfig{
	Name:        "JSON",
	Description: "Any JSON value: null, a boolean, a number, a string, a list or an object, as it is.",
	Serialize:   func(v any) any { return v },
	ParseValue:  func(v any) any { return v },
	ParseLiteral: func(v ast.Value) any {
		if out, ok := literal(v); ok {
			return out
		}
		return nil
	},
})

// literal is the Go value of a literal, and false for one with a
// variable in it, or an enum value (a bare name, which JSON has not).
func literal(v ast.Value) (any, bool) {
	switch v := v.(type) {
	case *ast.StringValue:
		return v.Value, true
	case *ast.BooleanValue:
		return v.Value, true
	case *ast.IntValue:
		f, err := strconv.ParseFloat(v.Value, 64)
		return f, err == nil
	case *ast.FloatValue:
		f, err := strconv.ParseFloat(v.Value, 64)
		return f, err == nil
	case *ast.ListValue:
		out := make([]any, len(v.Values))
		for i, e := range v.Values {
			var ok bool
			if out[i], ok = literal(e); !ok {
				return nil, false
			}
		}
		return out, true
	case *ast.ObjectValue:
		out := make(map[string]any, len(v.Fields))
		for _, f := range v.Fields {
			val, ok := literal(f.Value)
			if !ok || f.Name == nil {
				return nil, false
			}
			out[f.Name.Value] = val
		}
		return out, true
	}
	return nil, false
}
