package engine

import (
	"bytes"
	"strings"
	"unsafe"

	"github.com/goccy/go-json"
)

// Projection writes the requested members of a stored document straight
// from its bytes: one pass over the object's members finds each wanted
// value's bytes, which are copied as they are, in the order the fields
// name them. Nothing is decoded into maps, so a search's allocations do
// not grow with its fields or results.

// span is a value's bytes in a document: [start, end).
type span struct{ start, end int }

// maxProjected is how many distinct members a projection finds without
// allocating; more take a slice.
const maxProjected = 16

// skipSpace is the first index from i that is not JSON whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString is the index after the JSON string starting at b[i] ('"'),
// or -1 when it does not end. Keys and most values are short: their
// first bytes are read one by one, and a longer string's rest with
// bytes.IndexByte.
func skipString(b []byte, i int) int {
	end := min(len(b), i+24)
	for i++; i < end; i++ {
		switch b[i] {
		case '"':
			return i + 1
		case '\\':
			i++ // the escaped byte
		}
	}
	if i >= len(b) {
		return -1
	}
	for {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return -1
		}
		i += q
		bs := 0 // the backslashes before it: an odd run escapes it
		for j := i - 1; j >= 0 && b[j] == '\\'; j-- {
			bs++
		}
		if bs%2 == 0 {
			return i + 1
		}
		i++
	}
}

// skipValue is the index after the JSON value starting at b[i], or -1
// when it is not one. Literals and numbers are taken as the run of
// characters that can make them; the document was written by Aisle's
// encoder, this only keeps a damaged one from being misread.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		return skipString(b, i)
	case c == '{' || c == '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				if i = skipString(b, i); i < 0 {
					return -1
				}
				i--
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	default:
		start := i
		for i < len(b) && (b[i] == '-' || b[i] == '+' || b[i] == '.' || b[i] >= '0' && b[i] <= '9' || b[i] >= 'a' && b[i] <= 'z' || b[i] == 'E') {
			i++
		}
		switch lit := string(b[start:i]); {
		case i == start:
			return -1
		case lit == "true" || lit == "false" || lit == "null":
		case lit[0] == '-' || lit[0] >= '0' && lit[0] <= '9':
		default:
			return -1
		}
		return i
	}
}

// members calls fn with each member of the JSON object obj (its key as
// raw string bytes, without quotes, and its value's span) until fn says
// it has all it wants, and reports whether obj read as an object that
// far (to its end when fn wanted every member).
func members(obj []byte, fn func(key []byte, v span) (done bool)) bool {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return false
	}
	i = skipSpace(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return skipSpace(obj, i+1) == len(obj)
	}
	for {
		if i >= len(obj) || obj[i] != '"' {
			return false
		}
		end := skipString(obj, i)
		if end < 0 {
			return false
		}
		key := obj[i+1 : end-1]
		i = skipSpace(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return false
		}
		i = skipSpace(obj, i+1)
		vend := skipValue(obj, i)
		if vend < 0 {
			return false
		}
		if fn(key, span{i, vend}) {
			return true
		}
		i = skipSpace(obj, vend)
		switch {
		case i < len(obj) && obj[i] == ',':
			i = skipSpace(obj, i+1)
		case i < len(obj) && obj[i] == '}':
			return skipSpace(obj, i+1) == len(obj)
		default:
			return false
		}
	}
}

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
	spans []span // by name; end 0: not found
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
	var spansBuf [maxProjected]span
	p := projection{names: namesBuf[:0], spans: spansBuf[:0]}
	for _, f := range fields {
		name, _, _ := strings.Cut(f, ".")
		if !containsString(p.names, name) {
			p.names = append(p.names, name)
			p.spans = append(p.spans, span{})
		}
	}
	found := 0
	ok := members(stored, func(key []byte, v span) bool {
		k, ok := keyText(key)
		for i, n := range p.names {
			if ok && k == n {
				if p.spans[i].end == 0 {
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
		if v.end == 0 {
			continue
		}
		raw := stored[v.start:v.end]
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
	var spansBuf [maxProjected]span
	parts, spans := partsBuf[:0], spansBuf[:0]
	for _, f := range fields {
		if n, part, ok := strings.Cut(f, "."); ok && n == name && !containsString(parts, part) {
			parts, spans = append(parts, part), append(spans, span{})
		}
	}
	found := 0
	if string(raw) != "null" && !members(raw, func(key []byte, v span) bool { // null: an object with nothing
		k, ok := keyText(key)
		for i, part := range parts {
			if ok && k == part {
				if spans[i].end == 0 {
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
		if spans[i].end == 0 {
			continue
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = appendString(dst, part)
		dst = append(dst, ':')
		dst = append(dst, raw[spans[i].start:spans[i].end]...)
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
