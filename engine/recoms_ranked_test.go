package engine

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/behaviour"
)

// TestRankedDocsAsResolvedOneByOne: a ranking read through the cache
// yields the docs that looking each entry up yields, in order, across
// chunks, numbers the catalog lacks left out, whether read whole, in
// part and then further, or by several requests at once; a recomputed
// ranking (a new slice) is resolved anew, and another model's ids are
// not taken for the first one's.
func TestRankedDocsAsResolvedOneByOne(t *testing.T) {
	g := shopGen(t)
	var known []string
	for d := range uint32(g.Products.Len()) {
		known = append(known, g.Products.Key(d))
	}
	ids := map[string]uint32{} // as a model gives them: one a number
	var model *behaviour.Model
	ranking := func(seed int) []behaviour.Scored {
		var s []behaviour.Scored
		for i := range 3*rankedChunk + 7 {
			pn := fmt.Sprintf("GONE-%d-%d", seed%2, i)
			if i%500 == seed%500 {
				pn = known[(i/500+seed)%len(known)]
			}
			id, ok := ids[pn]
			if !ok {
				id = uint32(len(ids))
				ids[pn] = id
			}
			s = append(s, behaviour.Scored{ProductNumber: pn, Score: float64(-i), ID: id})
		}
		return s
	}
	oracle := func(s []behaviour.Scored, n int) []uint32 {
		var out []uint32
		for _, x := range s {
			if d, ok := g.Doc(x.ProductNumber); ok && len(out) < n {
				out = append(out, d)
			}
		}
		return out
	}
	read := func(s []behaviour.Scored, n int) []uint32 {
		var out []uint32
		budget := len(s)
		g.eachRanked(rankedTop, model, s, nil, &budget, func(d uint32) bool { out = append(out, d); return len(out) < n })
		return out
	}
	s := ranking(3)
	if got, want := read(s, 2), oracle(s, 2); !slices.Equal(got, want) {
		t.Errorf("the first 2: %v, want %v", got, want)
	}
	for _, n := range []int{1, 3, 5, 1 << 30} {
		if got, want := read(s, n), oracle(s, n); !slices.Equal(got, want) {
			t.Errorf("%d read on: %v, want %v", n, got, want)
		}
	}
	if upto := g.ranked.lists[rankedTop].Load().upto; upto != len(s) {
		t.Errorf("resolved %d of %d entries after reading them all", upto, len(s))
	}
	s2 := ranking(4)
	if got, want := read(s2, 1<<30), oracle(s2, 1<<30); !slices.Equal(got, want) || slices.Equal(got, oracle(s, 1<<30)) {
		t.Errorf("a recomputed ranking: %v, want %v", got, want)
	}
	s3 := ranking(5)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got, want := read(s3, 1<<30), oracle(s3, 1<<30); !slices.Equal(got, want) {
				t.Errorf("read beside others: %v, want %v", got, want)
			}
		})
	}
	wg.Wait()
	model, ids = behaviour.New(), map[string]uint32{"unused": 0}
	s4 := ranking(7)
	if got, want := read(s4, 1<<30), oracle(s4, 1<<30); !slices.Equal(got, want) {
		t.Errorf("another model's ranking: %v, want %v", got, want)
	}

	// Filtered: the allowed docs in rank order, whether the ranking was
	// read before or not; none when no ranked doc is allowed.
	for _, s := range [][]behaviour.Scored{s4, ranking(9)} {
		want := oracle(s, 1<<30)
		allowed := roaring.BitmapOf(want[len(want)/2:]...)
		allowed.Add(uint32(g.Products.Len() - 1)) // perhaps unranked
		var got []uint32
		budget := 0 // a filtered ranking reads no entry
		g.eachRanked(rankedTop, model, s, allowed, &budget, func(d uint32) bool { got = append(got, d); return true })
		var wantAllowed []uint32
		for _, d := range want {
			if allowed.Contains(d) {
				wantAllowed = append(wantAllowed, d)
			}
		}
		if !slices.Equal(got, wantAllowed) {
			t.Errorf("filtered: %v, want %v", got, wantAllowed)
		}
	}
	budget := maxRankedReads
	g.eachRanked(rankedTop, model, s4, roaring.New(), &budget, func(uint32) bool { t.Error("an empty filter yielded"); return true })
}

// TestRankedReadsBudgeted: a ranking read stops after the budget's
// entries, and takes them from it.
func TestRankedReadsBudgeted(t *testing.T) {
	g := shopGen(t)
	var s []behaviour.Scored
	for d := range uint32(g.Products.Len()) {
		s = append(s, behaviour.Scored{ProductNumber: g.Products.Key(d), ID: d})
	}
	budget := 3
	n := 0
	g.eachRanked(rankedTop, nil, s, nil, &budget, func(uint32) bool { n++; return true })
	if n != 3 || budget != 0 {
		t.Errorf("read %d entries, budget left %d; want 3 and 0", n, budget)
	}
	g.eachRanked(rankedTop, nil, s, nil, &budget, func(uint32) bool { n++; return true })
	if n != 3 {
		t.Errorf("read %d entries past the budget", n-3)
	}
}
