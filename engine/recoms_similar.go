package engine

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
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

// alternativesOf is alternatives computed.
func (c *recomCall) alternativesOf(ctxDocs []uint32, yield func(uint32) bool) {
	seg := c.g.Products
	var ctx []contextProduct
	for _, d := range ctxDocs {
		var p contextProduct
		if json.Unmarshal(seg.Stored(d), &p) == nil {
			ctx = append(ctx, p)
		}
	}
	scores := map[uint32]float64{}
	add := func(d uint32, v float64) { scores[d] += v }

	// Co-viewed.
	co := c.m.CoViewed(c.numbers(ctxDocs)...)
	for _, s := range co {
		if d, ok := c.g.Doc(s.ProductNumber); ok {
			add(d, altCoViewed*s.Score/co[0].Score)
		}
	}

	// The candidates by content: the context's deepest categories, and
	// the products sharing a title word with it in their parents (or
	// anywhere, without categories).
	var leaves, parents []string
	for _, p := range ctx {
		if len(p.Hierarchies) == 0 || len(p.Hierarchies[0]) == 0 {
			continue
		}
		path := p.Hierarchies[0]
		leaves = appendPath(leaves, path)
		if len(path) > 1 {
			parents = appendPath(parents, path[:len(path)-1])
		}
	}
	var leaf, scope *roaring.Bitmap
	if _, ok := c.g.fields["hierarchies"]; ok && len(leaves) > 0 {
		leaf, _ = c.filterDocs("hierarchies", "$in", leaves)
		scope = leaf
		if len(parents) > 0 {
			scope, _ = c.filterDocs("hierarchies", "$in", parents)
		}
	}
	cand := roaring.New()
	if leaf != nil {
		cand.Or(leaf)
	}

	// Title words, by IDF: rare words say more about a product.
	n := float64(seg.Len())
	type word struct {
		term uint32
		idf  float64
	}
	var words []word
	total := 0.0
	seen := map[uint32]bool{}
	for _, p := range ctx {
		c.g.an.Each(p.Title, func(folded []byte, numeric bool, _ int) {
			term := string(folded)
			if !numeric {
				term = c.g.an.Stem(term)
			}
			id, ok := seg.Term(term)
			if !ok || seen[id] || !seg.TermIn(id, index.FieldTitle.Mask()) {
				return
			}
			seen[id] = true
			df := float64(seg.DocFreq(id))
			w := word{id, math.Log(1 + (n-df+0.5)/(df+0.5))}
			words = append(words, w)
			total += w.idf
		})
	}
	// Candidates by the rarest words; every word scores.
	slices.SortFunc(words, func(a, b word) int { return cmp.Compare(b.idf, a.idf) })
	for _, w := range words[:min(len(words), altCandidateWords)] {
		in := seg.TermDocsIn(w.term, index.FieldTitle.Mask())
		if scope != nil {
			in = roaring.And(in, scope)
		}
		cand.Or(in)
	}
	if cand.GetCardinality() > altMaxCandidates {
		cand = firstOf(cand, altMaxCandidates)
	}
	for _, w := range words { // a candidate with the word in any of its text
		it := roaring.And(seg.TermDocs(w.term), cand).Iterator()
		for it.HasNext() {
			add(it.Next(), altTitle*w.idf/total)
		}
	}

	// Category, brand and price.
	brandIDs := c.contextBrands(ctx)
	brands := seg.Keyword("brand")
	price := seg.Numeric("price")
	if _, ok := c.g.fields["price"]; !ok {
		price = nil
	}
	it := cand.Iterator()
	for it.HasNext() {
		d := it.Next()
		v := 0.0
		if leaf != nil && leaf.Contains(d) {
			v += altCategory
		}
		if brands != nil && len(brandIDs) > 0 && slices.ContainsFunc(brands.DocValues(d), func(id uint32) bool { return slices.Contains(brandIDs, id) }) {
			v += altBrand
		}
		if price != nil {
			if p, ok := price.ValueAt(d); ok && p > 0 {
				best := 0.0
				for _, cp := range ctx {
					if cp.Price > 0 {
						best = max(best, 1-math.Abs(math.Log(p/cp.Price))/math.Ln2)
					}
				}
				v += altPrice * best
			}
		}
		add(d, v)
	}

	// Best first; equal scores by popularity, then index order.
	ranked := make([]scored, 0, len(scores))
	for d, s := range scores {
		if s > 0 {
			ranked = append(ranked, scored{d, s})
		}
	}
	byScore := func(a, b scored) int {
		if x := cmp.Compare(b.score, a.score); x != 0 {
			return x
		}
		return cmp.Compare(a.doc, b.doc)
	}
	// The best altSorted first, the rest sorted only if asked for.
	if len(ranked) > altSorted {
		best := make([]float64, len(ranked))
		for i, r := range ranked {
			best[i] = r.score
		}
		slices.Sort(best)
		cut := best[len(best)-altSorted]
		head := ranked[:0:0]
		var tail []scored
		for _, r := range ranked {
			if r.score >= cut {
				head = append(head, r)
			} else {
				tail = append(tail, r)
			}
		}
		slices.SortFunc(head, byScore)
		if !c.yieldRanked(head, yield) {
			return
		}
		ranked = tail
	}
	slices.SortFunc(ranked, byScore)
	c.yieldRanked(ranked, yield)
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

// contextBrands is the brand field's value ids of the context products'
// brands; none when brand is not an indexed keyword field.
func (c *recomCall) contextBrands(ctx []contextProduct) []uint32 {
	kf := c.g.Products.Keyword("brand")
	if kf == nil {
		return nil
	}
	var out []uint32
	for _, p := range ctx {
		if id, ok := kf.Lookup(analysis.FoldString(p.Brand)); ok && p.Brand != "" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
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
