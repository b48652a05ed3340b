package index

import (
	"runtime"
	"sync"
)

// eachRange calls fn on consecutive ranges [lo, hi) covering [0, n), one
// per core, each at least minPer long: fewer items than twice that run on
// the caller's goroutine alone. fn must be safe to run beside itself on
// disjoint ranges.
func eachRange(n, minPer int, fn func(lo, hi int)) {
	workers := max(1, min(runtime.GOMAXPROCS(0), n/max(1, minPer)))
	if workers == 1 {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	per := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += per {
		wg.Go(func() { fn(lo, min(lo+per, n)) })
	}
	wg.Wait()
}
