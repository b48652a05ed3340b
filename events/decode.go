package events

import (
	"bytes"
	"errors"
	"reflect"
	"strings"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/internal/jsonfield"
)

// Decode reads one event's JSON strictly, as a behaviour log's line or
// the change log holds it: kind and websiteUuid among its members, no
// unknown member. It does not Check the event.
func Decode(data []byte) (Event, error) {
	e, err := DecodeBody(data)
	if err != nil {
		return e, err
	}
	if e.Kind == "" {
		return e, invalid("kind", "is required: one of %s", joinKinds(Kinds, "or"))
	}
	return e, nil
}

// DecodeBody reads one event's JSON strictly as POST
// /serve/collect/{kind} takes it: the kind may be left out (the address
// names it), no unknown member. It does not Check the event.
func DecodeBody(data []byte) (Event, error) {
	var w wireEvent
	if err := decodeStrict(data, &w, "an event"); err != nil {
		return w.event(), err
	}
	return w.event(), nil
}

// DecodeChecked is Decode then Check, and the event's JSON as the change
// log keeps it (json.Marshal of the checked event). A line already in
// that form (as Aisle writes events, and a behaviour log it exported) is
// decoded without the strict decoder, a quarter of the work: nothing
// unknown, repeated or misspelt can hide in a line that re-encodes to
// itself. Any other line takes the strict path, so the answer is
// Decode's and Check's either way.
func DecodeChecked(line []byte) (Event, []byte, error) {
	var e Event
	if json.Unmarshal(line, &e) == nil && e.Kind != "" && Check(&e) == nil {
		if data, err := json.Marshal(&e); err == nil && bytes.Equal(data, line) {
			return e, line, nil
		}
	}
	return decodeChecked(line)
}

// decodeChecked is DecodeChecked without the fast path.
func decodeChecked(line []byte) (Event, []byte, error) {
	e, err := Decode(line)
	if err == nil {
		err = Check(&e)
	}
	if err != nil {
		return e, nil, err
	}
	data, err := json.Marshal(&e)
	return e, data, err
}

// decodeStrict decodes data, one JSON value, into v: no unknown member,
// nothing after it; what names the value in the error.
func decodeStrict(data []byte, v any, what string) *Error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(jsonfield.Fill(err, data, v)) // a productNumber's own error names no member
	}
	if dec.More() {
		return invalid("", "more than one JSON value: %s is one object", what)
	}
	return nil
}

// decodeError names the member a decoding error is about.
func decodeError(err error) *Error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return invalid(te.Field, "expected %s, got %s", jsonType(te.Type), te.Value)
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if _, name, ok := strings.Cut(msg, "unknown field "); ok {
		name = strings.Trim(name, `"`)
		return invalid(name, "unknown member %q", name)
	}
	return invalid("", "malformed JSON: %s", msg)
}

// jsonType names the JSON a Go type is decoded from.
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int64, reflect.Float64:
		return "a number"
	case reflect.Slice:
		return "a list"
	case reflect.Pointer:
		return jsonType(t.Elem())
	}
	return "an object"
}
