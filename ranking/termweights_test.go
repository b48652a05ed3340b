package ranking

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/aisle-search/aisle/index"
)

// TestTermWeightsMatchTheWalk scores the same candidates with the common
// terms' weights looked up and with every posting walked, densely and
// merging, relaxed or not, over random catalogs, queries, field weights,
// filters leaving few candidates and a WithDocs segment: every doc's
// score is the same to the bit.
func TestTermWeightsMatchTheWalk(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 21))
	cat := newScoringCatalog(t, r)
	var impacts map[*index.Segment]map[Params]*Impacts
	var share uint64
	lookedUp, listed := 0, 0
	for i := range 800 {
		if i%400 == 0 {
			// The first half with the common terms' weights; the second
			// with their lists of a by doc (termlist.go), which a
			// catalog this small keeps only with weights for none.
			share = []uint64{DefaultTermWeightsShare, 0}[i/400]
			impacts = map[*index.Segment]map[Params]*Impacts{cat.built: {}, cat.live: {}}
		}
		phrase := cat.text(1, 3)
		if i%5 == 0 {
			phrase = "qzxv " + phrase // relaxed
		}
		rs := cat.search(r, i, phrase, func() int {
			if r.IntN(3) > 0 { // few candidates: the lookups' case
				return 5 + r.IntN(200)
			}
			return 0
		})
		seg, q, cand, p, relaxed := rs.seg, rs.q, rs.cand, rs.p, rs.relaxed
		pk := p
		pk.K1 = 0
		imp := impacts[seg][pk]
		if imp == nil {
			imp = NewImpacts(seg, &p)
			imp.TermWeightsShare = share
			impacts[seg][pk] = imp
		}
		path := []int{1, -1}[i%2]
		walk, look := GetScratch(), GetScratch()
		walk.forcePath, look.forcePath = path, path
		walk.ScoreBM25F(seg, &q, cand, &p, relaxed, nil)
		imp.ScoreBM25F(look, &q, cand, &p, relaxed, nil)
		if len(walk.Docs) != len(look.Docs) {
			t.Fatalf("%q: %d docs walked, %d looked up", phrase, len(walk.Docs), len(look.Docs))
		}
		for j := range walk.Docs {
			if math.Float32bits(walk.Score[j]) != math.Float32bits(look.Score[j]) {
				t.Fatalf("%q (path %d) doc %d: %v walking, %v looking up", phrase, path, walk.Docs[j], walk.Score[j], look.Score[j])
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
				if path > 0 && imp.termList(e.Term) != nil {
					listed++
				}
			}
		}
		PutScratch(walk)
		PutScratch(look)
	}
	if lookedUp < 200 || listed < 200 {
		t.Fatalf("%d routes looked up, %d walked from lists: too few to test", lookedUp, listed)
	}
}

// TestTermWeightsShareTheIndexBitset: a common term's weights mark its
// docs with the index's own bitset when they are the same docs (every
// field weighted), and keep their own when a field of weight 0 leaves
// some out or a write added docs holding the term (the index's bitset
// is the base postings' alone).
func TestTermWeightsShareTheIndexBitset(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 21))
	cat := newScoringCatalog(t, r)
	p := DefaultParams()
	noDesc := p
	noDesc.Weights[index.FieldDescription] = 0
	written := map[string]bool{}
	for _, w := range []string{"cordless", "steel", "drill", "black", "lamp"} { // the write's added titles
		written[an.Stem(w)] = true
	}
	for _, tc := range []struct {
		name  string
		seg   *index.Segment
		p     Params
		share func(term string) bool
	}{
		{"built", cat.built, p, func(string) bool { return true }},
		{"built, descriptions unweighted", cat.built, noDesc, func(string) bool { return false }},
		{"written", cat.live, p, func(term string) bool { return !written[term] }},
	} {
		imp := NewImpacts(tc.seg, &tc.p)
		checked := 0
		for id := range uint32(tc.seg.Terms()) {
			d := tc.seg.DenseDocs(id)
			tw := imp.termWeights(id)
			if d == nil || tw == nil {
				continue
			}
			checked++
			term := tc.seg.TermString(id)
			if shared := &tw.docs[0] == &d[0]; shared != tc.share(term) {
				t.Fatalf("%s: term %q's weights share the index's bitset: %v", tc.name, term, shared)
			}
		}
		if checked < 5 {
			t.Fatalf("%s: %d terms with both: too few to test", tc.name, checked)
		}
	}
}

// TestImpactsScoreUnderOtherParams: Impacts.ScoreBM25F under field
// weights or length normalisations other than the lists' scores as
// Scratch.ScoreBM25F does, not from the lists' weights, and under the
// lists' own as well; one candidate in ten, so that the common routes'
// weights would be looked up.
func TestImpactsScoreUnderOtherParams(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 1))
	cat := newScoringCatalog(t, r)
	p := DefaultParams()
	imp := NewImpacts(cat.built, &p)
	weights, lengths := p, p
	weights.Weights[index.FieldDescription] *= 2
	lengths.B[index.FieldDescription] /= 2
	for _, p := range []Params{p, weights, lengths} {
		for _, phrase := range []string{"drill", "black lamp", "cordless steel"} {
			q := Parse(cat.built, an, phrase, Options{})
			all, _, relaxed := Match(cat.built, &q)
			cand := all.Clone() // few candidates: the common routes looked up
			for d := range uint32(cat.built.Slots()) {
				if d%10 != 0 {
					cand.Remove(d)
				}
			}
			walk, look := GetScratch(), GetScratch()
			walk.ScoreBM25F(cat.built, &q, cand, &p, relaxed, nil)
			imp.ScoreBM25F(look, &q, cand, &p, relaxed, nil)
			for j := range walk.Docs {
				if math.Float32bits(walk.Score[j]) != math.Float32bits(look.Score[j]) {
					t.Fatalf("%q under %+v, doc %d: %v walking, %v with the lists", phrase, p, walk.Docs[j], walk.Score[j], look.Score[j])
				}
			}
			PutScratch(walk)
			PutScratch(look)
		}
	}
}

// TestLookUpFromTermWeightsLookups: a common route's weights are looked up
// when its postings number termWeightsLookups times the candidates or
// more, each candidate's part then what the walk gives it to the bit;
// with one candidate more the route is left to the walk.
func TestLookUpFromTermWeightsLookups(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 2))
	cat := newScoringCatalog(t, r)
	seg := cat.built
	p := DefaultParams()
	imp := NewImpacts(seg, &p)
	checked := 0
	for _, word := range []string{"drill", "lamp", "table", "chair", "hammer", "garden", "steel", "black"} {
		term, _ := seg.Term(an.Stem(word))
		posts := seg.TermPostings(term, nil)
		n := 0
		for _, fp := range posts {
			n += len(fp.Docs)
		}
		if n%termWeightsLookups != 0 {
			continue // no candidate count at the bound
		}
		checked++
		const scale, k1 = 2.5, 1.2
		for _, extra := range []int{0, 1} {
			cands := n/termWeightsLookups + extra
			sc := GetScratch()
			for d := range uint32(cands) {
				sc.Docs = append(sc.Docs, d)
			}
			sc.grow()
			sc.posts = append(sc.posts[:0], posts...)
			if got := sc.lookUp(imp, term, &p, scale, k1); got != (extra == 0) {
				t.Fatalf("%q, %d postings, %d candidates: looked up %v", word, n, cands, got)
			}
			for i, d := range sc.Docs {
				var want float32
				if a := imp.weigh(posts, d); extra == 0 && a != 0 {
					want = scale * a / (k1 + a)
				}
				if math.Float32bits(sc.best[i]) != math.Float32bits(want) {
					t.Fatalf("%q doc %d: %v looked up, %v walking", word, d, sc.best[i], want)
				}
			}
			PutScratch(sc)
		}
	}
	if checked < 2 {
		t.Fatalf("%d words with an even count of postings: too few to test", checked)
	}
}
