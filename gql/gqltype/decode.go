package gqltype

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// DecodeError is an input value Decode refuses: the member at Path
// ("input.facets[0].field"), and what is wrong with it.
type DecodeError struct {
	Path    string
	Message string
}

func (e *DecodeError) Error() string { return e.Path + ": " + e.Message }

// Decode turns arg, an input value as graphql-go coerces it
// (ResolveParams.Args[name]: map[string]any for an input object, []any
// for a list, string, bool, int, float64; an enum as its Go value), into
// *dst, which it replaces whole; path names arg in errors ("input"). It
// takes any JSON-decoded value as well: an integral float64 for an Int,
// an enum's GraphQL name for its Go value.
//
// A null or absent member leaves the Go zero value, and so does an empty
// list or entry list (nil, as the configuration's JSON reads back an
// empty member it left out): what is required is for the Go type's own
// validation (config.Validate) to say. A member of the wrong type, an
// unknown member, an enum value the type does not have, an Int beyond 32
// bits, a time not in RFC 3339 and an entry key given twice are a
// *DecodeError naming the member by its GraphQL path, and leave *dst as
// it was. A dst that is not a non-nil pointer to a type the registry maps
// is an error wrapping errors.ErrUnsupported.
func (r *Registry) Decode(arg any, dst any, path string) error {
	d := reflect.ValueOf(dst)
	if d.Kind() != reflect.Pointer || d.IsNil() {
		return fmt.Errorf("gqltype: decode into %T: want a non-nil pointer: %w", dst, errors.ErrUnsupported)
	}
	r.mu.Lock()
	s, err := r.shape(d.Type().Elem())
	r.mu.Unlock()
	if err != nil {
		return fmt.Errorf("gqltype: decode into %T: %w: %w", dst, err, errors.ErrUnsupported)
	}
	v := reflect.New(s.typ).Elem()
	if err := decode(s, arg, v, &at{member: path}); err != nil {
		return err
	}
	d.Elem().Set(v)
	return nil
}

// at is a member's path: its parent's, then .member, or [index] when
// member is empty.
type at struct {
	parent *at
	member string
	index  int
}

func (a *at) String() string {
	if a == nil {
		return ""
	}
	if a.member == "" {
		return a.parent.String() + "[" + strconv.Itoa(a.index) + "]"
	}
	if a.parent == nil {
		return a.member
	}
	return a.parent.String() + "." + a.member
}

func (a *at) fail(format string, args ...any) error {
	return &DecodeError{Path: a.String(), Message: fmt.Sprintf(format, args...)}
}

// decode sets v, the zero value of s's type, from arg.
func decode(s *shape, arg any, v reflect.Value, a *at) error {
	if arg == nil {
		return nil
	}
	switch s.kind {
	case kindString, kindEnum, kindTime:
		str, ok := arg.(string)
		if !ok {
			return a.fail("want a string, got %s", what(arg))
		}
		switch s.kind {
		case kindEnum:
			if !s.enum.values[str] {
				val, ok := s.enum.byName[str]
				if !ok {
					return a.fail("%s is not a %s: want one of %s", quote(str), s.name, s.enum.names)
				}
				str = val
			}
		case kindTime:
			t, err := time.Parse(time.RFC3339, str)
			if err != nil {
				return a.fail("%s is not a time in RFC 3339, such as 2026-03-01T00:00:00Z", quote(str))
			}
			v.Set(reflect.ValueOf(t))
			return nil
		}
		v.SetString(str)
	case kindBool:
		b, ok := arg.(bool)
		if !ok {
			return a.fail("want a boolean, got %s", what(arg))
		}
		v.SetBool(b)
	case kindInt:
		n, err := integer(arg)
		if err != nil {
			return a.fail("%v", err)
		}
		if v.OverflowInt(n) {
			return a.fail("%d is out of range", n)
		}
		v.SetInt(n)
	case kindFloat:
		f, ok := number(arg)
		if !ok {
			return a.fail("want a number, got %s", what(arg))
		}
		if v.OverflowFloat(f) {
			return a.fail("%v is out of range", f)
		}
		v.SetFloat(f)
	case kindJSON:
		j, err := jsonValue(arg, a)
		if err != nil {
			return err
		}
		if j != nil {
			v.Set(reflect.ValueOf(j))
		}
	case kindJSONObject:
		m, ok := arg.(map[string]any)
		if !ok {
			return a.fail("want an object, got %s", what(arg))
		}
		j, err := jsonValue(m, a)
		if err != nil {
			return err
		}
		if len(m) > 0 {
			v.Set(reflect.ValueOf(j).Convert(s.typ))
		}
	case kindPointer:
		p := reflect.New(s.elem.typ)
		if err := decode(s.elem, arg, p.Elem(), a); err != nil {
			return err
		}
		v.Set(p)
	case kindList:
		l, ok := arg.([]any)
		if !ok {
			return a.fail("want a list, got %s", what(arg))
		}
		if len(l) == 0 {
			return nil
		}
		out := reflect.MakeSlice(s.typ, len(l), len(l))
		for i, e := range l {
			ea := &at{parent: a, index: i}
			if e == nil && s.elem.kind != kindPointer && s.elem.kind != kindJSON {
				return ea.fail("a list element may not be null")
			}
			if err := decode(s.elem, e, out.Index(i), ea); err != nil {
				return err
			}
		}
		v.Set(out)
	case kindEntries:
		return decodeEntries(s, arg, v, a)
	case kindStruct:
		m, ok := arg.(map[string]any)
		if !ok {
			return a.fail("want an object (%sInput), got %s", s.name, what(arg))
		}
		for _, k := range sortedKeys(m) {
			f, ok := s.byName[k]
			if !ok {
				return (&at{parent: a, member: k}).fail("not a member of %sInput (%s)", s.name, memberNames(s))
			}
			if err := decode(f.shape, m[k], v.Field(f.index), &at{parent: a, member: k}); err != nil {
				return err
			}
		}
	}
	return nil
}

// decodeEntries sets the map v from a list of {key, value} entries.
func decodeEntries(s *shape, arg any, v reflect.Value, a *at) error {
	l, ok := arg.([]any)
	if !ok {
		return a.fail("want a list of %sInput, got %s", s.name, what(arg))
	}
	if len(l) == 0 {
		return nil
	}
	out := reflect.MakeMapWithSize(s.typ, len(l))
	for i, e := range l {
		ea := &at{parent: a, index: i}
		m, ok := e.(map[string]any)
		if !ok {
			return ea.fail("want an object (%sInput), got %s", s.name, what(e))
		}
		for _, k := range sortedKeys(m) {
			if k != "key" && k != "value" {
				return (&at{parent: ea, member: k}).fail("not a member of %sInput (key, value)", s.name)
			}
		}
		ka := &at{parent: ea, member: "key"}
		key, ok := m["key"].(string)
		switch {
		case m["key"] == nil:
			return ka.fail("is required")
		case !ok:
			return ka.fail("want a string, got %s", what(m["key"]))
		case out.MapIndex(reflect.ValueOf(key).Convert(s.typ.Key())).IsValid():
			return ka.fail("%s is given twice", quote(key))
		}
		va := &at{parent: ea, member: "value"}
		if m["value"] == nil && s.elem.kind != kindPointer && s.elem.kind != kindJSON {
			return va.fail("is required")
		}
		val := reflect.New(s.elem.typ).Elem()
		if err := decode(s.elem, m["value"], val, va); err != nil {
			return err
		}
		out.SetMapIndex(reflect.ValueOf(key).Convert(s.typ.Key()), val)
	}
	v.Set(out)
	return nil
}

// integer is arg as an Int: a Go integer, or an integral float64 as JSON
// decodes numbers, within GraphQL's 32 bits.
func integer(arg any) (int64, error) {
	var n int64
	switch x := arg.(type) {
	case int:
		n = int64(x)
	case int8:
		n = int64(x)
	case int16:
		n = int64(x)
	case int32:
		n = int64(x)
	case int64:
		n = x
	case float64:
		if x != math.Trunc(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("want an integer, got %v", x)
		}
		if x < math.MinInt32 || x > math.MaxInt32 {
			return 0, fmt.Errorf("%v is out of range of Int (32 bits)", x)
		}
		n = int64(x)
	default:
		return 0, fmt.Errorf("want an integer, got %s", what(arg))
	}
	if n < math.MinInt32 || n > math.MaxInt32 {
		return 0, fmt.Errorf("%d is out of range of Int (32 bits)", n)
	}
	return n, nil
}

// number is arg as a Float: a float or a Go integer.
func number(arg any) (float64, bool) {
	switch x := arg.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

// jsonValue is arg as encoding/json would read the same JSON: numbers as
// float64, lists as []any, objects as map[string]any.
func jsonValue(arg any, a *at) (any, error) {
	switch x := arg.(type) {
	case nil, bool, string, float64:
		return x, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for _, k := range sortedKeys(x) {
			v, err := jsonValue(x[k], &at{parent: a, member: k})
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			v, err := jsonValue(e, &at{parent: a, index: i})
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	if f, ok := number(arg); ok {
		return f, nil
	}
	return nil, a.fail("want a JSON value, got %s", what(arg))
}

// what names arg's JSON type in an error.
func what(arg any) string {
	switch arg.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, float32, int, int8, int16, int32, int64:
		return "a number"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("a Go %T", arg)
}

// maxQuoted bounds the bytes of an input string an error quotes.
const maxQuoted = 64

// quote is s quoted for an error, cut to maxQuoted bytes.
func quote(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "..."
}

// memberNames lists s's members for an error.
func memberNames(s *shape) string {
	names := make([]string, len(s.fields))
	for i, f := range s.fields {
		names[i] = f.name
	}
	return strings.Join(names, ", ")
}

// sortedKeys are m's keys in order, so the first of several errors is
// always the same.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
