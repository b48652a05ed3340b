package catalog

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-json"
)

// productFields are the JSON member names of Product, for suggestions when
// a feed has an unknown one.
var productFields = jsonNames(reflect.TypeFor[Product]())

func jsonNames(t reflect.Type) []string {
	var names []string
	for f := range t.Fields() {
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}

// describeJSON rewrites a go-json error in a feed's terms: the field path,
// the JSON type expected and the one found, or the unknown member with the
// nearest known one. known lists the members of the decoded object; column
// says the input was one line, whose syntax error offsets are columns.
func describeJSON(err error, known []string, column bool) error {
	if errors.Is(err, errUnclosedArray) {
		return err
	}
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	var pe *time.ParseError
	switch {
	case errors.As(err, &te):
		want := jsonTypeName(te.Type, false)
		if te.Field == "" {
			return fmt.Errorf("expected %s, got %s", want, te.Value)
		}
		field := fieldPath(te.Field)
		if strings.HasPrefix(te.Value, "number ") && want == "number" {
			return fmt.Errorf("field %q: %s is out of range", field, te.Value)
		}
		return fmt.Errorf("field %q: expected %s, got %s", field, want, te.Value)
	case errors.As(err, &se):
		msg := strings.TrimPrefix(se.Error(), "json: ")
		if column && se.Offset > 0 {
			return fmt.Errorf("malformed JSON at column %d: %s", se.Offset, msg)
		}
		return fmt.Errorf("malformed JSON: %s", msg)
	case errors.As(err, &pe):
		// Product's only time is created.
		return fmt.Errorf("field %q: %q is not an RFC 3339 time such as 2024-05-01T10:00:00Z", "created", pe.Value)
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if _, f, ok := strings.Cut(msg, "unknown field "); ok {
		if name, uerr := strconv.Unquote(f); uerr == nil {
			if near := nearest(name, known); near != "" {
				return fmt.Errorf("unknown field %q (did you mean %q?)", name, near)
			}
			return fmt.Errorf("unknown field %q", name)
		}
		return fmt.Errorf("unknown field %s", f)
	}
	if strings.Contains(msg, "unexpected end") || strings.Contains(msg, "EOF") {
		return errors.New("malformed JSON: unexpected end of file")
	}
	return errors.New("malformed JSON: " + msg)
}

var errUnclosedArray = errors.New("unexpected end of file: the array is not closed with ]")

// fieldPath writes go-json's "hierarchies.0.1" as "hierarchies[0][1]",
// the way Validate names fields; map keys stay dotted.
func fieldPath(p string) string {
	parts := strings.Split(p, ".")
	var b strings.Builder
	b.WriteString(parts[0])
	for i, s := range parts[1:] {
		isMapKey := i == 0 && strings.HasPrefix(parts[0], "extraData")
		if _, err := strconv.Atoi(s); err == nil && !isMapKey {
			b.WriteString("[" + s + "]")
		} else {
			b.WriteString("." + s)
		}
	}
	return b.String()
}

// jsonTypeName names the JSON a Go type is decoded from.
func jsonTypeName(t reflect.Type, plural bool) string {
	s := ""
	if t == reflect.TypeFor[time.Time]() {
		s = "RFC 3339 time string"
	} else {
		switch t.Kind() {
		case reflect.Pointer:
			return jsonTypeName(t.Elem(), plural)
		case reflect.String:
			s = "string"
		case reflect.Bool:
			s = "boolean"
		case reflect.Float32, reflect.Float64, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			s = "number"
		case reflect.Slice, reflect.Array:
			s = "array of " + jsonTypeName(t.Elem(), true)
			if plural {
				return "arrays of " + jsonTypeName(t.Elem(), true)
			}
			return s
		case reflect.Map:
			if plural {
				return "objects of " + jsonTypeName(t.Elem(), true)
			}
			return "object of " + jsonTypeName(t.Elem(), true)
		case reflect.Struct:
			s = "object"
			if t == reflect.TypeFor[Product]() || t == reflect.TypeFor[feedProduct]() {
				s = "product object"
			}
		default:
			s = t.String()
		}
	}
	if plural {
		return s + "s"
	}
	return s
}

// nearest returns the known name closest to name when it is plausibly a
// typo of it: their edit distance in bytes, lowercased, is at most a third
// of the lowercased name's length.
func nearest(name string, known []string) string {
	lower := strings.ToLower(name)
	best, bestD := "", len(lower)/3+1
	for _, k := range known {
		if d := editDistance(lower, strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return max(len(a), len(b))
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
