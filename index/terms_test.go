package index

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestDictLowerBound: the two-step search (heads, then a block) finds
// what a binary search over every string finds, for strings that share
// long prefixes (runs of equal heads across blocks), short ones, the
// empty string and bytes under and over ASCII, probing each string, a
// prefix of it, one past it and random strings.
func TestDictLowerBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 12))
	alphabet := []byte("\x00\x01abcxyz09\xc3\xa9\xff")
	word := func(prefix string) string {
		n := rng.IntN(12)
		b := []byte(prefix)
		for range n {
			b = append(b, alphabet[rng.IntN(len(alphabet))])
		}
		return string(b)
	}
	for _, tc := range []struct {
		name     string
		n        int
		prefixes []string
	}{
		{"empty", 0, []string{""}},
		{"one block", 10, []string{""}},
		{"short words", 3000, []string{""}},
		{"long shared prefixes", 3000, []string{"productnum", "productnumber-", "prod", "p"}},
		{"one prefix of 8 bytes", 1000, []string{"abcdefgh"}},
		{"block boundary", headStride * 3, []string{""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := map[string]bool{}
			for len(set) < tc.n {
				set[word(tc.prefixes[rng.IntN(len(tc.prefixes))])] = true
			}
			words := make([]string, 0, len(set))
			for w := range set {
				words = append(words, w)
			}
			slices.Sort(words)
			d := newDict(len(words), 0)
			for i, w := range words {
				if i%2 == 0 {
					d.add(w)
				} else {
					d.addBytes([]byte(w))
				}
			}
			probes := []string{"", "\x00", "\xff\xff", "zzzzzzzzzzzz"}
			for _, w := range words {
				probes = append(probes, w, w+"\x00", w[:len(w)/2], w+"a")
			}
			for range 2000 {
				probes = append(probes, word(tc.prefixes[0]))
			}
			for _, p := range probes {
				want := sort.SearchStrings(words, p)
				if got := d.lowerBound(p); got != want {
					t.Fatalf("lowerBound(%q) = %d, want %d", p, got, want)
				}
				i, ok := d.find(p)
				if wantOK := want < len(words) && words[want] == p; i != want || ok != wantOK {
					t.Fatalf("find(%q) = %d, %v; want %d, %v", p, i, ok, want, wantOK)
				}
			}
		})
	}
}

// TestHead8Orders: head8 never orders two strings against their order.
func TestHead8Orders(t *testing.T) {
	words := []string{"", "\x00", "\x00\x00", "a", "a\x00", "a\x00b", "ab", "abcdefgh", "abcdefgh\x00", "abcdefghi", "abcdefgz", "b", "\xff"}
	for _, a := range words {
		for _, b := range words {
			ha, hb := head8(a), head8(b)
			if ha < hb && !(a < b) || ha > hb && !(a > b) {
				t.Errorf("head8(%q) = %x, head8(%q) = %x: against %q %s %q", a, ha, b, hb, a, map[bool]string{true: "<", false: ">="}[a < b], b)
			}
		}
	}
	if strings.Compare("a", "a\x00") >= 0 {
		t.Fatal("Go orders a prefix first")
	}
}
