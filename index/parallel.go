package index

import (
	"github.com/aisle-search/aisle/internal/background"
)

// eachRange calls fn on consecutive ranges [lo, hi) covering [0, n), one
// per core, each at least minPer long, on background threads (it serves
// writes, saves and loads, never a search): fewer items than twice minPer
// run on the caller's goroutine alone. fn must be safe to run beside
// itself on disjoint ranges.
func eachRange(n, minPer int, fn func(lo, hi int)) {
	workers := max(1, min(background.Cores(), n/max(1, minPer)))
	if workers == 1 {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	per := (n + workers - 1) / workers
	background.Each((n+per-1)/per, func(w int) { fn(w*per, min(w*per+per, n)) })
}
