package engine

import (
	"cmp"
	"encoding/binary"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/index"
)

// How ALTERNATIVES weighs what makes a product like the context's
// (docs/decisions.md, Recommendations). Each part is between 0 and 1
// before its weight; the behaviour leads where there is some, and a
// product nobody viewed yet is ranked by its content alone.
const (
	altCoViewed = 2.0 // its co-viewed count over the highest
	altTitle    = 1.0 // the IDF of the context titles' words it has (in any text field) over theirs
	altCategory = 0.5 // it is in a context product's deepest category
	altBrand    = 0.3 // it has a context product's brand
	altPrice    = 0.2 // 1 at a context product's price, 0 at half or twice it
	// altMaxCandidates bounds the products scored: a category of a
	// hundred thousand is scored on its first ones, by index order.
	altMaxCandidates = 2000
	// altCandidateWords: the products sharing one of the context's
	// rarest title words are candidates; common words only score.
	altCandidateWords = 3
	// altMaxContext: alternatives are to the context's first ten
	// products (a cart can hold fifty), so a request's cost is bounded.
	altMaxContext = 10
)

// scored is a candidate and its similarity.
type scored struct {
	doc   uint32
	score float64
}

// altSorted is how many of the best candidates are sorted first; the
// rest only when the request still wants more.
const altSorted = 128

// contextProduct is what similarity compares of a context product.
type contextProduct struct {
	Title       string     `json:"title"`
	Brand       string     `json:"brand"`
	Price       float64    `json:"price"`
	Hierarchies [][]string `json:"hierarchies"`
}

// alternatives yields the products most like the context products (the
// first altMaxContext), best first (ties by popularity, then index
// order): the co-viewed ones, and those of the context's categories or
// sharing its title words, scored by co-views, title words, category,
// brand and price. The requests of one call asking for the alternatives
// of one context share them.
func (c *recomCall) alternatives(ctxDocs []uint32, yield func(uint32) bool) {
	ctxDocs = ctxDocs[:min(len(ctxDocs), altMaxContext)]
	var kb []byte
	for _, d := range ctxDocs {
		kb = binary.AppendUvarint(kb, uint64(d))
	}
	key := string(kb)
	docs, ok := c.alts[key]
	if !ok {
		c.alternativesOf(ctxDocs, func(d uint32) bool { docs = append(docs, d); return true })
		if c.alts == nil {
			c.alts = map[string][]uint32{}
		}
		c.alts[key] = docs
	}
	for _, d := range docs {
		if !yield(d) {
			return
		}
	}
}

// alternativesOf is alternatives computed: each candidate scored by
// every signal (recoms_similar_signals.go), in this order, then yielded
// best first.
func (c *recomCall) alternativesOf(ctxDocs []uint32, yield func(uint32) bool) {
	ctx := c.contextProducts(ctxDocs)
	scores := map[uint32]float64{}
	c.scoreCoViewed(ctxDocs, scores)
	leaf, scope := c.contextCategories(ctx)
	words := c.titleWords(ctx)
	cand := c.contentCandidates(leaf, scope, words)
	c.scoreTitleWords(words, cand, scores)
	c.scoreContent(ctx, leaf, cand, scores)
	c.yieldBest(scores, yield)
}

// contextProducts is the context docs' stored products, those that
// decode.
func (c *recomCall) contextProducts(ctxDocs []uint32) []contextProduct {
	var ctx []contextProduct
	for _, d := range ctxDocs {
		var p contextProduct
		if json.Unmarshal(c.g.Products.Stored(d), &p) == nil {
			ctx = append(ctx, p)
		}
	}
	return ctx
}

// contentCandidates is the products scored by content: those in a context
// product's deepest category (leaf), and those with one of the
// altCandidateWords rarest title words in their title, within scope
// when there is one (the context's parent categories); the first
// altMaxCandidates of them by index order.
func (c *recomCall) contentCandidates(leaf, scope *roaring.Bitmap, words contextWords) *roaring.Bitmap {
	seg := c.g.Products
	cand := roaring.New()
	if leaf != nil {
		cand.Or(leaf)
	}
	for _, w := range words.list[:min(len(words.list), altCandidateWords)] {
		in := seg.TermDocsIn(w.term, index.FieldTitle.Mask())
		if scope != nil {
			in = roaring.And(in, scope)
		}
		cand.Or(in)
	}
	if cand.GetCardinality() > altMaxCandidates {
		cand = firstOf(cand, altMaxCandidates)
	}
	return cand
}

// yieldBest yields the docs of positive score, best first; equal scores
// by popularity, then index order. Only the best altSorted are sorted
// before the first is yielded; the rest when yield asks for more.
func (c *recomCall) yieldBest(scores map[uint32]float64, yield func(uint32) bool) {
	ranked := make([]scored, 0, len(scores))
	for d, s := range scores {
		if s > 0 {
			ranked = append(ranked, scored{d, s})
		}
	}
	if len(ranked) > altSorted {
		head, tail := splitBest(ranked, altSorted)
		slices.SortFunc(head, byScore)
		if !c.yieldRanked(head, yield) {
			return
		}
		ranked = tail
	}
	slices.SortFunc(ranked, byScore)
	c.yieldRanked(ranked, yield)
}

// byScore orders scored docs by score, highest first, then by doc.
func byScore(a, b scored) int {
	if x := cmp.Compare(b.score, a.score); x != 0 {
		return x
	}
	return cmp.Compare(a.doc, b.doc)
}

// splitBest splits ranked (more than n) into the docs scoring at least
// the n-th best score (n or more, with ties) and the others, each in
// ranked's order; the others are len(ranked)-n at most.
func splitBest(ranked []scored, n int) (head, tail []scored) {
	best := make([]float64, len(ranked))
	for i, r := range ranked {
		best[i] = r.score
	}
	slices.Sort(best)
	cut := best[len(best)-n]
	head, tail = make([]scored, 0, n), make([]scored, 0, len(ranked)-n)
	for _, r := range ranked {
		if r.score >= cut {
			head = append(head, r)
		} else {
			tail = append(tail, r)
		}
	}
	return head, tail
}

// yieldRanked yields ranked docs in order, equal scores by popularity,
// and reports whether yield wants more.
func (c *recomCall) yieldRanked(ranked []scored, yield func(uint32) bool) bool {
	docs := make([]uint32, len(ranked))
	for i, r := range ranked {
		docs[i] = r.doc
	}
	for i := 0; i < len(docs); {
		j := i + 1
		for j < len(docs) && ranked[j].score == ranked[i].score {
			j++
		}
		if j-i > 1 {
			c.byPopularity(docs[i:j])
		}
		for _, d := range docs[i:j] {
			if !yield(d) {
				return false
			}
		}
		i = j
	}
	return true
}

// byPopularity orders docs by TOP's score, highest first, stably.
func (c *recomCall) byPopularity(docs []uint32) {
	pop := make(map[uint32]float64, len(docs))
	for _, d := range docs {
		pn := c.g.Products.Key(d)
		for k, w := range topWeights {
			if w != 0 {
				pop[d] += w * c.m.Count(pn, behaviour.Kind(k), behaviour.Long, c.now)
			}
		}
	}
	slices.SortStableFunc(docs, func(a, b uint32) int { return cmp.Compare(pop[b], pop[a]) })
}

// appendPath appends a category path as a hierarchy value ("a$b$"),
// once.
func appendPath(paths []string, path []string) []string {
	s := hierarchyValue(path)
	if slices.Contains(paths, s) {
		return paths
	}
	return append(paths, s)
}

// firstOf is the first n docs of bm.
func firstOf(bm *roaring.Bitmap, n int) *roaring.Bitmap {
	out := roaring.New()
	it := bm.Iterator()
	for i := 0; i < n && it.HasNext(); i++ {
		out.Add(it.Next())
	}
	return out
}
