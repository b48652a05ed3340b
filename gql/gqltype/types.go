package gqltype

import (
	"github.com/graphql-go/graphql"
)

// output is s's GraphQL output type, non-null when nonNull (and the Go
// value cannot be nil); r.mu is held.
func (r *Registry) output(s *shape, nonNull bool) graphql.Output {
	var o graphql.Output
	switch s.kind {
	case kindString, kindTime:
		o = graphql.String
	case kindEnum:
		o = s.enum.gql
	case kindBool:
		o = graphql.Boolean
	case kindInt:
		o = graphql.Int
	case kindFloat:
		o = graphql.Float
	case kindJSON:
		return JSON // an interface{} may hold nil
	case kindJSONObject:
		o = JSON
	case kindPointer:
		return r.output(s.elem, false)
	case kindList:
		o = graphql.NewList(r.output(s.elem, true))
	case kindEntries:
		o = graphql.NewList(graphql.NewNonNull(r.entryObject(s)))
	case kindStruct:
		o = r.object(s)
	}
	if nonNull {
		return graphql.NewNonNull(o)
	}
	return o
}

// object is a struct's object type. Its fields are built after it is
// recorded, so a type that holds itself maps.
func (r *Registry) object(s *shape) *graphql.Object {
	if s.out != nil {
		return s.out
	}
	fields := graphql.Fields{}
	s.out = graphql.NewObject(graphql.ObjectConfig{
		Name:        s.name,
		Description: s.desc,
		Fields:      graphql.FieldsThunk(func() graphql.Fields { return fields }),
	})
	for _, f := range s.fields {
		fields[f.name] = &graphql.Field{
			Type:        r.output(f.shape, true),
			Description: f.desc,
			Resolve:     fieldResolver(s, f),
		}
	}
	for name, f := range r.extras[s.typ] {
		fields[name] = f
	}
	return s.out
}

// entryObject is a map's entry object type.
func (r *Registry) entryObject(s *shape) *graphql.Object {
	if s.out != nil {
		return s.out
	}
	fields := graphql.Fields{}
	s.out = graphql.NewObject(graphql.ObjectConfig{
		Name:        s.name,
		Description: s.desc,
		Fields:      graphql.FieldsThunk(func() graphql.Fields { return fields }),
	})
	fields["key"] = &graphql.Field{Type: graphql.NewNonNull(graphql.String), Description: "The entry's key.",
		Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(entry).key, nil }}
	fields["value"] = &graphql.Field{Type: r.output(s.elem, true), Description: "The entry's value.",
		Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(entry).value, nil }}
	return s.out
}

// input is s's GraphQL input type: nullable, but for a list's elements
// and an entry's key and value.
func (r *Registry) input(s *shape) graphql.Input {
	switch s.kind {
	case kindString, kindTime:
		return graphql.String
	case kindEnum:
		return s.enum.gql
	case kindBool:
		return graphql.Boolean
	case kindInt:
		return graphql.Int
	case kindFloat:
		return graphql.Float
	case kindJSON, kindJSONObject:
		return JSON
	case kindPointer:
		return r.input(s.elem)
	case kindList:
		return graphql.NewList(r.element(s.elem))
	case kindEntries:
		return graphql.NewList(graphql.NewNonNull(r.entryInput(s)))
	}
	return r.inputObject(s)
}

// element is the input type of a list's element: non-null, unless the
// Go element is a pointer.
func (r *Registry) element(s *shape) graphql.Input {
	if s.kind == kindPointer || s.kind == kindJSON {
		return r.input(s)
	}
	return graphql.NewNonNull(r.input(s))
}

// inputObject is a struct's input object type.
func (r *Registry) inputObject(s *shape) *graphql.InputObject {
	if s.in != nil {
		return s.in
	}
	fields := graphql.InputObjectConfigFieldMap{}
	s.in = graphql.NewInputObject(graphql.InputObjectConfig{
		Name:        s.name + "Input",
		Description: s.desc,
		Fields:      graphql.InputObjectConfigFieldMapThunk(func() graphql.InputObjectConfigFieldMap { return fields }),
	})
	for _, f := range s.fields {
		fields[f.name] = &graphql.InputObjectFieldConfig{Type: r.input(f.shape), Description: f.desc}
	}
	return s.in
}

// entryInput is a map's entry input type.
func (r *Registry) entryInput(s *shape) *graphql.InputObject {
	if s.in != nil {
		return s.in
	}
	fields := graphql.InputObjectConfigFieldMap{}
	s.in = graphql.NewInputObject(graphql.InputObjectConfig{
		Name:        s.name + "Input",
		Description: s.desc,
		Fields:      graphql.InputObjectConfigFieldMapThunk(func() graphql.InputObjectConfigFieldMap { return fields }),
	})
	fields["key"] = &graphql.InputObjectFieldConfig{Type: graphql.NewNonNull(graphql.String), Description: "The entry's key."}
	fields["value"] = &graphql.InputObjectFieldConfig{Type: r.element(s.elem), Description: "The entry's value."}
	return s.in
}
