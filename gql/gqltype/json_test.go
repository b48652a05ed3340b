package gqltype

import (
	"reflect"
	"testing"

	"github.com/graphql-go/graphql"
)

// TestJSONLiteral: the JSON scalar read from a literal in a document is
// what encoding/json reads from the same JSON.
func TestJSONLiteral(t *testing.T) {
	var got any
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: graphql.NewObject(graphql.ObjectConfig{Name: "Query", Fields: graphql.Fields{
		"echo": &graphql.Field{Type: JSON, Args: graphql.FieldConfigArgument{"v": &graphql.ArgumentConfig{Type: JSON}},
			Resolve: func(p graphql.ResolveParams) (any, error) { got = p.Args["v"]; return got, nil }},
	}})})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		literal string
		want    any
		ok      bool
	}{
		{`{brand: "Acme", price: {gte: 10, lt: 2.5e1}, tags: ["a", true, -3]}`,
			map[string]any{"brand": "Acme", "price": map[string]any{"gte": 10.0, "lt": 25.0}, "tags": []any{"a", true, -3.0}}, true},
		{`[]`, []any{}, true},
		{`"s"`, "s", true},
		{`ACME`, nil, false},      // an enum value: JSON has no bare names
		{`{a: [$v]}`, nil, false}, // a variable inside a literal
		{`1e400`, nil, false},     // past float64
	} {
		got = nil
		res := graphql.Do(graphql.Params{Schema: schema, RequestString: "{ echo(v: " + tc.literal + ") }"})
		if ok := len(res.Errors) == 0; ok != tc.ok || ok && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %#v, errors %v; want %#v, ok %v", tc.literal, got, res.Errors, tc.want, tc.ok)
		}
	}
}
