package index

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/internal/bitset"
)

// TestDenseDocsMatchTheBitmaps holds every term's docs as a bitset
// (OrTermDocsDense, then KeepLiveDense) to its roaring bitmap
// (TermDocsIn), ORed into an empty set and set over a full one
// (SetTermDocsDense), in several field masks, through build, load, two doc
// writes (holes, a tail arena, a tail doc removed, term ids moved) and a
// compaction;
// and ORed into a set that already holds docs, it adds them.
func TestDenseDocsMatchTheBitmaps(t *testing.T) {
	an := analysis.New(analysis.English)
	r := rand.New(rand.NewPCG(7, 3))
	text := func(n int) string {
		ws := make([]string, 1+r.IntN(n))
		for i := range ws {
			// Skewed: word 0 in most docs, word 399 in a handful.
			u := r.Float64()
			ws[i] = fmt.Sprintf("w%dx", int(400*u*u*u*u))
		}
		return strings.Join(ws, " ")
	}
	doc := func(key string) Doc {
		return Doc{Key: key, Stored: []byte("{}"), Text: [NumTextFields][]string{FieldTitle: {text(6)}, FieldBrand: {text(1)}, FieldDescription: {text(12)}}}
	}
	var docs []Doc
	for i := range 4000 {
		docs = append(docs, doc(fmt.Sprintf("P%05d", 2*i)))
	}
	masks := []FieldMask{AllFields, FieldTitle.Mask(), FieldTitle.Mask() | FieldBrand.Mask(), FieldDescription.Mask()}
	check := func(name string, s *Segment, wantTails bool) {
		t.Helper()
		dense, tails := 0, 0
		got := make([]uint64, s.DenseWords())
		for id := range uint32(s.terms.len()) {
			if s.HasDense(id) {
				dense++
				for _, sp := range s.post.spans[s.post.spanOff[id]:s.post.spanOff[id+1]] {
					if sp.start&tailSpan != 0 {
						tails++
					}
				}
			}
			for _, m := range masks {
				clear(got)
				s.OrTermDocsDense(got, id, m)
				s.KeepLiveDense(got)
				want := s.TermDocsIn(id, m).ToArray()
				if d := firstDiff(members(got), want); d != "" {
					t.Fatalf("%s: term %q in fields %b: the bitset and the bitmap differ %s", name, s.terms.at(int(id)), m, d)
				}
				// Set over a set holding other docs.
				for i := range got {
					got[i] = 0x5555555555555555
				}
				s.SetTermDocsDense(got, id, m)
				s.KeepLiveDense(got)
				if d := firstDiff(members(got), want); d != "" {
					t.Fatalf("%s: term %q in fields %b: the set bitset and the bitmap differ %s", name, s.terms.at(int(id)), m, d)
				}
			}
		}
		if dense < 10 || dense*2 > s.terms.len() {
			t.Fatalf("%s: %d of %d terms keep a bitset: not a test of both kinds", name, dense, s.terms.len())
		}
		if wantTails && tails < 10 {
			t.Fatalf("%s: %d tail spans of terms with a bitset: too few to test", name, tails)
		}
		// ORed into a set holding docs, a term's docs add to them.
		base := []uint32{1, 64, 65, uint32(s.Slots() - 1)}
		clear(got)
		bitset.Set(got, base)
		s.OrTermDocsDense(got, 0, AllFields)
		s.KeepLiveDense(got)
		want := s.TermDocsIn(0, AllFields).Clone()
		want.AddMany(base)
		want.And(s.All())
		if d := firstDiff(members(got), want.ToArray()); d != "" {
			t.Fatalf("%s: ORed into %v: the bitset and the bitmap differ %s", name, base, d)
		}
	}
	built := buildTest(t, docs)
	check("built", built, false)
	loaded := saveAndLoad(t, built)
	check("loaded", loaded, false)
	// Remove 300 docs, replace half of them, add 200.
	var removed []uint32
	var added []Doc
	for d := uint32(0); d < 300; d++ {
		removed = append(removed, d*11)
		if d%2 == 0 {
			added = append(added, doc(loaded.Key(d*11)))
		}
	}
	for i := range 200 {
		added = append(added, doc(fmt.Sprintf("P%05d", 2*i+1)))
	}
	// A new term sorting first moves every term's id.
	added[0].Text[FieldBrand] = []string{"aaafresh"}
	once, err := loaded.WithDocs(an, removed, added, sourceOf(loaded, docs))
	if err != nil {
		t.Fatal(err)
	}
	check("written", once, true)
	// Again, removing docs of the first write's tail.
	all := append(slices.Clone(docs), added...)
	removed = removed[:0]
	for d := uint32(once.Slots() - 1); d > uint32(once.Slots()-40); d-- {
		removed = append(removed, d)
	}
	twice, err := once.WithDocs(an, removed, []Doc{doc("P99999")}, sourceOf(once, all))
	if err != nil {
		t.Fatal(err)
	}
	check("written twice", twice, true)
	check("compacted", twice.Compact(), false)
}

// firstDiff describes where two doc lists part, "" when they are the
// same.
func firstDiff(got, want []uint32) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("at %d: doc %d in the bitset, %d in the bitmap", i, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("in length: %d docs in the bitset, %d in the bitmap", len(got), len(want))
	}
	return ""
}

// members is a bitset's docs, ascending.
func members(s []uint64) []uint32 { return bitset.AppendMembers(nil, s, 0) }
