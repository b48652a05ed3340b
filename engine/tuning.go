package engine

// tuning is what a test moves of a generation's read-side thresholds,
// on a generation of its own; the zero value, every other generation's,
// keeps the package's constants. A generation made from another
// (WithProducts, WithContent) keeps its tuning.
type tuning struct {
	// topMin, when above 0, is the result size from which a search
	// reads its impact lists in place of the package's topMin: 1 for
	// every search the lists can answer, math.MaxInt for none.
	topMin int
	// backgroundBoosts rebuilds every boost vector but the generation's
	// first in the background, however little its work (boostSyncWork).
	backgroundBoosts bool
}

// minTop is the result size from which a search reads its impact lists.
func (t *tuning) minTop() uint64 {
	if t.topMin > 0 {
		return uint64(t.topMin)
	}
	return topMin
}

// syncBoostWork is the work under which a boost vector is rebuilt on the
// search's time.
func (t *tuning) syncBoostWork() int {
	if t.backgroundBoosts {
		return 0
	}
	return boostSyncWork
}
