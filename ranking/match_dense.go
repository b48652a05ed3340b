package ranking

import (
	"sync"

	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/internal/bitset"
)

// Dense matching: Match with each word's docs as a bitset over the doc
// ids (internal/bitset) instead of a roaring bitmap. A word's routes
// OR into its set, the common terms' straight from the bitsets the
// index keeps (index.Segment.OrTermDocsDense), and the words AND, 64 doc
// ids a step; the result goes back to a roaring bitmap once. Roaring
// merges two common words' array containers element by element: at a
// million demo products "tv stand" (35,479 and 28,994 docs, two routes
// each) took 890 µs to match, most of it in unions and intersections of
// arrays. The result is the same either way (TestDenseMatchIsMatch).

// denseMatchShare: a search of two words or more is matched densely
// when each of its words' routes hold at least one doc id in this many
// between them (by their doc counts). Below that, a word's few docs
// cost roaring fewer steps than a pass over the segment's doc ids. At a
// million demo products, 2,000 two-word searches, Match alone, each way
// in one run: roaring 407 ms; 1 in 1,024: 289 ms; 4,096: 274 ms; 16,384:
// 274 ms. At 20,000 Flipkart products a search is as fast either way.
const denseMatchShare = 4096

// wantsDenseMatch reports whether q is matched densely on seg when each
// word's routes are to hold at least one doc id in share: MatchSets asks
// at denseMatchShare.
func wantsDenseMatch(seg *index.Segment, q *Query, share uint64) bool {
	if len(q.Words) < 2 {
		return false
	}
	for i := range q.Words {
		var n uint64
		for _, e := range q.Words[i].Exp {
			if !e.ScoreOnly {
				n += seg.DocFreq(e.Term)
			}
		}
		if n*share < uint64(seg.Slots()) {
			return false
		}
	}
	return true
}

// matchDense is MatchSets over bitsets.
func matchDense(seg *index.Segment, q *Query) (all, direct *MatchSet, relaxed bool, release func()) {
	n := len(q.Words)
	ds := getDenseSets(seg.DenseWords(), 2*n+2)
	words, own, acc := ds.sets[:n], ds.sets[n:2*n], ds.sets[2*n]
	suggested := false
	for i := range q.Words {
		wordDense(seg, &q.Words[i], q.Fields, true, words[i])
		suggested = suggested || q.Words[i].hasSuggested()
	}
	count := combineDense(seg, q, words, acc, false)
	if relaxes(q, uint64(count)) {
		relaxed = true
		count = combineDense(seg, q, words, acc, true)
	}
	all = &MatchSet{set: acc, count: uint64(count)}
	direct = all
	if suggested {
		// The direct docs: each word without its synonyms, combined as
		// all was (relaxed or not).
		directs := ds.view[:0]
		for i := range q.Words {
			d := words[i]
			if q.Words[i].hasSuggested() {
				d = own[i]
				wordDense(seg, &q.Words[i], q.Fields, false, d)
			}
			directs = append(directs, d)
		}
		d := ds.sets[2*n+1]
		direct = &MatchSet{set: d, count: uint64(combineDense(seg, q, directs, d, relaxed))}
		ds.view = directs[:0]
	}
	if q.HasSKU {
		all.add(q.SKU)
		direct.add(q.SKU)
	}
	return all, direct, relaxed, func() { denseSetPool.Put(ds) }
}

// combineDense sets acc to the live docs in every set of words, as
// intersect does, or those in any set needed (needed) when relaxed, and
// counts them. The direct docs combine as all did. Two words AND and
// count in one pass.
func combineDense(seg *index.Segment, q *Query, words [][]uint64, acc []uint64, relaxed bool) int {
	count := -1
	switch {
	case relaxed:
		clear(acc)
		for _, w := range needed(q, words) {
			bitset.Or(acc, w)
		}
	case len(words) == 2:
		count = bitset.AndInto(acc, words[0], words[1])
	default:
		copy(acc, words[0])
		for _, w := range words[1:] {
			bitset.And(acc, w)
		}
	}
	if seg.KeepLiveDense(acc) || count < 0 {
		count = bitset.Count(acc)
	}
	return count
}

// wordDense sets dst to the docs w matches in fields, through synonyms
// too when suggested is set, the docs a write removed included: wordDocs
// as a bitset.
func wordDense(seg *index.Segment, w *Word, fields index.FieldMask, suggested bool, dst []uint64) {
	first := true
	for _, e := range w.Exp {
		if !e.ScoreOnly && (suggested || !e.Suggested) {
			if first {
				seg.SetTermDocsDense(dst, e.Term, fields)
				first = false
				continue
			}
			seg.OrTermDocsDense(dst, e.Term, fields)
		}
	}
	if first {
		clear(dst)
	}
	for _, p := range w.Phrases {
		if suggested || !p.Suggested {
			bitset.OrBitmap(dst, phraseDocs(seg, &p, fields))
		}
	}
}

// denseSets are a search's bitsets, pooled: for n words, sets[i] is
// word i's docs, sets[n+i] its direct docs when it has synonyms, sets[2n]
// all the docs matched and sets[2n+1] the direct ones; view is the
// direct sets' list.
type denseSets struct {
	sets [][]uint64
	view [][]uint64
}

var denseSetPool sync.Pool

// getDenseSets takes n sets of words words from the pool.
func getDenseSets(words, n int) *denseSets {
	ds, _ := denseSetPool.Get().(*denseSets)
	if ds == nil {
		ds = &denseSets{}
	}
	for i := range ds.sets {
		if cap(ds.sets[i]) < words {
			ds.sets[i] = make([]uint64, words)
		}
		ds.sets[i] = ds.sets[i][:words]
	}
	for len(ds.sets) < n {
		ds.sets = append(ds.sets, make([]uint64, words))
	}
	return ds
}
