package ranking

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/index"
)

// TestTermWeightsMatchTheWalk scores the same candidates with the common
// terms' weights looked up and with every posting walked, densely and
// merging, relaxed or not, over random catalogs, queries, field weights,
// filters leaving few candidates and a WithDocs segment: every doc's
// score is the same to the bit.
func TestTermWeightsMatchTheWalk(t *testing.T) {
	defer func() { forcePath = 0 }()
	r := rand.New(rand.NewPCG(4, 21))
	cat := newRandomCatalog(t, r, "drill lamp table chair cordless hammer garden hose steel black white set with for bulb light outdoor door",
		6000, 10, 2, 30, []uint32{0, 7, 300}, "cordless steel drill drill", "black lamp")
	impacts := map[*index.Segment]map[Params]*Impacts{cat.built: {}, cat.live: {}}
	lookedUp := 0
	for i := range 400 {
		seg := cat.built
		if i%2 == 1 {
			seg = cat.live
		}
		phrase := cat.text(1, 3)
		if i%5 == 0 {
			phrase = "qzxv " + phrase // relaxed
		}
		q := Parse(seg, an, phrase, Options{PrefixLast: r.IntN(2) == 0, TypedTypos: true})
		all, _, relaxed := Match(seg, &q)
		cand := all.Clone()
		if r.IntN(3) > 0 { // few candidates: the lookups' case
			f := roaring.New()
			step := 5 + r.IntN(200)
			for d := uint32(r.IntN(5)); d < uint32(seg.Slots()); d += uint32(step) {
				f.Add(d)
			}
			cand.And(f)
		}
		p := DefaultParams()
		if r.IntN(2) == 0 {
			for f := range p.Weights {
				p.Weights[f], p.B[f] = float32(r.IntN(6))*r.Float32(), r.Float32()
			}
		}
		pk := p
		pk.K1 = 0
		imp := impacts[seg][pk]
		if imp == nil {
			imp = NewImpacts(seg, &p)
			impacts[seg][pk] = imp
		}
		forcePath = []int{1, -1}[i%2]
		walk, look := GetScratch(), GetScratch()
		walk.ScoreBM25F(seg, &q, cand, &p, relaxed, nil)
		imp.ScoreBM25F(look, &q, cand, &p, relaxed, nil)
		if len(walk.Docs) != len(look.Docs) {
			t.Fatalf("%q: %d docs walked, %d looked up", phrase, len(walk.Docs), len(look.Docs))
		}
		for j := range walk.Docs {
			if math.Float32bits(walk.Score[j]) != math.Float32bits(look.Score[j]) {
				t.Fatalf("%q (path %d) doc %d: %v walking, %v looking up", phrase, forcePath, walk.Docs[j], walk.Score[j], look.Score[j])
			}
		}
		// Count the routes looked up, as lookUp decides.
		for _, w := range q.Words {
			for _, e := range w.Exp {
				n := 0
				for _, fp := range seg.TermPostings(e.Term, nil) {
					if p.Weights[fp.Field] != 0 {
						n += len(fp.Docs)
					}
				}
				if n >= termWeightsLookups*len(walk.Docs) && imp.termWeights(e.Term) != nil {
					lookedUp++
				}
			}
		}
		PutScratch(walk)
		PutScratch(look)
	}
	if lookedUp < 200 {
		t.Fatalf("%d routes looked up: too few to test", lookedUp)
	}
}
