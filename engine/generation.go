package engine

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/ranking"
	"github.com/aisle-search/aisle/render"
)

// Generation is one consistent state of a website: its catalog index,
// content indexes and compiled configuration. Requests read one generation
// from start to end; the next one is swapped in whole.
type Generation struct {
	Seq uint64 // the store's log position it reflects
	// ProductSeq is the last entry that changed the website's products
	// its product index holds (store.ProductSeq then): the stamp it is
	// saved under.
	ProductSeq uint64
	Website    *config.Website
	Products   *index.Segment
	Content    map[catalog.ContentKind]*index.Segment
	an         *analysis.Analyzer
	// Unsaved: the product index is newer than the saved one (the write
	// side replayed the log onto it and has yet to save it).
	Unsaved bool
	fields  map[string]config.IndexedField
	search  map[string]*searchConfig // compiled from Website alone: shared by generations of one configuration
	boxes   map[string]*box          // the managed recommendation boxes, compiled likewise
	pages   map[string]*page         // the managed pages, compiled likewise
	// campaigns are the retail media campaigns, in configuration order.
	campaigns []*campaign
	// initial caches each version's initial content on Products: a
	// generation with other products has caches of its own.
	initial map[*version]*initialCache
	// boosts caches each version's boost vector on Products, likewise.
	boosts map[*version]*boostCache
	// filters caches recommendation source filters and page requests'
	// base filters on Products.
	filters *filterCache
	// pageBases caches each page version's base filter docs on Products.
	pageBases map[*pageVersion]*baseCache
	// impacts are each search version's impact lists on Products
	// (ranking.Impacts), built term by term in the background: all the
	// long ones after WarmLists, else each on a search's first need.
	impacts map[*version]*ranking.Impacts
	// ranked are the behaviour's rankings resolved to Products' docs.
	ranked *rankedCaches
	// personal is the indexed fields personalization reads on Products;
	// profiles the visitors' profiles made lately on them.
	personal    personalFields
	personalCol *personalColumn
	profiles    *profileCache
	tune        tuning // the zero value but in tests (tuning.go)
}

type searchConfig struct {
	live *version
	byID map[int]*version
}

// version is a search configuration version compiled for serving.
type version struct {
	cfg        *config.SearchVersion
	params     ranking.Params
	fields     index.FieldMask // the text fields the version searches
	synonyms   *ranking.Synonyms
	redirects  map[string]*config.Redirect // folded query → redirect
	tmpl       *render.Template
	boosts     config.Boosts // the version's, or config.DefaultBoosts
	proximity  float64       // the version's weight, or config.DefaultProximity
	exactForms float64       // the version's weight, or config.DefaultExactForms
	typed      bool          // typos of the word as typed (config TypedTypos)
	compounds  bool          // words written apart or together (config CompoundWords)
	rare       bool          // rare words' typos (config RareWordTypos)
	stops      bool          // optional stop words in partial matches (config OptionalStopWords)
	// sortQueries are the sortable fields' "f asc" and "f desc", made once.
	sortQueries map[string][2]string
	// personal is the personalization of the version's search
	// configuration (a page's: of the one it names).
	personal personalWeights
}

// initialCache is a version's initial content on one generation's
// products, computed on first use.
type initialCache struct {
	once sync.Once
	hits []ranking.Hit
	err  error
}

// Source feeds a generation build: products and content items in order.
type Source struct {
	Products func(fn func(*catalog.Product) error) error
	Content  func(fn func(*catalog.Content) error) error
}

// Progress reports products indexed so far; may be nil.
type Progress func(done int)

// Build indexes a website's catalog into a new generation.
func Build(w *config.Website, lang analysis.Language, src Source, progress Progress) (*Generation, error) {
	seg, err := IndexProducts(w, analysis.New(lang), src.Products, progress)
	if err != nil {
		return nil, err
	}
	return Assemble(w, lang, seg, src.Content)
}

// IndexProducts builds the product segment of a website's catalog. The
// source is read on one goroutine, products are encoded and tokenized on
// every core, and one goroutine adds them in source order, so the doc ids
// are the same as a serial build's.
func IndexProducts(w *config.Website, an *analysis.Analyzer, products func(fn func(*catalog.Product) error) error, progress Progress) (*index.Segment, error) {
	if products == nil {
		return index.NewBuilder(an).Build(), nil
	}
	return indexFeed(w, an, decodedFeed(products), progress)
}

// IndexKeeping is IndexProducts that also gives keep every product's
// number and JSON in feed order, to keep unchanged (an import's bulk
// write into the store), so each product is encoded once. It returns
// once the feed is read; build lays the segment out, which the caller
// may do beside committing what keep was given. With an nil nothing is
// indexed and the products only pass to keep. A repeated product number
// stops the indexing (build is nil) but not keep: the store's last write
// wins, and the caller rebuilds from it.
func IndexKeeping(w *config.Website, an *analysis.Analyzer, products func(fn func(*catalog.Product) error) error, progress Progress, keep func(key string, stored []byte) error) (build func() *index.Segment, err error) {
	pl := pipeline{w: w, progress: progress, keep: keep}
	if an != nil {
		pl.b = index.NewBuilder(an)
	}
	if err := pl.run(decodedFeed(products)); err != nil {
		return nil, err
	}
	if pl.b == nil {
		return nil, nil
	}
	return pl.b.Build, nil
}

// RawProducts yields products in the JSON a catalog.Product marshals to,
// as the store keeps them; the bytes are valid during the call only.
type RawProducts func(fn func(raw []byte) error) error

// IndexStoredProducts is IndexProducts over products as the store keeps
// them: the JSON is decoded on every core, not on the reading goroutine,
// and kept as the stored document instead of being encoded again.
func IndexStoredProducts(w *config.Website, an *analysis.Analyzer, raw RawProducts, progress Progress) (*index.Segment, error) {
	return indexFeed(w, an, func(emit func(*catalog.Product, []byte) error) error {
		return raw(func(b []byte) error { return emit(nil, b) })
	}, progress)
}

// feed emits decoded products (raw nil) or stored JSON (p nil).
type feed func(emit func(p *catalog.Product, raw []byte) error) error

func decodedFeed(products func(fn func(*catalog.Product) error) error) feed {
	return func(emit func(*catalog.Product, []byte) error) error {
		return products(func(p *catalog.Product) error { return emit(p, nil) })
	}
}

// indexFeed runs a feed through the pipeline into a new segment.
func indexFeed(w *config.Website, an *analysis.Analyzer, f feed, progress Progress) (*index.Segment, error) {
	pl := pipeline{w: w, b: index.NewBuilder(an), progress: progress}
	if err := pl.run(f); err != nil {
		return nil, err
	}
	return pl.b.Build(), nil
}

// pipeline indexes a feed of products on every core, in feed order.
type pipeline struct {
	w *config.Website
	// b receives the docs; nil indexes nothing (the products only pass
	// to keep).
	b *index.Builder
	// keep, when set, is given every product's number and JSON in feed
	// order, to keep unchanged (a store's bulk write). A repeated product
	// number then stops the indexing (b is set to nil) instead of
	// failing: the store's last write wins, and the caller rebuilds.
	keep     func(key string, stored []byte) error
	progress Progress
	done     int // products through the ordered stage
}

// run passes a feed through the pipeline.
func (pl *pipeline) run(feed feed) error {
	const chunk = 256
	type batch struct {
		products []catalog.Product
		raw      [][]byte // stored JSON per product, when fed raw
		arena    []byte   // raw's bytes
		first    int      // the feed position of products[0], for errors
		docs     []index.Doc
		prep     []index.Prepared
		err      error
		done     chan struct{}
	}
	var indexing atomic.Bool // workers skip tokenizing once b is dropped
	indexing.Store(pl.b != nil)
	prep := pl.b // Prepare reads only its analyzer: safe beside add
	workers := max(runtime.GOMAXPROCS(0), 1)
	work := make(chan *batch, 2*workers)
	ordered := make(chan *batch, 2*workers)
	free := make(chan *batch, 4*workers)
	for range 4 * workers {
		free <- &batch{docs: make([]index.Doc, chunk), prep: make([]index.Prepared, chunk)}
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for bt := range work {
				for i := range bt.products {
					p := &bt.products[i]
					var stored []byte
					if bt.raw != nil {
						stored = bt.raw[i]
						if err := json.Unmarshal(stored, p); err != nil {
							bt.err = fmt.Errorf("stored product %d: %w", bt.first+i+1, err)
							break
						}
					}
					if err := ProductDoc(p, pl.w.IndexedFields, stored, &bt.docs[i]); err != nil {
						bt.err = fmt.Errorf("product %s: %w", p.ProductNumber, err)
						break
					}
					if indexing.Load() {
						prep.Prepare(&bt.docs[i], &bt.prep[i])
					}
				}
				close(bt.done)
			}
		}()
	}
	stop := make(chan struct{})
	readErr := make(chan error, 1)
	go func() {
		defer close(ordered)
		defer close(work)
		var cur *batch
		fed := 0
		send := func() bool {
			select {
			case work <- cur:
			case <-stop:
				return false
			}
			select {
			case ordered <- cur:
			case <-stop:
				return false
			}
			cur = nil
			return true
		}
		err := feed(func(p *catalog.Product, raw []byte) error {
			if cur == nil {
				select {
				case cur = <-free:
				case <-stop:
					return errStopped
				}
				cur.products, cur.err, cur.done = cur.products[:0], nil, make(chan struct{})
				cur.raw, cur.arena, cur.first = cur.raw[:0], cur.arena[:0], fed
			}
			fed++
			if p == nil {
				// Decoded by a worker; the arena's chunks are never moved
				// once referenced, so raw slices stay valid.
				if cap(cur.arena)-len(cur.arena) < len(raw) {
					cur.arena = make([]byte, 0, max(256<<10, len(raw)))
				}
				s := len(cur.arena)
				cur.arena = append(cur.arena, raw...)
				cur.raw = append(cur.raw, cur.arena[s:len(cur.arena):len(cur.arena)])
				cur.products = append(cur.products, catalog.Product{})
			} else {
				cur.raw = nil
				cur.products = append(cur.products, *p)
			}
			if len(cur.products) == chunk && !send() {
				return errStopped
			}
			return nil
		})
		if err == nil && cur != nil {
			send()
		}
		readErr <- err
	}()
	var addErr error
	for bt := range ordered {
		<-bt.done
		if addErr == nil {
			addErr = bt.err
			for i := range bt.products {
				if addErr != nil {
					break
				}
				addErr = pl.add(&bt.docs[i], &bt.prep[i], &indexing)
			}
			if addErr != nil {
				close(stop)
			}
		}
		free <- bt
	}
	wg.Wait()
	if err := <-readErr; err != nil && !errors.Is(err, errStopped) {
		return err // the feed's own error names its source
	}
	if addErr != nil {
		return fmt.Errorf("index products: %w", addErr)
	}
	if pl.progress != nil {
		pl.progress(pl.done)
	}
	return nil
}

// add is the ordered stage for one doc.
func (pl *pipeline) add(d *index.Doc, p *index.Prepared, indexing *atomic.Bool) error {
	if pl.keep != nil {
		if !d.KeepStored { // raw bytes in a reused batch arena
			d.Stored, d.KeepStored = bytes.Clone(d.Stored), true
		}
		if err := pl.keep(d.Key, d.Stored); err != nil {
			return err
		}
	}
	if pl.b != nil {
		if err := pl.b.AddPrepared(d, p); err != nil {
			if pl.keep == nil || !errors.Is(err, index.ErrDuplicateKey) {
				return fmt.Errorf("product %s: %w", d.Key, err)
			}
			pl.b = nil
			indexing.Store(false)
		}
	}
	pl.done++
	if pl.progress != nil && pl.done%10000 == 0 {
		pl.progress(pl.done)
	}
	return nil
}

var errStopped = errors.New("indexing stopped")

// Assemble makes a generation from a product segment (built or loaded),
// the content items, and the website's configuration.
func Assemble(w *config.Website, lang analysis.Language, products *index.Segment, content func(fn func(*catalog.Content) error) error) (*Generation, error) {
	an := analysis.New(lang)
	g := &Generation{Website: w, an: an, fields: map[string]config.IndexedField{}, Content: map[catalog.ContentKind]*index.Segment{}, Products: products}
	for _, f := range w.IndexedFields {
		g.fields[f.Name] = f
	}
	var err error
	if g.Content, err = IndexContent(an, content); err != nil {
		return nil, err
	}
	if err := g.compile(); err != nil {
		return nil, err
	}
	return g, nil
}

// IndexContent indexes content items, one segment per kind.
func IndexContent(an *analysis.Analyzer, content func(fn func(*catalog.Content) error) error) (map[catalog.ContentKind]*index.Segment, error) {
	var d index.Doc
	cb := map[catalog.ContentKind]*index.Builder{}
	for _, k := range catalog.ContentKinds {
		cb[k] = index.NewBuilder(an)
	}
	if content != nil {
		err := content(func(c *catalog.Content) error {
			bk, ok := cb[c.Kind]
			if !ok {
				return fmt.Errorf("content %s: unknown kind %q", c.ID, c.Kind)
			}
			if err := ContentDoc(c, &d); err != nil {
				return fmt.Errorf("content %s: %w", c.ID, err)
			}
			return bk.Add(&d)
		})
		if err != nil {
			return nil, fmt.Errorf("index content: %w", err)
		}
	}
	out := make(map[catalog.ContentKind]*index.Segment, len(cb))
	for k, bk := range cb {
		out[k] = bk.Build()
	}
	return out, nil
}

// WithProducts is g serving products instead, at log position seq, whose
// last product entry is pseq: content and compiled configurations are
// shared, the caches are new. When sameIDs, products keeps the doc ids
// of g's (a write, not a compaction) and the boost vectors are carried
// over to be rebuilt.
func (g *Generation) WithProducts(products *index.Segment, seq, pseq uint64, sameIDs bool) *Generation {
	n := *g
	n.Products, n.Seq, n.ProductSeq = products, seq, pseq
	n.Unsaved = false // the write side saves the writes' own
	n.newCaches()
	if sameIDs {
		n.seedBoosts(g)
	}
	if g.Products != nil && g.Products.SameText(products) {
		// A column write: the impact lists and term weights built, or
		// being built, hold for the new products as for the old.
		maps.Copy(n.impacts, g.impacts)
		if g.ranked != nil {
			n.ranked = g.ranked // the same docs under the same numbers
		}
	}
	return &n
}

// WithContent is g serving other content items, at log position seq:
// products, compiled configurations and their caches are shared.
func (g *Generation) WithContent(content map[catalog.ContentKind]*index.Segment, seq uint64) *Generation {
	n := *g
	n.Content, n.Seq = content, seq
	return &n
}

// newCaches gives every compiled version empty caches (its initial
// content and its boost vector), and the products an empty filter cache.
func (g *Generation) newCaches() {
	g.filters = &filterCache{}
	g.ranked = &rankedCaches{}
	g.initial = map[*version]*initialCache{}
	g.boosts = map[*version]*boostCache{}
	g.impacts = map[*version]*ranking.Impacts{}
	if g.Products != nil {
		g.personal = g.resolvePersonalFields()
		g.personalCol = &personalColumn{}
		g.profiles = newProfileCache()
	}
	for _, sc := range g.search {
		for _, v := range sc.byID {
			g.initial[v] = &initialCache{}
			g.boosts[v] = &boostCache{}
			if g.Products != nil {
				imp := ranking.NewImpacts(g.Products, &v.params)
				imp.Background = true // no search waits for a list
				g.impacts[v] = imp
			}
		}
	}
	g.pageBases = map[*pageVersion]*baseCache{}
	for _, p := range g.pages {
		for _, pv := range p.byID {
			g.boosts[pv.v] = &boostCache{}
			g.pageBases[pv] = &baseCache{}
		}
	}
}

// CheckWebsite compiles w's search configurations, boxes and pages as a
// generation would (searchable fields, synonyms, templates, each template
// rendered with sample data: checkTemplate), without a catalog, so a
// configuration the engine cannot serve is refused before it is stored.
func CheckWebsite(w *config.Website, lang analysis.Language) error {
	g := &Generation{Website: w, an: analysis.New(lang), fields: map[string]config.IndexedField{}}
	for _, f := range w.IndexedFields {
		g.fields[f.Name] = f
	}
	return g.compile()
}

func (g *Generation) compile() error {
	g.search = map[string]*searchConfig{}
	for i := range g.Website.Search {
		s := &g.Website.Search[i]
		sc := &searchConfig{byID: map[int]*version{}}
		for j := range s.Versions {
			v, err := g.compileVersion(&s.Versions[j])
			if err != nil {
				return fmt.Errorf("search config %s version %d: %w", s.Key, s.Versions[j].ID, err)
			}
			v.personal = weightsOf(s.Personalization)
			sc.byID[v.cfg.ID] = v
			if v.cfg.Status == config.StatusLive {
				sc.live = v
			}
		}
		g.search[s.Key] = sc
	}
	g.boxes = map[string]*box{}
	for i := range g.Website.Boxes {
		b := &g.Website.Boxes[i]
		tmpl, err := render.CompileRecoms("box "+b.Key, b.Template)
		if err == nil {
			err = checkTemplate(tmpl, sampleRecoms(b))
		}
		if err != nil {
			return fmt.Errorf("box %s: %w", b.Key, err)
		}
		g.boxes[b.Key] = &box{cfg: b, tmpl: tmpl}
	}
	g.campaigns = nil
	for i := range g.Website.Campaigns {
		g.campaigns = append(g.campaigns, compileCampaign(&g.Website.Campaigns[i]))
	}
	g.pages = map[string]*page{}
	for i := range g.Website.Pages {
		p := &g.Website.Pages[i]
		cp, err := g.compilePage(p)
		if err != nil {
			return fmt.Errorf("page %s: %w", p.Key, err)
		}
		g.pages[p.Key] = cp
	}
	g.newCaches()
	return nil
}

func (g *Generation) compileVersion(v *config.SearchVersion) (*version, error) {
	out := &version{cfg: v, params: ranking.DefaultParams(), redirects: map[string]*config.Redirect{}, boosts: v.BoostsOrDefault(),
		proximity: v.ProximityOrDefault(), exactForms: v.ExactFormsOrDefault(), typed: v.TypedTypos == nil || *v.TypedTypos, compounds: v.CompoundWords == nil || *v.CompoundWords,
		rare:  v.RareWordTypos == nil || *v.RareWordTypos,
		stops: v.OptionalStopWords == nil || *v.OptionalStopWords, sortQueries: sortQueries(v)}
	out.params.Weights = [index.NumTextFields]float32{}
	out.params.K1 = float32(v.K1OrDefault())
	for _, f := range v.Fields {
		tf, ok := index.FieldByName(f.Name)
		if !ok {
			return nil, fmt.Errorf("field %q is not searchable", f.Name)
		}
		out.params.Weights[tf] = max(out.params.Weights[tf], float32(f.Weight))
		if f.LengthNormalization != nil {
			out.params.B[tf] = float32(*f.LengthNormalization)
		}
		out.fields |= tf.Mask()
	}
	syn, err := ranking.NewSynonyms(g.an, v.Synonyms)
	if err != nil {
		return nil, err
	}
	out.synonyms = syn
	if out.tmpl, err = render.Compile("search", v.Template); err != nil {
		return nil, err
	}
	if err := checkTemplate(out.tmpl, sampleSearch(v)); err != nil {
		return nil, err
	}
	for i := range v.Redirects {
		r := &v.Redirects[i]
		for _, q := range r.Queries {
			out.redirects[analysis.FoldPhrase(q)] = r
		}
	}
	return out, nil
}

// searchVersion finds the live version of key, or the version id.
func (g *Generation) searchVersion(key string, id *int) (*version, error) {
	sc, ok := g.search[key]
	if !ok {
		return nil, NotFound("key", "no search configuration with key %q", key)
	}
	if id == nil {
		return sc.live, nil
	}
	v, ok := sc.byID[*id]
	if !ok {
		return nil, NotFound("id", "search configuration %q has no version %d", key, *id)
	}
	return v, nil
}

// ProductsOf is a generation of website w serving products alone (no
// content, no configuration compiled): what the write side applies the
// logged writes to, with lang's analyzer, before it assembles the
// generation it serves (Assemble).
func ProductsOf(w *config.Website, lang analysis.Language, products *index.Segment) *Generation {
	return &Generation{Website: w, Products: products, an: analysis.New(lang)}
}

// Analyzer is the analyzer g's product index was built with (its
// website's language): what a write indexes changed products with.
func (g *Generation) Analyzer() *analysis.Analyzer { return g.an }
