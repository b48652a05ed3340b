package engine

import (
	"context"
	"sync"
	"time"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/ranking"
	"github.com/aisle-search/aisle/render"
)

// page is a managed page compiled for serving.
type page struct {
	cfg  *config.Page
	live *pageVersion
	byID map[int]*pageVersion
}

// pageVersion is a page version compiled: its base filter, its template,
// and its listing settings as a search version (facets, sorting options,
// devices, boosts), on which the generation's boost caches key.
type pageVersion struct {
	key  string // the page's
	name string
	cfg  *config.PageVersion
	base baseFilter
	v    *version
	tmpl *render.Template
}

// baseCache is a page version's base filter docs on one generation's
// products, gathered on first use; read only.
type baseCache struct {
	once sync.Once
	docs *roaring.Bitmap
	err  error
}

// compilePage compiles a page's versions.
func (g *Generation) compilePage(p *config.Page) (*page, error) {
	out := &page{cfg: p, byID: map[int]*pageVersion{}}
	for i := range p.Versions {
		pv := &p.Versions[i]
		base, err := parseBaseFilter(pv.Filters, g.fields, "filters")
		if err != nil {
			return nil, err
		}
		if _, err := compileSorting(g.fields, pv.Sorting); err != nil {
			return nil, err
		}
		tmpl, err := render.CompilePage("page "+p.Key, pv.Template)
		if err == nil {
			err = checkTemplate(tmpl, samplePage(p, pv))
		}
		if err != nil {
			return nil, err
		}
		sv := &config.SearchVersion{ID: pv.ID, Status: pv.Status, Facets: pv.Facets, Sorting: pv.SortOptions,
			Devices: pv.Devices, MaxFacetValues: pv.MaxFacetValues, Boosts: pv.Boosts}
		v := &version{cfg: sv, params: ranking.DefaultParams(), boosts: sv.BoostsOrDefault(), sortQueries: sortQueries(sv)}
		if s, ok := g.Website.SearchConfig(pv.SearchConfig); ok {
			v.personal = weightsOf(s.Personalization)
		}
		c := &pageVersion{key: p.Key, name: p.Name, cfg: pv, base: base, v: v, tmpl: tmpl}
		out.byID[pv.ID] = c
		if pv.Status == config.StatusLive {
			out.live = c
		}
	}
	return out, nil
}

// styleOf is the style of a template: its configured style, or the
// built-in style when the built-in template (src "") has none.
func styleOf(src, style string) string {
	if src == "" && style == "" {
		return render.DefaultStyle
	}
	return style
}

// pageVersion finds the live version of page key, or the version id.
func (g *Generation) pageVersion(key string, id *int) (*pageVersion, error) {
	p, ok := g.pages[key]
	if !ok {
		return nil, NotFound("key", "no page with key %q", key)
	}
	if id == nil {
		return p.live, nil
	}
	pv, ok := p.byID[*id]
	if !ok {
		return nil, NotFound("id", "page %q has no version %d", key, *id)
	}
	return pv, nil
}

// pageBase is pv's base filter docs on g's products: cached, read only.
func (g *Generation) pageBase(pv *pageVersion) (*roaring.Bitmap, error) {
	c := g.pageBases[pv]
	if c == nil { // compiled without caches (CheckWebsite)
		return g.baseDocs(&pv.base)
	}
	c.once.Do(func() { c.docs, c.err = g.baseDocs(&pv.base) })
	return c.docs, c.err
}

// paramsBase is a request's base filter docs, cached with the
// recommendation filters (read only).
func (g *Generation) paramsBase(f *baseFilter) (*roaring.Bitmap, error) {
	key := "page\x00" + f.key
	if bm, ok := g.filters.get(key); ok {
		return bm, nil
	}
	bm, err := g.baseDocs(f)
	if err == nil {
		g.filters.put(key, bm)
	}
	return bm, err
}

// Page finds a page's website by key (NotFound first: an unknown page is
// a 404 whatever the body), authorises the API key, checks the request,
// and answers it with the popularity of the website's
// behaviour as of now. ctx cancels its render (format html).
func (e *Engine) Page(ctx context.Context, key string, req *PageRequest, apiKey string, now time.Time) (*PageResult, error) {
	g, ok := e.sites.Load().byPage[key]
	if !ok {
		return nil, NotFound("key", "no page with key %q", key)
	}
	if err := e.Authorize(g, apiKey); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	var m *behaviour.Model
	if e.bhv != nil {
		m = e.bhv.Model(g.Website.UUID)
	}
	res, err := g.Page(ctx, key, req, m, now)
	if err == nil {
		e.searches.count(SearchListing)
	}
	return res, err
}

// Page answers a validated page request on g with the popularity of m
// (nil: none) as of now; ctx cancels its render (format html).
func (g *Generation) Page(ctx context.Context, key string, req *PageRequest, m *behaviour.Model, now time.Time) (*PageResult, error) {
	pv, err := g.pageVersion(key, req.ID)
	if err != nil {
		return nil, err
	}
	ps := req.Products
	start, count, _ := ps.window("products")
	seg := g.Products
	base, err := g.pageBase(pv)
	if err != nil {
		return nil, err
	}
	if len(req.Params.Filters) > 0 {
		f, err := parseBaseFilter(req.Params.Filters, g.fields, "params.filters")
		if err != nil {
			return nil, err
		}
		if !f.allowsAll() {
			pb, err := g.paramsBase(&f)
			if err != nil {
				return nil, err
			}
			base = roaring.And(base, pb)
		}
	}
	filters, err := compileFilters(seg, g.fields, ps.Filters)
	if err != nil {
		return nil, err
	}
	sorting := ps.Sorting
	if len(sorting) == 0 {
		sorting = pv.cfg.Sorting
	}
	sorts, err := compileSorting(g.fields, sorting)
	if err != nil {
		return nil, err
	}
	result := base.Clone()
	applyFilters(result, filters, -1, seg.Len())
	res := &PageResult{gen: g, pv: pv, Website: g.Website.UUID, FirstLoad: bool(*req.FirstLoad), HTML: req.html(),
		Start: start, Total: int(result.GetCardinality()), Fields: ps.Fields, DeviceType: req.DeviceType, url: *req.URL}
	keys := make([]ranking.SortKey, 0, len(sorts))
	for _, s := range sorts {
		keys = append(keys, ranking.SortKey{Rank: seg.SortRank(s.field), Desc: s.desc})
	}
	sc := ranking.GetScratch()
	var scores []float32
	if boost := g.boost(pv.v, m, now); boost != nil && len(sorts) == 0 && pv.v.boosts.Listing == config.ListingPopularity {
		sc.ScoreBoost(result, boost)
		scores = sc.Score
	} else {
		sc.Collect(result)
	}
	sps := g.sponsors(&adRequest{placement: config.PlacePages, device: req.DeviceType, review: bool(req.IncludeRetailMediaInReview),
		now: now, result: func() *roaring.Bitmap { return result }, total: res.Total,
		allowed: func(doc uint32) bool { return g.filtersAllow(doc, base, filters) }}, start+count)
	var personal func([]ranking.Hit)
	if len(keys) == 0 {
		personal = g.personalRerank(m, req.TrackingUserID, &pv.v.personal, now, true, false)
	}
	rerank, depth := reranks(rerankAt{personal, PersonalDepth})
	res.Hits, res.Sponsored = g.window(g.scored(sc, scores, keys), sps, start, count, rerank, depth)
	if res.FirstLoad {
		dv := pv.v.device(req.DeviceType)
		res.Filters = g.facets(seg, dv, base, result, filters, nil)
		res.Sorting = sortingOut(dv.sorting, pv.v.sortQueries, sorts)
	}
	if res.HTML {
		if res.Rendered, err = pv.tmpl.Execute(ctx, res.view()); err != nil {
			return nil, templateError(err)
		}
	}
	return res, nil
}
