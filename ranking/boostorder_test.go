package ranking

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBoostOrderMatchesASort holds NewBoostOrder to a plain sort of the
// boosted docs (boost above 0, by decreasing boost, then key) over
// random boost vectors with zeros and ties, keys from an order or the
// doc ids, and kept lengths below, at and above the number of boosted
// docs: the same Docs and Boost, Rest the next boost past them (0 when
// none is left), and head the boost at or past each position.
func TestBoostOrderMatchesASort(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for i := range 300 {
		boost := make([]float32, r.IntN(40))
		for d := range boost {
			if r.IntN(3) > 0 {
				boost[d] = float32(r.IntN(5)) / 4 // zeros and ties
			}
		}
		var order []uint32
		if i%2 == 1 {
			order = make([]uint32, len(boost))
			for d, k := range r.Perm(len(boost)) {
				order[d] = uint32(k)
			}
		}
		key := func(d uint32) uint32 {
			if order != nil {
				return order[d]
			}
			return d
		}
		var want []uint32
		for d, b := range boost {
			if b > 0 {
				want = append(want, uint32(d))
			}
		}
		slices.SortFunc(want, func(a, b uint32) int {
			return cmp.Or(cmp.Compare(boost[b], boost[a]), cmp.Compare(key(a), key(b)))
		})
		kept := []int{1, len(want), len(want) + 1, max(len(want)-1, 1), 1 + r.IntN(40)}[i%5]
		var rest float32
		if len(want) > kept {
			rest = boost[want[kept]]
			want = want[:kept]
		}
		bo := newBoostOrder(boost, order, kept)
		if !slices.Equal(bo.Docs, want) || bo.Rest != rest {
			t.Fatalf("boosts %v, order %v, %d kept: docs %v, rest %v; want %v, rest %v", boost, order, kept, bo.Docs, bo.Rest, want, rest)
		}
		for j, d := range want {
			if bo.Boost[j] != boost[d] {
				t.Fatalf("boosts %v: doc %d's boost %v, want %v", boost, d, bo.Boost[j], boost[d])
			}
		}
		for j := range len(want) + 2 {
			h := rest
			if j < len(want) {
				h = boost[want[j]]
			}
			if got := bo.head(j); got != h {
				t.Fatalf("boosts %v, %d kept: head(%d) %v, want %v", boost, kept, j, got, h)
			}
		}
	}
}
