package ranking

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/index"
)

// randomCatalog is n random docs of words from vocab (keys P00000,
// P00002, …: every other, so writes can add between them), built, and
// the same after a WithDocs write that removes the docs removed and adds
// the titles added (keys P00001, P00003, …): holes, a tail arena and doc
// ids out of key order. Titles have 1 to title words, brands up to
// brand, descriptions up to desc. text draws a phrase of lo to hi words
// from r, as the docs' were.
type randomCatalog struct {
	built, live *index.Segment
	text        func(lo, hi int) string
}

func newRandomCatalog(t *testing.T, r *rand.Rand, vocab string, n, title, brand, desc int, removed []uint32, added ...string) randomCatalog {
	t.Helper()
	words := strings.Fields(vocab)
	text := func(lo, hi int) string {
		ws := make([]string, lo+r.IntN(hi-lo+1))
		for i := range ws {
			ws[i] = words[r.IntN(len(words))]
		}
		return strings.Join(ws, " ")
	}
	docs := make([]index.Doc, n)
	b := index.NewBuilder(an)
	for i := range docs {
		d := &docs[i]
		d.Key, d.Stored = fmt.Sprintf("P%05d", i*2), []byte("{}")
		d.Text[index.FieldTitle] = []string{text(1, title)}
		d.Text[index.FieldBrand] = []string{text(0, brand)}
		d.Text[index.FieldDescription] = []string{text(0, desc)}
		if err := b.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	built := b.Build()
	writes := make([]index.Doc, len(added))
	for i, title := range added {
		writes[i].Key, writes[i].Stored = fmt.Sprintf("P%05d", 2*i+1), []byte("{}")
		writes[i].Text[index.FieldTitle] = []string{title}
	}
	live, err := built.WithDocs(an, removed, writes, func(doc uint32) (*index.Doc, error) { return &docs[doc], nil })
	if err != nil {
		t.Fatal(err)
	}
	return randomCatalog{built, live, text}
}

// newScoringCatalog is the random catalog the scoring paths are held to
// each other on: 6,000 docs of 20 words, descriptions up to 30, three
// removed and two added by the write.
func newScoringCatalog(t *testing.T, r *rand.Rand) randomCatalog {
	return newRandomCatalog(t, r, "drill lamp table chair cordless hammer garden hose steel black white set with for bulb light outdoor door",
		6000, 10, 2, 30, []uint32{0, 7, 300}, "cordless steel drill drill", "black lamp")
}

// randomSearch is search i of a random catalog, as the scoring tests
// draw them: on the built segment for even i and the written one for
// odd, a phrase of one to three words (prefix the last half the time),
// its query and match, its candidates thinned by a filter keeping one
// doc id in every's (0: none), and
// random field weights and length normalisations half the time.
type randomSearch struct {
	seg     *index.Segment
	phrase  string
	q       Query
	relaxed bool
	cand    *roaring.Bitmap
	p       Params
}

func (cat randomCatalog) search(r *rand.Rand, i int, phrase string, every func() int) randomSearch {
	s := randomSearch{seg: cat.built, phrase: phrase}
	if i%2 == 1 {
		s.seg = cat.live
	}
	s.q = Parse(s.seg, an, phrase, Options{PrefixLast: r.IntN(2) == 0, TypedTypos: true})
	all, _, relaxed := Match(s.seg, &s.q)
	s.relaxed, s.cand = relaxed, all.Clone()
	if step := every(); step > 0 {
		f := roaring.New()
		for d := uint32(r.IntN(5)); d < uint32(s.seg.Slots()); d += uint32(step) {
			f.Add(d)
		}
		s.cand.And(f)
	}
	s.p = DefaultParams()
	if r.IntN(2) == 0 {
		for f := range s.p.Weights {
			s.p.Weights[f], s.p.B[f] = float32(r.IntN(6))*r.Float32(), r.Float32()
		}
	}
	return s
}
