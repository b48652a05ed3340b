package engine

import (
	"reflect"

	"github.com/aisle-search/aisle/internal/jsonfield"
)

// Flag is a boolean member of a request body that real clients of the
// service the spec describes also write as a string: true and "true",
// false and "false" mean the same (docs/decisions.md, "Real clients'
// requests"). Any other value is refused as a type error naming the
// member, as a plain bool's would be.
type Flag bool

// UnmarshalJSON reads true, false, "true", "false" or null (no change).
func (f *Flag) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case "true", `"true"`:
		*f = true
	case "false", `"false"`:
		*f = false
	case "null":
	default:
		return jsonfield.TypeError(b, reflect.TypeFor[bool]())
	}
	return nil
}
