package engine

import (
	"bytes"
	"strings"
	"unsafe"

	"github.com/aisle-search/aisle/internal/jsonscan"
	"github.com/goccy/go-json"
)

// Projection writes the requested members of a stored document straight
// from its bytes: one pass over the object's members finds each wanted
// value's bytes, which are copied as they are, in the order the fields
// name them. Nothing is decoded into maps, so a search's allocations do
// not grow with its fields or results.

// maxProjected is how many distinct members a projection finds without
// allocating; more take a slice.
const maxProjected = 16

// keyText is a member's name from its raw key bytes: the bytes
// themselves (valid while they are), decoded only when they hold an
// escape; "" with ok false when they do not decode.
func keyText(raw []byte) (string, bool) {
	if bytes.IndexByte(raw, '\\') < 0 {
		return unsafe.String(unsafe.SliceData(raw), len(raw)), true
	}
	return decodeKey(raw)
}

// decodeKey is keyText for a key with an escape.
func decodeKey(raw []byte) (string, bool) {
	var name string
	q := make([]byte, 0, len(raw)+2)
	q = append(append(append(q, '"'), raw...), '"')
	err := json.Unmarshal(q, &name)
	return name, err == nil
}

// projection is the members a field list asks for: top-level names in
// the order first named, each whole or with its named members.
type projection struct {
	names []string
	spans []jsonscan.Span // by name; end 0: not found
}

// appendProjected writes a stored document, or only the requested fields
// of it, in the order they are named. Dotted names pick members of
// nested objects and keep the nesting; a member asked whole and in parts
// is written whole; a name that is not there, or a part of a member that
// is not an object, is left out. A stored document that cannot be read
// gives {}. extra, when set, follows (productExtra).
func appendProjected(dst []byte, stored []byte, fields []string, extra *productExtra) []byte {
	if len(fields) == 0 {
		if extra == nil {
			return append(dst, stored...)
		}
		dst = append(dst, stored[:len(stored)-1]...)
		return append(extra.appendTo(dst, len(stored) <= 2, nil), '}')
	}
	var namesBuf [maxProjected]string
	var spansBuf [maxProjected]jsonscan.Span
	p := projection{names: namesBuf[:0], spans: spansBuf[:0]}
	for _, f := range fields {
		name, _, _ := strings.Cut(f, ".")
		if !containsString(p.names, name) {
			p.names = append(p.names, name)
			p.spans = append(p.spans, jsonscan.Span{})
		}
	}
	found := 0
	ok := jsonscan.Members(stored, func(key []byte, v jsonscan.Span) bool {
		k, ok := keyText(key)
		for i, n := range p.names {
			if ok && k == n {
				if p.spans[i].End == 0 {
					found++
				}
				p.spans[i] = v
			}
		}
		return found == len(p.names) // the rest is not read: Aisle wrote it, with each key once
	})
	if !ok {
		return append(dst, "{}"...)
	}
	dst = append(dst, '{')
	first := true
	for i, name := range p.names {
		v := p.spans[i]
		if v.End == 0 {
			continue
		}
		raw := stored[v.Start:v.End]
		if !containsString(fields, name) { // parts only
			var ok bool
			if dst, ok = appendParts(dst, raw, name, fields, first); ok {
				first = false
			}
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = appendString(dst, name)
		dst = append(dst, ':')
		dst = append(dst, raw...)
	}
	if extra != nil {
		dst = extra.appendTo(dst, first, fields)
	}
	return append(dst, '}')
}

// appendParts writes member name of the projection as an object of the
// parts fields name ("name.part"), in their order, each once; it writes
// nothing and reports false when raw is not an object (null counts as
// an empty one).
func appendParts(dst, raw []byte, name string, fields []string, first bool) ([]byte, bool) {
	var partsBuf [maxProjected]string
	var spansBuf [maxProjected]jsonscan.Span
	parts, spans := partsBuf[:0], spansBuf[:0]
	for _, f := range fields {
		if n, part, ok := strings.Cut(f, "."); ok && n == name && !containsString(parts, part) {
			parts, spans = append(parts, part), append(spans, jsonscan.Span{})
		}
	}
	found := 0
	if string(raw) != "null" && !jsonscan.Members(raw, func(key []byte, v jsonscan.Span) bool { // null: an object with nothing
		k, ok := keyText(key)
		for i, part := range parts {
			if ok && k == part {
				if spans[i].End == 0 {
					found++
				}
				spans[i] = v
			}
		}
		return found == len(parts)
	}) {
		return dst, false
	}
	if !first {
		dst = append(dst, ',')
	}
	dst = appendString(dst, name)
	dst = append(dst, ':', '{')
	n := 0
	for i, part := range parts {
		if spans[i].End == 0 {
			continue
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = appendString(dst, part)
		dst = append(dst, ':')
		dst = append(dst, raw[spans[i].Start:spans[i].End]...)
	}
	return append(dst, '}'), true
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
