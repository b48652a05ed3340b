// Package jsonfield names the member a JSON type error is about when the
// decoder that met it could not: goccy/go-json, the servers' decoder,
// passes on the error a member's own UnmarshalJSON returns (a tolerant
// boolean, a product number) as it is, with no path, since the member
// cannot know where it sits. Such a member returns an encoding/json
// *UnmarshalTypeError; Fill decodes the body again with encoding/json,
// which adds the path to its own type errors, and turns the error into
// goccy/go-json's, as the rest of a decoding error's handling expects.
// Only an error path calls it: an accepted request costs nothing more.
package jsonfield

import (
	stdjson "encoding/json"
	"errors"
	"reflect"

	"github.com/goccy/go-json"
)

// Fill returns err, or, when err is a member's own encoding/json type
// error, the same as a goccy/go-json type error whose Field is the
// dotted path of the member ("products.returnFilters"; a list's members
// are named without their index), found by decoding data with
// encoding/json into a new value of the type v points to.
func Fill(err error, data []byte, v any) error {
	var own *stdjson.UnmarshalTypeError
	if !errors.As(err, &own) {
		return err
	}
	out := &json.UnmarshalTypeError{Value: own.Value, Type: own.Type, Offset: own.Offset, Field: own.Field}
	if t := reflect.TypeOf(v); out.Field == "" && t != nil && t.Kind() == reflect.Pointer {
		again := stdjson.Unmarshal(data, reflect.New(t.Elem()).Interface())
		if errors.As(again, &own) {
			out.Field = own.Field
		}
	}
	return out
}

// TypeError is the error a member's UnmarshalJSON returns for raw, a
// JSON value of the wrong kind for want: it names the kind got
// ("string", "bool", "object", "array", or "number 12.5", the number
// itself) and the Go type wanted.
func TypeError(raw []byte, want reflect.Type) error {
	value := "value"
	if len(raw) > 0 {
		switch raw[0] {
		case '"':
			value = "string"
		case '{':
			value = "object"
		case '[':
			value = "array"
		case 't', 'f':
			value = "bool"
		default:
			value = "number " + string(raw)
		}
	}
	return &stdjson.UnmarshalTypeError{Value: value, Type: want}
}
