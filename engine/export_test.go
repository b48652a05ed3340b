package engine

import (
	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/behaviour"
)

// What the external tests (package engine_test, which may use the write
// side) read of a generation's insides.

// RankedCache is g's cache of rankings resolved to docs.
func RankedCache(g *Generation) any { return g.ranked }

// ListBuilt reports whether the impact list of term is built for the
// live version of g's search configuration key.
func ListBuilt(g *Generation, key string, term uint32) (bool, error) {
	v, err := g.searchVersion(key, nil)
	if err != nil {
		return false, err
	}
	return g.impacts[v].Built(term), nil
}

// SameImpacts reports whether b shares every impact list a has, and how
// many a has.
func SameImpacts(a, b *Generation) (n int, same bool) {
	for v, imp := range a.impacts {
		if b.impacts[v] != imp {
			return len(a.impacts), false
		}
	}
	return len(a.impacts), true
}

// RankedAllowed is the docs of ranking that allowed holds, in rank
// order, as a filtered recommendation source reads them (by the
// ranking's index by doc).
func RankedAllowed(g *Generation, ranking []behaviour.Scored, allowed *roaring.Bitmap) []uint32 {
	var out []uint32
	budget := maxRankedReads
	g.eachRanked(rankedTop, nil, ranking, allowed, &budget, func(d uint32) bool { out = append(out, d); return true })
	return out
}
