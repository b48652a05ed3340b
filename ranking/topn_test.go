package ranking

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

const missing = math.MaxUint32

// byKeysScoreDoc is the order TopN promises, written as a plain
// comparison: each sort key in turn (missing values last in either
// direction), then score descending, then doc id ascending.
func byKeysScoreDoc(keys []SortKey) func(a, b Hit) int {
	return func(a, b Hit) int {
		for _, k := range keys {
			ra, rb := k.Rank[a.Doc], k.Rank[b.Doc]
			switch {
			case ra == missing && rb == missing:
				continue
			case ra == missing:
				return 1
			case rb == missing:
				return -1
			}
			c := cmp.Compare(ra, rb)
			if k.Desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Doc, b.Doc)
	}
}

// TestTopNMatchesFullSort: TopN's page is the first k of a full sort, for
// random docs (in any order), scores with many ties, no to three sort
// keys with ties and missing values, and every k from 0 past the number
// of docs. docs/decisions.md "Sorting strings": "several sort in order.
// Products without a value for the sort field come last in either
// direction"; "Tie-break": "Equal scores are ordered by doc id".
func TestTopNMatchesFullSort(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 7))
	const n = 40
	cases := 0
	for range 400 {
		docs := r.Perm(n)[:r.IntN(n+1)]
		ids := make([]uint32, len(docs))
		for i, d := range docs {
			ids[i] = uint32(d)
		}
		var scores []float32
		if r.IntN(4) != 0 {
			scores = make([]float32, len(ids))
			for i := range scores {
				scores[i] = float32(r.IntN(4))
			}
		}
		keys := make([]SortKey, r.IntN(4))
		for i := range keys {
			keys[i] = SortKey{Rank: make([]uint32, n), Desc: r.IntN(2) == 0}
			for d := range keys[i].Rank {
				keys[i].Rank[d] = []uint32{0, 1, 2, 3, missing}[r.IntN(5)]
			}
		}
		all := make([]Hit, len(ids))
		for i, d := range ids {
			all[i].Doc = d
			if scores != nil {
				all[i].Score = scores[i]
			}
		}
		slices.SortFunc(all, byKeysScoreDoc(keys))
		for k := 0; k <= len(ids)+2; k++ {
			// A reused page buffer holding stale hits.
			dst := []Hit{{Doc: 99, Score: 99}, {Doc: 98}}
			got := TopN(ids, scores, keys, k, dst)
			want := all[:min(k, len(all))]
			if !slices.Equal(got, want) {
				t.Fatalf("docs %v scores %v keys %+v k=%d:\n got  %v\n want %v", ids, scores, keys, k, got, want)
			}
			cases++
		}
	}
	if cases < 4000 {
		t.Fatalf("only %d cases", cases)
	}
}

// TestTopNSeveralKeys: docs/decisions.md "Sorting strings": "several sort
// in order. Products without a value for the sort field come last in
// either direction."
func TestTopNSeveralKeys(t *testing.T) {
	//                 doc:  0  1  2        3  4        5
	brand := []uint32{1, 0, 1, missing, 0, 1}
	price := []uint32{5, 7, missing, 2, 7, 3}
	docs := []uint32{0, 1, 2, 3, 4, 5}
	scores := []float32{1, 2, 3, 4, 5, 6}
	for _, tc := range []struct {
		name string
		keys []SortKey
		want []uint32
	}{
		{"brand, price", []SortKey{{Rank: brand}, {Rank: price}}, []uint32{4, 1, 5, 0, 2, 3}},
		{"brand, price desc", []SortKey{{Rank: brand}, {Rank: price, Desc: true}}, []uint32{4, 1, 0, 5, 2, 3}},
		{"brand desc, price", []SortKey{{Rank: brand, Desc: true}, {Rank: price}}, []uint32{5, 0, 2, 4, 1, 3}},
		{"price desc, brand", []SortKey{{Rank: price, Desc: true}, {Rank: brand}}, []uint32{4, 1, 0, 5, 3, 2}},
		{"price, brand desc", []SortKey{{Rank: price}, {Rank: brand, Desc: true}}, []uint32{3, 5, 0, 4, 1, 2}},
	} {
		var got []uint32
		for _, h := range TopN(docs, scores, tc.keys, len(docs), nil) {
			got = append(got, h.Doc)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestTopNOrderedBreaksTiesByOrder: with an order, equal keys and scores
// fall to order[doc], not the doc id; keys and scores still come first.
func TestTopNOrderedBreaksTiesByOrder(t *testing.T) {
	//                 doc: 0  1  2  3
	order := []uint32{3, 0, 2, 1}
	rank := []uint32{0, 0, 0, 1}
	docs := []uint32{0, 1, 2, 3}
	for _, tc := range []struct {
		name   string
		scores []float32
		keys   []SortKey
		want   []uint32
	}{
		{"ties only", nil, nil, []uint32{1, 3, 2, 0}},
		{"scores first", []float32{1, 1, 2, 2}, nil, []uint32{3, 2, 1, 0}},
		{"keys first", nil, []SortKey{{Rank: rank}}, []uint32{1, 2, 0, 3}},
	} {
		var got []uint32
		for _, h := range TopNOrdered(docs, tc.scores, tc.keys, order, 3, nil) {
			got = append(got, h.Doc)
		}
		if !slices.Equal(got, tc.want[:3]) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want[:3])
		}
	}
}

// BenchmarkTopNOrdered: the best 20 of 10,000 scored candidates, by
// score alone, as an unsorted search's page takes them.
func BenchmarkTopNOrdered(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	docs := make([]uint32, 10000)
	scores := make([]float32, len(docs))
	for i := range docs {
		docs[i] = uint32(i * 3)
		scores[i] = float32(r.IntN(1000)) / 7
	}
	dst := make([]Hit, 0, 20)
	b.ReportAllocs()
	for b.Loop() {
		dst = TopNOrdered(docs, scores, nil, nil, 20, dst)
	}
}
