package index

import (
	"sync/atomic"
	"testing"
)

// TestEachRangeCoversOnce: the ranges cover [0, n) exactly once, whatever
// n and the least range.
func TestEachRangeCoversOnce(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1023, 1024, 4097, 100000} {
		for _, minPer := range []int{0, 1, 1024, 1 << 16} {
			seen := make([]atomic.Int32, n)
			eachRange(n, minPer, func(lo, hi int) {
				if lo >= hi {
					t.Errorf("n=%d minPer=%d: empty range [%d, %d)", n, minPer, lo, hi)
				}
				for i := lo; i < hi; i++ {
					seen[i].Add(1)
				}
			})
			for i := range seen {
				if c := seen[i].Load(); c != 1 {
					t.Fatalf("n=%d minPer=%d: item %d seen %d times", n, minPer, i, c)
				}
			}
		}
	}
}
