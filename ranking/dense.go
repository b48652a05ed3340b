package ranking

import (
	"math/bits"
	"slices"

	"github.com/aisle-search/aisle/index"
)

// Dense scoring: when the candidates are many against the postings to
// merge them with, each posting list is walked straight through instead.
// The candidates are marked in a bitset with a count of them before
// every 64 doc ids, so a posting's doc finds its candidate's slot by a
// popcount, and a doc that is not a candidate adds to a sink slot
// instead: no comparison to mispredict, no galloping. A two-word search
// whose second word is common spends most of its time merging that
// word's long lists with the first's candidates; this walks them at a
// few nanoseconds a posting.
//
// A candidate's weights are added in the same order and rounded the same
// way as the merge adds them, so its score does not depend on the path
// taken (TestScoreIndependentOfCandidates, TestDenseMatchesMerge).

// denseMaxSlots bounds the segments scored densely: the bitset and the
// counts take a bit and a half a doc id (1.5 MB at 8M), pooled with the
// scratch.
const denseMaxSlots = 8 << 20

// preferDense reports whether walking q's posting lists densely costs
// less than merging them with the candidates, by a count of the steps
// each takes: dense, every posting and every candidate once a route;
// merging, the shorter list of each pair plus a search into the longer.
func (sc *Scratch) preferDense(seg *index.Segment, q *Query, p *Params) bool {
	c := len(sc.Docs)
	if sc.forcePath != 0 {
		return sc.forcePath > 0 && seg.Slots() <= denseMaxSlots
	}
	if c < denseMinCandidates || seg.Slots() > denseMaxSlots {
		return false
	}
	var dense, merge int
	for _, w := range q.Words {
		for _, e := range w.Exp {
			dense += c
			sc.posts = seg.TermPostings(e.Term, sc.posts[:0])
			for _, fp := range sc.posts {
				if p.Weights[fp.Field] == 0 {
					continue
				}
				n := len(fp.Docs)
				dense += n
				short, long := min(n, c), max(n, c)
				merge += 2 * short * bits.Len(uint(long/max(short, 1)))
			}
		}
	}
	return dense < merge
}

// denseMinCandidates is the fewest candidates scored densely: under it
// the bitset and the array cost more than they save.
const denseMinCandidates = 1024

// markCandidates sets sc.bits to the candidates as a bitset, set (a
// dense match's, which are sc.Docs) or else sc.Docs' bits set in
// sc.cbits, growing the arrays to the segment, and ranks them:
// sc.crank[w] is the number of candidates below doc id 64·w.
func (sc *Scratch) markCandidates(seg *index.Segment, set []uint64) {
	words := (seg.Slots() + 63) / 64
	if len(sc.crank) < words {
		sc.cbits = make([]uint64, words)
		sc.crank = make([]uint32, words)
	}
	sc.bits, sc.marked = set, set == nil
	if sc.marked {
		for _, d := range sc.Docs {
			sc.cbits[d>>6] |= 1 << (d & 63)
		}
		sc.bits = sc.cbits
	}
	var r uint32
	for w, b := range sc.bits[:words] {
		sc.crank[w] = r
		r += uint32(bits.OnesCount64(b))
	}
	// Past the candidates, denseSinks slots take the other docs'
	// weights, a different one each posting so that no add waits for the
	// one before; nothing reads them.
	n := len(sc.Docs)
	sc.acc = slices.Grow(sc.acc[:n], denseSinks)[:n]
	clear(sc.acc[n : n+denseSinks])
}

// denseSinks is how many slots the docs that are not candidates add to.
const denseSinks = 8

// unmarkCandidates clears what markCandidates set.
func (sc *Scratch) unmarkCandidates() {
	if sc.marked {
		for _, d := range sc.Docs {
			sc.cbits[d>>6] = 0
		}
	}
	sc.bits, sc.marked = nil, false
}

// accumulateDense adds one field posting's weight to sc.acc for each of
// its docs that is a candidate, at the candidate's rank, and to a sink
// slot for each other doc: accumulate's sums, without a comparison to
// mispredict.
func (sc *Scratch) accumulateDense(fp *index.FieldPosting, lens []uint8, weight *[256]float32) {
	n := uint32(len(sc.Docs))
	acc, cbits, crank, tfs := sc.acc[:n+denseSinks], sc.bits, sc.crank, fp.TFs
	for j, d := range fp.Docs {
		w, bit := cbits[d>>6], d&63
		rank := crank[d>>6] + uint32(bits.OnesCount64(w&(1<<bit-1)))
		// All ones for a candidate, zero for another doc.
		mask := -uint32((w >> bit) & 1)
		i := rank&mask | (n+uint32(j)%denseSinks)&^mask
		// postingWeight, written out: calling it here costs this loop 8%
		// (BenchmarkScoreSparse/every-10); TestDenseMatchesMerge holds
		// the two to the same bits.
		acc[i] += float32(byteFloat[tfs[j]] * weight[lens[d]])
	}
}

// postingWeight is one field posting's part of a doc's a: its term
// frequency times the field's weight over its length normalisation at
// the doc's field length (lengthWeights). Every path that sums a doc's a
// computes it so (merged, an impact list's build, Top's reads; the dense
// walk writes it out), and they agree to the bit: the conversion rounds
// the product, so no compiler may fuse it into the caller's sum on one
// path and not another.
func postingWeight(tf, fieldLen uint8, weight *[256]float32) float32 {
	return float32(byteFloat[tf] * weight[fieldLen])
}

// byteFloat is each byte's value as a float32: a load, where converting
// in the loop would chain each iteration to the last.
var byteFloat = func() (t [256]float32) {
	for i := range t {
		t[i] = float32(i)
	}
	return t
}()
