package engine

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/facets"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/ranking"
	"github.com/aisle-search/aisle/render"
)

// Suggested product statuses.
const (
	NoSuggested   = "NO_SUGGESTED"
	MixedSuggest  = "MIXED"
	OnlySuggested = "ONLY_SUGGESTED"
)

// SearchResult is an answered search, encoded by AppendJSON. It points
// into the generation it was computed on.
type SearchResult struct {
	gen        *Generation
	Query      string
	Products   *ProductResult
	Content    []*ContentResult
	Redirects  *RedirectResult
	HTML       string
	formatHTML bool
	deviceType string // the request's, for the template
	key        string // the search configuration's
	// wildcard: the phrase has no word (ranking.Query.Wildcard).
	wildcard bool
}

// ProductResult is the products member of a search response.
type ProductResult struct {
	// Sponsored is, by hit, the retail media campaign that placed it
	// ("" for an organic one); nil when none did.
	Sponsored               []string
	Start, Requested, Total int
	Hits                    []ranking.Hit
	Suggested               []bool
	Fields                  []string
	Filters                 []FacetOut
	Sorting                 []SortOut
	SuggestedStatus         string
	Initial                 []ranking.Hit
	withFilters             bool
	wildcard                bool // the phrase parsed as the wildcard
}

// ContentResult is a categories, brands, sitePages or blogPosts member.
type ContentResult struct {
	Kind                    catalog.ContentKind
	Start, Requested, Total int
	Hits                    []ranking.Hit
	Fields                  []string
	seg                     *index.Segment
	wildcard                bool // the phrase parsed as the wildcard
}

// RedirectResult is the redirects member.
type RedirectResult struct {
	Start, Requested, Total int
	Items                   []RedirectOut
}

// RedirectOut is one redirect item.
type RedirectOut struct {
	Title        string `json:"title"`
	URL          string `json:"url"`
	TrackingCode string `json:"trackingCode"`
	OriginalURL  string `json:"originalUrl"`
}

// FacetOut is one entry of products.filters.
type FacetOut struct {
	Name        string           `json:"name"`
	Settings    FacetSettingOut  `json:"settings"`
	Values      *[]FacetValueOut `json:"values,omitempty"`
	Min         *string          `json:"min,omitempty"`
	Max         *string          `json:"max,omitempty"`
	SelectedMin *string          `json:"selectedMin,omitempty"`
	SelectedMax *string          `json:"selectedMax,omitempty"`
}

// FacetSettingOut is a facet's display settings.
type FacetSettingOut struct {
	Name                 string `json:"name"`
	Type                 string `json:"type"`
	Title                string `json:"title"`
	FilteringText        string `json:"filteringText,omitempty"`
	NegatedFilteringText string `json:"negatedFilteringText,omitempty"`
}

// FacetValueOut is one value of a LIST or BOOLEAN facet.
type FacetValueOut struct {
	Title    string `json:"title"`
	Count    int    `json:"count"`
	Query    string `json:"query"`
	Selected bool   `json:"selected"`
}

// SortOut is one entry of products.sorting.
type SortOut struct {
	Name       string         `json:"name"`
	Settings   SortSettingOut `json:"settings"`
	Ascending  SortChoiceOut  `json:"ascending"`
	Descending SortChoiceOut  `json:"descending"`
}

// SortSettingOut is a sort option's display settings.
type SortSettingOut struct {
	Name           string `json:"name"`
	Title          string `json:"title"`
	AscendingText  string `json:"ascendingText"`
	DescendingText string `json:"descendingText"`
}

// SortChoiceOut is one direction of a sort option.
type SortChoiceOut struct {
	Query    string `json:"query"`
	Selected bool   `json:"selected"`
}

// deviceView is a version with the request's device overrides applied.
type deviceView struct {
	facets    []config.Facet
	sorting   []config.SortOption
	maxValues int
}

func (v *version) device(d string) deviceView {
	dv := deviceView{facets: v.cfg.Facets, sorting: v.cfg.Sorting, maxValues: v.cfg.MaxFacetValues}
	if o, ok := v.cfg.Devices[d]; ok {
		if o.Facets != nil {
			dv.facets = o.Facets
		}
		if o.Sorting != nil {
			dv.sorting = o.Sorting
		}
		if o.MaxFacetValues > 0 {
			dv.maxValues = o.MaxFacetValues
		}
	}
	if dv.maxValues <= 0 {
		dv.maxValues = 100
	}
	return dv
}

// Search answers a validated-or-not search request on generation g,
// with no behaviour: popularity boosts nothing (SearchWith).
func (g *Generation) Search(req *SearchRequest) (*SearchResult, error) {
	return g.SearchWith(req, nil, time.Now())
}

// SearchWith is Search with the popularity of the website's behaviour
// model m (nil: none) as of now. Nothing cancels its render (format
// html) but render's bounds.
func (g *Generation) SearchWith(req *SearchRequest, m *behaviour.Model, now time.Time) (*SearchResult, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return g.answer(context.Background(), req, m, now)
}

// answer answers a validated request; ctx cancels its render.
func (g *Generation) answer(ctx context.Context, req *SearchRequest, m *behaviour.Model, now time.Time) (*SearchResult, error) {
	v, err := g.searchVersion(*req.Key, req.ID)
	if err != nil {
		return nil, err
	}
	res := &SearchResult{gen: g, Query: *req.Query, formatHTML: req.Format == "html", deviceType: req.DeviceType, key: *req.Key, wildcard: ranking.WildcardPhrase(*req.Query)}
	opts := ranking.Options{PrefixLast: true, Synonyms: v.synonyms, Fields: v.fields, TypedTypos: v.typed, OptionalStopWords: v.stops, CompoundWords: v.compounds, RareWordTypos: v.rare}
	if req.Products != nil {
		pr, err := g.searchProducts(req, v, opts, m, now)
		if err != nil {
			return nil, err
		}
		res.Products, res.wildcard = pr, pr.wildcard
	}
	for _, c := range []struct {
		kind catalog.ContentKind
		s    *ContentSettings
	}{{catalog.KindCategory, req.Categories}, {catalog.KindBrand, req.Brands}, {catalog.KindSitePage, req.SitePages}, {catalog.KindBlogPost, req.BlogPosts}} {
		if c.s == nil {
			continue
		}
		cr, err := g.searchContent(c.kind, *req.Query, c.s, opts)
		if err != nil {
			return nil, err
		}
		res.Content, res.wildcard = append(res.Content, cr), cr.wildcard
	}
	if req.Redirects != nil {
		res.Redirects = v.searchRedirects(*req.Query, req.Redirects)
	}
	if res.formatHTML {
		html, err := v.tmpl.Execute(ctx, res.view())
		if err != nil {
			return nil, templateError(err)
		}
		res.HTML = render.Wrap(styleOf(v.cfg.Template, v.cfg.Style), html, v.cfg.JavaScript)
	}
	return res, nil
}

// markSponsored flags the template's items that a campaign placed, as
// the json response does; campaigns is by item, nil when none.
func markSponsored(items []render.Item, campaigns []string) {
	if len(items) != len(campaigns) { // none placed, or an item failed to decode
		return
	}
	for i, c := range campaigns {
		if c != "" {
			items[i]["sponsored"], items[i]["retailMediaCampaignId"] = true, c
		}
	}
}

// view decodes the page's documents for a template.
func (r *SearchResult) view() *render.SearchView {
	items := func(seg *index.Segment, hits []ranking.Hit) []render.Item {
		out := make([]render.Item, 0, len(hits))
		for _, h := range hits {
			var it render.Item
			if json.Unmarshal(seg.Stored(h.Doc), &it) == nil {
				out = append(out, it)
			}
		}
		return out
	}
	v := &render.SearchView{Query: r.Query}
	if p := r.Products; p != nil {
		v.Products, v.Total, v.Start, v.Suggested = items(r.gen.Products, p.Hits), p.Total, p.Start, p.Suggested
		markSponsored(v.Products, p.Sponsored)
		v.Initial = items(r.gen.Products, p.Initial)
		if p.withFilters {
			v.Filters = p.Filters
		}
		v.Sorting = p.Sorting
	}
	v.DeviceType = r.deviceType
	for _, c := range r.Content {
		it := items(c.seg, c.Hits)
		switch c.Kind {
		case catalog.KindCategory:
			v.Categories = it
		case catalog.KindBrand:
			v.Brands = it
		case catalog.KindSitePage:
			v.SitePages = it
		case catalog.KindBlogPost:
			v.BlogPosts = it
		}
	}
	if r.Redirects != nil {
		for _, it := range r.Redirects.Items {
			v.Redirects = append(v.Redirects, render.Item{"title": it.Title, "url": it.URL})
		}
	}
	return v
}

// top is the best k of a search read from its routes' impact lists
// (ranking.Impacts.Top; TopRelaxed for a relaxed one, which answers
// when every word but one matches nothing), when it is unsorted, has
// topMin results or more (below that the exhaustive pass is cheaper)
// and its filters keep enough of its matches. ok is false when the
// search must be scored exhaustively.
func (g *Generation) top(v *version, q *ranking.Query, relaxed, sorted bool, all, result ranking.Candidates, boost []float32, k int) ([]ranking.Hit, bool) {
	imp := g.impacts[v]
	if imp == nil || q.Wildcard || sorted || result.GetCardinality() < g.tune.minTop() {
		return nil, false
	}
	// A filter keeping few of the matches makes the lists' kept docs
	// mostly filtered away: reading them would end in giving up.
	if uint64(k)*all.GetCardinality() > maxTopRead*result.GetCardinality() {
		return nil, false
	}
	var bo *ranking.BoostOrder
	if boost != nil {
		if bo = g.boostOrder(v, boost); bo == nil {
			return nil, false
		}
	}
	if relaxed {
		return imp.TopRelaxed(q, result, &v.params, boost, bo, k, nil)
	}
	return imp.Top(q, result, &v.params, boost, bo, k, nil)
}

// maxTopRead is about how many list entries a search may
// expect to read, k times the matches per result, before it is scored
// exhaustively instead: half of what a list keeps.
const maxTopRead = 512

// WarmLists has every search configuration's live version build its
// impact lists in the background (ranking.Impacts.Warm), as a server
// does once it has loaded or built its index; searches until then are
// scored exhaustively.
func (g *Generation) WarmLists() {
	for _, sc := range g.search {
		if imp := g.impacts[sc.live]; imp != nil {
			imp.Warm()
		}
	}
}

// ShareLists has g read the impact lists prev built, or is building, for
// each of g's versions whose ranking parameters (field weights, length
// normalizations, k1) one of prev's versions has, when both serve the
// same product index: a configuration change that leaves the index and
// the ranking alone builds no list again. Call it on a generation not
// yet served, before WarmLists.
func (g *Generation) ShareLists(prev *Generation) {
	if prev == nil || prev.Products != g.Products {
		return
	}
	for v := range g.impacts {
		for pv, imp := range prev.impacts {
			if pv.params == v.params {
				g.impacts[v] = imp
				break
			}
		}
	}
}

// Warming reports whether a live version's impact lists (and common
// terms' weights) are still being built in the background: searches
// meanwhile are scored exhaustively, as a benchmark measuring the
// steady state waits out.
func (g *Generation) Warming() bool {
	for _, sc := range g.search {
		if imp := g.impacts[sc.live]; imp != nil && imp.Warming() {
			return true
		}
	}
	return false
}

// topMin is the result size from which a search reads its impact
// lists.
const topMin = 4096

func (g *Generation) searchProducts(req *SearchRequest, v *version, opts ranking.Options, m *behaviour.Model, now time.Time) (*ProductResult, error) {
	ps := req.Products
	start, count, _ := ps.window("products")
	seg := g.Products
	dv := v.device(req.DeviceType)
	filters, err := compileFilters(seg, g.fields, ps.Filters)
	if err != nil {
		return nil, err
	}
	sorts, err := compileSorting(g.fields, ps.Sorting)
	if err != nil {
		return nil, err
	}
	for _, name := range ps.ExcludeSiblingFilters {
		if _, ok := g.fields[name]; !ok {
			return nil, Invalid("products.excludeSiblingFilters", "field %q is not an indexed field", name)
		}
	}
	q := ranking.Parse(seg, g.an, *req.Query, opts)
	all, direct, relaxed, release := ranking.MatchSets(seg, &q)
	defer release()
	// The results: the matches, read only, or a filtered copy.
	var result ranking.Candidates = all
	var filtered *roaring.Bitmap
	if len(filters) > 0 {
		filtered = all.Bitmap().Clone()
		applyFilters(filtered, filters, -1, seg.Len())
		result = filtered
	}
	resultBitmap := func() *roaring.Bitmap {
		if filtered != nil {
			return filtered
		}
		return all.Bitmap()
	}
	pr := &ProductResult{Start: start, Requested: count, Total: int(result.GetCardinality()), Fields: ps.Fields, wildcard: q.Wildcard}

	// Suggested status over the whole result set.
	var directHits uint64
	switch {
	case direct == all:
		directHits = result.GetCardinality()
	case filtered == nil:
		directHits = all.AndCardinality(direct)
	default:
		directHits = direct.CountIn(filtered)
	}
	switch {
	case directHits == result.GetCardinality():
		pr.SuggestedStatus = NoSuggested
	case directHits == 0:
		pr.SuggestedStatus = OnlySuggested
	default:
		pr.SuggestedStatus = MixedSuggest
	}

	keys := make([]ranking.SortKey, 0, len(sorts))
	for _, s := range sorts {
		keys = append(keys, ranking.SortKey{Rank: seg.SortRank(s.field), Desc: s.desc})
	}
	sps := g.sponsors(&adRequest{placement: config.PlaceSearch, device: req.DeviceType, review: bool(req.IncludeRetailMediaInReview),
		now: now, query: *req.Query, result: resultBitmap, total: pr.Total,
		allowed: func(doc uint32) bool { return g.filtersAllow(doc, nil, filters) }}, start+count)
	var boost []float32
	if !q.Wildcard || v.boosts.Listing == config.ListingPopularity {
		boost = g.boost(v, m, now)
	}
	var title, personal func([]ranking.Hit)
	if len(keys) == 0 && !q.Wildcard {
		title = g.titleRerank(&q, v.proximity, v.exactForms)
	}
	if len(keys) == 0 {
		personal = g.personalRerank(m, req.TrackingUserID, &v.personal, now, q.Wildcard, relaxed)
	}
	rerank, depth := reranks(rerankAt{title, config.ProximityDepth}, rerankAt{personal, PersonalDepth})
	best := func(n int) []ranking.Hit {
		if hits, ok := g.top(v, &q, relaxed, len(keys) > 0, all, result, boost, n); ok {
			return hits
		}
		sc := ranking.GetScratch()
		var scores []float32
		switch {
		case !q.Wildcard:
			if imp := g.impacts[v]; imp != nil { // with the common terms' weights
				imp.ScoreBM25F(sc, &q, result, &v.params, relaxed, boost)
			} else {
				sc.ScoreBM25F(seg, &q, result, &v.params, relaxed, boost)
			}
			scores = sc.Score
		case v.boosts.Listing == config.ListingPopularity:
			if boost != nil {
				sc.ScoreBoost(result, boost)
				scores = sc.Score
				break
			}
			sc.Collect(result)
		default:
			sc.Collect(result)
		}
		return g.scored(sc, scores, keys)(n)
	}
	pr.Hits, pr.Sponsored = g.window(best, sps, start, count, rerank, depth)
	pr.Suggested = make([]bool, len(pr.Hits))
	for i, h := range pr.Hits {
		pr.Suggested[i] = !direct.Contains(h.Doc)
	}

	if ps.ReturnFilters {
		pr.withFilters = true
		pr.Filters = g.facets(seg, dv, all.Bitmap(), resultBitmap(), filters, ps.ExcludeSiblingFilters)
	}
	pr.Sorting = sortingOut(dv.sorting, v.sortQueries, sorts)
	if ps.ReturnInitialContent || pr.Total == 0 {
		pr.Initial, err = g.initialContent(v)
		if err != nil {
			return nil, err
		}
	}
	return pr, nil
}

// facets counts each configured facet. A field's own filter is left out of
// its base (disjunctive counts) unless the request names it in
// excludeSiblingFilters, where values come from the current result set.
func (g *Generation) facets(seg *index.Segment, dv deviceView, all, result *roaring.Bitmap, filters []fieldFilter, exclude []string) []FacetOut {
	out := make([]FacetOut, 0, len(dv.facets))
	var c facets.Counter
	for _, fc := range dv.facets {
		own := -1
		for i := range filters {
			if filters[i].field == fc.Field {
				own = i
			}
		}
		base := result
		if own >= 0 && !slices.Contains(exclude, fc.Field) {
			base = all.Clone()
			applyFilters(base, filters, own, seg.Len())
		}
		var ownFilters []Filter
		if own >= 0 {
			ownFilters = filters[own].filters
		}
		fo := FacetOut{Name: fc.Field, Settings: FacetSettingOut{Name: fc.Field, Type: string(fc.Type), Title: fc.Title}}
		switch fc.Type {
		case config.FacetRange:
			g.rangeFacet(seg, &c, fc, base, ownFilters, &fo)
		case config.FacetBoolean:
			fo.Settings.FilteringText, fo.Settings.NegatedFilteringText = fc.FilteringText, fc.NegatedFilteringText
			g.listFacet(seg, &c, fc, base, ownFilters, dv.maxValues, &fo)
		default:
			g.listFacet(seg, &c, fc, base, ownFilters, dv.maxValues, &fo)
		}
		out = append(out, fo)
	}
	return out
}

func (g *Generation) listFacet(seg *index.Segment, c *facets.Counter, fc config.Facet, base *roaring.Bitmap, own []Filter, maxValues int, fo *FacetOut) {
	kf := seg.Keyword(fc.Field)
	if kf == nil {
		fo.Values = &[]FacetValueOut{}
		return
	}
	counts := c.Keyword(kf, base)
	selected := make(map[uint32]bool, len(own))
	for _, f := range own {
		if id, ok := kf.Lookup(foldString(f.Value)); ok {
			selected[id] = true
		}
	}
	hier := kf.Depth != nil
	// Hierarchies drill down: below the top level, show the children of
	// selected nodes and of their ancestors.
	var open map[uint32]bool
	if hier {
		open = make(map[uint32]bool, len(selected))
		for id := range selected {
			for p := int32(id); p >= 0 && !open[uint32(p)]; p = kf.Parent[p] {
				open[uint32(p)] = true
			}
		}
	}
	type cand struct {
		id    uint32
		count uint32
	}
	var cands []cand
	for id, n := range counts {
		id := uint32(id)
		if n == 0 && !selected[id] {
			continue
		}
		if hier && kf.Depth[id] > 1 && !selected[id] {
			if p := kf.Parent[id]; p < 0 || !open[uint32(p)] {
				continue
			}
		}
		cands = append(cands, cand{id, n})
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if fc.Type == config.FacetBoolean {
			return -strings.Compare(kf.Values[a.id], kf.Values[b.id]) // true first
		}
		if a.count != b.count {
			return int(b.count) - int(a.count)
		}
		// Then by title: a hierarchy node's own name, not its path.
		if hier {
			if c := strings.Compare(facetTitle(kf.Values[a.id], true), facetTitle(kf.Values[b.id], true)); c != 0 {
				return c
			}
		}
		return strings.Compare(kf.Values[a.id], kf.Values[b.id])
	})
	values := make([]FacetValueOut, 0, min(len(cands), maxValues))
	defer func() { fo.Values = &values }()
	for i, cd := range cands {
		if i >= maxValues && !selected[cd.id] {
			continue
		}
		val := kf.Values[cd.id]
		values = append(values, FacetValueOut{
			Title:    facetTitle(val, hier),
			Count:    int(cd.count),
			Query:    fc.Field + ":" + val,
			Selected: selected[cd.id],
		})
	}
}

// facetTitle is a hierarchy value's last level, or the value itself.
func facetTitle(v string, hier bool) string {
	if !hier {
		return v
	}
	t := v[:len(v)-1]
	for i := len(t) - 1; i >= 0; i-- {
		if t[i] == '$' {
			return t[i+1:]
		}
	}
	return t
}

func (g *Generation) rangeFacet(seg *index.Segment, c *facets.Counter, fc config.Facet, base *roaring.Bitmap, own []Filter, fo *FacetOut) {
	isDate := g.fields[fc.Field].Type == config.TypeDate
	format := func(v float64) *string {
		var s string
		if isDate {
			s = time.Unix(int64(v), 0).UTC().Format(time.RFC3339)
		} else {
			s = strconv.FormatFloat(v, 'f', -1, 64)
		}
		return &s
	}
	if nf := seg.Numeric(fc.Field); nf != nil {
		if lo, hi, ok := c.Range(nf, base); ok {
			fo.Min, fo.Max = format(lo), format(hi)
		}
	}
	if len(own) > 0 {
		f := own[len(own)-1]
		if !math.IsInf(f.Min, -1) {
			fo.SelectedMin = format(f.Min)
		} else if fo.Min != nil {
			fo.SelectedMin = fo.Min
		}
		if !math.IsInf(f.Max, 1) {
			fo.SelectedMax = format(f.Max)
		} else if fo.Max != nil {
			fo.SelectedMax = fo.Max
		}
	}
}

func sortingOut(opts []config.SortOption, queries map[string][2]string, sorts []sortSpec) []SortOut {
	out := make([]SortOut, 0, len(opts))
	for _, o := range opts {
		q := queries[o.Field] // every option's: sortQueries
		asc, desc := q[0], q[1]
		so := SortOut{
			Name:       o.Field,
			Settings:   SortSettingOut{Name: o.Field, Title: o.Title, AscendingText: o.AscendingText, DescendingText: o.DescendingText},
			Ascending:  SortChoiceOut{Query: asc},
			Descending: SortChoiceOut{Query: desc},
		}
		if len(sorts) > 0 && sorts[0].field == o.Field {
			so.Ascending.Selected = !sorts[0].desc
			so.Descending.Selected = sorts[0].desc
		}
		out = append(out, so)
	}
	return out
}

// sortQueries is each sortable field's two sorting queries ("price
// asc", "price desc") of a version's options and its devices', made
// once when the version is compiled rather than for every search.
func sortQueries(v *config.SearchVersion) map[string][2]string {
	out := map[string][2]string{}
	add := func(opts []config.SortOption) {
		for _, o := range opts {
			out[o.Field] = [2]string{o.Field + " asc", o.Field + " desc"}
		}
	}
	add(v.Sorting)
	for _, d := range v.Devices {
		add(d.Sorting)
	}
	return out
}

// initialContent lists the configured products, or the configured
// filtered listing. It depends only on the version and the catalog, so it
// is computed once per generation.
func (g *Generation) initialContent(v *version) ([]ranking.Hit, error) {
	c := g.initial[v]
	c.once.Do(func() { c.hits, c.err = g.computeInitial(v) })
	return c.hits, c.err
}

func (g *Generation) computeInitial(v *version) ([]ranking.Hit, error) {
	ic := v.cfg.InitialContent
	if ic == nil {
		return nil, nil
	}
	seg := g.Products
	if len(ic.ProductNumbers) > 0 {
		hits := make([]ranking.Hit, 0, len(ic.ProductNumbers))
		for _, pn := range ic.ProductNumbers {
			if d, ok := seg.DocByKey(foldString(pn)); ok {
				hits = append(hits, ranking.Hit{Doc: d})
			}
		}
		return hits, nil
	}
	filters, err := compileFilters(seg, g.fields, ic.Filters)
	if err != nil {
		return nil, err
	}
	sorts, err := compileSorting(g.fields, ic.Sorting)
	if err != nil {
		return nil, err
	}
	set := seg.All().Clone()
	applyFilters(set, filters, -1, seg.Len())
	keys := make([]ranking.SortKey, 0, len(sorts))
	for _, s := range sorts {
		keys = append(keys, ranking.SortKey{Rank: seg.SortRank(s.field), Desc: s.desc})
	}
	n := ic.Count
	if n <= 0 {
		n = 10
	}
	sc := ranking.GetScratch()
	defer ranking.PutScratch(sc)
	sc.Collect(set)
	return ranking.TopNOrdered(sc.Docs, nil, keys, seg.Order(), n, nil), nil
}

var contentParams = func() ranking.Params {
	p := ranking.DefaultParams()
	p.Weights = [index.NumTextFields]float32{index.FieldTitle: 5, index.FieldCategory: 2, index.FieldKeywords: 2, index.FieldDescription: 1}
	return p
}()

// contentText are the text fields content items are searched in: those
// contentParams weighs.
var contentText = index.FieldTitle.Mask() | index.FieldCategory.Mask() | index.FieldKeywords.Mask() | index.FieldDescription.Mask()

func (g *Generation) searchContent(kind catalog.ContentKind, query string, s *ContentSettings, opts ranking.Options) (*ContentResult, error) {
	start, count, _ := s.window(string(kind))
	seg := g.Content[kind]
	filters, err := compileFilters(seg, contentFields, s.Filters)
	if err != nil {
		var e *Error
		if as(err, &e) {
			e.Field = string(kind) + ".filters"
		}
		return nil, err
	}
	opts.Fields = contentText
	q := ranking.Parse(seg, g.an, query, opts)
	all, _, relaxed := ranking.Match(seg, &q)
	applyFilters(all, filters, -1, seg.Len())
	cr := &ContentResult{Kind: kind, Start: start, Requested: count, Total: int(all.GetCardinality()), Fields: s.Fields, seg: seg, wildcard: q.Wildcard}
	sc := ranking.GetScratch()
	var scores []float32
	if q.Wildcard {
		sc.Collect(all)
	} else {
		sc.ScoreBM25F(seg, &q, all, &contentParams, relaxed, nil)
		scores = sc.Score
	}
	hits := ranking.TopN(sc.Docs, scores, nil, start+count, nil)
	ranking.PutScratch(sc)
	if start < len(hits) {
		cr.Hits = hits[start:]
	}
	return cr, nil
}

func (v *version) searchRedirects(query string, p *PageSettings) *RedirectResult {
	start, count, _ := p.window("redirects")
	rr := &RedirectResult{Start: start, Requested: count, Items: []RedirectOut{}}
	r, ok := v.redirects[analysis.FoldPhrase(query)]
	if !ok {
		return rr
	}
	rr.Total = 1
	if start == 0 && count > 0 {
		url := r.URL
		if r.TrackingCode != "" {
			url += "#aisle-redirect=" + r.TrackingCode
		}
		title := r.Title
		if title == "" {
			title = r.Queries[0]
		}
		rr.Items = append(rr.Items, RedirectOut{Title: title, URL: url, TrackingCode: r.TrackingCode, OriginalURL: r.URL})
	}
	return rr
}
