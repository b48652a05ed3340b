package jsonscan

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSkipString: the end of a JSON string, for strings of every length
// around where SkipString stops reading byte by byte (24), with escaped
// quotes and runs of backslashes at each position, against a decoder.
func TestSkipString(t *testing.T) {
	pieces := []string{`a`, `\"`, `\\`, `\\\"`, `é`, `\u0022`}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var body strings.Builder
		for body.Len() < r.IntN(60) {
			body.WriteString(pieces[r.IntN(len(pieces))])
		}
		str := `"` + body.String() + `"`
		var want string
		if err := json.Unmarshal([]byte(str), &want); err != nil {
			t.Fatalf("%s: %v", str, err)
		}
		pad := strings.Repeat(" ", r.IntN(3))
		b := []byte(pad + str + `,"next"`)
		if got := SkipString(b, len(pad)); got != len(pad)+len(str) {
			t.Fatalf("%s: end %d, want %d", b, got, len(pad)+len(str))
		}
		if got := SkipString(b[:len(pad)+len(str)-1], len(pad)); got != -1 {
			t.Fatalf("%s without its closing quote: end %d, want -1", str, got)
		}
	}
}

// member is one call of the function Members or membersAt is given.
type member struct {
	key string
	v   Span
}

func listMembers(obj []byte, starts []uint32) ([]member, bool) {
	var out []member
	fn := func(key []byte, v Span) bool { out = append(out, member{string(key), v}); return false }
	if starts == nil {
		return out, Members(obj, fn)
	}
	return out, membersAt(obj, starts, fn)
}

// membersAt is Members over an object whose members start at starts,
// each key found from its offset and each value by ValueAt, as the
// engine's projection finds them.
func membersAt(obj []byte, starts []uint32, fn func(key []byte, v Span) (done bool)) bool {
	for k, st := range starts {
		i := int(st)
		if i >= len(obj) || obj[i] != '"' {
			return false
		}
		end := SkipString(obj, i)
		if end < 0 {
			return false
		}
		v, ok := ValueAt(obj, starts, k, end)
		if !ok {
			return false
		}
		if fn(obj[i+1:end-1], v) {
			return true
		}
	}
	return true
}

// TestMembersAtMatchesMembers: for random objects (nested values,
// escapes, whitespace anywhere JSON allows it), the members found from
// MemberStarts' offsets are the members a scan finds; bytes that are not
// an object have no offsets.
func TestMembersAtMatchesMembers(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 1))
	ws := func() string { return []string{"", "", " ", "\n\t", "  "}[r.IntN(5)] }
	values := []string{`1`, `-2.5e3`, `"x"`, `"a\"b,}"`, `true`, `null`, `[1,[2,"]"]]`, `{"a":{"b":[]}}`, `""`, `{}`, `[]`}
	for range 5000 {
		var b strings.Builder
		b.WriteString(ws() + "{")
		n := r.IntN(6)
		for i := range n {
			if i > 0 {
				b.WriteString(ws() + ",")
			}
			fmt.Fprintf(&b, `%s"k%d\"%s"%s:%s%s`, ws(), i, strings.Repeat("x", r.IntN(30)), ws(), ws(), values[r.IntN(len(values))])
		}
		b.WriteString(ws() + "}" + ws())
		obj := []byte(b.String())
		want, ok := listMembers(obj, nil)
		if !ok || !json.Valid(obj) {
			t.Fatalf("%s: not read as an object (%v) or not JSON", obj, ok)
		}
		starts, ok := MemberStarts(nil, obj)
		if !ok || len(starts) != n {
			t.Fatalf("%s: %d offsets (%v), want %d", obj, len(starts), ok, n)
		}
		got, ok := listMembers(obj, starts)
		if !ok || !slices.Equal(got, want) {
			t.Fatalf("%s: from offsets %v (%v), scanned %v", obj, got, ok, want)
		}
	}
	for _, bad := range []string{``, `[]`, `{"a":1`, `{"a":1,}`, `{"a" 1}`, `{"a":1}x`} {
		if starts, ok := MemberStarts([]uint32{7}, []byte(bad)); ok || len(starts) != 1 {
			t.Errorf("%q: offsets %v (%v), want none added", bad, starts, ok)
		}
	}
}

// FuzzMembersAt: for any bytes MemberStarts reads as an object, the
// members found from its offsets are those a scan finds.
func FuzzMembersAt(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":{"c":"x\"y","d":[1,{"e":2}]}}`))
	f.Add([]byte(` { "a" : [ ] , "b":null } `))
	f.Fuzz(func(t *testing.T, obj []byte) {
		starts, ok := MemberStarts(nil, obj)
		if !ok {
			return
		}
		want, _ := listMembers(obj, nil)
		got, ok := listMembers(obj, starts)
		if !ok || !slices.Equal(got, want) {
			t.Fatalf("%q: from offsets %v (%v), scanned %v", obj, got, ok, want)
		}
	})
}

// TestKeyText: a key's raw bytes are its name unless they hold an
// escape, which is decoded; an escape that does not decode is no name.
func TestKeyText(t *testing.T) {
	for _, c := range []struct {
		raw, want string
		ok        bool
	}{
		{`brand`, "brand", true},
		{``, "", true},
		{`\u0062rand`, "brand", true},
		{`say \"hi\"`, `say "hi"`, true},
		{`tab\t`, "tab\t", true},
		{`bad\x`, "", false},
	} {
		if got, ok := KeyText([]byte(c.raw)); got != c.want || ok != c.ok {
			t.Errorf("KeyText(%q) = %q, %v; want %q, %v", c.raw, got, ok, c.want, c.ok)
		}
	}
}
