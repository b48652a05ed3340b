package ranking

import (
	"math/bits"
	"slices"
)

// Term lists: a term's a by doc as one list in doc id order, for a term
// in ImpactMinDocs docs or more that is not common enough to keep its
// weights by doc id (termweights.go). Exhaustive scoring walks a route's
// postings field by field, a field's length and weight looked up for
// each; the term's list holds each doc once with its a already summed
// over the fields, so the walk reads one entry a doc, a third to a half
// of the postings, and adds nothing. It is built with the term's impact
// list, from the same sums, so it gives the walk's a to the bit
// (TestTermWeightsMatchTheWalk). At a million demo products: 1,021 terms,
// 6.9 million docs, 6 bytes each.
type termList struct {
	docs  []uint32 // ascending
	at    []uint16 // value[at[i]] is docs[i]'s a
	value []float32
}

// newTermList keeps acc's nonzero values (acc by doc id) of the docs in
// list, any order; nil when they take more than maxTermWeightValues
// distinct values.
func newTermList(acc []float32, list []uint32) *termList {
	tl := &termList{docs: make([]uint32, 0, len(list))}
	for _, d := range list {
		if acc[d] != 0 {
			tl.docs = append(tl.docs, d)
		}
	}
	slices.Sort(tl.docs)
	tl.at = make([]uint16, len(tl.docs))
	var vs weightValues
	for i, d := range tl.docs {
		id, ok := vs.id(acc[d])
		if !ok {
			return nil
		}
		tl.at[i] = id
	}
	tl.value = vs.value
	return tl
}

// weight is d's a, 0 when d does not hold the term in a weighted field.
func (tl *termList) weight(d uint32) float32 {
	if i, ok := slices.BinarySearch(tl.docs, d); ok {
		return tl.value[tl.at[i]]
	}
	return 0
}

// walkList adds a route's parts from its term's list to sc.best, for
// the candidates in sc.bits (dense scoring: markCandidates), as the
// postings' walk and the pass after it would: scale·a/(k1+a), each
// distinct a computed once.
func (sc *Scratch) walkList(tl *termList, scale, k1 float32) {
	parts := sc.setParts(tl.value, scale, k1)
	cb, crank, best, at := sc.bits, sc.crank, sc.best, tl.at
	for j, d := range tl.docs {
		w, bit := cb[d>>6], d&63
		if w>>bit&1 == 0 {
			continue
		}
		i := crank[d>>6] + uint32(bits.OnesCount64(w&(1<<bit-1)))
		if v := parts[at[j]]; v > best[i] {
			best[i] = v
		}
	}
}

// mergeList is walkList for merged scoring (few candidates): sc.Docs and
// the term's list merged, the shorter stepping and the longer advancing
// to it, each part computed as the pass after the postings' merge
// computes it. The merge is accumulate's, written out again: one merge
// taking a func for each match measured 5–27% slower on
// BenchmarkScoreCandidates and BenchmarkScoreSparse, the call not
// inlined.
func (sc *Scratch) mergeList(tl *termList, scale, k1 float32) {
	cands, docs := sc.Docs, tl.docs
	if len(cands) == 0 || len(docs) == 0 {
		return
	}
	part := func(i, j int) {
		a := tl.value[tl.at[j]]
		if v := scale * a / (k1 + a); v > sc.best[i] {
			sc.best[i] = v
		}
	}
	if len(docs) > len(cands) {
		j := 0
		for i, c := range cands {
			if docs[j] < c {
				if j = advance(docs, j+1, c); j == len(docs) {
					return
				}
			}
			if docs[j] == c {
				part(i, j)
				if j++; j == len(docs) {
					return
				}
			}
		}
		return
	}
	i := 0
	for j, d := range docs {
		if cands[i] < d {
			if i = advance(cands, i+1, d); i == len(cands) {
				return
			}
		}
		if cands[i] == d {
			part(i, j)
			if i++; i == len(cands) {
				return
			}
		}
	}
}
