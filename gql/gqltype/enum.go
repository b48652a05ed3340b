package gqltype

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/graphql-go/graphql"
)

// enum is a named string type's GraphQL enum.
type enum struct {
	gql    *graphql.Enum
	values map[string]bool   // the Go values
	byName map[string]string // GraphQL name → Go value
	names  string            // the GraphQL names, sorted, for errors
}

// Enum makes the named string type t (config.FieldType, config.FacetType,
// ...) the GraphQL enum name: each of values (Go value → its description)
// is the value named by its UPPER_CASE form ("keyword" is KEYWORD,
// "mostBought" MOST_BOUGHT, "BOOLEAN" stays BOOLEAN), and both serialise
// and parse to the Go value as a plain string. A value with no
// description is described by its name and listed by Undocumented.
func (r *Registry) Enum(t reflect.Type, name, description string, values map[string]string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.configurable(t, reflect.String)
	if t.Name() == "" {
		panic(fmt.Sprintf("gqltype: Enum: %s is not a named type", t))
	}
	mustName(name)
	if len(values) == 0 {
		panic(fmt.Sprintf("gqltype: Enum %s has no values", name))
	}
	r.claim(name, t)
	key := docKey(t)
	if description == "" {
		r.undocumented[key] = true
		description = fmt.Sprintf("A %s.", words(name))
	}
	e := &enum{values: map[string]bool{}, byName: map[string]string{}}
	config := graphql.EnumValueConfigMap{}
	for v, desc := range values {
		n := enumName(v)
		if !nameRE.MatchString(n) {
			panic(fmt.Sprintf("gqltype: Enum %s: the value %q has no GraphQL name (%q)", name, v, n))
		}
		if other, dup := e.byName[n]; dup {
			panic(fmt.Sprintf("gqltype: Enum %s: the values %q and %q are both %s", name, other, v, n))
		}
		if desc == "" {
			r.undocumented[key+"="+v] = true
			desc = fmt.Sprintf("The %s %q.", words(name), v)
		}
		e.values[v], e.byName[n] = true, v
		config[n] = &graphql.EnumValueConfig{Value: v, Description: desc}
	}
	names := make([]string, 0, len(e.byName))
	for n := range e.byName {
		names = append(names, n)
	}
	slices.Sort(names)
	e.names = strings.Join(names, ", ")
	e.gql = graphql.NewEnum(graphql.EnumConfig{Name: name, Description: description, Values: config})
	// graphql-go builds an enum's lookup tables on their first use,
	// unguarded: building them now keeps concurrent requests from
	// racing to.
	e.gql.Serialize(e.byName[names[0]])
	e.gql.ParseValue(names[0])
	r.enums[t] = e
}

// enumName is the UPPER_CASE form of an enum's Go value.
func enumName(v string) string { return strings.ToUpper(strings.Join(splitWords(v), "_")) }
