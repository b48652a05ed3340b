// Package jsonscan reads the members of a JSON object in place: where
// each top-level member's key and value are, without decoding them. The
// engine's field projection reads stored documents with it, and the
// index lists each stored document's member offsets with it
// (MemberStarts), so a projection jumps to the members it wants.
//
// It trusts what it reads to have been written by an encoder: literals
// and numbers are taken as the run of characters that can make them,
// which only keeps a damaged document from being misread.
package jsonscan

import (
	"bytes"
	"math"
	"unsafe"

	"github.com/goccy/go-json"
)

// KeyText is a member's name from its raw key bytes (between its
// quotes): the bytes themselves, a string valid while they are, and
// decoded into a string of its own only when they hold an escape; ok is
// false when they do not decode.
func KeyText(raw []byte) (string, bool) {
	if bytes.IndexByte(raw, '\\') < 0 {
		return unsafe.String(unsafe.SliceData(raw), len(raw)), true
	}
	var name string
	q := make([]byte, 0, len(raw)+2)
	q = append(append(append(q, '"'), raw...), '"')
	err := json.Unmarshal(q, &name)
	return name, err == nil
}

// Span is a value's bytes in a document: [Start, End).
type Span struct{ Start, End int }

// SkipSpace is the first index from i that is not JSON whitespace.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// SkipString is the index after the JSON string starting at b[i] ('"'),
// or -1 when it does not end. Keys and most values are short: their
// first bytes are read one by one, and a longer string's rest with
// bytes.IndexByte.
func SkipString(b []byte, i int) int {
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

// SkipValue is the index after the JSON value starting at b[i], or -1
// when it is not one. Literals and numbers are taken as the run of
// characters that can make them; the document was written by Aisle's
// encoder, this only keeps a damaged one from being misread.
func SkipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		return SkipString(b, i)
	case c == '{' || c == '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				if i = SkipString(b, i); i < 0 {
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

// Members calls fn with each member of the JSON object obj (its key as
// raw string bytes, without quotes, and its value's span) until fn says
// it has all it wants, and reports whether obj read as an object that
// far (to its end when fn wanted every member).
func Members(obj []byte, fn func(key []byte, v Span) (done bool)) bool {
	return eachMember(obj, func(_ int, key []byte, v Span) bool { return fn(key, v) })
}

// eachMember is Members, with the offset of each member's key.
func eachMember(obj []byte, fn func(keyAt int, key []byte, v Span) (done bool)) bool {
	i := SkipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return false
	}
	i = SkipSpace(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return SkipSpace(obj, i+1) == len(obj)
	}
	for {
		if i >= len(obj) || obj[i] != '"' {
			return false
		}
		end := SkipString(obj, i)
		if end < 0 {
			return false
		}
		keyAt, key := i, obj[i+1:end-1]
		i = SkipSpace(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return false
		}
		i = SkipSpace(obj, i+1)
		vend := SkipValue(obj, i)
		if vend < 0 {
			return false
		}
		if fn(keyAt, key, Span{Start: i, End: vend}) {
			return true
		}
		i = SkipSpace(obj, vend)
		switch {
		case i < len(obj) && obj[i] == ',':
			i = SkipSpace(obj, i+1)
		case i < len(obj) && obj[i] == '}':
			return SkipSpace(obj, i+1) == len(obj)
		default:
			return false
		}
	}
}

// MemberStarts appends to dst the offset of each top-level member of
// obj (its key's opening quote), in order; ok is false, and dst is
// returned as it came, when obj does not read as a JSON object to its
// end, or is longer than an offset holds.
func MemberStarts(dst []uint32, obj []byte) (_ []uint32, ok bool) {
	n := len(dst)
	if uint64(len(obj)) > math.MaxUint32 {
		return dst, false
	}
	if !eachMember(obj, func(keyAt int, _ []byte, _ Span) bool {
		dst = append(dst, uint32(keyAt))
		return false
	}) {
		return dst[:n], false
	}
	return dst, true
}

// ValueAt is the value of member k of an object whose members start at
// starts (MemberStarts of the same bytes), its key ending at keyEnd (just
// past the closing quote): from after the colon to before the comma
// ahead of the next member, or the object's closing brace, without the
// spaces around it. It reports false when the bytes there are not a
// member's, as for a damaged object.
func ValueAt(obj []byte, starts []uint32, k, keyEnd int) (Span, bool) {
	i := SkipSpace(obj, keyEnd)
	if i >= len(obj) || obj[i] != ':' {
		return Span{}, false
	}
	vstart := SkipSpace(obj, i+1)
	var j int
	if k+1 < len(starts) {
		j = int(starts[k+1]) - 1
		for j > vstart && j < len(obj) && isSpace(obj[j]) {
			j--
		}
		if j <= vstart || j >= len(obj) || obj[j] != ',' {
			return Span{}, false
		}
	} else {
		j = len(obj) - 1
		for j > vstart && isSpace(obj[j]) {
			j--
		}
		if j <= vstart || obj[j] != '}' {
			return Span{}, false
		}
	}
	vend := j
	for vend > vstart && isSpace(obj[vend-1]) {
		vend--
	}
	return Span{Start: vstart, End: vend}, true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
