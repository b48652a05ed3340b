package ranking

import (
	"cmp"
	"math"
	"slices"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/index"
)

// TopWord: the best k docs of a one-word search without scoring every
// posting. Its routes' impact lists are read best first, all at once
// (the threshold algorithm): each doc met is scored in full, its other
// routes found by binary search, and reading stops when the k-th best
// beats what any doc not yet met could score, the best head times the
// highest boost. On equal scores ranking falls back to key order, and
// lists keep equal weights in key order, so a doc not yet met that could
// tie the k-th comes after it when its route's next weight down is
// lower. The answer is exactly TopNOrdered over ScoreBM25F's scores:
// same docs, same scores to the bit, same order
// (TestTopWordMatchesExhaustive).

// maxTopWord is the largest k TopWord answers; deeper pages are scored
// exhaustively.
const maxTopWord = 256

// TopWordReadCost is about how many postings exhaustive scoring walks
// in the time TopWord reads one doc of one route (a map lookup, a
// candidate check, a binary search per field): TopWord gives up once its
// reads would cost more than the scoring they save. A variable for
// tests, which set 0 (no limit) to reach the lists on a small catalog.
var TopWordReadCost = 64

// maxShortDocs bounds the postings of the routes without a kept list
// (under ImpactMinDocs docs) that TopWord sorts for one search.
const maxShortDocs = 8192

// topRoute is one route of the word being read.
type topRoute struct {
	scale float32
	list  *impactList
	pos   int
	posts []index.FieldPosting // for finding a doc's a by binary search
}

// topScratch is TopWord's reusable memory.
type topScratch struct {
	routes   []topRoute
	postings int // the routes' docs, counted once a route
	short    []impactList
	posts    []index.FieldPosting
	seen     map[uint32]struct{}
	docs     []uint32
}

var topPool = sync.Pool{New: func() any { return &topScratch{seen: map[uint32]struct{}{}} }}

// BoostOrder is a boost vector's docs by decreasing boost, equal boosts
// by increasing key: its first docs with a boost above 0, as TopWord's
// second stream, so a page the boosts decide (a word every doc weighs
// alike) settles after about k of them.
type BoostOrder struct {
	Docs  []uint32
	Boost []float32
	// Rest is the highest boost of a doc past Docs, 0 when Docs holds
	// every boosted doc.
	Rest float32
}

// boostOrderLen is how many boosted docs a BoostOrder keeps.
var boostOrderLen = 4096 // a variable for tests

// NewBoostOrder sorts boost's boosted docs (keys from order, or the doc
// ids when nil) and keeps the first boostOrderLen.
func NewBoostOrder(boost []float32, order []uint32) *BoostOrder {
	var docs []uint32
	for d, b := range boost {
		if b > 0 {
			docs = append(docs, uint32(d))
		}
	}
	key := func(d uint32) uint32 {
		if order != nil {
			return order[d]
		}
		return d
	}
	top := selectBest(docs, boostOrderLen+1, func(x, y uint32) bool {
		if boost[x] != boost[y] {
			return boost[x] > boost[y]
		}
		return key(x) < key(y)
	})
	bo := &BoostOrder{}
	if len(top) > boostOrderLen {
		bo.Rest = boost[top[boostOrderLen]]
		top = top[:boostOrderLen]
	}
	bo.Docs, bo.Boost = top, make([]float32, len(top))
	for i, d := range top {
		bo.Boost[i] = boost[d]
	}
	return bo
}

// head is the highest boost of a doc at or past i.
func (bo *BoostOrder) head(i int) float32 {
	if i < len(bo.Docs) {
		return bo.Boost[i]
	}
	return bo.Rest
}

// TopWord returns the best k of cand for q, a one-word query under
// imp's parameters with k1 from p, as ScoreBM25F (not relaxed) and
// TopNOrdered with the segment's order would, with boost as
// ScoreBM25F takes it and bo its order (NewBoostOrder; needed when
// boost is not nil). ok is false when it cannot answer (more than one
// word, a product number match, k over maxTopWord, too many short
// postings, or a list read to its kept end without settling the page);
// the caller then scores exhaustively.
func (imp *Impacts) TopWord(q *Query, cand *roaring.Bitmap, p *Params, boost []float32, bo *BoostOrder, k int, dst []Hit) (hits []Hit, ok bool) {
	if len(q.Words) != 1 || q.HasSKU || k < 1 || k > maxTopWord || p.Weights != imp.p.Weights || p.B != imp.p.B || boost != nil && bo == nil {
		return dst, false
	}
	seg := imp.seg
	ts := topPool.Get().(*topScratch)
	defer topPool.Put(ts)
	if !ts.routesOf(imp, &q.Words[0], p) || len(ts.routes) == 0 {
		return dst, false
	}
	order := seg.Order()
	key := func(d uint32) uint32 {
		if order != nil {
			return order[d]
		}
		return d
	}
	clear(ts.seen)
	h := topHeap{order: order, hits: dst[:0]}
	k1 := p.K1
	bpos := 0 // the next doc of bo
	// Past maxReads the walk would cost more than the scoring it saves.
	reads, maxReads := 0, math.MaxInt
	if TopWordReadCost > 0 {
		maxReads = max(4*k, ts.postings/(TopWordReadCost*len(ts.routes)))
	}
	// meet scores d in full, once, when it is a candidate.
	meet := func(d uint32) {
		if _, met := ts.seen[d]; met {
			return
		}
		ts.seen[d] = struct{}{}
		if !cand.Contains(d) {
			return
		}
		s := ts.score(imp, d, k1)
		if s == 0 {
			return // no route weighs it: ScoreBM25F's 0, found below
		}
		if boost != nil && int(d) < len(boost) {
			s *= 1 + boost[d]
		}
		h.push(Hit{Doc: d, Score: s}, k)
	}
	for {
		// The route whose next doc weighs most.
		best, vmax := -1, float32(-1)
		for i := range ts.routes {
			r := &ts.routes[i]
			if r.pos == len(r.list.docs) && r.list.rest < 0 {
				continue
			}
			a := r.list.rest
			if r.pos < len(r.list.docs) {
				a = r.list.a[r.pos]
			}
			if v := r.scale * a / (k1 + a); v > vmax {
				best, vmax = i, v
			}
		}
		if best < 0 { // every doc of every route met
			if len(h.hits) < k && cand.GetCardinality() > uint64(len(h.hits)) {
				return dst, false // candidates no route weighs (fields of weight 0) score 0
			}
			break
		}
		var hb float32 // the highest boost of a doc not yet met
		if boost != nil {
			hb = bo.head(bpos)
		}
		if len(h.hits) == k && h.settled(vmax*(1+hb), hb == 0, ts.routes, vmax, k1, key) {
			break
		}
		r := &ts.routes[best]
		if r.pos == len(r.list.docs) {
			return dst, false // past a kept list's end
		}
		if reads++; reads > maxReads {
			return dst, false
		}
		meet(r.list.docs[r.pos])
		r.pos++
		if hb > 0 {
			if bpos == len(bo.Docs) {
				return dst, false // past the boost order's kept end
			}
			meet(bo.Docs[bpos])
			bpos++
		}
	}
	h.sort()
	return h.hits, true
}

// settled reports whether the page in h (full) is final: its worst hit
// beats bound, the most a doc not yet met could score. When no doc not
// yet met has a boost (unboosted), an unmet doc scoring exactly the
// worst's score must come from a route whose head weighs vmax, after
// that head in key order, unless the route's next weight down rounds to
// the same score.
func (h *topHeap) settled(bound float32, unboosted bool, routes []topRoute, vmax, k1 float32, key func(uint32) uint32) bool {
	worst := h.hits[0]
	if worst.Score > bound {
		return true
	}
	if worst.Score < bound || !unboosted {
		return false
	}
	for i := range routes {
		r := &routes[i]
		if r.pos == len(r.list.docs) {
			if rest := r.list.rest; rest >= 0 && r.scale*rest/(k1+rest) == vmax {
				return false // its unmet docs' keys are unknown
			}
			continue
		}
		a := r.list.a[r.pos]
		if r.scale*a/(k1+a) != vmax {
			continue
		}
		if key(r.list.docs[r.pos]) < key(worst.Doc) {
			return false
		}
		if lo := r.list.lower(r.pos); lo >= 0 && r.scale*lo/(k1+lo) == vmax {
			return false
		}
	}
	return true
}

// routesOf sets ts.routes to w's routes with their scales as
// ScoreBM25F computes them; false when the short routes hold more than
// maxShortDocs postings.
func (ts *topScratch) routesOf(imp *Impacts, w *Word, p *Params) bool {
	seg := imp.seg
	n := float64(seg.Len())
	capIDF := float32(math.MaxFloat32)
	for _, e := range w.Exp {
		if e.Weight == weightExact && !e.Suggested && !e.ScoreOnly {
			capIDF = idf(n, seg.DocFreq(e.Term))
		}
	}
	short := 0
	ts.postings = 0
	for _, e := range w.Exp {
		ts.postings += int(seg.DocFreq(e.Term))
		if df := seg.DocFreq(e.Term); df < ImpactMinDocs {
			short += int(df)
		}
	}
	if short > maxShortDocs {
		return false
	}
	ts.routes, ts.posts = ts.routes[:0], ts.posts[:0]
	ts.short = slices.Grow(ts.short[:0], len(w.Exp))[:0] // no move: routes point into it
	ends := make([]int, 0, len(w.Exp))
	for _, e := range w.Exp {
		ts.posts = seg.TermPostings(e.Term, ts.posts)
		ends = append(ends, len(ts.posts))
		ts.routes = append(ts.routes, topRoute{scale: min(idf(n, seg.DocFreq(e.Term)), capIDF) * e.Weight * (p.K1 + 1)})
	}
	from := 0
	for i, e := range w.Exp {
		r := &ts.routes[i]
		r.posts, from = ts.posts[from:ends[i]], ends[i]
		if seg.DocFreq(e.Term) >= ImpactMinDocs {
			r.list = imp.list(e.Term)
			continue
		}
		ts.short = append(ts.short, impactList{})
		r.list = &ts.short[len(ts.short)-1]
		ts.sortShort(imp, r.posts, r.list)
	}
	return true
}

// sortShort fills l with a short route's docs by a, as Impacts.build
// orders them, from posts, its postings.
func (ts *topScratch) sortShort(imp *Impacts, posts []index.FieldPosting, l *impactList) {
	ts.docs = ts.docs[:0]
	for _, fp := range posts {
		if imp.p.Weights[fp.Field] != 0 {
			ts.docs = append(ts.docs, fp.Docs...)
		}
	}
	slices.Sort(ts.docs)
	ts.docs = slices.Compact(ts.docs)
	type weighed struct {
		doc, key uint32
		a        float32
	}
	ws := make([]weighed, len(ts.docs))
	order := imp.seg.Order()
	for i, d := range ts.docs {
		ws[i] = weighed{doc: d, key: d, a: imp.weigh(posts, d)}
		if order != nil {
			ws[i].key = order[d]
		}
	}
	slices.SortFunc(ws, func(x, y weighed) int {
		return cmp.Or(cmp.Compare(y.a, x.a), cmp.Compare(x.key, y.key))
	})
	l.docs, l.a, l.rest = make([]uint32, len(ws)), make([]float32, len(ws)), -1
	for i, w := range ws {
		l.docs[i], l.a[i] = w.doc, w.a
		if i == 0 || w.a != ws[i-1].a {
			l.runs = append(l.runs, int32(i))
		}
	}
}

// weigh is doc d's a over a term's postings: each weighted field that
// holds d, in posting order.
func (imp *Impacts) weigh(posts []index.FieldPosting, d uint32) float32 {
	var a float32
	for _, fp := range posts {
		if imp.p.Weights[fp.Field] == 0 {
			continue
		}
		if j, ok := slices.BinarySearch(fp.Docs, d); ok {
			a += float32(byteFloat[fp.TFs[j]] * imp.lw[fp.Field][imp.seg.FieldLen(fp.Field)[d]])
		}
	}
	return a
}

// score is d's best route weight, as ScoreBM25F's best.
func (ts *topScratch) score(imp *Impacts, d uint32, k1 float32) float32 {
	var best float32
	for i := range ts.routes {
		r := &ts.routes[i]
		if a := imp.weigh(r.posts, d); a != 0 {
			if v := r.scale * a / (k1 + a); v > best {
				best = v
			}
		}
	}
	return best
}
