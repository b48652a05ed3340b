package ranking

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/index"
)

// TestDenseMatchesMerge scores the same candidates both ways, walking the
// posting lists densely and merging them, over random catalogs, queries,
// field weights, candidate sets and a WithDocs segment (holes, a tail
// arena): every doc's score is the same to the bit.
func TestDenseMatchesMerge(t *testing.T) {
	defer func() { forcePath = 0 }()
	r := rand.New(rand.NewPCG(3, 5))
	cat := newRandomCatalog(t, r, "drill lamp table chair cordless hammer garden hose steel black white set with for bulb light outdoor door",
		6000, 10, 2, 30, []uint32{0, 7, 300}, "cordless steel drill drill", "black lamp")
	built, live, text := cat.built, cat.live, cat.text
	for i := range 400 {
		seg := built
		if i%2 == 1 {
			seg = live
		}
		phrase := text(1, 3)
		q := Parse(seg, an, phrase, Options{PrefixLast: r.IntN(2) == 0, TypedTypos: true})
		all, _, relaxed := Match(seg, &q)
		cand := all.Clone()
		if r.IntN(2) == 0 {
			f := roaring.New()
			for d := uint32(r.IntN(5)); d < uint32(seg.Slots()); d += uint32(1 + r.IntN(7)) {
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
		scores := [2]map[uint32]float32{}
		for k, path := range []int{1, -1} {
			forcePath = path
			sc := GetScratch()
			sc.ScoreBM25F(seg, &q, cand, &p, relaxed, nil)
			scores[k] = map[uint32]float32{}
			for j, d := range sc.Docs {
				scores[k][d] = sc.Score[j]
			}
			PutScratch(sc)
		}
		if len(scores[0]) != len(scores[1]) {
			t.Fatalf("%q: %d docs scored densely, %d merging", phrase, len(scores[0]), len(scores[1]))
		}
		for d, s := range scores[0] {
			if math.Float32bits(s) != math.Float32bits(scores[1][d]) {
				t.Fatalf("%q doc %d: %v densely, %v merging", phrase, d, s, scores[1][d])
			}
		}
	}
}

// TestLengthWeightsFollowParams scores with one scratch under changing
// parameters and segments: each score is what a fresh scratch gives, so
// the cached length weights never outlive what they were made for.
func TestLengthWeightsFollowParams(t *testing.T) {
	small := segment(t, "cordless drill", "drill bit set for metal", "hammer drill with case")
	large := segment(t, "cordless drill", "drill bit set for metal", "hammer drill with case", "drill", "a very long drill title of many words")
	p1, p2 := DefaultParams(), DefaultParams()
	p2.B[index.FieldTitle], p2.Weights[index.FieldTitle] = 1, 9
	var reused Scratch
	for _, c := range []struct {
		seg *index.Segment
		p   Params
	}{{small, p1}, {small, p2}, {large, p2}, {large, p1}, {small, p1}} {
		q := Parse(c.seg, an, "drill", Options{})
		all, _, relaxed := Match(c.seg, &q)
		var fresh Scratch
		fresh.ScoreBM25F(c.seg, &q, all, &c.p, relaxed, nil)
		reused.ScoreBM25F(c.seg, &q, all, &c.p, relaxed, nil)
		if !slices.Equal(fresh.Score, reused.Score) {
			t.Fatalf("reused scratch scores %v, a fresh one %v", reused.Score, fresh.Score)
		}
	}
}
