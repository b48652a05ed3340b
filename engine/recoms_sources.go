package engine

import (
	"github.com/RoaringBitmap/roaring/v2"
	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/behaviour"
)

// What the sources rank by (docs/decisions.md, Recommendations).
var (
	// topWeights: TOP is views + 3 carts + 5 buys over the long window.
	topWeights = behaviour.Weights{behaviour.Views: 1, behaviour.Carts: 3, behaviour.Buys: 5}
	// The single-kind sources.
	boughtWeights = behaviour.Weights{behaviour.Buys: 1}
	viewedWeights = behaviour.Weights{behaviour.Views: 1}
)

// fill is the products of unmanaged request r: each source in order,
// each up to its limit, until r.Count; none already answered in the
// call, none of the context's, none filtered out, and (unless
// hideAdditionalVariants is false) one per groupingKey. Each candidate
// is checked against sets, so the work is linear in the candidates.
func (c *recomCall) fill(r *RecomRequest) ([]uint32, error) {
	ctxDocs := c.contextDocs(r.Context)
	inContext := roaring.BitmapOf(ctxDocs...)
	hide := r.HideAdditionalVariants == nil || *r.HideAdditionalVariants
	groups := map[string]bool{}
	if hide {
		for _, d := range ctxDocs {
			if k := c.groupingKey(d); k != "" {
				groups[k] = true
			}
		}
	}
	var out []uint32
	taken := roaring.New() // out, as a set
	for _, s := range r.Sources {
		if len(out) >= r.Count {
			break
		}
		allowed, err := c.sourceFilter(s.Filters, r.Context)
		if err != nil {
			return nil, err
		}
		want := r.Count - len(out)
		if s.Limit > 0 {
			want = min(want, s.Limit)
		}
		n := 0
		c.candidates(s.Type, ctxDocs, allowed, func(d uint32) bool {
			if c.used.Contains(d) || inContext.Contains(d) || taken.Contains(d) || allowed != nil && !allowed.Contains(d) {
				return true
			}
			if hide {
				if k := c.groupingKey(d); k != "" {
					if groups[k] {
						return true
					}
					groups[k] = true
				}
			}
			out = append(out, d)
			taken.Add(d)
			n++
			return n < want
		})
	}
	return out, nil
}

// contextDocs is the served products the context names by number or
// by their pages' addresses (urls), in order, each once.
func (c *recomCall) contextDocs(ctx map[string]any) []uint32 {
	var out []uint32
	seen := roaring.New()
	add := func(d uint32, ok bool) {
		if ok && seen.CheckedAdd(d) {
			out = append(out, d)
		}
	}
	for _, pn := range contextValues(ctx["productNumbers"]) {
		add(c.g.Doc(pn))
	}
	for _, u := range contextValues(ctx["urls"]) {
		add(c.g.productByURL(u))
	}
	return out
}

// candidates calls yield with source typ's products, best first, until
// yield returns false or they run out; allowed (when not nil) is the
// source's filter, which the rankings use to skip (yield still checks
// it).
func (c *recomCall) candidates(typ string, ctxDocs []uint32, allowed *roaring.Bitmap, yield func(uint32) bool) {
	byNumber := func(pns []string) bool {
		for _, pn := range pns {
			if d, ok := c.g.Doc(pn); ok && !yield(d) {
				return false
			}
		}
		return true
	}
	scored := func(s []behaviour.Scored) bool {
		for _, x := range s {
			if d, ok := c.g.Doc(x.ProductNumber); ok && !yield(d) {
				return false
			}
		}
		return true
	}
	switch typ {
	case SourceTop:
		c.g.eachRanked(rankedTop, c.m, c.m.Ranked(topWeights, behaviour.Long, c.now), allowed, c.rankedReads, yield)
	case SourceMostBought:
		c.g.eachRanked(rankedBought, c.m, c.m.Ranked(boughtWeights, behaviour.Long, c.now), allowed, c.rankedReads, yield)
	case SourceMostViewed:
		c.g.eachRanked(rankedViewed, c.m, c.m.Ranked(viewedWeights, behaviour.Long, c.now), allowed, c.rankedReads, yield)
	case SourceRetargeted, SourceRecentlyBought:
		v, _ := c.m.VisitorOf(c.visitor)
		if typ == SourceRetargeted {
			byNumber(v.Viewed)
		} else {
			byNumber(v.Bought)
		}
	case SourceBoughtTogether:
		pns := c.numbers(ctxDocs)
		if len(pns) == 0 {
			v, _ := c.m.VisitorOf(c.visitor)
			pns = v.Cart
		}
		scored(c.m.CoBought(pns...))
	case SourceAlternatives:
		c.alternatives(ctxDocs, yield)
	}
}

// numbers is the behaviour's names of docs: their product numbers.
func (c *recomCall) numbers(docs []uint32) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = c.g.Products.Key(d)
	}
	return out
}

// groupingKey is a product's groupingKey, "" when it has none.
func (c *recomCall) groupingKey(d uint32) string {
	var p struct {
		GroupingKey string `json:"groupingKey"`
	}
	c.doc = c.g.Products.AppendStored(c.doc[:0], d)
	if json.Unmarshal(c.doc, &p) != nil {
		return ""
	}
	return p.GroupingKey
}
