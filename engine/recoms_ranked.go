package engine

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/RoaringBitmap/roaring/v2"

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

// rankedDirectMax is how many of a filter's products a ranking may hold
// for them to be ranked directly (by their positions, rankedIndex)
// rather than by reading the ranking until they come: 65,536, which
// costs about a millisecond.
const rankedDirectMax = 1 << 16

// maxRankedReads is how many ranking entries one recommendation call
// reads at most, across its requests and sources: 2,000,000, about
// 11 ms at 5.5 ns an entry. A filter that passes many ranked products
// finds its first ones early; one that passes few is ranked directly;
// only filters that pass many products, all ranked low, read far, and
// past this budget such a source answers what it found.
const maxRankedReads = 2000000

// rankedCaches are a generation's rankings resolved to its docs. A
// source whose filter almost no product passes reads a whole ranking (a
// few hundred thousand entries at a million products). Looking an
// entry's number up costs some hundreds of nanoseconds, so each product
// is looked up once per generation and model (byID, by the model's id of
// the product), and a ranking the behaviour recomputes (every second
// while events come) is resolved through byID at a few nanoseconds an
// entry. Each ranking is resolved only as far as requests have read it.
// A generation with other products has caches of its own (newCaches).
type rankedCaches struct {
	lists [numRanked]atomic.Pointer[rankedDocs]
	byID  productDocs
}

// rankedDocs is one ranking, of, resolved to docs as far as upto.
type rankedDocs struct {
	of   []behaviour.Scored
	mu   sync.Mutex
	upto int      // of's entries resolved
	docs []uint32 // their docs, in rank order (numbers the catalog lacks left out)
	ix   *rankedIndex
}

// rankedIndex is a ranking resolved in full, by doc: what a filtered
// source reads (eachAllowed).
type rankedIndex struct {
	pos []uint32        // by doc: its place in docs + 1, 0 when unranked
	set *roaring.Bitmap // the ranked docs
}

// productDocs is a generation's docs of model's products, by their id
// in it (behaviour.Scored.ID): 0 not looked up yet, 1 a number the
// catalog lacks, else the doc + 2.
type productDocs struct {
	mu    sync.Mutex
	model *behaviour.Model
	docs  []uint32
}

// eachRanked calls yield with ranking s of model m's docs on g, best
// first, until it returns false; kind names the ranking's cache. When
// allowed is not nil, only its docs are yielded. It reads at most
// *budget entries, less those read.
func (g *Generation) eachRanked(kind int, m *behaviour.Model, s []behaviour.Scored, allowed *roaring.Bitmap, budget *int, yield func(uint32) bool) {
	if len(s) == 0 || allowed != nil && allowed.IsEmpty() {
		return
	}
	r := g.rankedDocs(kind, s)
	var byID *productDocs
	if g.ranked != nil {
		byID = &g.ranked.byID
	}
	if allowed != nil {
		r.eachAllowed(g, byID, m, allowed, budget, yield)
		return
	}
	r.each(g, byID, m, budget, yield)
}

// rankedDocs is g's cache of ranking s, kind's.
func (g *Generation) rankedDocs(kind int, s []behaviour.Scored) *rankedDocs {
	if g.ranked == nil {
		return &rankedDocs{of: s}
	}
	slot := &g.ranked.lists[kind]
	r := slot.Load()
	if r == nil || &r.of[0] != &s[0] {
		fresh := &rankedDocs{of: s}
		if slot.CompareAndSwap(r, fresh) {
			r = fresh
		} else if r = slot.Load(); &r.of[0] != &s[0] {
			r = fresh // another ranking is cached: read this one alone
		}
	}
	return r
}

// each calls yield with r's docs, resolving them on g (through byID,
// when not nil) as far as yield reads, at most *budget of them (less
// those read); r ranks model m's products.
func (r *rankedDocs) each(g *Generation, byID *productDocs, m *behaviour.Model, budget *int, yield func(uint32) bool) {
	for i := 0; ; {
		r.mu.Lock()
		if i == len(r.docs) && r.upto < len(r.of) {
			end := min(r.upto+rankedChunk, len(r.of))
			r.docs = byID.resolve(g, m, r.of[r.upto:end], r.docs)
			r.upto = end
		}
		docs, done := r.docs[i:], r.upto == len(r.of)
		r.mu.Unlock()
		for _, d := range docs {
			if *budget <= 0 {
				return
			}
			*budget--
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

// eachAllowed is each of allowed's docs only. When the ranking holds
// at most rankedDirectMax of them, they are taken from its index and
// ordered by their places (no ranking entry is read); else each reads
// the ranking until yield has enough.
func (r *rankedDocs) eachAllowed(g *Generation, byID *productDocs, m *behaviour.Model, allowed *roaring.Bitmap, budget *int, yield func(uint32) bool) {
	ix := r.index(g, byID, m)
	n := ix.set.AndCardinality(allowed)
	if n == 0 {
		return
	}
	if n > rankedDirectMax {
		r.each(g, byID, m, budget, func(d uint32) bool { return !allowed.Contains(d) || yield(d) })
		return
	}
	docs := roaring.And(ix.set, allowed).ToArray()
	slices.SortFunc(docs, func(a, b uint32) int { return cmp.Compare(ix.pos[a], ix.pos[b]) })
	for _, d := range docs {
		if !yield(d) {
			return
		}
	}
}

// index is r resolved in full and indexed by doc, made on first need.
func (r *rankedDocs) index(g *Generation, byID *productDocs, m *behaviour.Model) *rankedIndex {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ix != nil {
		return r.ix
	}
	if r.upto < len(r.of) {
		r.docs = byID.resolve(g, m, r.of[r.upto:], r.docs)
		r.upto = len(r.of)
	}
	ix := &rankedIndex{pos: make([]uint32, g.Products.Slots()), set: roaring.New()}
	for i, d := range r.docs {
		ix.pos[d] = uint32(i + 1)
	}
	sorted := make([]uint32, 0, len(r.docs))
	for d, p := range ix.pos {
		if p != 0 {
			sorted = append(sorted, uint32(d))
		}
	}
	ix.set.AddMany(sorted)
	r.ix = ix
	return ix
}

// resolve appends the docs of entries on g to dst (numbers the catalog
// lacks left out), as eachDoc finds them.
func (p *productDocs) resolve(g *Generation, m *behaviour.Model, entries []behaviour.Scored, dst []uint32) []uint32 {
	p.eachDoc(g, m, entries, func(_ int, d uint32) { dst = append(dst, d) })
	return dst
}

// eachID is eachDoc for model m's product ids (behaviour.Taste), naming
// through m only those it has not cached.
func (p *productDocs) eachID(g *Generation, m *behaviour.Model, ids []uint32, fn func(i int, doc uint32)) {
	if p == nil {
		for i, id := range ids {
			if d, ok := g.Doc(m.Number(id)); ok {
				fn(i, d)
			}
		}
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.model != m {
		p.model, p.docs = m, nil
	}
	for i, id := range ids {
		if v := p.docOf(g, id, func() string { return m.Number(id) }); v > 1 {
			fn(i, v-2)
		}
	}
}

// docOf is product id's entry in p.docs (0 unknown, 1 not in g, doc+2),
// looking it up by number when unknown; p.mu is held.
func (p *productDocs) docOf(g *Generation, id uint32, number func() string) uint32 {
	if n := int(id) + 1; n > len(p.docs) {
		p.docs = slices.Grow(p.docs, n-len(p.docs))[:n]
	}
	v := p.docs[id]
	if v == 0 {
		v = 1
		if d, ok := g.Doc(number()); ok {
			v = d + 2
		}
		p.docs[id] = v
	}
	return v
}

// eachDoc calls fn with the index and the doc on g of each of entries,
// model m's products, that g holds, in order: through p's cache by the
// entries' ids when p is not nil, else by number.
func (p *productDocs) eachDoc(g *Generation, m *behaviour.Model, entries []behaviour.Scored, fn func(i int, doc uint32)) {
	if p == nil {
		for i, x := range entries {
			if d, ok := g.Doc(x.ProductNumber); ok {
				fn(i, d)
			}
		}
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.model != m {
		p.model, p.docs = m, nil // another model: other ids
	}
	for i, x := range entries {
		if v := p.docOf(g, x.ID, func() string { return x.ProductNumber }); v > 1 {
			fn(i, v-2)
		}
	}
}
