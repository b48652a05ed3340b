package ranking

import (
	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/internal/bitset"
)

// Match sets: a search's matched docs kept as Match found them. A dense
// match (match_dense.go) ends in a bitset over the doc ids, and making a
// roaring bitmap of it costs more than the match did (roaring.FromDense
// takes a branch a word: 85 µs for 12,000 docs of a million). A search
// that counts its matches, reads impact lists against them and tests its
// page's docs never needs the bitmap, and exhaustive scoring lists the
// docs straight from the bitset; filters and facets ask for it (Bitmap).

// Candidates are the docs a search scores (Top, ScoreBM25F): a
// *roaring.Bitmap or a *MatchSet.
type Candidates interface {
	Contains(doc uint32) bool
	GetCardinality() uint64
}

// MatchSet is a set of matched docs, a roaring bitmap or a bitset (a
// dense match) that makes its bitmap on first ask. A MatchSets set is
// valid until its release; not safe for concurrent use.
type MatchSet struct {
	bm    *roaring.Bitmap // nil until asked when set is not
	set   []uint64
	count uint64 // set's docs
}

// Contains reports whether the set holds doc.
func (m *MatchSet) Contains(doc uint32) bool {
	if m.set != nil {
		w := int(doc >> 6)
		return w < len(m.set) && m.set[w]>>(doc&63)&1 != 0
	}
	return m.bm.Contains(doc)
}

// GetCardinality is how many docs the set holds.
func (m *MatchSet) GetCardinality() uint64 {
	if m.set != nil {
		return m.count
	}
	return m.bm.GetCardinality()
}

// Bitmap is the set as a roaring bitmap, made once; callers must not
// modify it.
func (m *MatchSet) Bitmap() *roaring.Bitmap {
	if m.bm == nil {
		m.bm = roaring.FromDense(m.set, true)
	}
	return m.bm
}

// AndCardinality is how many docs m and o both hold.
func (m *MatchSet) AndCardinality(o *MatchSet) uint64 {
	switch {
	case m == o:
		return m.GetCardinality()
	case m.set != nil && o.set != nil:
		return uint64(bitset.AndCount(m.set, o.set))
	case m.set == nil:
		return o.CountIn(m.bm)
	}
	return m.CountIn(o.Bitmap())
}

// CountIn is how many of bm's docs m holds: bm's docs tested against a
// bitset one by one, where a bitmap of the bitset would cost a pass over
// every doc id (a search's filtered results against its direct docs).
func (m *MatchSet) CountIn(bm *roaring.Bitmap) uint64 {
	if m.set == nil {
		return bm.AndCardinality(m.bm)
	}
	var n uint64
	var buf [256]uint32
	it := bm.ManyIterator()
	for k := it.NextMany(buf[:]); k > 0; k = it.NextMany(buf[:]) {
		for _, d := range buf[:k] {
			if m.Contains(d) {
				n++
			}
		}
	}
	return n
}

// denseSet is cand's bitset when it is a dense match, else nil.
func denseSet(cand Candidates) []uint64 {
	if m, ok := cand.(*MatchSet); ok {
		return m.set
	}
	return nil
}

// add puts doc in the set.
func (m *MatchSet) add(doc uint32) {
	if m.set == nil {
		m.bm.Add(doc)
		return
	}
	if !m.Contains(doc) {
		m.set[doc>>6] |= 1 << (doc & 63)
		m.count++
	}
	m.bm = nil
}

// MatchSets is Match with its answer as match sets, direct the same set
// as all when no route is a synonym. Call release once the sets are no
// longer read: a dense match's bitsets go back to a pool.
func MatchSets(seg *index.Segment, q *Query) (all, direct *MatchSet, relaxed bool, release func()) {
	if q.Wildcard {
		all = &MatchSet{bm: seg.All().Clone()}
		return all, all, false, func() {}
	}
	if wantsDenseMatch(seg, q, denseMatchShare) {
		return matchDense(seg, q)
	}
	a, d, relaxed := matchRoaring(seg, q)
	all = &MatchSet{bm: a}
	direct = all
	if d != a {
		direct = &MatchSet{bm: d}
	}
	return all, direct, relaxed, func() {}
}
