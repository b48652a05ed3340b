package ranking

import (
	"math"
	"slices"
	"sync"

	"github.com/aisle-search/aisle/index"
)

// Top: a search's best k docs without scoring every posting. Its
// routes' impact lists are read best first, one doc of each word's best
// route at a time (the threshold algorithm), and the boost order beside
// them: each doc met is scored in full, its other routes found by binary
// search, and reading stops when the k-th best beats what any doc not
// yet met could score, the sum of the words' best heads times the
// highest boost of a doc not yet met. For one word, on equal scores
// ranking falls back to key order and lists keep equal weights in key
// order, so a doc not yet met that could tie the k-th comes after it
// when its route's next weight down is lower. The answer is exactly
// TopNOrdered over ScoreBM25F's scores: same docs, same scores to the
// bit, same order (TestTopMatchesExhaustive; TestTopPagesMatchExhaustive
// through the engine).

// maxTop is the largest k Top answers; deeper pages are scored
// exhaustively.
const maxTop = 256

// DefaultReadCost is Impacts.ReadCost unless set: 640 measured best over
// 1,000 two-word demo searches at 1,000,000 products (64: p99 +17%;
// 320: p95 +5%; 640: p50 -42%, p95 and p99 no worse).
const DefaultReadCost = 640

// maxShortDocs bounds the postings of the routes without a kept list
// (under ImpactMinDocs docs) that Top sorts for one search.
const maxShortDocs = 8192

// topRoute is one route of a query word, being read.
type topRoute struct {
	word  int // the query word it is a route of
	term  uint32
	scale float32
	list  *impactList
	pos   int
	posts []index.FieldPosting // for finding a doc's a by binary search
	// weights are the term's a by doc when it is common, sums its list of
	// a by doc when it is not: a lookup, or one binary search, where
	// posts take a binary search a field (the same a to the bit).
	weights *termWeights
	sums    *termList
}

// topHead is a word's route whose next doc weighs most, and that weight.
type topHead struct {
	route int // -1: every route of the word read
	v     float32
}

// topScratch is Top's reusable memory.
type topScratch struct {
	routes   []topRoute
	best     []topHead    // by word
	postings int          // the routes' doc counts, summed
	short    []impactList // by route: the sorted lists of short routes
	ends     []int        // by route: where its postings end in posts
	posts    []index.FieldPosting
	ws       []float32 // sortShort's weights of docs
	hits     []Hit
	seen     map[uint32]struct{}
	docs     []uint32
}

var topPool = sync.Pool{New: func() any { return &topScratch{seen: map[uint32]struct{}{}} }}

// Top returns the best k of cand for q under imp's parameters with k1
// from p, as ScoreBM25F (not relaxed) and TopNOrdered with the
// segment's order would, with boost as ScoreBM25F takes it and bo its
// order (NewBoostOrder; needed when boost is not nil). ok is false when
// it cannot answer (a word without a route, a product number match, k
// over maxTop, too many short postings, more reads than the scoring
// they would save, or a list read to its kept end without settling the
// page); the caller then scores exhaustively.
func (imp *Impacts) Top(q *Query, cand Candidates, p *Params, boost []float32, bo *BoostOrder, k int, dst []Hit) (hits []Hit, ok bool) {
	if len(q.Words) == 0 || q.HasSKU || k < 1 || k > maxTop || p.Weights != imp.p.Weights || p.B != imp.p.B || boost != nil && bo == nil {
		return dst, false
	}
	seg := imp.seg
	ts := topPool.Get().(*topScratch)
	defer topPool.Put(ts)
	if !ts.routesOf(imp, q, p) {
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
	words := len(q.Words)
	ts.best = slices.Grow(ts.best[:0], words)[:words]
	bpos := 0 // the next doc of bo
	// Past maxReads the walk would cost more than the scoring it saves.
	reads, maxReads := 0, math.MaxInt
	if imp.ReadCost > 0 {
		maxReads = max(4*k, ts.postings/(imp.ReadCost*len(ts.routes)))
	}
	// meet scores d in full, once, when it is a candidate; from is the
	// route it was read from, whose weight a need not be looked up again
	// (-1: none, read from the boost order).
	meet := func(d uint32, from int, a float32) {
		if _, met := ts.seen[d]; met {
			return
		}
		ts.seen[d] = struct{}{}
		if !cand.Contains(d) {
			return
		}
		s := ts.score(imp, d, k1, from, a)
		if s == 0 {
			return // no route weighs it: ScoreBM25F's 0, found below
		}
		if boost != nil && int(d) < len(boost) {
			s *= 1 + boost[d]
		}
		h.push(Hit{Doc: d, Score: s}, k)
	}
	for {
		// Each word's route whose next doc weighs most; their sum bounds
		// what a doc not yet met scores.
		for w := range ts.best {
			ts.best[w] = topHead{route: -1}
		}
		for i := range ts.routes {
			r := &ts.routes[i]
			if r.pos == len(r.list.docs) && r.list.rest < 0 {
				continue
			}
			a := r.list.rest
			if r.pos < len(r.list.docs) {
				a = r.list.a[r.pos]
			}
			if v, b := r.scale*a/(k1+a), &ts.best[r.word]; v > b.v || b.route < 0 {
				b.route, b.v = i, v
			}
		}
		var bound float32
		any := false
		for _, b := range ts.best {
			if b.route >= 0 {
				bound += b.v
				any = true
			}
		}
		if !any { // every doc of every route met
			if len(h.hits) < k && cand.GetCardinality() > uint64(len(h.hits)) {
				return dst, false // candidates no route weighs (fields of weight 0) score 0
			}
			break
		}
		var hb float32 // the highest boost of a doc not yet met
		if boost != nil {
			hb = bo.head(bpos)
		}
		if len(h.hits) == k && h.settled(bound*(1+hb), hb == 0 && words == 1, ts.routes, bound, k1, key) {
			break
		}
		for _, b := range ts.best {
			if b.route < 0 {
				continue
			}
			r := &ts.routes[b.route]
			if r.pos == len(r.list.docs) {
				return dst, false // past a kept list's end
			}
			if reads++; reads > maxReads {
				return dst, false
			}
			meet(r.list.docs[r.pos], b.route, r.list.a[r.pos])
			r.pos++
		}
		if hb > 0 {
			if bpos == len(bo.Docs) {
				return dst, false // past the boost order's kept end
			}
			meet(bo.Docs[bpos], -1, 0)
			bpos++
		}
	}
	h.sort()
	return h.hits, true
}

// boundSlack widens every bound Top compares with: a weight is computed
// in float32 as s·a/(k1+a), whose rounding can put a doc of a slightly
// lower a a few units in the last place above one of a higher, and a
// bound must hold for both. 1e-6 is about 17 units of float32.
const boundSlack = 1e-6

// settled reports whether the page in h (full) is final: its worst hit
// beats bound (with boundSlack), the most a doc not yet met could
// score. With tieRule (one word, no doc not yet met boosted, bound the
// best head's weight vmax), a worst hit scoring at least vmax is final
// when every doc not yet met scores at most vmax and those scoring
// exactly vmax come after it in key order: each route whose head could
// reach vmax weighs exactly vmax there, holds its equal weights in key
// order past the worst's key, and its next weight down stays clear of
// vmax.
func (h *topHeap) settled(bound float32, tieRule bool, routes []topRoute, vmax, k1 float32, key func(uint32) uint32) bool {
	worst := h.hits[0]
	if worst.Score > bound*(1+boundSlack) {
		return true
	}
	if !tieRule || worst.Score < vmax {
		return false
	}
	v := func(r *topRoute, a float32) float32 { return r.scale * a / (k1 + a) }
	for i := range routes {
		r := &routes[i]
		l := r.list
		var a, lower float32
		var after uint32 // docs not yet met weighing a have keys from after
		switch {
		case r.pos < len(l.docs):
			a, lower, after = l.a[r.pos], l.lower(r.pos), key(l.docs[r.pos])
		case l.rest < 0:
			continue // every doc of the route met
		default: // read to the kept end: what is past it weighs at most rest
			a, lower = l.rest, l.below
			n := len(l.docs)
			if n == 0 || l.a[n-1] != a {
				if v(r, a)*(1+boundSlack) >= vmax {
					return false // docs past the list weighing rest: keys unknown
				}
				continue
			}
			after = key(l.docs[n-1]) + 1
		}
		if v(r, a)*(1+boundSlack) < vmax {
			continue
		}
		if v(r, a) != vmax || after <= key(worst.Doc) {
			return false
		}
		if lower >= 0 && v(r, lower)*(1+boundSlack) >= vmax {
			return false
		}
	}
	return true
}

// routesOf sets ts.routes to the routes of q's words, each with its
// word and its scale as ScoreBM25F computes them; false when a word has
// no route, the short routes hold more than maxShortDocs postings, or a
// long route's list is not built yet (Impacts.Background).
func (ts *topScratch) routesOf(imp *Impacts, q *Query, p *Params) bool {
	seg := imp.seg
	n := float64(seg.Len())
	short, routes := 0, 0
	ts.postings = 0
	for _, w := range q.Words {
		if len(w.Exp) == 0 {
			return false
		}
		routes += len(w.Exp)
		for _, e := range w.Exp {
			df := int(seg.DocFreq(e.Term))
			ts.postings += df
			if df < ImpactMinDocs {
				short += df
			}
		}
	}
	if short > maxShortDocs {
		return false
	}
	ts.routes, ts.posts = ts.routes[:0], ts.posts[:0]
	// One short list a route, kept across searches with their slices;
	// no growth past here, as routes point into it.
	ts.short = slices.Grow(ts.short[:0], routes)[:routes]
	ts.ends = ts.ends[:0]
	for wi := range q.Words {
		w := &q.Words[wi]
		capIDF := float32(math.MaxFloat32)
		for _, e := range w.Exp {
			if e.Weight == weightExact && !e.Suggested && !e.ScoreOnly {
				capIDF = idf(n, seg.DocFreq(e.Term))
			}
		}
		for _, e := range w.Exp {
			ts.posts = seg.TermPostings(e.Term, ts.posts)
			ts.ends = append(ts.ends, len(ts.posts))
			ts.routes = append(ts.routes, topRoute{word: wi, term: e.Term, scale: min(idf(n, seg.DocFreq(e.Term)), capIDF) * e.Weight * (p.K1 + 1)})
		}
	}
	from := 0
	for i := range ts.routes {
		r := &ts.routes[i]
		r.posts, from = ts.posts[from:ts.ends[i]], ts.ends[i]
		r.weights, r.sums = nil, nil
		if seg.DocFreq(r.term) >= ImpactMinDocs {
			e := imp.built(r.term)
			if e == nil {
				return false // being built in the background
			}
			r.list, r.weights, r.sums = &e.list, e.weights, e.sums
			continue
		}
		r.list = &ts.short[i]
		ts.sortShort(imp, r.posts, r.list)
	}
	return true
}

// sortShort fills l with a short route's docs by a, as Impacts.build
// ranks them, from posts, its postings.
func (ts *topScratch) sortShort(imp *Impacts, posts []index.FieldPosting, l *impactList) {
	ts.docs = ts.docs[:0]
	for _, fp := range posts {
		if imp.p.Weights[fp.Field] != 0 {
			ts.docs = append(ts.docs, fp.Docs...)
		}
	}
	slices.Sort(ts.docs)
	ts.docs = slices.Compact(ts.docs)
	ts.ws = ts.ws[:0]
	for _, d := range ts.docs {
		ts.ws = append(ts.ws, imp.weigh(posts, d))
	}
	ts.hits = TopNOrdered(ts.docs, ts.ws, nil, imp.seg.Order(), len(ts.docs), ts.hits[:0])
	l.fill(ts.hits, len(ts.hits), nil)
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
			a += postingWeight(fp.TFs[j], imp.seg.FieldLen(fp.Field)[d], &imp.lw[fp.Field])
		}
	}
	return a
}

// score is d's text score as ScoreBM25F sums it: each word's best
// route weight, added in word order; route from weighs a in d.
func (ts *topScratch) score(imp *Impacts, d uint32, k1 float32, from int, a float32) float32 {
	var sum, best float32
	for i := range ts.routes {
		r := &ts.routes[i]
		w := a
		switch {
		case i == from:
		case r.weights != nil:
			w = r.weights.weight(d)
		case r.sums != nil:
			w = r.sums.weight(d)
		default:
			w = imp.weigh(r.posts, d)
		}
		if w != 0 {
			if v := r.scale * w / (k1 + w); v > best {
				best = v
			}
		}
		if i+1 == len(ts.routes) || ts.routes[i+1].word != r.word {
			sum += best
			best = 0
		}
	}
	return sum
}
