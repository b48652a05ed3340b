package ranking

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

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
		if i%20 == 0 { // a product number
			phrase = seg.Key(uint32(r.IntN(seg.Slots())))
		}
		opt := Options{PrefixLast: r.IntN(2) == 0, TypedTypos: true, OptionalStopWords: r.IntN(2) == 0, Fields: fieldSets[r.IntN(len(fieldSets))]}
		if r.IntN(3) > 0 {
			opt.Synonyms = syn
		}
		q := Parse(seg, an, phrase, opt)
		if len(q.Words) == 0 {
			continue
		}
		wantAll, wantDirect, wantRelaxed := matchRoaring(seg, &q)
		allSet, directSet, relaxed, release := matchDense(seg, &q)
		checkMatchSet(t, phrase+" (all)", seg, allSet, wantAll)
		checkMatchSet(t, phrase+" (direct)", seg, directSet, wantDirect)
		if got, want := allSet.AndCardinality(directSet), wantAll.AndCardinality(wantDirect); got != want {
			t.Fatalf("%q: %d docs both matched and direct, want %d", phrase, got, want)
		}
		// Against a filtered copy of the matches, as a search with
		// filters counts its direct results.
		filtered := wantAll.Clone()
		filtered.RemoveRange(0, uint64(r.IntN(seg.Slots()+1)))
		if got, want := directSet.CountIn(filtered), filtered.AndCardinality(wantDirect); got != want {
			t.Fatalf("%q: %d of the filtered results direct, want %d", phrase, got, want)
		}
		if got, want := (&MatchSet{bm: filtered}).AndCardinality(directSet), filtered.AndCardinality(wantDirect); got != want {
			t.Fatalf("%q: %d of the filtered results direct (bitmap first), want %d", phrase, got, want)
		}
		// Scored from the set (dense scoring reads its bits) or from the
		// bitmap, walking densely or merging: the same scores.
		fromSet, fromBitmap := GetScratch(), GetScratch()
		fromSet.forcePath = []int{1, -1}[i%2]
		fromBitmap.forcePath = fromSet.forcePath
		p := DefaultParams()
		fromSet.ScoreBM25F(seg, &q, allSet, &p, relaxed, nil)
		fromBitmap.ScoreBM25F(seg, &q, wantAll, &p, relaxed, nil)
		if !slices.Equal(fromSet.Docs, fromBitmap.Docs) || !slices.Equal(fromSet.Score, fromBitmap.Score) {
			t.Fatalf("%q: scored from the set and from the bitmap differ", phrase)
		}
		PutScratch(fromSet)
		PutScratch(fromBitmap)
		all, direct := allSet.Bitmap(), directSet.Bitmap()
		release()
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
	t.Logf("searches by kind: %v", kinds)
	for _, k := range []string{"relaxed", "synonyms", "matched", "phrases", "sku"} {
		if kinds[k] < 10 {
			t.Fatalf("searches by kind %v: too few %s to test", kinds, k)
		}
	}
}

// checkMatchSet holds a dense match set to the bitmap want: its count,
// its docs as Collect lists them, and Contains of every doc id and one
// past them.
func checkMatchSet(t *testing.T, name string, seg *index.Segment, m *MatchSet, want *roaring.Bitmap) {
	t.Helper()
	if m.set == nil {
		t.Fatalf("%s: not a dense set", name)
	}
	if m.GetCardinality() != want.GetCardinality() {
		t.Fatalf("%s: %d docs, want %d", name, m.GetCardinality(), want.GetCardinality())
	}
	sc := GetScratch()
	defer PutScratch(sc)
	sc.Docs = append(sc.Docs[:0], 7, 7, 7) // Collect replaces what was there
	sc.Collect(m)
	if !slices.Equal(sc.Docs, want.ToArray()) {
		t.Fatalf("%s: collected %d docs, want %d", name, len(sc.Docs), want.GetCardinality())
	}
	for d := range uint32(seg.Slots() + 65) {
		if m.Contains(d) != want.Contains(d) {
			t.Fatalf("%s: Contains(%d) %v", name, d, m.Contains(d))
		}
	}
}

// TestMatchGoesDense: Match takes the dense path when every word's
// routes hold enough docs, and never for one word: at the share the
// rarer word's routes just reach, densely; at one less, and at 1 (every
// doc id), not.
func TestMatchGoesDense(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 5))
	cat := newScoringCatalog(t, r)
	seg := cat.live
	q := Parse(seg, an, "drill lamp", Options{})
	if !wantsDenseMatch(seg, &q, denseMatchShare) {
		t.Fatal("two common words not matched densely")
	}
	if one := Parse(seg, an, "drill", Options{}); wantsDenseMatch(seg, &one, denseMatchShare) {
		t.Fatal("one word matched densely: its own bitmap is cheaper")
	}
	rarest := uint64(math.MaxUint64)
	for _, w := range q.Words {
		var n uint64
		for _, e := range w.Exp {
			if !e.ScoreOnly {
				n += seg.DocFreq(e.Term)
			}
		}
		rarest = min(rarest, n)
	}
	at := (uint64(seg.Slots()) + rarest - 1) / rarest // the fewest with rarest·at ≥ slots
	if at < 2 {
		t.Fatalf("the rarer word's routes hold %d of %d doc ids: too many to test the share", rarest, seg.Slots())
	}
	type want struct {
		share uint64
		dense bool
	}
	cases := []want{{at, true}, {at - 1, false}}
	if at > 2 {
		cases = append(cases, want{1, false})
	}
	for _, tc := range cases {
		if got := wantsDenseMatch(seg, &q, tc.share); got != tc.dense {
			t.Errorf("routes of %d docs of %d doc ids at share %d: dense %v, want %v", rarest, seg.Slots(), tc.share, got, tc.dense)
		}
	}
	// Each word in exactly one doc id in the share (2): dense.
	titles := make([]string, 64)
	for i := range titles {
		titles[i] = []string{"lamp", "chair"}[i%2]
	}
	even := segment(t, titles...)
	if q := Parse(even, an, "lamp chair", Options{}); !wantsDenseMatch(even, &q, 2) {
		t.Fatal("words each in one doc id in the share not matched densely")
	}
}
