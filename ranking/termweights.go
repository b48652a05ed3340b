package ranking

import (
	"math/bits"
	"slices"
)

// Term weights: a common term's a (the sum over its fields of tf times
// the field's weight over its length normalisation, as ScoreBM25F sums
// it) for each doc holding it, findable by doc id. Exhaustive scoring
// walks a route's postings, every one of them, to add its weights to
// the candidates it holds; a route holding many more docs than a search
// has candidates is cheaper looked up candidate by candidate here. Two
// common words' search at a million products ("balck tool": 52,530
// candidates, routes of 255,138, 149,369 and 147,454 docs) walked
// 600,000 postings or more across their fields.
//
// They are built with the term's impact list (Impacts.build), from the
// same sums, so a lookup gives the walk's a to the bit.

// DefaultTermWeightsShare is Impacts.TermWeightsShare unless set: a
// term gets its weights when it is in at least one doc id in 64 (and in
// ImpactMinDocs docs or more). At 1,000,000 demo products, 1,000
// two-word searches, each both ways in one run:
//
//	share  terms  memory  sum    p99
//	32     195    86 MB   -25%   1.68 -> 1.20 ms
//	64     416    138 MB  -36%   1.71 -> 1.06 ms
//	128    771    213 MB  -42%   1.89 -> 1.09 ms
const DefaultTermWeightsShare = 64

// termWeightsLookups: a route's weights are looked up rather than its
// postings walked when its postings outnumber the candidates by this
// much; a lookup costs a few more steps than a walked posting (1, 2, 4
// and 8 measured -25%, -26%, -26% and -24% of the sum at share 32).
const termWeightsLookups = 2

// termWeights is one term's a by doc: docs marks the docs that hold it
// in a weighted field (the index's bitset of the term's docs when they
// are the same: index.Segment.DenseDocs), rank counts them before each
// 64 doc ids, and
// value[at[i]] is the a of the i-th of them in doc id order. A term's
// docs weigh a few thousand distinct a at most (its fields' lengths and
// term frequencies), so each takes 2 bytes, not 4.
type termWeights struct {
	docs  []uint64
	rank  []uint32
	at    []uint16
	value []float32
}

// maxTermWeightValues is how many distinct a a term's weights hold; a
// term with more has none (its postings are walked).
const maxTermWeightValues = 1 << 16

// newTermWeights keeps acc's nonzero values (acc by doc id, slots long)
// of the docs in list, any order; nil when they take more than
// maxTermWeightValues distinct values.
func newTermWeights(acc []float32, list []uint32, slots int) *termWeights {
	words := (slots + 63) / 64
	tw := &termWeights{docs: make([]uint64, words), rank: make([]uint32, words), at: make([]uint16, 0, len(list))}
	for _, d := range list {
		if acc[d] != 0 {
			tw.docs[d>>6] |= 1 << (d & 63)
		}
	}
	var vs weightValues
	var r uint32
	for w, b := range tw.docs {
		tw.rank[w] = r
		r += uint32(bits.OnesCount64(b))
		for b != 0 {
			id, ok := vs.id(acc[uint32(w)<<6|uint32(bits.TrailingZeros64(b))])
			if !ok {
				return nil
			}
			tw.at = append(tw.at, id)
			b &= b - 1
		}
	}
	tw.value = vs.value
	return tw
}

// weightValues numbers a term's distinct a, in the order first asked,
// as termWeights and termList keep them: value[id] is a.
type weightValues struct {
	ids   map[float32]uint16
	value []float32
}

// id is a's number; false past maxTermWeightValues distinct a.
func (vs *weightValues) id(a float32) (uint16, bool) {
	if id, ok := vs.ids[a]; ok {
		return id, true
	}
	if len(vs.value) == maxTermWeightValues {
		return 0, false
	}
	if vs.ids == nil {
		vs.ids = map[float32]uint16{}
	}
	id := uint16(len(vs.value))
	vs.ids[a] = id
	vs.value = append(vs.value, a)
	return id, true
}

// setParts sets sc.parts to each distinct a's part of a route,
// scale·a/(k1+a), the expression every scoring path computes it by.
func (sc *Scratch) setParts(value []float32, scale, k1 float32) []float32 {
	sc.parts = slices.Grow(sc.parts[:0], len(value))[:len(value)]
	for j, a := range value {
		sc.parts[j] = scale * a / (k1 + a)
	}
	return sc.parts
}

// weight is d's a, 0 when d does not hold the term in a weighted field.
func (tw *termWeights) weight(d uint32) float32 {
	if j, ok := tw.index(d); ok {
		return tw.value[j]
	}
	return 0
}

// index is where d's a is in value; false when d does not hold the
// term in a weighted field.
func (tw *termWeights) index(d uint32) (uint16, bool) {
	w, bit := tw.docs[d>>6], d&63
	if w>>bit&1 == 0 {
		return 0, false
	}
	return tw.at[tw.rank[d>>6]+uint32(bits.OnesCount64(w&(1<<bit-1)))], true
}

// wantsTermWeights reports whether a term of df docs in imp's segment
// gets them (Impacts.TermWeightsShare).
func (imp *Impacts) wantsTermWeights(df uint64) bool {
	return df >= ImpactMinDocs && df*imp.TermWeightsShare >= uint64(imp.seg.Slots())
}
