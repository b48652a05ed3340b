package ranking

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/internal/background"
)

// Impact-ordered lists: a term's docs sorted by what the term weighs in
// each of them, so a search reads its best docs first and stops once
// nothing further down can reach its page (Impacts.Top).
//
// A route's BM25F weight in a doc is s·a/(k1+a), where a is the sum over
// the fields of tf times the field's weight over its length
// normalisation (lengthWeights), and s holds the IDF, the route's weight
// and k1. The order of a term's docs by a depends on the field weights
// and length normalisations alone, not on IDF, k1 or the query, so one
// list per term serves every query of those parameters.

// ImpactMinDocs is the document frequency from which a term's impact
// list is kept (Impacts); a route with fewer docs is sorted for the
// query that needs it.
const ImpactMinDocs = 1024

// impactLen is how many of a term's best docs its list keeps. A page
// needs the first few; the rest of the list is a bound (impactList.rest)
// and a search that would read past it is scored exhaustively.
const impactLen = 1024

// Impacts holds the impact lists of one segment under one set of field
// weights and length normalisations (Params without K1), each built
// once, on a search's first need or by Warm, and kept for the segment's
// life. Safe for concurrent use.
type Impacts struct {
	// Background: a list not built yet is queued for a background thread
	// and the search that wanted it is scored exhaustively meanwhile (Top
	// gives up), so no search waits for a build; false (the default)
	// builds it on the search. Set it before the first search.
	Background bool
	// ReadCost bounds Top's reads, each a map lookup, a candidate check
	// and a binary search per route and field: it gives up past the
	// routes' postings over ReadCost times the routes (and at least 4k
	// reads), so a search that does not settle costs little beside the
	// exhaustive scoring that follows. NewImpacts sets DefaultReadCost;
	// 0 sets no bound (tests on small catalogs, to reach the lists).
	ReadCost int
	// TermWeightsShare: a term in ImpactMinDocs docs or more that is in
	// at least one doc id in TermWeightsShare keeps its weights by doc id
	// (termweights.go), built with its list, for ScoreBM25F to look up
	// rather than walk its postings: 2 bytes a doc of the term and 1.5
	// bits a doc id of the segment. A term it leaves out keeps its list
	// of a by doc instead (termlist.go). NewImpacts sets
	// DefaultTermWeightsShare; 0 gives no term weights. Set it before the
	// first search.
	TermWeightsShare uint64

	seg   *index.Segment
	p     Params
	lw    [index.NumTextFields][256]float32
	lists sync.Map // term id → *impactEntry
	mu    sync.Mutex
	acc   []float32 // by doc id, all zero between builds; held with mu
	docs  []uint32  // a list's docs while it is built, ws their weights; held with mu
	ws    []float32
	hits  []Hit
	posts []index.FieldPosting

	qmu     sync.Mutex
	queue   []uint32 // terms to build in the background
	working bool     // a background thread is draining queue
}

type impactEntry struct {
	once    sync.Once
	ready   atomic.Bool // list (and weights) built
	queued  bool        // held with Impacts.qmu
	list    impactList
	weights *termWeights // nil unless the term is common (Impacts.wantsTermWeights)
	sums    *termList    // when it is not (termlist.go)
}

// impactList is a term's docs by decreasing a, equal a by increasing key
// (the segment's order, else the doc id): its first impactLen docs.
type impactList struct {
	docs []uint32
	a    []float32
	// runs are the indices in docs where a changes, ascending, from 0.
	runs []int32
	// rest is the highest a past docs; -1 when docs holds every doc the
	// term weighs in. below is the highest a under rest of any of the
	// term's docs, -1 when none: the next weight down past a run that
	// the list cuts.
	rest, below float32
}

// NewImpacts makes seg's impact lists under p's field weights and length
// normalisations; none is built yet.
func NewImpacts(seg *index.Segment, p *Params) *Impacts {
	imp := &Impacts{seg: seg, p: *p, ReadCost: DefaultReadCost, TermWeightsShare: DefaultTermWeightsShare}
	var sc Scratch
	imp.lw = *sc.lengthWeights(seg, p)
	return imp
}

// built is term's entry with its impact list (and weights) built on
// first use; nil, in Background mode, until a background thread has
// built it.
func (imp *Impacts) built(term uint32) *impactEntry {
	e := imp.entry(term)
	if e.ready.Load() {
		return e
	}
	if !imp.Background {
		imp.buildEntry(term, e)
		return e
	}
	imp.request(term, e)
	return nil
}

func (imp *Impacts) entry(term uint32) *impactEntry {
	v, ok := imp.lists.Load(term)
	if !ok {
		v, _ = imp.lists.LoadOrStore(term, &impactEntry{})
	}
	return v.(*impactEntry)
}

func (imp *Impacts) buildEntry(term uint32, e *impactEntry) {
	e.once.Do(func() {
		e.weights, e.sums = imp.build(term, &e.list)
		e.ready.Store(true)
	})
}

// termWeights is a common term's weights (termweights.go), built with
// its list; nil for a term that has none, and, in Background mode,
// until a background thread has built them.
func (imp *Impacts) termWeights(term uint32) *termWeights {
	if !imp.wantsTermWeights(imp.seg.DocFreq(term)) {
		return nil
	}
	if e := imp.built(term); e != nil {
		return e.weights
	}
	return nil
}

// termList is a term's list of a by doc (termlist.go), built with its
// impact list; nil for a term that has none (under ImpactMinDocs docs,
// or with weights instead), and, in Background mode, until a background
// thread has built it.
func (imp *Impacts) termList(term uint32) *termList {
	if imp.seg.DocFreq(term) < ImpactMinDocs {
		return nil
	}
	if e := imp.built(term); e != nil {
		return e.sums
	}
	return nil
}

// request queues term's list for the background thread, starting one
// when none is draining the queue.
func (imp *Impacts) request(term uint32, e *impactEntry) {
	imp.qmu.Lock()
	if e.queued {
		imp.qmu.Unlock()
		return
	}
	e.queued = true
	imp.queue = append(imp.queue, term)
	start := !imp.working
	imp.working = true
	imp.qmu.Unlock()
	if start {
		background.Go(imp.drain)
	}
}

// drain builds the queued lists until none is left.
func (imp *Impacts) drain() {
	for {
		imp.qmu.Lock()
		if len(imp.queue) == 0 {
			imp.working = false
			imp.qmu.Unlock()
			return
		}
		term := imp.queue[0]
		imp.queue = imp.queue[1:]
		imp.qmu.Unlock()
		imp.buildEntry(term, imp.entry(term))
	}
}

// Warming reports whether lists are queued or being built in the
// background (Warm, or searches' requests).
func (imp *Impacts) Warming() bool {
	imp.qmu.Lock()
	defer imp.qmu.Unlock()
	return imp.working || len(imp.queue) > 0
}

// Built reports whether term's list is built: Warm's progress, as a
// search never builds one in Background mode.
func (imp *Impacts) Built(term uint32) bool {
	v, ok := imp.lists.Load(term)
	return ok && v.(*impactEntry).ready.Load()
}

// Warm queues the list of every term in ImpactMinDocs docs or more for
// the background thread, most docs first, so a server that has just
// loaded its index reads lists within about a second per million
// products rather than on each term's first searches.
func (imp *Impacts) Warm() {
	var terms []uint32
	for t := range imp.seg.Terms() {
		if imp.seg.DocFreq(uint32(t)) >= ImpactMinDocs {
			terms = append(terms, uint32(t))
		}
	}
	slices.SortFunc(terms, func(a, b uint32) int {
		return cmp.Compare(imp.seg.DocFreq(b), imp.seg.DocFreq(a))
	})
	for _, t := range terms {
		imp.request(t, imp.entry(t))
	}
}

// build fills l with term's docs by a, summing each doc's fields in
// posting order as ScoreBM25F does, so a is the same to the bit, and
// returns the term's weights when it is common enough for them, else its
// list of a by doc.
func (imp *Impacts) build(term uint32, l *impactList) (tw *termWeights, tl *termList) {
	imp.mu.Lock()
	defer imp.mu.Unlock()
	seg := imp.seg
	if imp.acc == nil {
		imp.acc = make([]float32, seg.Slots())
	}
	acc := imp.acc
	docs := imp.docs[:0]
	defer func() { imp.docs = docs[:0] }()
	imp.posts = seg.TermPostings(term, imp.posts[:0])
	for _, fp := range imp.posts {
		if imp.p.Weights[fp.Field] == 0 {
			continue
		}
		lens, weight := seg.FieldLen(fp.Field), &imp.lw[fp.Field]
		for j, d := range fp.Docs {
			if acc[d] == 0 {
				docs = append(docs, d)
			}
			acc[d] += postingWeight(fp.TFs[j], lens[d], weight)
		}
	}
	imp.ws = imp.ws[:0]
	for _, d := range docs {
		imp.ws = append(imp.ws, acc[d])
	}
	imp.hits = TopNOrdered(docs, imp.ws, nil, seg.Order(), impactLen+1, imp.hits[:0])
	l.fill(imp.hits, impactLen, imp.ws)
	if imp.wantsTermWeights(seg.DocFreq(term)) {
		tw = newTermWeights(acc, docs, seg.Slots())
		if d := seg.DenseDocs(term); tw != nil && slices.Equal(tw.docs, d) {
			tw.docs = d // the index's copy: a bitset kept once
		}
	} else {
		tl = newTermList(acc, docs)
	}
	for _, d := range docs {
		acc[d] = 0
	}
	return tw, tl
}

// fill sets l to the first keep of hits, a term's docs by weight (Score)
// as TopNOrdered ranks them; past keep, rest is the next one's weight
// and below the highest of weights (all the term's docs') under it.
// It reuses l's slices.
func (l *impactList) fill(hits []Hit, keep int, weights []float32) {
	l.rest, l.below = -1, -1
	if len(hits) > keep {
		l.rest = hits[keep].Score
		hits = hits[:keep]
		for _, a := range weights {
			if a < l.rest && a > l.below {
				l.below = a
			}
		}
	}
	l.docs, l.a, l.runs = l.docs[:0], l.a[:0], l.runs[:0]
	for i, h := range hits {
		l.docs, l.a = append(l.docs, h.Doc), append(l.a, h.Score)
		if i == 0 || h.Score != hits[i-1].Score {
			l.runs = append(l.runs, int32(i))
		}
	}
}

// lower is the highest a below a[i] that a doc after i may have: the
// next run's; past the list, rest, or below when rest is a[i] itself;
// -1 when there is none.
func (l *impactList) lower(i int) float32 {
	if r, _ := slices.BinarySearch(l.runs, int32(i+1)); r < len(l.runs) {
		return l.a[l.runs[r]]
	}
	if l.rest == l.a[i] {
		return l.below
	}
	return l.rest
}
