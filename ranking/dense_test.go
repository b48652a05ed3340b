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
	r := rand.New(rand.NewPCG(3, 5))
	cat := newScoringCatalog(t, r)
	for i := range 400 {
		rs := cat.search(r, i, cat.text(1, 3), func() int {
			if r.IntN(2) == 0 {
				return 1 + r.IntN(7)
			}
			return 0
		})
		seg, q, cand, p, relaxed, phrase := rs.seg, rs.q, rs.cand, rs.p, rs.relaxed, rs.phrase
		scores := [2]map[uint32]float32{}
		for k, path := range []int{1, -1} {
			sc := GetScratch()
			sc.forcePath = path
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

// TestScoringGoesDense: scoring walks the postings densely when that
// takes fewer steps than merging them with the candidates (every
// posting and candidate, against twice the shorter list times the log
// of the longer over it), from denseMinCandidates candidates on, and
// Scratch.forcePath overrides the choice. "lamp" is in all 3,000 titles,
// "chair" in 5.
func TestScoringGoesDense(t *testing.T) {
	titles := make([]string, 3000)
	for i := range titles {
		titles[i] = "lamp"
		if i%600 == 0 {
			titles[i] = "lamp chair"
		}
	}
	seg := segment(t, titles...)
	p := DefaultParams()
	for _, c := range []struct {
		phrase string
		cands  int
		force  int
		dense  bool
	}{
		{"lamp", denseMinCandidates, 0, true},      // 1,024+3,000 steps against 2·1,024·2
		{"lamp", denseMinCandidates - 1, 0, false}, // too few candidates
		{"lamp", 3000, 0, false},                   // 6,000 steps either way
		{"chair", 3000, 0, false},                  // 3,005 against 2·5·10
		{"chair", 5, 1, true},
		{"lamp", 3000, -1, false},
	} {
		q := Parse(seg, an, c.phrase, Options{})
		cand := roaring.New()
		cand.AddRange(0, uint64(c.cands))
		sc := GetScratch()
		sc.forcePath = c.force
		sc.Collect(cand)
		if got := sc.preferDense(seg, &q, &p); got != c.dense {
			t.Errorf("%q, %d candidates, forcePath %d: dense %v, want %v", c.phrase, c.cands, c.force, got, c.dense)
		}
		PutScratch(sc)
	}
}
