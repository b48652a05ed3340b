package engine

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/ranking"
)

// Retail media (docs/decisions.md, Retail media): a running campaign
// whose placement, device and target fit a request puts its first
// fitting product at each position it reserves in the list, moving it
// there if it ranked elsewhere; organic results fill the other
// positions in order. The total and the facets stay the organic ones.

// campaign is a campaign compiled on a generation.
type campaign struct {
	cfg     *config.Campaign
	queries [][]string // each target query's folded words
}

func compileCampaign(c *config.Campaign) *campaign {
	out := &campaign{cfg: c}
	for _, q := range c.Target.Queries {
		if words := strings.Fields(analysis.FoldPhrase(q)); len(words) > 0 {
			out.queries = append(out.queries, words)
		}
	}
	return out
}

// adRequest is what a list's sponsors depend on.
type adRequest struct {
	placement string // config.PlaceSearch, PlacePages or PlaceRecoms
	device    string
	review    bool // includeRetailMediaInReview
	now       time.Time
	query     string // a search's; "" elsewhere
	// result gives the organic results, after the filters: made on
	// call, as a search may not have them as a bitmap.
	result func() *roaring.Bitmap
	// allowed reports whether a product may be shown: it passes the
	// request's filters and base filters.
	allowed func(doc uint32) bool
	// total is how many organic results there are: a position past it
	// is not filled.
	total int
}

// sponsor is a product placed at a reserved position (from 0).
type sponsor struct {
	pos      int
	doc      uint32
	campaign string
}

// sponsors chooses the sponsored products of a list's first limit
// positions: campaigns in their configured order, each position once,
// each product once.
func (g *Generation) sponsors(r *adRequest, limit int) []sponsor {
	if len(g.campaigns) == 0 {
		return nil
	}
	var out []sponsor
	var words []string
	for _, c := range g.campaigns {
		cfg := c.cfg
		if !cfg.RunsAt(r.now, r.review) || !cfg.ShowsIn(r.placement, r.device) {
			continue
		}
		if len(c.queries) > 0 {
			if r.placement != config.PlaceSearch {
				continue
			}
			if words == nil {
				words = strings.Fields(analysis.FoldPhrase(r.query))
			}
			if !slices.ContainsFunc(c.queries, func(q []string) bool { return containsAll(words, q) }) {
				continue
			}
		}
		if !g.targets(r.result(), "hierarchies", cfg.Target.Hierarchies) || !g.targets(r.result(), "brand", cfg.Target.Brands) {
			continue
		}
		for _, p := range cfg.Positions {
			pos := p - 1
			if pos >= limit || p > r.total || slices.ContainsFunc(out, func(s sponsor) bool { return s.pos == pos }) {
				continue
			}
			for _, pn := range cfg.Products {
				doc, ok := g.Doc(pn)
				if !ok || slices.ContainsFunc(out, func(s sponsor) bool { return s.doc == doc }) || !r.allowed(doc) {
					continue
				}
				out = append(out, sponsor{pos: pos, doc: doc, campaign: cfg.ID})
				break
			}
		}
	}
	slices.SortFunc(out, func(a, b sponsor) int { return a.pos - b.pos })
	return out
}

// containsAll reports whether words holds every one of want.
func containsAll(words, want []string) bool {
	for _, w := range want {
		if !slices.Contains(words, w) {
			return false
		}
	}
	return true
}

// targets reports whether result holds a product of one of values of
// field (a keyword or hierarchy field); no values: true.
func (g *Generation) targets(result *roaring.Bitmap, field string, values []string) bool {
	if len(values) == 0 {
		return true
	}
	kf := g.Products.Keyword(field)
	if kf == nil {
		return false
	}
	var fold []byte
	for _, v := range values {
		if field == "hierarchies" && !strings.HasSuffix(v, "$") {
			v += "$"
		}
		fold = analysis.Fold(fold[:0], v)
		if id, ok := kf.Lookup(string(fold)); ok && kf.Bitmaps[id].Intersects(result) {
			return true
		}
	}
	return false
}

// filtersAllow reports whether doc passes filters (and lies in base,
// when given).
func (g *Generation) filtersAllow(doc uint32, base *roaring.Bitmap, filters []fieldFilter) bool {
	if base != nil && !base.Contains(doc) {
		return false
	}
	if len(filters) == 0 {
		return true
	}
	one := roaring.BitmapOf(doc)
	applyFilters(one, filters, -1, g.Products.Slots())
	return !one.IsEmpty()
}

// window is the results [start, start+count) of a ranking, best giving
// its first n hits (scored, or Impacts.Top's), re-ranked by rerank (nil:
// none) over the first depth, with the sponsors sps placed, and by
// result the campaign that placed it ("" organic; nil when none did).
func (g *Generation) window(best func(n int) []ranking.Hit, sps []sponsor, start, count int, rerank func([]ranking.Hit), depth int) ([]ranking.Hit, []string) {
	k := start + count + len(sps)
	if rerank == nil {
		depth = 0
	}
	hits := best(max(k, depth))
	if rerank != nil {
		rerank(hits)
		hits = hits[:min(len(hits), k)]
	}
	return place(hits, sps, start, count)
}

// scored is the best n of a scratch's docs by keys, then scores (nil:
// none), then the segment's order, as window's best; it returns sc to
// the pool.
func (g *Generation) scored(sc *ranking.Scratch, scores []float32, keys []ranking.SortKey) func(n int) []ranking.Hit {
	return func(n int) []ranking.Hit {
		hits := ranking.TopNOrdered(sc.Docs, scores, keys, g.Products.Order(), n, nil)
		ranking.PutScratch(sc)
		return hits
	}
}

// place puts the sponsored products into the organic ranking hits (the
// best start+count+len(sps)) and cuts the page at start: the page's
// hits and, by position, their campaigns (nil when none is sponsored).
func place(hits []ranking.Hit, sps []sponsor, start, count int) ([]ranking.Hit, []string) {
	var camps []string
	if len(sps) > 0 {
		hits, camps = placeSponsors(hits, sps, start+count)
	}
	if start >= len(hits) {
		return nil, nil
	}
	if camps != nil {
		camps = camps[start:]
	}
	return hits[start:], camps
}

// placeSponsors merges sps (by position) into the organic ranking hits:
// a sponsored product takes its position and leaves the organic list;
// organic results fill the other positions in order, up to limit. It
// returns the merged list and, by position, the campaign of each
// sponsored one ("" for organic).
func placeSponsors(hits []ranking.Hit, sps []sponsor, limit int) ([]ranking.Hit, []string) {
	out := make([]ranking.Hit, 0, min(limit, len(hits)+len(sps)))
	camps := make([]string, 0, cap(out))
	next := 0
	for i := 0; i < limit; i++ {
		if len(sps) > 0 && sps[0].pos == i {
			out, camps = append(out, ranking.Hit{Doc: sps[0].doc}), append(camps, sps[0].campaign)
			sps = sps[1:]
			continue
		}
		for next < len(hits) && isSponsored(hits[next].Doc, out, camps, sps) {
			next++
		}
		if next == len(hits) {
			break
		}
		out, camps = append(out, hits[next]), append(camps, "")
		next++
	}
	return out, camps
}

// isSponsored reports whether doc is placed, or to be placed, as a
// sponsored product.
func isSponsored(doc uint32, out []ranking.Hit, camps []string, rest []sponsor) bool {
	for i := range out {
		if camps[i] != "" && out[i].Doc == doc {
			return true
		}
	}
	return slices.ContainsFunc(rest, func(s sponsor) bool { return s.doc == doc })
}

// sponsor places the campaigns' products in a box's docs: a sponsored
// product is in stock and passes one of the box's sources' filters (as
// the box's own products do), is not in the context and was not
// answered before in the call.
func (c *recomCall) sponsor(r *RecomRequest, docs []uint32) ([]uint32, []string, error) {
	inContext := roaring.BitmapOf(c.contextDocs(r.Context)...)
	var allowed []*roaring.Bitmap
	for _, s := range r.Sources {
		bm, err := c.sourceFilter(s.Filters, r.Context)
		if err != nil {
			return nil, nil, err
		}
		allowed = append(allowed, bm)
	}
	result := roaring.BitmapOf(docs...)
	sps := c.g.sponsors(&adRequest{placement: config.PlaceRecoms, device: r.DeviceType, review: c.review, now: c.now, result: func() *roaring.Bitmap { return result }, total: len(docs),
		allowed: func(d uint32) bool {
			if c.used.Contains(d) || inContext.Contains(d) {
				return false
			}
			return slices.ContainsFunc(allowed, func(bm *roaring.Bitmap) bool { return bm == nil || bm.Contains(d) })
		}}, r.Count)
	if len(sps) == 0 {
		return docs, nil, nil
	}
	hits := make([]ranking.Hit, len(docs))
	for i, d := range docs {
		hits[i].Doc = d
	}
	merged, camps := placeSponsors(hits, sps, r.Count)
	out := make([]uint32, len(merged))
	for i, h := range merged {
		out[i] = h.Doc
	}
	return out, camps, nil
}

// impressions are the impression events of a list's sponsored products
// (campaigns by item, "" organic), shown from position start+1 in source
// (events.SourceSearch, SourcePage, SourceRecoms) under key, to user
// ("" when unknown).
func impressions(g *Generation, source, key, user string, start int, docs []uint32, campaigns []string) []*events.Event {
	var out []*events.Event
	for i, c := range campaigns {
		if c == "" {
			continue
		}
		out = append(out, &events.Event{Kind: events.Impression, Website: g.Website.UUID, User: user, ProductNumber: g.Products.Key(docs[i]),
			Shown: &events.Shown{Source: source, Key: key, Position: start + i + 1, Campaign: c}})
	}
	return out
}

func hitDocs(hits []ranking.Hit) []uint32 {
	docs := make([]uint32, len(hits))
	for i, h := range hits {
		docs[i] = h.Doc
	}
	return docs
}

// Impressions are the impression events of the search's sponsored
// products, for user ("" when unknown); none without them.
func (r *SearchResult) Impressions(user string) []*events.Event {
	p := r.Products
	if p == nil || p.Sponsored == nil {
		return nil
	}
	return impressions(r.gen, events.SourceSearch, r.key, user, p.Start, hitDocs(p.Hits), p.Sponsored)
}

// Impressions are the page's, as SearchResult.Impressions.
func (r *PageResult) Impressions(user string) []*events.Event {
	if r.Sponsored == nil {
		return nil
	}
	return impressions(r.gen, events.SourcePage, r.pv.key, user, r.Start, hitDocs(r.Hits), r.Sponsored)
}

// Impressions are the call's: one for each box (a managed request's
// key, else its trackingKey) that answered products, and its sponsored
// products' as SearchResult.Impressions.
func (r *RecomsResult) Impressions(user string) []*events.Event {
	var out []*events.Event
	for i := range r.Responses {
		rr := &r.Responses[i]
		if !rr.Success || len(rr.Docs) == 0 {
			continue
		}
		if key := cmp.Or(rr.Key, rr.TrackingKey); key != "" {
			out = append(out, &events.Event{Kind: events.Impression, Website: rr.gen.Website.UUID, User: user,
				Shown: &events.Shown{Source: events.SourceRecoms, Key: key}})
		}
		if rr.Sponsored != nil {
			out = append(out, impressions(rr.gen, events.SourceRecoms, rr.Key, user, 0, rr.Docs, rr.Sponsored)...)
		}
	}
	return out
}
