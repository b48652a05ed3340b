package index

import (
	"math"

	"github.com/aisle-search/aisle/internal/bitset"
)

// Dense docs: a common term keeps its docs as a bitset over the doc ids
// too (internal/bitset), beside its roaring bitmap. Two common words'
// bitmaps intersect by merging their array containers element by
// element (a million products: two words of 35,000 docs each, 16
// containers of 2,000), which as bitsets is 15,625 words ANDed; a word's
// routes OR the same way (ranking.Match).
//
// A term's bitset holds the docs of its base postings as the segment
// that built it laid them out: a segment WithDocs made shares its
// parent's (remapped to its term ids) and adds the tail postings on the
// way (OrTermDocsDense), so a write costs no bitset. A removed doc stays
// in them as in the base postings, and KeepLiveDense drops it.

// denseShare: a term in at least one doc id in this many keeps a
// bitset, at most 8 times the 2 bytes a doc of its roaring array
// containers (a million products: terms in 15,625 docs or more).
const denseShare = 64

// DenseWords is the length in words of a bitset over the segment's doc
// ids (internal/bitset.Words of Slots).
func (s *Segment) DenseWords() int { return bitset.Words(s.Slots()) }

// HasDense reports whether term id keeps a bitset of its docs: ORing it
// into a set (OrTermDocsDense) costs DenseWords steps; for any other
// term, a step a doc it holds in the fields asked.
func (s *Segment) HasDense(id uint32) bool { return s.post.dense[id] != nil }

// DenseDocs is term id's bitset of its docs (the base postings' only,
// removed docs included), nil when it keeps none; read only.
func (s *Segment) DenseDocs(id uint32) []uint64 { return s.post.dense[id] }

// OrTermDocsDense adds to dst (DenseWords long) the docs holding term id
// in a field of m, the docs a write removed included: call KeepLiveDense
// once after the last. It is AddTermDocsIn for bitsets.
func (s *Segment) OrTermDocsDense(dst []uint64, id uint32, m FieldMask) {
	s.post.orDense(dst, id, m)
}

// SetTermDocsDense is OrTermDocsDense into an empty dst: a term that
// keeps a bitset is copied in one pass rather than cleared and ORed.
func (s *Segment) SetTermDocsDense(dst []uint64, id uint32, m FieldMask) {
	p := &s.post
	if d := p.dense[id]; d != nil && p.covers(id, m) {
		n := copy(dst, d)
		clear(dst[n:])
		p.orTail(dst, id)
		return
	}
	clear(dst)
	p.orDense(dst, id, m)
}

// KeepLiveDense drops from dst the docs a write removed
// (OrTermDocsDense); false when the segment has removed none, and dst
// is as it was.
func (s *Segment) KeepLiveDense(dst []uint64) bool {
	if s.post.liveDense == nil {
		return false
	}
	bitset.And(dst, s.post.liveDense)
	return true
}

// covers reports whether every field term id is in is in m.
func (p *postings) covers(id uint32, m FieldMask) bool {
	for _, sp := range p.spans[p.spanOff[id]:p.spanOff[id+1]] {
		if !m.Has(sp.field) {
			return false
		}
	}
	return true
}

// orTail adds term id's tail postings' docs to dst.
func (p *postings) orTail(dst []uint64, id uint32) {
	for _, sp := range p.spans[p.spanOff[id]:p.spanOff[id+1]] {
		if sp.start&tailSpan != 0 {
			docs, _ := p.spanDocs(sp)
			bitset.Set(dst, docs)
		}
	}
}

func (p *postings) orDense(dst []uint64, id uint32, m FieldMask) {
	spans := p.spans[p.spanOff[id]:p.spanOff[id+1]]
	if p.covers(id, m) {
		if d := p.dense[id]; d != nil {
			bitset.Or(dst, d)
			p.orTail(dst, id)
			return
		}
		if bm := p.bitmaps[id]; bm != nil { // each doc once, not once a field
			bitset.OrBitmap(dst, bm)
			return
		}
	}
	for _, sp := range spans {
		if m.Has(sp.field) {
			docs, _ := p.spanDocs(sp)
			bitset.Set(dst, docs)
		}
	}
}

// buildDense gives every term in one doc id in denseShare or more of a
// segment of slots doc ids its bitset, from its bitmap, and the segment
// its live docs' when it has holes: a built, compacted or loaded
// segment's postings are all base postings.
func (p *postings) buildDense(slots int) {
	p.dense = map[uint32][]uint64{}
	words := bitset.Words(slots)
	for id, bm := range p.bitmaps {
		if bm != nil && uint64(p.df[id])*denseShare >= uint64(slots) {
			d := make([]uint64, words)
			bm.WriteDenseTo(d) // d is empty: its bitmap containers' copies are ORs
			p.dense[uint32(id)] = d
		}
	}
	p.setLiveDense(slots)
}

// setLiveDense makes the live docs' bitset, nil without holes.
func (p *postings) setLiveDense(slots int) {
	p.liveDense = nil
	if p.live != nil {
		p.liveDense = make([]uint64, bitset.Words(slots))
		p.live.WriteDenseTo(p.liveDense)
	}
}

// remapDense is the bitsets of a parent's terms under their ids in a
// segment WithDocs made (remap: old id → new, MaxUint32 dropped).
func remapDense(dense map[uint32][]uint64, remap []uint32) map[uint32][]uint64 {
	out := make(map[uint32][]uint64, len(dense))
	for old, d := range dense {
		if id := remap[old]; id != math.MaxUint32 {
			out[id] = d
		}
	}
	return out
}
