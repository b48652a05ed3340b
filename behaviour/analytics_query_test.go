package behaviour

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unsafe"
)

// queryOfReference is QueryOf as its definition has it, one step at a
// time.
func queryOfReference(phrase string) string {
	q := strings.Join(strings.FieldsFunc(strings.ToLower(phrase), unicode.IsSpace), " ")
	if len(q) > maxQueryBytes {
		cut := maxQueryBytes
		for cut > 0 && !utf8Start(q[cut]) {
			cut--
		}
		q = q[:cut]
	}
	return q
}

// TestQueryOf: QueryOf folds as its definition (lower case, spaces of
// any kind collapsed, cut at maxQueryBytes on a rune, invalid UTF-8 as
// U+FFFD), for chosen and random phrases; what it returns is the phrase
// itself or a string of its own, never a part of a longer phrase, which
// the days and the trails would keep whole.
func TestQueryOf(t *testing.T) {
	phrases := []string{"", " ", "drill", "Drill", "  cordless   DRILL ", "a\tb\nc", "Ærø BLÅBÆR", "\u00a0nbsp\u2003em", "bad \xff byte",
		strings.Repeat("x", 2048), strings.Repeat("y", 99) + "é" + "z", strings.Repeat("ab ", 60), " " + strings.Repeat("q", 100), "İstanbul"}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "B", " ", "  ", "\t", "é", "Ü", "\u2003", "\xff", "ß", "z"}
	for range 3000 {
		var b strings.Builder
		for range r.IntN(150) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		phrases = append(phrases, b.String())
	}
	for _, p := range phrases {
		got, want := QueryOf(p), queryOfReference(p)
		if got != want {
			t.Fatalf("QueryOf(%q) = %q, want %q", p, got, want)
		}
		if len(got) < len(p) && len(got) > 0 {
			base, at := uintptr(unsafe.Pointer(unsafe.StringData(p))), uintptr(unsafe.Pointer(unsafe.StringData(got)))
			if base <= at && at < base+uintptr(len(p)) {
				t.Fatalf("QueryOf(%q) = %q is a part of the phrase", p, got)
			}
		}
	}
}
