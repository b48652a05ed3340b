package gqltype

import (
	"errors"
	"fmt"
	"path"
	"reflect"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/graphql-go/graphql"
)

// kind is how a Go type maps to GraphQL.
type kind uint8

const (
	kindString     kind = iota
	kindEnum            // a named string type registered with Enum
	kindBool            // bool
	kindInt             // int, int8, ..., int64: Int
	kindFloat           // float32, float64: Float
	kindTime            // time.Time: a String in RFC 3339
	kindJSON            // interface{}: the JSON scalar
	kindJSONObject      // map[string]any: the JSON scalar, an object
	kindPointer         // *T: nullable T
	kindList            // []T
	kindEntries         // map[string]T: a list of key/value entries
	kindStruct          // an object
)

// shape is what a Go type maps to, built once per type by Registry.shape
// and read without the registry's lock from then on: the GraphQL types,
// the output resolvers and Decode all follow it.
type shape struct {
	kind kind
	typ  reflect.Type
	elem *shape // kindPointer, kindList, kindEntries: the element's

	name   string   // kindStruct, kindEnum, kindEntries: the GraphQL type's name
	desc   string   // kindStruct, kindEntries: its description
	fields []*field // kindStruct, in Go order
	byName map[string]*field
	enum   *enum // kindEnum

	out *graphql.Object      // kindStruct, kindEntries: once built
	in  *graphql.InputObject // kindStruct, kindEntries: once built
}

// field is a struct field as a GraphQL field.
type field struct {
	name  string // GraphQL name
	index int
	shape *shape
	desc  string
}

var (
	timeType = reflect.TypeFor[time.Time]()
	anyType  = reflect.TypeFor[any]()
)

// errUnsupported is wrapped by the errors of a Go type the mapping does
// not cover.
var errUnsupported = errors.New("gqltype: no GraphQL mapping")

// shape is t's shape, built with those of the types it holds; r.mu is
// held. A struct's shape is recorded before its fields', so a type that
// holds itself (through a pointer, a slice or a map) maps too.
func (r *Registry) shape(t reflect.Type) (*shape, error) {
	if s, ok := r.shapes[t]; ok {
		return s, nil
	}
	s := &shape{typ: t}
	switch {
	case t == timeType:
		s.kind = kindTime
	case r.enums[t] != nil:
		s.kind, s.enum, s.name = kindEnum, r.enums[t], r.enums[t].gql.Name()
	default:
		switch t.Kind() {
		case reflect.String:
			s.kind = kindString
		case reflect.Bool:
			s.kind = kindBool
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			s.kind = kindInt
		case reflect.Float32, reflect.Float64:
			s.kind = kindFloat
		case reflect.Interface:
			if t != anyType {
				return nil, fmt.Errorf("%w for the interface %s: only interface{}", errUnsupported, t)
			}
			s.kind = kindJSON
		case reflect.Pointer:
			if t.Elem().Kind() == reflect.Pointer {
				return nil, fmt.Errorf("%w for %s: a pointer to a pointer", errUnsupported, t)
			}
			s.kind = kindPointer
		case reflect.Slice:
			s.kind = kindList
		case reflect.Map:
			if t.Key().Kind() != reflect.String {
				return nil, fmt.Errorf("%w for %s: map keys must be strings", errUnsupported, t)
			}
			s.kind = kindEntries
			if t.Elem() == anyType {
				s.kind = kindJSONObject
			}
		case reflect.Struct:
			s.kind = kindStruct
		default:
			return nil, fmt.Errorf("%w for %s", errUnsupported, t)
		}
	}
	r.shapes[t] = s
	var err error
	switch s.kind {
	case kindPointer, kindList, kindEntries:
		s.elem, err = r.shape(t.Elem())
		if err == nil && s.kind == kindEntries {
			err = r.entriesShape(s)
		}
	case kindStruct:
		err = r.structShape(s)
	}
	if err != nil {
		delete(r.shapes, t)
		return nil, err
	}
	return s, nil
}

// structShape fills a struct's shape: its name, description and fields.
func (r *Registry) structShape(s *shape) error {
	t := s.typ
	s.name = r.typeNames[t]
	if s.name == "" {
		if t.Name() == "" {
			return fmt.Errorf("%w for an unnamed struct type: RenameType names it", errUnsupported)
		}
		s.name = t.Name()
	}
	r.claim(s.name, t)
	r.claim(s.name+"Input", t)
	key := docKey(t)
	s.desc = r.describe(key, fmt.Sprintf("A %s.", words(s.name)))
	s.byName = map[string]*field{}
	for i := range t.NumField() {
		sf := t.Field(i)
		name, ok := jsonName(sf)
		if !ok {
			continue
		}
		if sf.Anonymous {
			return fmt.Errorf("%w for %s.%s: an embedded field", errUnsupported, t, sf.Name)
		}
		if n := r.fieldNames[t][sf.Name]; n != "" {
			name = n
		}
		if !nameRE.MatchString(name) {
			return fmt.Errorf("%w for %s.%s: %q is not a GraphQL name", errUnsupported, t, sf.Name, name)
		}
		if _, dup := s.byName[name]; dup {
			return fmt.Errorf("%w for %s: two fields are named %s", errUnsupported, t, name)
		}
		fs, err := r.shape(sf.Type)
		if err != nil {
			return fmt.Errorf("%s.%s: %w", t, sf.Name, err)
		}
		f := &field{name: name, index: i, shape: fs,
			desc: r.describe(key+"."+sf.Name, fmt.Sprintf("The %s of this %s.", words(name), words(s.name)))}
		s.fields = append(s.fields, f)
		s.byName[name] = f
	}
	if len(s.fields) == 0 {
		return fmt.Errorf("%w for %s: a struct with no exported field", errUnsupported, t)
	}
	return nil
}

// entriesShape names a map's entry type after its value's type.
func (r *Registry) entriesShape(s *shape) error {
	s.name = typeName(s.elem) + "Entry"
	r.claim(s.name, s.typ)
	r.claim(s.name+"Input", s.typ)
	s.desc = fmt.Sprintf("An entry of a map from String keys to %s values.", typeName(s.elem))
	return nil
}

// typeName is the GraphQL name s's type is known by in an entry's name.
func typeName(s *shape) string {
	switch s.kind {
	case kindString, kindTime:
		return "String"
	case kindBool:
		return "Boolean"
	case kindInt:
		return "Int"
	case kindFloat:
		return "Float"
	case kindJSON, kindJSONObject:
		return "JSON"
	case kindPointer:
		return typeName(s.elem)
	case kindList:
		return typeName(s.elem) + "List"
	}
	return s.name // struct, enum, entries
}

// jsonName is f's name in JSON, and false when JSON leaves it out
// (unexported, or tagged "-").
func jsonName(f reflect.StructField) (string, bool) {
	if !f.IsExported() && !f.Anonymous {
		return "", false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	name, _, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name, true
}

// docKey is t's key in descriptions: "config.SearchVersion".
func docKey(t reflect.Type) string { return path.Base(t.PkgPath()) + "." + t.Name() }

// nameRE is a GraphQL name.
var nameRE = regexp.MustCompile(`^[_A-Za-z][_0-9A-Za-z]*$`)

// mustName panics unless name is a GraphQL name.
func mustName(name string) {
	if !nameRE.MatchString(name) {
		panic(fmt.Sprintf("gqltype: %q is not a GraphQL name", name))
	}
}

// splitWords splits a name into its words: at case changes ("maxFacetValues":
// max, Facet, Values; "APIKeys": API, Keys) and at anything but letters and
// digits ("most-bought", "MOST_BOUGHT").
func splitWords(s string) []string {
	var out []string
	rs := []rune(s)
	start := -1
	for i, c := range rs {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			if start >= 0 {
				out = append(out, string(rs[start:i]))
			}
			start = -1
			continue
		}
		if start >= 0 && unicode.IsUpper(c) {
			prev := rs[i-1]
			next := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && next {
				out = append(out, string(rs[start:i]))
				start = i
			}
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, string(rs[start:]))
	}
	return out
}

// words is a name as lower-case words: "maxFacetValues" is "max facet
// values".
func words(name string) string { return strings.ToLower(strings.Join(splitWords(name), " ")) }
