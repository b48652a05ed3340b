package gqltype

import (
	"fmt"
	"reflect"
	"slices"
	"sync"

	"github.com/graphql-go/graphql"
)

// Registry builds GraphQL types from Go struct types, once each: every
// Output and Input of a type returns the same GraphQL type, as a schema
// needs. Configure it (RenameType, RenameField, Enum) before the first
// Output, Input or Decode that reaches the type configured; configuring a
// type already built panics. Output and Input panic on a Go type the
// mapping does not cover (a programming error, met when the schema is
// built); Decode returns an error instead. All its methods are safe for
// concurrent use.
type Registry struct {
	mu         sync.Mutex
	typeNames  map[reflect.Type]string
	fieldNames map[reflect.Type]map[string]string // Go field name → GraphQL name
	enums      map[reflect.Type]*enum
	shapes     map[reflect.Type]*shape
	names      map[string]reflect.Type // GraphQL type names given, to refuse one used twice
	// undocumented are the description keys that fell back to a name.
	undocumented map[string]bool
	// extras are fields AddField gave a struct's object type.
	extras map[reflect.Type]graphql.Fields
}

// NewRegistry is an empty registry.
func NewRegistry() *Registry {
	return &Registry{
		typeNames:    map[reflect.Type]string{},
		fieldNames:   map[reflect.Type]map[string]string{},
		enums:        map[reflect.Type]*enum{},
		shapes:       map[reflect.Type]*shape{},
		names:        map[string]reflect.Type{},
		undocumented: map[string]bool{},
	}
}

// RenameType gives the GraphQL name of a Go struct type's object type
// (config.SearchVersion is "SearchConfigurationVersion"); its input type
// is that name plus "Input". Default: the Go type's name.
func (r *Registry) RenameType(t reflect.Type, name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.configurable(t, reflect.Struct)
	mustName(name)
	r.typeNames[t] = name
}

// RenameField gives the GraphQL name of t's field goField where its JSON
// name is not the schema's (Website.Search, JSON "searchConfigs", is
// "searchConfigurations"). Input values are decoded by that name too.
func (r *Registry) RenameField(t reflect.Type, goField, gqlName string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.configurable(t, reflect.Struct)
	if _, ok := t.FieldByName(goField); !ok {
		panic(fmt.Sprintf("gqltype: RenameField: %s has no field %s", t, goField))
	}
	mustName(gqlName)
	if r.fieldNames[t] == nil {
		r.fieldNames[t] = map[string]string{}
	}
	r.fieldNames[t][goField] = gqlName
}

// configurable panics unless t is of kind k and not built yet.
func (r *Registry) configurable(t reflect.Type, k reflect.Kind) {
	if t.Kind() != k {
		panic(fmt.Sprintf("gqltype: %s is not a %s type", t, k))
	}
	if _, built := r.shapes[t]; built {
		panic(fmt.Sprintf("gqltype: %s is configured after its GraphQL type was built", t))
	}
}

// AddField gives the object type of struct t a field that is not one of
// its Go fields (a search configuration's id, computed from its key): f
// resolves from the Go value (T or *T, as Output's resolvers get it).
// It must come before t's type is first built, and its name must not be
// one of t's fields'.
func (r *Registry) AddField(t reflect.Type, name string, f *graphql.Field) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.extras == nil {
		r.extras = map[reflect.Type]graphql.Fields{}
	}
	if r.extras[t] == nil {
		r.extras[t] = graphql.Fields{}
	}
	r.extras[t][name] = f
}

// Output is the GraphQL type of a field that holds a Go value of type t:
// for a struct T, its object type as T!; for *T, T; for []T, [T!]!; and
// so on by the package's mapping.
func (r *Registry) Output(t reflect.Type) graphql.Output {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.output(r.mustShape(t), true)
}

// Input is the GraphQL type of an argument or input member that holds a
// Go value of type t: for a struct T (or *T), its input object type
// "<T>Input", nullable (wrap it in graphql.NewNonNull for a required
// argument); for []T, [<T>Input!].
func (r *Registry) Input(t reflect.Type) graphql.Input {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.input(r.mustShape(t))
}

// Undocumented lists the description keys ("config.SearchVersion.Facets")
// of the types, fields and enum values built so far that have no doc
// comment, and whose description was made from their name.
func (r *Registry) Undocumented() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var keys []string
	for k := range r.undocumented {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// describe is the description of key (descriptions_gen.go), or fallback,
// noting key as undocumented.
func (r *Registry) describe(key, fallback string) string {
	if d := descriptions[key]; d != "" {
		return d
	}
	r.undocumented[key] = true
	return fallback
}

// claim records that the GraphQL type name is t's, and panics when
// another Go type has it.
func (r *Registry) claim(name string, t reflect.Type) {
	if other, ok := r.names[name]; ok && other != t {
		panic(fmt.Sprintf("gqltype: %s and %s both map to the GraphQL type %s: rename one", other, t, name))
	}
	r.names[name] = t
}

// mustShape is r.shape(t), panicking on a type the mapping does not cover.
func (r *Registry) mustShape(t reflect.Type) *shape {
	s, err := r.shape(t)
	if err != nil {
		panic(err)
	}
	return s
}
