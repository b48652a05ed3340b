package ranking

import (
	"math"
	"slices"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/internal/bitset"
)

// Params are the BM25F constants and a configuration's field weights.
type Params struct {
	Weights [index.NumTextFields]float32
	B       [index.NumTextFields]float32
	K1      float32
}

// DefaultParams weights title highest; short fields get a low length
// normalisation so a two-word brand is not punished against a one-word one.
func DefaultParams() Params {
	p := Params{K1: 1.2}
	p.Weights = [index.NumTextFields]float32{5, 3, 2, 2, 1, 1, 0.5}
	p.B = [index.NumTextFields]float32{0.6, 0.2, 0.3, 0.3, 0.75, 0, 0.5}
	return p
}

// DefaultLengthNormalization is the BM25 b of the searchable field name
// when its configuration sets none (DefaultParams); 0 for a name that is
// not a text field.
func DefaultLengthNormalization(name string) float64 {
	f, ok := index.FieldByName(name)
	if !ok {
		return 0
	}
	return float64(DefaultParams().B[f])
}

// relaxBelow is the number of docs matching every word under which a
// multi-word query also finds docs matching only some words; those follow,
// so a long phrase still fills a page. Measured on the Home Depot
// judgments: NDCG@10 0.398 relaxing only at zero, 0.409 at 10.
const relaxBelow = 10

// relaxes reports whether a query whose every word matches full docs
// finds docs matching only some words too: a query of several words,
// fewer than relaxBelow full matches, and not a product number. A
// query that is a product number ("AI-000123") names the product it
// finds; relaxing it would add every product sharing a word of the
// number (the prefix every product has), scored for nothing.
func relaxes(q *Query, full uint64) bool {
	return len(q.Words) > 1 && full < relaxBelow && !q.HasSKU
}

// Match returns the docs matching every word (through any route) and those
// matching every word without a synonym. When a query relaxes (fewer
// than relaxBelow docs match every word of a multi-word query that is
// not a product number), it relaxes to any word and reports relaxed. When no route is a synonym, direct is all itself:
// callers must not modify all while they read direct.
func Match(seg *index.Segment, q *Query) (all, direct *roaring.Bitmap, relaxed bool) {
	a, d, relaxed, release := MatchSets(seg, q)
	defer release()
	all, direct = a.Bitmap(), a.Bitmap()
	if d != a {
		direct = d.Bitmap()
	}
	return all, direct, relaxed
}

// matchRoaring is Match with roaring bitmaps.
func matchRoaring(seg *index.Segment, q *Query) (all, direct *roaring.Bitmap, relaxed bool) {
	unions := make([]*roaring.Bitmap, len(q.Words))
	var directs []*roaring.Bitmap
	for i, w := range q.Words {
		unions[i] = wordDocs(seg, &w, q.Fields, true)
		if w.hasSuggested() {
			if directs == nil {
				directs = slices.Clone(unions[:i])
			}
		}
		if directs != nil {
			directs = append(directs, wordDocs(seg, &w, q.Fields, false))
		}
	}
	all = intersect(unions)
	if relaxes(q, all.GetCardinality()) {
		relaxed = true
		all = roaring.FastOr(needed(q, unions)...)
		if directs != nil {
			direct = roaring.FastOr(needed(q, directs)...)
		}
	} else if directs != nil {
		direct = intersect(directs)
	}
	if direct == nil {
		direct = all
	}
	if q.HasSKU {
		all.Add(q.SKU)
		direct.Add(q.SKU)
	}
	return all, direct, relaxed
}

// needed is the sets of q's words a relaxed match needs one of: those
// of its words that are not stop words, or all when every word is one.
func needed[S any](q *Query, sets []S) []S {
	var out []S
	for i := range q.Words {
		if !q.Words[i].Stop {
			out = append(out, sets[i])
		}
	}
	if len(out) == 0 {
		return sets
	}
	return out
}

// hasSuggested reports whether any of the word's matching routes is a
// synonym, so the direct set differs from the full one.
func (w *Word) hasSuggested() bool {
	for _, e := range w.Exp {
		if e.Suggested && !e.ScoreOnly {
			return true
		}
	}
	for _, p := range w.Phrases {
		if p.Suggested {
			return true
		}
	}
	return false
}

// wordDocs is the docs a word matches in fields, through synonyms too
// when suggested is set. A word with one route may return the segment's
// own bitmap, which callers only read.
func wordDocs(seg *index.Segment, w *Word, fields index.FieldMask, suggested bool) *roaring.Bitmap {
	// Count the routes before reading any: a rare term's bitmap is built
	// on each TermDocs call.
	var only uint32
	routes := 0
	for _, e := range w.Exp {
		if !e.ScoreOnly && (suggested || !e.Suggested) {
			only = e.Term
			routes++
		}
	}
	for _, p := range w.Phrases {
		if suggested || !p.Suggested {
			routes += 2 // a phrase is always built
		}
	}
	if routes == 1 {
		return seg.TermDocsIn(only, fields)
	}
	bm := roaring.New()
	for _, e := range w.Exp {
		if !e.ScoreOnly && (suggested || !e.Suggested) {
			seg.AddTermDocsIn(bm, e.Term, fields)
		}
	}
	seg.KeepLive(bm)
	for _, p := range w.Phrases {
		if suggested || !p.Suggested {
			bm.Or(phraseDocs(seg, &p, fields))
		}
	}
	return bm
}

// phraseDocs is the docs holding every term of p in fields.
func phraseDocs(seg *index.Segment, p *Phrase, fields index.FieldMask) *roaring.Bitmap {
	pb := seg.TermDocsIn(p.Terms[0], fields).Clone()
	for _, t := range p.Terms[1:] {
		pb.And(seg.TermDocsIn(t, fields))
	}
	return pb
}

// idf is BM25's inverse document frequency.
func idf(n float64, df uint64) float32 {
	d := float64(df)
	return float32(math.Log(1 + (n-d+0.5)/(d+0.5)))
}

func intersect(bs []*roaring.Bitmap) *roaring.Bitmap {
	if len(bs) == 0 {
		return roaring.New()
	}
	// Smallest first keeps every step cheap.
	small := 0
	for i, b := range bs {
		if b.GetCardinality() < bs[small].GetCardinality() {
			small = i
		}
	}
	out := bs[small].Clone()
	for i, b := range bs {
		if i != small {
			out.And(b)
		}
	}
	return out
}

// Scratch is one search's scoring memory: arrays aligned with the
// candidate list, reused across searches, so scoring allocates nothing per
// doc and walks memory in order rather than scattering over the catalog.
type Scratch struct {
	Docs    []uint32  // the candidates, ascending
	Score   []float32 // Score[i] is the score of Docs[i]
	acc     []float32
	best    []float32
	matched []uint16 // relaxed mode: words each candidate matched
	touched []int32
	posts   []index.FieldPosting
	// bits is the candidates as a bitset and crank their ranks, for
	// dense scoring (dense.go): a dense match's own set, or cbits, all
	// zero between searches, with the candidates' bits set (marked).
	bits   []uint64
	cbits  []uint64
	crank  []uint32
	marked bool
	// parts is lookUp's table of a route's part by distinct weight.
	parts []float32
	// lw is lengthWeights' table for the average field lengths lwAvg
	// and lwParams, when lwSet.
	lw       [index.NumTextFields][256]float32
	lwAvg    [index.NumTextFields]float32
	lwParams Params
	lwSet    bool
	// forcePath makes the scratch's searches merge (-1) or, on segments
	// small enough, score densely (1), as a test sets it on its own
	// scratch to compare the two; 0, as GetScratch returns it, leaves
	// it to preferDense.
	forcePath int
}

var scratchPool sync.Pool

// GetScratch returns an empty scratch from the pool.
func GetScratch() *Scratch {
	sc, _ := scratchPool.Get().(*Scratch)
	if sc == nil {
		sc = &Scratch{}
	}
	sc.Docs, sc.Score = sc.Docs[:0], sc.Score[:0]
	sc.forcePath = 0
	return sc
}

// PutScratch returns sc to the pool. Scratches that grew past a large
// search's size are dropped so one huge result set does not pin memory.
func PutScratch(sc *Scratch) {
	if cap(sc.Docs) > maxPooledDocs {
		return
	}
	scratchPool.Put(sc)
}

// maxPooledDocs bounds what a pooled scratch keeps: 4M candidates is
// 64 MB of arrays.
const maxPooledDocs = 4 << 20

// Collect lists the docs of cand into sc.Docs.
func (sc *Scratch) Collect(cand Candidates) {
	var bm *roaring.Bitmap
	switch c := cand.(type) {
	case *MatchSet:
		if c.set != nil {
			sc.Docs = bitset.AppendMembers(sc.Docs[:0], c.set, int(c.count))
			return
		}
		bm = c.bm
	case *roaring.Bitmap:
		bm = c
	}
	sc.collectBitmap(bm)
}

// collectBitmap lists the docs of bm into sc.Docs.
func (sc *Scratch) collectBitmap(cand *roaring.Bitmap) {
	n := int(cand.GetCardinality())
	if cap(sc.Docs) < n {
		sc.Docs = make([]uint32, 0, n)
	}
	sc.Docs = sc.Docs[:n]
	it := cand.ManyIterator()
	for got := 0; got < n; {
		k := it.NextMany(sc.Docs[got:])
		if k == 0 {
			break
		}
		got += k
	}
}

// grow sizes the per-candidate arrays to the candidates, zeroed.
func (sc *Scratch) grow() {
	n := len(sc.Docs)
	if cap(sc.Score) < n {
		sc.Score = make([]float32, n)
		sc.acc = make([]float32, n)
		sc.best = make([]float32, n)
	}
	sc.Score, sc.acc, sc.best = sc.Score[:n], sc.acc[:n], sc.best[:n]
	clear(sc.Score)
	clear(sc.acc)
	clear(sc.best)
}

// ScoreBM25F scores every doc of cand for q into sc.Score, term at a time:
// each word's best route through the fields, saturated, weighted by IDF.
// Each posting list is merged with the candidate list, galloping over
// whichever side is sparser, so a filtered search costs about its
// candidates and an open one its postings.
//
// boost, when not nil, holds a factor b in [0, ΣW] per doc id (docs
// past its end have none): a doc's text score is multiplied by
// 1+boost[doc], so a boost
// reorders docs of similar text score and cannot lift a doc over one
// scoring more than 1+max(boost) times as much. In relaxed mode each
// matched word then adds a constant, so docs with more of the words
// always come first whatever their boost.
func (sc *Scratch) ScoreBM25F(seg *index.Segment, q *Query, cand Candidates, p *Params, relaxed bool, boost []float32) {
	sc.scoreBM25F(seg, nil, q, cand, p, relaxed, boost)
}

// ScoreBM25F is Scratch.ScoreBM25F over imp's segment, looking up the
// common terms' weights imp has built (termweights.go) for the routes
// whose postings far outnumber the candidates, when p has imp's field
// weights and length normalisations: the same scores to the bit.
func (imp *Impacts) ScoreBM25F(sc *Scratch, q *Query, cand Candidates, p *Params, relaxed bool, boost []float32) {
	seg := imp.seg
	if p.Weights != imp.p.Weights || p.B != imp.p.B {
		imp = nil
	}
	sc.scoreBM25F(seg, imp, q, cand, p, relaxed, boost)
}

// scoreBM25F is ScoreBM25F, with imp's term weights when imp is not nil.
func (sc *Scratch) scoreBM25F(seg *index.Segment, imp *Impacts, q *Query, cand Candidates, p *Params, relaxed bool, boost []float32) {
	sc.Collect(cand)
	sc.grow()
	if relaxed {
		sc.matched = slices.Grow(sc.matched[:0], len(sc.Docs))[:len(sc.Docs)]
		clear(sc.matched)
	}
	n := float64(seg.Len())
	lw := sc.lengthWeights(seg, p)
	k1 := p.K1
	dense := sc.preferDense(seg, q, p)
	if dense {
		sc.markCandidates(seg, denseSet(cand))
		defer sc.unmarkCandidates()
	}
	for _, w := range q.Words {
		// A word that exists as typed caps the IDF of its other routes, so a
		// rare prefix completion ("lampwright") cannot outrank the word
		// itself ("lamp").
		capIDF := float32(math.MaxFloat32)
		for _, e := range w.Exp {
			if e.Weight == weightExact && !e.Suggested && !e.ScoreOnly {
				capIDF = idf(n, seg.DocFreq(e.Term))
			}
		}
		for _, e := range w.Exp {
			scale := min(idf(n, seg.DocFreq(e.Term)), capIDF) * e.Weight * (k1 + 1)
			sc.posts = seg.TermPostings(e.Term, sc.posts[:0])
			var tl *termList
			if imp != nil {
				if sc.lookUp(imp, e.Term, p, scale, k1) {
					continue
				}
				tl = imp.termList(e.Term)
			}
			if dense {
				if tl != nil {
					sc.walkList(tl, scale, k1)
					continue
				}
				for _, fp := range sc.posts {
					if p.Weights[fp.Field] != 0 {
						sc.accumulateDense(&fp, seg.FieldLen(fp.Field), &lw[fp.Field])
					}
				}
				for i, a := range sc.acc[:len(sc.Docs)] {
					if a != 0 {
						sc.acc[i] = 0
						if v := scale * a / (k1 + a); v > sc.best[i] {
							sc.best[i] = v
						}
					}
				}
				continue
			}
			if tl != nil {
				sc.mergeList(tl, scale, k1)
				continue
			}
			sc.touched = sc.touched[:0]
			for _, fp := range sc.posts {
				if p.Weights[fp.Field] != 0 {
					sc.accumulate(&fp, seg.FieldLen(fp.Field), &lw[fp.Field])
				}
			}
			for _, i := range sc.touched {
				a := sc.acc[i]
				sc.acc[i] = 0
				if v := scale * a / (k1 + a); v > sc.best[i] {
					sc.best[i] = v
				}
			}
		}
		for i, b := range sc.best {
			if b > 0 {
				sc.Score[i] += b
				sc.best[i] = 0
				if relaxed && !w.Stop { // a stop word is optional: it does not count
					sc.matched[i]++
				}
			}
		}
	}
	if boost != nil {
		for i, d := range sc.Docs {
			if int(d) < len(boost) {
				sc.Score[i] *= 1 + boost[d]
			}
		}
	}
	if relaxed {
		for i, m := range sc.matched {
			sc.Score[i] += relaxedBonus * float32(m)
		}
	}
	if q.HasSKU {
		if i, ok := slices.BinarySearch(sc.Docs, q.SKU); ok {
			sc.Score[i] = math.MaxFloat32
		}
	}
}

// lookUp adds a route's weights to sc.best from term's weights, when
// imp has them and its postings (sc.posts) far outnumber the candidates;
// false when the postings are to be walked.
func (sc *Scratch) lookUp(imp *Impacts, term uint32, p *Params, scale, k1 float32) bool {
	if !imp.wantsTermWeights(imp.seg.DocFreq(term)) {
		return false // most routes: no weights kept, nothing to count
	}
	postings := 0
	for _, fp := range sc.posts {
		if p.Weights[fp.Field] != 0 {
			postings += len(fp.Docs)
		}
	}
	if postings < termWeightsLookups*len(sc.Docs) {
		return false
	}
	tw := imp.termWeights(term)
	if tw == nil {
		return false
	}
	if len(sc.Docs) < len(tw.value) {
		for i, d := range sc.Docs {
			if a := tw.weight(d); a != 0 {
				if v := scale * a / (k1 + a); v > sc.best[i] {
					sc.best[i] = v
				}
			}
		}
		return true
	}
	// More candidates than distinct weights: each weight's part is
	// computed once, as the loop above computes it, and looked up.
	parts := sc.setParts(tw.value, scale, k1)
	for i, d := range sc.Docs {
		if j, ok := tw.index(d); ok {
			if v := parts[j]; v > sc.best[i] {
				sc.best[i] = v
			}
		}
	}
	return true
}

// relaxedBonus is what each matched word adds in relaxed mode: more than
// any boosted text score, so more matched words always come first.
const relaxedBonus = 100

// Personalize is a hit's score s multiplied by 1+factor (factor ≥ 0):
// in relaxed mode only its text part, so the words it matched still
// decide first; a product number's match (math.MaxFloat32) stays first.
func Personalize(s, factor float32, relaxed bool) float32 {
	if s >= math.MaxFloat32 {
		return s
	}
	if !relaxed {
		return s * (1 + factor)
	}
	tier := relaxedBonus * float32(math.Floor(float64(s/relaxedBonus)))
	return min(tier+(s-tier)*(1+factor), math.Nextafter32(tier+relaxedBonus, 0))
}

// ScoreBoost lists the docs of cand into sc.Docs scored by their boost
// alone (boost[doc]; 0 past its end, and for all when boost is nil):
// the order of a listing with no text to rank by.
func (sc *Scratch) ScoreBoost(cand Candidates, boost []float32) {
	sc.Collect(cand)
	sc.grow()
	if boost == nil {
		return
	}
	for i, d := range sc.Docs {
		if int(d) < len(boost) {
			sc.Score[i] = boost[d]
		}
	}
}

// accumulate adds one field posting's BM25F term weight to the candidates
// it holds, listing newly touched candidates in sc.touched. It walks the
// shorter of the two lists and finds each of its docs in the longer
// (advance), so a few candidates cost about their number and a long
// list about its length. weight is the field's weight over its length
// normalisation, by field length (lengthWeights).
func (sc *Scratch) accumulate(fp *index.FieldPosting, lens []uint8, weight *[256]float32) {
	cands, docs, tfs := sc.Docs, fp.Docs, fp.TFs
	if len(cands) == 0 || len(docs) == 0 {
		return
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
				sc.add(i, postingWeight(tfs[j], lens[c], weight))
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
			sc.add(i, postingWeight(tfs[j], lens[d], weight))
			if i++; i == len(cands) {
				return
			}
		}
	}
}

// add adds v to candidate i's route weight.
func (sc *Scratch) add(i int, v float32) {
	if sc.acc[i] == 0 {
		sc.touched = append(sc.touched, int32(i))
	}
	sc.acc[i] += v
}

// advance is the first index i >= from with docs[i] >= d (len(docs)
// when none): a step at a time over the first few, eight at a time for a
// while, then galloping, so both a near and a far target are cheap.
func advance(docs []uint32, from int, d uint32) int {
	i := from
	for end := min(len(docs), i+4); i < end; i++ {
		if docs[i] >= d {
			return i
		}
	}
	for n := 0; n < 8 && i+8 <= len(docs); n++ {
		if docs[i+7] >= d {
			for docs[i] < d {
				i++
			}
			return i
		}
		i += 8
	}
	return gallop(docs, i, d)
}

// lengthWeights is, per field, a field weight over BM25's length
// normalisation for each field length: wf/(1−b+b·len/avg). sc keeps the
// table of the last average lengths and parameters, which the next
// search with the same reuses.
func (sc *Scratch) lengthWeights(seg *index.Segment, p *Params) *[index.NumTextFields][256]float32 {
	var avg [index.NumTextFields]float32
	for f := range avg {
		avg[f] = seg.AvgFieldLen(index.TextField(f))
	}
	if sc.lwSet && sc.lwAvg == avg && sc.lwParams == *p {
		return &sc.lw
	}
	for f := range sc.lw {
		avgInv := 1 / avg[f]
		wf, b := p.Weights[f], p.B[f]
		for l := range sc.lw[f] {
			sc.lw[f][l] = wf / (1 - b + b*float32(l)*avgInv)
		}
	}
	sc.lwSet, sc.lwAvg, sc.lwParams = true, avg, *p
	return &sc.lw
}

// gallop is the first index i >= from with docs[i] >= d (len(docs) when
// none): an exponential probe, then a binary search in the bracket.
func gallop(docs []uint32, from int, d uint32) int {
	if from >= len(docs) || docs[from] >= d {
		return from
	}
	lo, step := from, 1
	hi := from + step
	for hi < len(docs) && docs[hi] < d {
		lo = hi
		step <<= 1
		hi = lo + step
	}
	hi = min(hi, len(docs))
	// docs[lo] < d; docs[hi] >= d or hi == len(docs).
	for lo+1 < hi {
		m := int(uint(lo+hi) >> 1)
		if docs[m] < d {
			lo = m
		} else {
			hi = m
		}
	}
	return hi
}
