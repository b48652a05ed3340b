package gqltype

import (
	"reflect"
	"strings"
	"testing"

	"github.com/graphql-go/graphql"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/internal/expect"
	"github.com/aisle-search/aisle/internal/golden"
)

// configRoots are the types the golden schema prints: the output and
// input types of config.File and config.Website.
func configRoots(r *Registry) []graphql.Type {
	var roots []graphql.Type
	for _, t := range []reflect.Type{reflect.TypeFor[config.File](), reflect.TypeFor[config.Website]()} {
		roots = append(roots, r.Output(t), r.Input(t))
	}
	return roots
}

// TestConfigSchema: the GraphQL types of package config, as SDL, are
// testdata/config.graphql (go test ./gql/gqltype -run TestConfigSchema
// -update rewrites it), and they make a valid schema.
func TestConfigSchema(t *testing.T) {
	r := NewConfigRegistry()
	roots := configRoots(r)
	golden.Check(t, "config.graphql", []byte(printSDL(roots...)))
	if _, err := graphql.NewSchema(graphql.SchemaConfig{
		Query: graphql.NewObject(graphql.ObjectConfig{Name: "Query", Fields: graphql.Fields{
			"configuration": &graphql.Field{Type: roots[0], Args: graphql.FieldConfigArgument{
				"input": &graphql.ArgumentConfig{Type: roots[1]},
				"site":  &graphql.ArgumentConfig{Type: roots[3]},
			}},
			"website": &graphql.Field{Type: roots[2]},
		}}),
	}); err != nil {
		t.Fatalf("the config types make no schema: %v", err)
	}
}

// TestEveryConfigTypeAndFieldDescribed: every type, field and enum value
// of the config types has a description, and each is a doc comment of
// package config rather than one made from a name: an uncommented field
// added to config fails here (run go generate ./gql/gqltype to list them).
func TestEveryConfigTypeAndFieldDescribed(t *testing.T) {
	r := NewConfigRegistry()
	types := namedTypes(configRoots(r)...)
	n := expect.Counter{What: "descriptions checked", Min: 100}
	check := func(what, desc string) {
		n.N++
		if strings.TrimSpace(desc) == "" {
			t.Errorf("%s has no description", what)
		}
	}
	for name, typ := range types {
		check(name, typ.Description())
		switch typ := typ.(type) {
		case *graphql.Object:
			for f, d := range typ.Fields() {
				check(name+"."+f, d.Description)
			}
		case *graphql.InputObject:
			for f, d := range typ.Fields() {
				check(name+"."+f, d.Description())
			}
		case *graphql.Enum:
			for _, v := range typ.Values() {
				check(name+"."+v.Name, v.Description)
			}
		}
	}
	n.Check(t)
	if u := r.Undocumented(); len(u) > 0 {
		t.Errorf("described from their names, with no doc comment in package config: %v", u)
	}
}
