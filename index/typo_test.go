package index

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/internal/oracle"
)

// typoWords are a vocabulary of words that differ by little: plurals,
// swapped letters, accents, repeats.
func typoWords(r *rand.Rand, n int) []string {
	stems := []string{"drill", "driller", "grill", "ceiling", "fluorescent", "softener", "electric", "hammer", "hammock", "mower",
		"müller", "garden", "gardening", "sprinkler", "shovel", "aaaaaa", "banana", "bandana", "panorama", "cordless"}
	var out []string
	for range n {
		w := []rune(stems[r.IntN(len(stems))])
		for range r.IntN(3) {
			i := r.IntN(len(w))
			switch r.IntN(3) {
			case 0:
				w[i] = rune('a' + r.IntN(26))
			case 1:
				w = slices.Insert(w, i, rune('a'+r.IntN(26)))
			default:
				if len(w) > 3 {
					w = slices.Delete(w, i, i+1)
				}
			}
		}
		out = append(out, string(w))
	}
	return out
}

// TestTypoCandidatesMatchTheScan: for thousands of misspelt words, the
// terms (and the unstemmed surfaces) within k edits found through the
// typo index are exactly those a
// scan of every term of a near length finds (the scan before it, with
// the OSA distance of internal/oracle), after a build, a load and a
// write that adds terms. The common surfaces' candidates are those of
// the surfaces whose term is in CommonSurfaceDocs docs or more.
func TestTypoCandidatesMatchTheScan(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 1))
	vocab := typoWords(r, 1500)
	var docs []Doc
	for i := 0; i < len(vocab); i += 5 {
		docs = append(docs, Doc{Key: fmt.Sprint("P", i), Stored: []byte(`{}`),
			Text: [NumTextFields][]string{FieldTitle: {strings.Join(vocab[i:min(i+5, len(vocab))], " ")}}})
	}
	// A few words common enough for the common surfaces; "drill" in
	// CommonSurfaceDocs-2 of these plus the vocabulary's.
	for i := range CommonSurfaceDocs {
		title := "ceiling drilling gardening softener"
		if i%2 == 0 {
			title += " drill"
		}
		docs = append(docs, Doc{Key: fmt.Sprint("C", i), Stored: []byte(`{}`),
			Text: [NumTextFields][]string{FieldTitle: {title}}})
	}
	seg := buildTest(t, docs)
	commonFound, rareFound := 0, 0
	check := func(name string, seg *Segment) {
		t.Helper()
		if seg.TypoCandidates([]rune("drill"), 1, func(uint32) {}) {
			t.Fatalf("%s: candidates before the index was built", name)
		}
		seg.BuildTypoIndex()
		for _, w := range typoWords(r, 250) {
			word := []rune(w)
			for k := 1; k <= 2; k++ {
				var scan, found []string
				for l := len(word) - k; l <= len(word)+k; l++ {
					for _, id := range seg.TermsOfLen(l) {
						if d := oracle.OSA(word, []rune(seg.TermString(id))); d <= k {
							scan = append(scan, seg.TermString(id))
						}
					}
				}
				if !seg.TypoCandidates(word, k, func(id uint32) {
					if d := oracle.OSA(word, []rune(seg.TermString(id))); d <= k {
						found = append(found, seg.TermString(id))
					}
				}) {
					t.Fatalf("%s: the index is not used once built", name)
				}
				slices.Sort(scan)
				slices.Sort(found)
				if !slices.Equal(scan, found) {
					t.Fatalf("%s: %q within %d: index %v, scan %v", name, w, k, found, scan)
				}
				// The surfaces: the words as indexed, unstemmed.
				scan, found = scan[:0], found[:0]
				for i := range seg.Surfaces() {
					if sw, _ := seg.Surface(i); !hasDigit(sw) && oracle.OSA(word, []rune(sw)) <= k {
						scan = append(scan, sw)
					}
				}
				if !seg.SurfaceTypoCandidates(word, k, func(i int) {
					if sw, _ := seg.Surface(i); oracle.OSA(word, []rune(sw)) <= k {
						found = append(found, sw)
					}
				}) {
					t.Fatalf("%s: the surface index is not used once built", name)
				}
				slices.Sort(scan)
				slices.Sort(found)
				if !slices.Equal(scan, found) {
					t.Fatalf("%s: surfaces of %q within %d: index %v, scan %v", name, w, k, found, scan)
				}
				// The common surfaces.
				var common []string
				for i := range seg.Surfaces() {
					if sw, term := seg.Surface(i); !hasDigit(sw) && oracle.OSA(word, []rune(sw)) <= k && seg.DocFreq(term) >= CommonSurfaceDocs {
						common = append(common, sw)
					}
				}
				slices.Sort(common)
				found = found[:0]
				if !seg.CommonSurfaceTypoCandidates(word, k, func(i int) {
					if sw, _ := seg.Surface(i); oracle.OSA(word, []rune(sw)) <= k {
						found = append(found, sw)
					}
				}) {
					t.Fatalf("%s: the common surface index is not used once built", name)
				}
				slices.Sort(found)
				if !slices.Equal(common, found) {
					t.Fatalf("%s: common surfaces of %q within %d: index %v, scan %v", name, w, k, found, common)
				}
				commonFound += len(common)
				rareFound += len(scan) - len(common)
			}
		}
	}
	check("built", seg)
	loaded := saveAndLoad(t, seg)
	check("loaded", loaded)
	more := typoWords(r, 200)
	added, err := seg.WithDocs(analysis.New(analysis.English), []uint32{0}, []Doc{{Key: "NEW", Stored: []byte(`{}`),
		Text: [NumTextFields][]string{FieldTitle: {strings.Join(more, " ")}}}}, sourceOf(seg, docs))
	if err != nil {
		t.Fatal(err)
	}
	check("after a write", added)
	if commonFound < 100 || rareFound < 100 {
		t.Fatalf("%d common and %d rare surfaces found: the test needs more of each", commonFound, rareFound)
	}
}

// TestTypoTerms: the non-numeric terms' ids by their length in runes,
// ascending; a term with a digit is in none.
func TestTypoTerms(t *testing.T) {
	for _, tc := range []struct {
		name  string
		terms []string // ascending
		want  [][]uint32
	}{
		{"none", nil, nil},
		{"digits only", []string{"12", "a1"}, nil},
		{"by runes, not bytes", []string{"a1", "ab", "cd", "xyz", "é", "ée"}, [][]uint32{nil, {4}, {1, 2, 5}, {3}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDict(len(tc.terms), 0)
			for _, term := range tc.terms {
				d.add(term)
			}
			if got := typoTerms(&d); !slices.EqualFunc(got, tc.want, slices.Equal) {
				t.Errorf("%v, want %v", got, tc.want)
			}
		})
	}
}
