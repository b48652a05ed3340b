package engine

import (
	"sync"
	"sync/atomic"

	"github.com/aisle-search/aisle/behaviour"
)

// The rankings TOP, MOST_BOUGHT and MOST_VIEWED read.
const (
	rankedTop = iota
	rankedBought
	rankedViewed
	numRanked
)

// rankedChunk is how many ranking entries one resolve step reads.
const rankedChunk = 1024

// rankedCaches are a generation's rankings resolved to its docs. A
// source whose filter almost no product passes reads a whole ranking (a
// few hundred thousand entries at a million products); looking each
// entry's number up costs some hundreds of nanoseconds, a doc id read
// again a few. Each ranking is resolved only as far as requests have
// read it, and anew when the behaviour recomputes it (a new slice). A
// generation with other products has caches of its own (newCaches).
type rankedCaches [numRanked]atomic.Pointer[rankedDocs]

// rankedDocs is one ranking, of, resolved to docs as far as upto.
type rankedDocs struct {
	of   []behaviour.Scored
	mu   sync.Mutex
	upto int      // of's entries resolved
	docs []uint32 // their docs, in rank order (numbers the catalog lacks left out)
}

// eachRanked calls yield with ranking s's docs on g, best first, until
// it returns false; kind names the ranking's cache.
func (g *Generation) eachRanked(kind int, s []behaviour.Scored, yield func(uint32) bool) {
	if len(s) == 0 {
		return
	}
	if g.ranked == nil {
		(&rankedDocs{of: s}).each(g, yield)
		return
	}
	slot := &g.ranked[kind]
	r := slot.Load()
	if r == nil || &r.of[0] != &s[0] {
		fresh := &rankedDocs{of: s}
		if slot.CompareAndSwap(r, fresh) {
			r = fresh
		} else if r = slot.Load(); &r.of[0] != &s[0] {
			r = fresh // another ranking is cached: read this one alone
		}
	}
	r.each(g, yield)
}

// each calls yield with r's docs, resolving them on g as far as yield
// reads.
func (r *rankedDocs) each(g *Generation, yield func(uint32) bool) {
	for i := 0; ; {
		r.mu.Lock()
		if i == len(r.docs) && r.upto < len(r.of) {
			end := min(r.upto+rankedChunk, len(r.of))
			for _, x := range r.of[r.upto:end] {
				if d, ok := g.productDoc(x.ProductNumber); ok {
					r.docs = append(r.docs, d)
				}
			}
			r.upto = end
		}
		docs, done := r.docs[i:], r.upto == len(r.of)
		r.mu.Unlock()
		for _, d := range docs {
			if !yield(d) {
				return
			}
		}
		i += len(docs)
		if done && len(docs) == 0 {
			return
		}
	}
}
