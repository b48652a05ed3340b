package ranking

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/internal/expect"
)

var an = analysis.New(analysis.English)

func segment(t testing.TB, titles ...string) *index.Segment {
	b := index.NewBuilder(an)
	for i, title := range titles {
		d := index.Doc{Key: fmt.Sprintf("SKU-%d", i), Stored: []byte("{}")}
		d.Text[index.FieldTitle] = []string{title}
		d.Text[index.FieldProductNumber] = []string{d.Key}
		if err := b.Add(&d); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

func search(t *testing.T, seg *index.Segment, phrase string, opt Options) []string {
	t.Helper()
	q := Parse(seg, an, phrase, opt)
	all, _, relaxed := Match(seg, &q)
	sc := GetScratch()
	defer PutScratch(sc)
	p := DefaultParams()
	sc.ScoreBM25F(seg, &q, all, &p, relaxed, nil)
	var out []string
	for _, h := range TopN(sc.Docs, sc.Score, nil, 10, nil) {
		out = append(out, seg.Key(h.Doc))
	}
	return out
}

func TestRanking(t *testing.T) {
	seg := segment(t,
		"Lampwright Smart Bulb",         // 0
		"Table Lamp",                    // 1
		"Cordless Drill Driver",         // 2
		"Hammer Drill",                  // 3
		"Cordless Screwdriver",          // 4
		"Sprinkler Head",                // 5
		"Drill Bits Set for Metal Work", // 6
		"Couch with Cushions",           // 7
		"Pruning Shears",                // 8
	)
	syn, err := NewSynonyms(an, []config.Synonym{{Terms: []string{"sofa", "couch"}}, {From: "secateurs", Terms: []string{"pruning shears"}}, {From: "garden scissors", Terms: []string{"shears"}}})
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{PrefixLast: true, Synonyms: syn}
	for _, tc := range []struct {
		phrase string
		want   []string // a prefix of the ranking
		absent string
	}{
		{"lamp", []string{"SKU-1", "SKU-0"}, ""},            // the word itself beats a prefix completion
		{"cordless drill", []string{"SKU-2"}, ""},           // both words first, then partial matches (tiny catalog relaxes)
		{"drill", []string{"SKU-3", "SKU-2", "SKU-6"}, ""},  // shorter titles first
		{"drills", []string{"SKU-3", "SKU-2", "SKU-6"}, ""}, // stemming
		{"cordl", []string{"SKU-4", "SKU-2"}, ""},           // as-you-type prefix; shorter title first
		{"sprinkelr", []string{"SKU-5"}, ""},                // one edit (transposition)
		{"sprnkler", []string{"SKU-5"}, ""},                 // one edit (deletion)
		{"sofa", []string{"SKU-7"}, ""},                     // synonym
		{"secateurs", []string{"SKU-8"}, ""},                // one-way phrase synonym
		{"garden scissors", []string{"SKU-8"}, ""},          // multi-word source
		{"sku-6", []string{"SKU-6"}, ""},                    // exact product number first
		{"cordless hammer", []string{"SKU-3"}, "SKU-0"},     // relaxed: no doc has both; the rarer word first
		{"lamp ", []string{"SKU-1"}, "SKU-0"},               // trailing space: no prefix
		{"drl", []string{}, "SKU-2"},                        // too short for typos
	} {
		got := search(t, seg, tc.phrase, opt)
		if len(got) < len(tc.want) || !slices.Equal(got[:len(tc.want)], tc.want) {
			t.Errorf("%q ranked %v, want it to start with %v", tc.phrase, got, tc.want)
		}
		if tc.absent != "" && slices.Contains(got, tc.absent) {
			t.Errorf("%q found %s: %v", tc.phrase, tc.absent, got)
		}
	}
}

func TestSuggestedRoutes(t *testing.T) {
	seg := segment(t, "Sofa Bed", "Couch Table")
	syn, _ := NewSynonyms(an, []config.Synonym{{Terms: []string{"sofa", "couch"}}})
	q := Parse(seg, an, "sofa", Options{Synonyms: syn})
	all, direct, _ := Match(seg, &q)
	if all.GetCardinality() != 2 || direct.GetCardinality() != 1 || !direct.Contains(0) {
		t.Fatalf("all %v direct %v", all.ToArray(), direct.ToArray())
	}
}

func TestWildcard(t *testing.T) {
	seg := segment(t, "a", "b")
	for _, p := range []string{"*", "", "   ", " * ", "!!"} {
		q := Parse(seg, an, p, Options{})
		if !q.Wildcard {
			t.Errorf("%q is not the wildcard", p)
		}
	}
}

func TestTopN(t *testing.T) {
	rank := []uint32{5, 1, math.MaxUint32, 1, 0}
	scores := []float32{1, 2, 3, 4, 5}
	docs := []uint32{0, 1, 2, 3, 4}
	keys := func(hits []Hit) []uint32 {
		var out []uint32
		for _, h := range hits {
			out = append(out, h.Doc)
		}
		return out
	}
	for _, tc := range []struct {
		keys []SortKey
		sc   []float32
		k    int
		want []uint32
	}{
		{nil, scores, 3, []uint32{4, 3, 2}},
		{nil, nil, 3, []uint32{0, 1, 2}},
		{[]SortKey{{Rank: rank}}, scores, 5, []uint32{4, 3, 1, 0, 2}},             // ties by score, missing last
		{[]SortKey{{Rank: rank, Desc: true}}, scores, 5, []uint32{0, 3, 1, 4, 2}}, // missing last when descending too
		{[]SortKey{{Rank: rank}}, nil, 2, []uint32{4, 1}},
		{nil, scores, 0, nil},
	} {
		if got := keys(TopN(docs, tc.sc, tc.keys, tc.k, nil)); !slices.Equal(got, tc.want) {
			t.Errorf("TopN(%v, k=%d) = %v, want %v", tc.keys, tc.k, got, tc.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	var e editBuf
	for _, tc := range []struct {
		a, b string
		k    int
		want int
	}{
		{"drill", "drill", 2, 0},
		{"drill", "dril", 2, 1},
		{"sprinkler", "sprinkelr", 2, 1},
		{"sprinkler", "sprnkelr", 2, 2},
		{"hammer", "drill", 1, 2},
		{"ab", "abcd", 1, 2},
	} {
		if got := e.distance([]rune(tc.a), tc.b, tc.k); got != tc.want {
			t.Errorf("distance(%q,%q,%d) = %d, want %d", tc.a, tc.b, tc.k, got, tc.want)
		}
	}
}

// TestScratchReuseIsClean scores a query with a fresh scratch, then with
// one scratch dirtied by another query with more candidates and other
// words: reused arrays must not carry the first search's scores (the
// promise of Scratch: "reused across searches"). One scratch is reused
// directly: a sync.Pool may drop items (it does under -race), so going
// through GetScratch would not always test reuse.
func TestScratchReuseIsClean(t *testing.T) {
	seg := segment(t, "red drill", "blue drill", "red hammer", "blue hammer drill set", "green drill set")
	p := DefaultParams()
	score := func(sc *Scratch, phrase string) string {
		q := Parse(seg, an, phrase, Options{})
		all, _, relaxed := Match(seg, &q)
		sc.ScoreBM25F(seg, &q, all, &p, relaxed, nil)
		var b strings.Builder
		for i, d := range expect.Some(t, phrase+": candidates", sc.Docs) {
			fmt.Fprintf(&b, "%s=%v ", seg.Key(d), sc.Score[i])
		}
		return b.String()
	}
	for _, tc := range []struct{ dirty, phrase string }{
		{"blue hammer drill set green", "red drill"}, // more candidates, then fewer
		{"green", "red drill"},                       // fewer candidates, then more
		{"red drill", "red drill"},                   // the same query twice
	} {
		want := score(&Scratch{}, tc.phrase)
		var sc Scratch
		score(&sc, tc.dirty)
		if got := score(&sc, tc.phrase); got != want {
			t.Errorf("%q after %q: %s, with a fresh scratch %s", tc.phrase, tc.dirty, got, want)
		}
	}
}

// TestPutScratchPoolsUpToMaxPooledDocs: a scratch put back is handed
// out again, up to maxPooledDocs candidates' arrays; a larger one is
// dropped. sync.Pool may hand out another scratch, so each is put back
// and asked for a few times.
func TestPutScratchPoolsUpToMaxPooledDocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop what is put back at random")
	}
	for _, c := range []struct {
		docs   int
		pooled bool
	}{{10, true}, {maxPooledDocs, true}, {maxPooledDocs + 1, false}} {
		sc := &Scratch{Docs: make([]uint32, 0, c.docs)}
		again := false
		for range 20 {
			PutScratch(sc)
			if GetScratch() == sc {
				again = true
				break
			}
		}
		if again != c.pooled {
			t.Fatalf("a scratch of %d docs handed out again: %v, want %v", c.docs, again, c.pooled)
		}
	}
}

func BenchmarkScore(b *testing.B) {
	titles := make([]string, 50000)
	for i := range titles {
		titles[i] = []string{"cordless drill", "table lamp", "garden hose", "drill bit set", "led lamp"}[i%5] + fmt.Sprintf(" model %d", i%97)
	}
	seg := segment(b, titles...)
	q := Parse(seg, an, "drill", Options{PrefixLast: true})
	all, _, relaxed := Match(seg, &q)
	p := DefaultParams()
	b.ReportAllocs()
	for b.Loop() {
		sc := GetScratch()
		sc.ScoreBM25F(seg, &q, all, &p, relaxed, nil)
		TopN(sc.Docs, sc.Score, nil, 20, nil)
		PutScratch(sc)
	}
}

func TestGallop(t *testing.T) {
	docs := []uint32{2, 3, 5, 8, 13, 21, 34, 55, 89, 144}
	for from := 0; from <= len(docs); from++ {
		for d := uint32(0); d < 150; d++ {
			want := from
			for want < len(docs) && docs[want] < d {
				want++
			}
			if got := gallop(docs, from, d); got != want {
				t.Fatalf("gallop(from %d, %d) = %d, want %d", from, d, got, want)
			}
		}
	}
}

// TestScoreIndependentOfCandidates scores a few candidates (the merge
// gallops over the postings) and the whole match set (it walks them): a
// doc's score must not depend on which other docs are candidates.
func TestScoreIndependentOfCandidates(t *testing.T) {
	words := []string{"drill", "cordless", "lamp", "table", "steel", "black", "hammer", "set"}
	titles := make([]string, 3000)
	for i := range titles {
		titles[i] = words[i%len(words)] + " " + words[(i/len(words))%len(words)] + " " + words[(i*7)%len(words)]
	}
	seg := segment(t, titles...)
	p := DefaultParams()
	for _, phrase := range []string{"drill", "black steel", "lamp tab", "hammer set drill", "sku-1234"} {
		q := Parse(seg, an, phrase, Options{PrefixLast: true})
		all, _, relaxed := Match(seg, &q)
		full := GetScratch()
		full.ScoreBM25F(seg, &q, all, &p, relaxed, nil)
		byDoc := map[uint32]float32{}
		for i, d := range full.Docs {
			byDoc[d] = full.Score[i]
		}
		few := roaring.New()
		for i, d := range full.Docs {
			if i%97 == 0 || d == q.SKU && q.HasSKU {
				few.Add(d)
			}
		}
		sparse := GetScratch()
		sparse.ScoreBM25F(seg, &q, few, &p, relaxed, nil)
		if len(sparse.Docs) == 0 {
			t.Fatalf("%q: no candidates", phrase)
		}
		for i, d := range sparse.Docs {
			if sparse.Score[i] != byDoc[d] || sparse.Score[i] == 0 {
				t.Fatalf("%q doc %d: score %v among few candidates, %v among all", phrase, d, sparse.Score[i], byDoc[d])
			}
		}
		PutScratch(full)
		PutScratch(sparse)
	}
}

// matchSets is a 100,000-title segment and match sets of growing size for
// the allocation test and benchmark: what scoring allocates must not grow
// with the number of candidates.
func matchSets(tb testing.TB) (*index.Segment, *Query, map[string]*roaring.Bitmap) {
	titles := make([]string, 100_000)
	for i := range titles {
		titles[i] = []string{"cordless drill", "table lamp", "garden hose", "drill bit set", "led lamp"}[i%5] + fmt.Sprintf(" model %d", i%97)
	}
	seg := segment(tb, titles...)
	q := Parse(seg, an, "drill", Options{})
	all, _, _ := Match(seg, &q)
	sets := map[string]*roaring.Bitmap{}
	for _, n := range []int{100, 4_000, 40_000} {
		bm := roaring.New()
		it := all.Iterator()
		for it.HasNext() && int(bm.GetCardinality()) < n {
			bm.Add(it.Next())
		}
		sets[fmt.Sprint(n)] = bm
	}
	return seg, &q, sets
}

// TestScoringAllocatesNothingPerDoc scores 100, 4,000 and 40,000
// candidates with a warmed scratch: a search allocates what iterating
// the candidate bitmap allocates and nothing more, nothing per candidate
// and no arrays (docs/architecture.md: "arrays aligned with the candidate
// list (reused from a pool, no allocation per doc)").
func TestScoringAllocatesNothingPerDoc(t *testing.T) {
	seg, q, sets := matchSets(t)
	p := DefaultParams()
	hits := make([]Hit, 0, 20)
	var sc Scratch
	buf := make([]uint32, 64)
	for _, name := range []string{"100", "4000", "40000"} {
		cand := sets[name]
		iter := testing.AllocsPerRun(20, func() { cand.ManyIterator().NextMany(buf) })
		sc.ScoreBM25F(seg, q, cand, &p, false, nil) // warm the scratch
		got := testing.AllocsPerRun(20, func() {
			sc.ScoreBM25F(seg, q, cand, &p, false, nil)
			hits = TopN(sc.Docs, sc.Score, nil, 20, hits)
		})
		if len(hits) != 20 {
			t.Errorf("%s candidates: %d hits", name, len(hits))
		}
		if got != iter {
			t.Errorf("%s candidates: %v allocations per search, want %v (the bitmap iterator's)", name, got, iter)
		}
	}
}

func BenchmarkScoreCandidates(b *testing.B) {
	seg, q, sets := matchSets(b)
	p := DefaultParams()
	for _, name := range []string{"100", "4000", "40000"} {
		b.Run(name, func(b *testing.B) {
			cand := sets[name]
			hits := make([]Hit, 0, 20)
			b.ReportAllocs()
			for b.Loop() {
				sc := GetScratch()
				sc.ScoreBM25F(seg, q, cand, &p, false, nil)
				hits = TopN(sc.Docs, sc.Score, nil, 20, hits)
				PutScratch(sc)
			}
		})
	}
}

// BenchmarkScoreSparse scores every 3rd, 10th, 30th and 300th doc of a
// 40,000-doc word: a second word's candidates, the merge of a long
// posting list with fewer candidates that two-word searches spend most
// of their time in.
func BenchmarkScoreSparse(b *testing.B) {
	seg, q, sets := matchSets(b)
	all := sets["40000"]
	p := DefaultParams()
	for _, every := range []int{3, 10, 30, 300} {
		cand := roaring.New()
		i := 0
		for it := all.Iterator(); it.HasNext(); i++ {
			if d := it.Next(); i%every == 0 {
				cand.Add(d)
			}
		}
		b.Run(fmt.Sprintf("every-%d", every), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sc := GetScratch()
				sc.ScoreBM25F(seg, q, cand, &p, false, nil)
				PutScratch(sc)
			}
		})
	}
}
