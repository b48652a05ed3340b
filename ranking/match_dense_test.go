package ranking

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/index"
)

// TestDenseMatchIsMatch matches random searches both ways, as bitsets
// (matchDense) and as roaring bitmaps (matchRoaring), on a built segment
// and one with holes and a tail arena: the same docs, the same direct
// docs, relaxed or not alike. The searches mix common and rare words,
// prefixes, typos, synonyms one word and several (phrases, suggested
// routes), stop words, a product number, fields left out, and words
// matching nothing (relaxed).
func TestDenseMatchIsMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 13))
	common := strings.Repeat("drill lamp table steel black with for ", 6)
	cat := newRandomCatalog(t, r, common+"chair cordless hammer garden hose white set bulb light outdoor door shade brass",
		5000, 8, 2, 12, []uint32{0, 7, 300, 301, 4999}, "cordless steel drill brass", "black lamp shade", "garden hose reel")
	syn := synonyms(t,
		config.Synonym{From: "lamp", Terms: []string{"light bulb"}},
		config.Synonym{Terms: []string{"drill", "driver"}},
		config.Synonym{From: "hose", Terms: []string{"garden door"}},
		config.Synonym{Terms: []string{"steel", "brass"}},
	)
	extra := []string{"qzxv", "lamb", "drils", "P00002", "with", "for", "ligh", "hose"}
	fieldSets := []index.FieldMask{0, index.FieldTitle.Mask(), index.FieldTitle.Mask() | index.FieldDescription.Mask()}
	kinds := map[string]int{}
	for i := range 600 {
		seg := cat.built
		if i%2 == 1 {
			seg = cat.live
		}
		words := strings.Fields(cat.text(1, 4))
		if r.IntN(2) == 0 {
			words = append(words, extra[r.IntN(len(extra))])
			r.Shuffle(len(words), func(a, b int) { words[a], words[b] = words[b], words[a] })
		}
		phrase := strings.Join(words, " ")
		opt := Options{PrefixLast: r.IntN(2) == 0, TypedTypos: true, OptionalStopWords: r.IntN(2) == 0, Fields: fieldSets[r.IntN(len(fieldSets))]}
		if r.IntN(3) > 0 {
			opt.Synonyms = syn
		}
		q := Parse(seg, an, phrase, opt)
		if len(q.Words) == 0 {
			continue
		}
		wantAll, wantDirect, wantRelaxed := matchRoaring(seg, &q)
		all, direct, relaxed := matchDense(seg, &q)
		if relaxed != wantRelaxed || !all.Equals(wantAll) || !direct.Equals(wantDirect) {
			t.Fatalf("%q (fields %b): dense %d docs, %d direct, relaxed %v; roaring %d, %d direct, relaxed %v",
				phrase, opt.Fields, all.GetCardinality(), direct.GetCardinality(), relaxed, wantAll.GetCardinality(), wantDirect.GetCardinality(), wantRelaxed)
		}
		switch {
		case relaxed:
			kinds["relaxed"]++
		case wantDirect != wantAll && !wantDirect.Equals(wantAll):
			kinds["synonyms"]++
		case !wantAll.IsEmpty():
			kinds["matched"]++
		}
		if slices.ContainsFunc(q.Words, func(w Word) bool { return len(w.Phrases) > 0 }) {
			kinds["phrases"]++
		}
		if q.HasSKU {
			kinds["sku"]++
		}
	}
	for _, k := range []string{"relaxed", "synonyms", "matched", "phrases"} {
		if kinds[k] < 20 {
			t.Fatalf("searches by kind %v: too few %s to test", kinds, k)
		}
	}
}

// TestMatchGoesDense: Match takes the dense path on segments and words
// large enough, and gives what matchRoaring gives.
func TestMatchGoesDense(t *testing.T) {
	defer func(s uint64, m int) { denseMatchShare, denseMatchMinSlots = s, m }(denseMatchShare, denseMatchMinSlots)
	r := rand.New(rand.NewPCG(2, 5))
	cat := newScoringCatalog(t, r)
	q := Parse(cat.live, an, "drill lamp", Options{})
	denseMatchMinSlots = 1 << 30
	if wantsDenseMatch(cat.live, &q) {
		t.Fatal("a segment under denseMatchMinSlots matched densely")
	}
	denseMatchMinSlots = 0
	if !wantsDenseMatch(cat.live, &q) {
		t.Fatal("two common words not matched densely")
	}
	if one := Parse(cat.live, an, "drill", Options{}); wantsDenseMatch(cat.live, &one) {
		t.Fatal("one word matched densely: its own bitmap is cheaper")
	}
	denseMatchShare = 1
	if wantsDenseMatch(cat.live, &q) {
		t.Fatal("words in fewer docs than denseMatchShare asks matched densely")
	}
}
