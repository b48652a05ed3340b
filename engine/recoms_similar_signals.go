package engine

import (
	"cmp"
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/index"
)

// The signals ALTERNATIVES scores a product by (the weights are the
// alt* constants in recoms_similar.go): co-views with the context, the
// context titles' words it has, and its category, brand and price
// beside the context products'. Each adds its part to a product's
// score; alternativesOf adds them in a fixed order, so equal sums stay
// equal to the bit.

// scoreCoViewed adds altCoViewed × each product's co-viewed count with
// the context over the highest count.
func (c *recomCall) scoreCoViewed(ctxDocs []uint32, scores map[uint32]float64) {
	co := c.m.CoViewed(c.numbers(ctxDocs)...)
	for _, s := range co {
		if d, ok := c.g.Doc(s.ProductNumber); ok {
			scores[d] += altCoViewed * s.Score / co[0].Score
		}
	}
}

// contextCategories is the products of the context's deepest
// categories (leaf) and of their parents (scope: where a title word
// makes a candidate; leaf when the categories have no parent); both nil
// when hierarchies is not an indexed field or the context has no
// category.
func (c *recomCall) contextCategories(ctx []contextProduct) (leaf, scope *roaring.Bitmap) {
	leaves, parents := categoryPaths(ctx)
	if _, ok := c.g.fields["hierarchies"]; !ok || len(leaves) == 0 {
		return nil, nil
	}
	leaf, _ = c.filterDocs("hierarchies", "$in", leaves)
	scope = leaf
	if len(parents) > 0 {
		scope, _ = c.filterDocs("hierarchies", "$in", parents)
	}
	return leaf, scope
}

// categoryPaths is the context products' deepest categories (their
// first hierarchy's path) and those paths' parents, as hierarchy
// values, each once.
func categoryPaths(ctx []contextProduct) (leaves, parents []string) {
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
	return leaves, parents
}

// titleWord is a term of the context's titles and its IDF.
type titleWord struct {
	term uint32
	idf  float64
}

// contextWords is the context titles' terms that some product has in its
// title, rarest (highest IDF) first, and their IDFs' sum.
type contextWords struct {
	list  []titleWord
	total float64
}

// titleWords is the terms of the context's titles, each once, weighed by
// IDF: rare words say more about a product.
func (c *recomCall) titleWords(ctx []contextProduct) contextWords {
	seg := c.g.Products
	n := float64(seg.Len())
	var out contextWords
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
			w := titleWord{id, math.Log(1 + (n-df+0.5)/(df+0.5))}
			out.list = append(out.list, w)
			out.total += w.idf
		})
	}
	slices.SortFunc(out.list, func(a, b titleWord) int { return cmp.Compare(b.idf, a.idf) })
	return out
}

// scoreTitleWords adds to each candidate altTitle × the IDF of the
// context's title words it has, in any of its text, over theirs.
func (c *recomCall) scoreTitleWords(words contextWords, cand *roaring.Bitmap, scores map[uint32]float64) {
	seg := c.g.Products
	for _, w := range words.list {
		it := roaring.And(seg.TermDocs(w.term), cand).Iterator()
		for it.HasNext() {
			scores[it.Next()] += altTitle * w.idf / words.total
		}
	}
}

// scoreContent adds to each candidate its category, brand and price
// scores against the context (contentScorer), as one sum.
func (c *recomCall) scoreContent(ctx []contextProduct, leaf, cand *roaring.Bitmap, scores map[uint32]float64) {
	cs := c.newContentScorer(ctx, leaf)
	it := cand.Iterator()
	for it.HasNext() {
		d := it.Next()
		scores[d] += cs.score(d)
	}
}

// contentScorer scores a candidate's category, brand and price against
// the context's.
type contentScorer struct {
	leaf     *roaring.Bitmap // the context's deepest categories' products
	brands   *index.KeywordField
	brandIDs []uint32 // the context's brands
	price    *index.NumericField
	ctx      []contextProduct
}

// newContentScorer scores against ctx, whose deepest categories' products
// are leaf (nil: none). A field the website does not index scores 0.
func (c *recomCall) newContentScorer(ctx []contextProduct, leaf *roaring.Bitmap) contentScorer {
	cs := contentScorer{leaf: leaf, brands: c.g.Products.Keyword("brand"), brandIDs: c.contextBrands(ctx), price: c.g.Products.Numeric("price"), ctx: ctx}
	if _, ok := c.g.fields["price"]; !ok {
		cs.price = nil
	}
	return cs
}

// score is d's category, brand and price scores, summed in that order.
func (cs *contentScorer) score(d uint32) float64 {
	return cs.category(d) + cs.brand(d) + cs.priceScore(d)
}

// category is altCategory when d is in a context product's deepest
// category.
func (cs *contentScorer) category(d uint32) float64 {
	if cs.leaf != nil && cs.leaf.Contains(d) {
		return altCategory
	}
	return 0
}

// brand is altBrand when d has a context product's brand.
func (cs *contentScorer) brand(d uint32) float64 {
	if cs.brands != nil && len(cs.brandIDs) > 0 && slices.ContainsFunc(cs.brands.DocValues(d), func(id uint32) bool { return slices.Contains(cs.brandIDs, id) }) {
		return altBrand
	}
	return 0
}

// priceScore is altPrice × how close d's price is to a context
// product's (priceCloseness); 0 without a positive price.
func (cs *contentScorer) priceScore(d uint32) float64 {
	if cs.price == nil {
		return 0
	}
	if p, ok := cs.price.ValueAt(d); ok && p > 0 {
		return altPrice * priceCloseness(p, cs.ctx)
	}
	return 0
}

// priceCloseness is how close price p is to the nearest positive price
// of the context: 1 at it, falling with the ratio's logarithm to 0 at
// half or twice it, and 0 beyond or without one.
func priceCloseness(p float64, ctx []contextProduct) float64 {
	best := 0.0
	for _, cp := range ctx {
		if cp.Price > 0 {
			best = max(best, 1-math.Abs(math.Log(p/cp.Price))/math.Ln2)
		}
	}
	return best
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
