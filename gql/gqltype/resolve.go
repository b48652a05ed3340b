package gqltype

import (
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/graphql-go/graphql"
)

// entry is a map's entry as its entry object's resolvers read it: the
// value already as a resolver returns it.
type entry struct {
	key   string
	value any
}

// fieldResolver resolves f of the struct s from a source that is the Go
// struct or a pointer to it.
func fieldResolver(s *shape, f *field) graphql.FieldResolveFn {
	read := reader(f.shape)
	return func(p graphql.ResolveParams) (any, error) {
		v := reflect.ValueOf(p.Source)
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return nil, nil
			}
			v = v.Elem()
		}
		if !v.IsValid() || v.Type() != s.typ {
			return nil, fmt.Errorf("gqltype: %s.%s resolves from a %s, got %T", s.name, f.name, s.typ, p.Source)
		}
		return read(v.Field(f.index)), nil
	}
}

// reader returns what a resolver returns for a Go value of shape s:
// strings (an enum's Go value as a plain string, a time in RFC 3339),
// bools, ints, float64s, nil for a nil pointer, []any for lists and
// entries (empty, not nil, for a nil slice or map), and a struct as a
// pointer to it when it is addressable, for its object's resolvers.
func reader(s *shape) func(reflect.Value) any {
	switch s.kind {
	case kindString, kindEnum:
		return func(v reflect.Value) any { return v.String() }
	case kindBool:
		return func(v reflect.Value) any { return v.Bool() }
	case kindInt:
		return func(v reflect.Value) any { return int(v.Int()) }
	case kindFloat:
		return func(v reflect.Value) any { return v.Float() }
	case kindTime:
		return func(v reflect.Value) any { return v.Interface().(time.Time).Format(time.RFC3339Nano) }
	case kindJSON:
		return func(v reflect.Value) any { return v.Interface() }
	case kindJSONObject:
		return func(v reflect.Value) any {
			if v.IsNil() {
				return map[string]any{}
			}
			return v.Interface()
		}
	case kindPointer:
		elem := reader(s.elem)
		return func(v reflect.Value) any {
			if v.IsNil() {
				return nil
			}
			return elem(v.Elem())
		}
	case kindList:
		elem := reader(s.elem)
		return func(v reflect.Value) any {
			out := make([]any, v.Len())
			for i := range out {
				out[i] = elem(v.Index(i))
			}
			return out
		}
	case kindEntries:
		elem := reader(s.elem)
		return func(v reflect.Value) any {
			keys := make([]string, 0, v.Len())
			for _, k := range v.MapKeys() {
				keys = append(keys, k.String())
			}
			slices.Sort(keys)
			out := make([]any, len(keys))
			for i, k := range keys {
				out[i] = entry{key: k, value: elem(v.MapIndex(reflect.ValueOf(k).Convert(v.Type().Key())))}
			}
			return out
		}
	}
	return func(v reflect.Value) any { // kindStruct
		if v.CanAddr() {
			return v.Addr().Interface()
		}
		return v.Interface()
	}
}
