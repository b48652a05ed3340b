package live

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/internal/background"
	"github.com/aisle-search/aisle/store"
)

// Live applies writes to the served websites: each write is one store
// entry (store.Apply: durable, all or nothing) naming its website, after
// which a generation of that website's new state is swapped in, so a
// write is searchable when Apply returns. Requests in flight finish on
// the generation they started with; other websites are not touched.
//
// A product write changes the current product index (index.WithColumns
// for a price and stock feed, index.WithDocs for the rest) rather than
// rebuilding it, and a background saver saves it; a content write keeps
// the product index and indexes the content again; a configuration
// write opens every website anew (Open). Writes are serialised; searches
// never wait on them.
type Writer struct {
	*writer
	// by is who the changes are recorded as made by (As); the zero
	// Actor: no one, as on a stopped server's directory.
	by Actor
}

// writer is the state a Writer and its As views share.
type writer struct {
	mu   sync.Mutex
	st   *store.Store
	eng  *engine.Engine
	lang analysis.Language // for websites that set no language
	log  *slog.Logger
	save saver
	// patchesPerWorker is how many products a goroutine merges or
	// compares at least (the const's; tests set 1 to use every core).
	patchesPerWorker int
	// maxKeys bounds the stored keys (MaxKeys; tests set fewer).
	maxKeys int
	// waiting are the writes arrived and not yet answered (Waiting);
	// timer is UseWriteTimer's, or nil.
	waiting atomic.Int64
	timer   func(took time.Duration)
	// changes counts the product index changes writes made (IndexChanges).
	changes atomic.Uint64
	// pub is PublishTo's; nil publishes nothing.
	pub Publisher
}

// New applies writes to the websites eng serves from st; lang is the
// stemming language of websites whose configuration names none.
func New(st *store.Store, eng *engine.Engine, lang analysis.Language, log *slog.Logger) *Writer {
	if log == nil {
		log = slog.Default()
	}
	l := &Writer{writer: &writer{st: st, eng: eng, lang: lang, log: log, patchesPerWorker: patchesPerWorker, maxKeys: MaxKeys, save: saver{pending: map[string]*engine.Generation{}, wake: make(chan struct{})}}}
	l.saveReplayed(eng.Websites())
	if err := l.loadKeys(); err != nil {
		log.Error("the stored API keys cannot be read: only --admin-key and the configured apiKeys are accepted", "err", err)
	}
	return l
}

// saveReplayed queues the saves of the generations Open replayed the log
// onto, so the next start loads them instead of replaying again.
func (l *Writer) saveReplayed(gens []*engine.Generation) {
	for _, g := range gens {
		if g.Unsaved {
			l.saveLater(g)
		}
	}
}

// Website is the served website uuid, from its current generation (so
// reading it never waits on a write), or engine.NotFound.
func (l *Writer) Website(uuid string) (*engine.Generation, error) {
	g, ok := l.eng.Website(uuid)
	if !ok {
		return nil, engine.NotFound("websiteUuid", "no website %q is served", uuid)
	}
	return g, nil
}

// Apply appends b as a change of the website uuid, synced, and swaps in
// that website's generation that includes it. When the append fails
// nothing changed; when the append succeeded but the new generation
// could not be made, the change is stored (and served once the website
// is opened again: a restart, or a configuration change) and the error
// says so.
func (l *Writer) Apply(uuid string, b *store.Batch) (a store.Applied, err error) {
	defer l.answered(l.arrive(), &err)
	l.mu.Lock()
	defer l.mu.Unlock()
	g, err := l.Website(uuid)
	if err != nil {
		return store.Applied{}, err
	}
	return l.apply(g, b)
}

// apply is Apply to g's website with l.mu held. An empty batch appends
// nothing: a batch whose every row was rejected, or a delete that
// matched nothing.
func (l *Writer) apply(g *engine.Generation, b *store.Batch) (store.Applied, error) {
	if b.Empty() {
		return store.Applied{Seq: l.st.Seq()}, nil
	}
	var cw productWrite
	if b.OnlyProductPuts() {
		numbers, data := b.ProductPuts()
		var err error
		if cw.changes, cw.ok, err = columnChanges(g, numbers, data, l.patchesPerWorker, b.ColumnWrite()); err != nil {
			return store.Applied{}, engine.Invalid("products", "%v; nothing was applied", err)
		}
	}
	return l.applyColumns(g, b, cw)
}

// productWrite is a batch's product writes made ready for g's index
// before the batch is logged: its column changes, when ok, else its doc
// changes.
type productWrite struct {
	changes []index.ColumnChange
	ok      bool
	docs    *docChanges
	writes  *productWrites // the batches' writes, once read (writesOf)
}

// writesOf is the product writes of bs, the batches cw is of, read once.
func (cw *productWrite) writesOf(bs []*store.Batch) *productWrites {
	if cw.writes == nil {
		cw.writes = writesOf(bs)
	}
	return cw.writes
}

// applyColumns is apply of a batch whose column changes are known (cw.ok
// false: it is not a column write, or not only one); b is not empty.
func (l *Writer) applyColumns(g *engine.Generation, b *store.Batch, cw productWrite) (store.Applied, error) {
	return l.applyEntries(g, []*store.Batch{b}, cw)
}

// applyEntries applies bs, batches of g's website in order, with one
// change of its product index: cw is their product writes' column
// changes when ok, else they are made as doc changes. Everything that
// can fail on what the batches hold (decoding and indexing their
// products and content) is done before they are logged, so the log
// holds no entry that cannot be served. The new product index is then
// made while the store commits the entries (mostly a wait on the disk,
// synced once, by the last), and served once both are done. An entry
// the store refuses ends the run: the entries before it are stored and
// served (the website's index built again from the store).
func (l *Writer) applyEntries(g *engine.Generation, bs []*store.Batch, cw productWrite) (store.Applied, error) {
	products, content := false, false
	for _, b := range bs {
		b.Website = g.Website.UUID
		if _, logged := b.Position(); cw.ok && logged {
			b.ProductsStored() // column changes are of products g serves, which are stored
		} else if cw.ok {
			b.MarkColumnWrite() // and so judged for the nodes that apply its entry
		}
		products = products || b.ChangesProducts()
		content = content || b.ChangesContent()
		if err := checkContent(b); err != nil {
			return store.Applied{}, engine.Invalid("content", "%v; nothing was applied", err)
		}
	}
	if !cw.ok && products {
		var err error
		if cw.docs, err = makeDocChanges(g, cw.writesOf(bs)); err != nil {
			return store.Applied{}, engine.Invalid("products", "%v; nothing was applied", err)
		}
	}
	var seg *index.Segment
	var segErr error
	built := make(chan struct{})
	background.Go(func() {
		defer close(built)
		if products {
			seg, segErr = l.productsAfter(g, bs, cw)
		}
	})
	var a store.Applied
	for i, b := range bs {
		if _, logged := b.Position(); !logged { // a logged entry carries its audit entries
			b.Audit(l.catalogEntry(g.Website, b))
		}
		stored := a
		var err error
		if a, err = l.commitSynced(b, i == len(bs)-1); err != nil {
			<-built
			if i > 0 {
				return stored, errors.Join(err, l.serve(g.Website, stored))
			}
			return a, err
		}
	}
	<-built
	n := g
	if products {
		if segErr != nil {
			l.log.Warn("product write failed: rebuilding the index", "website", g.Website.UUID, "err", segErr)
			return a, l.serve(g.Website, a)
		}
		n = g.WithProducts(seg, a.Seq, a.Seq, true)
		l.changes.Add(1)
		l.saveLater(n)
	}
	if content {
		// The products and what is cached on them stay.
		content, err := engine.IndexContent(g.Analyzer(), storedContent(l.st, g.Website))
		if err != nil {
			return a, fmt.Errorf("entry %d is stored but not yet served: %w", a.Seq, err)
		}
		n = n.WithContent(content, a.Seq)
	}
	l.eng.Swap(n)
	return a, nil
}

// productsAfter is g's product index with the product writes of bs
// made: by index.WithColumns when cw says they are column changes, by
// index.WithDocs otherwise or when that fails. It only reads bs, so it
// runs beside the store's commit of them.
func (l *Writer) productsAfter(g *engine.Generation, bs []*store.Batch, cw productWrite) (*index.Segment, error) {
	if cw.ok {
		seg, err := g.Products.WithColumns(cw.changes, docKeywords(g))
		if err == nil {
			return seg, nil
		}
		l.log.Warn("column update failed: replacing the products' docs instead", "website", g.Website.UUID, "err", err)
	}
	if cw.docs == nil {
		return productsWith(g, cw.writesOf(bs))
	}
	return withDocChanges(g, cw.docs)
}

// serve swaps in the generation of website w's stored state, which entry
// a changed; l.mu is held.
func (l *Writer) serve(w *config.Website, a store.Applied) error {
	l.save.forget(w.UUID) // the rebuild saves a newer index
	g, err := Rebuild(l.st, w, w.Lang(l.lang), l.log)
	if err != nil {
		return fmt.Errorf("entry %d is stored but not yet served: %w", a.Seq, err)
	}
	l.eng.Swap(g)
	return nil
}

// RowError is a row of a batch that was left out (allowErrors).
type RowError struct {
	Row     string // the row's label: "body:3", "body: product 2"
	Message string
}

// DeleteProducts deletes the products numbered pns in one entry, as
// DeleteProduct matches them, and lists the numbers that matched none.
// When none matches, nothing is appended.
func (l *Writer) DeleteProducts(uuid string, pns []string) (a store.Applied, notFound []string, err error) {
	defer l.answered(l.arrive(), &err)
	l.mu.Lock()
	defer l.mu.Unlock()
	g, err := l.Website(uuid) // the store's state: writes hold l.mu
	if err != nil {
		return a, nil, err
	}
	var b store.Batch
	for _, pn := range pns {
		key, ok := g.StoredNumber(pn)
		if !ok {
			notFound = append(notFound, pn)
			continue
		}
		b.DeleteProduct(key)
	}
	a, err = l.apply(g, &b)
	return a, notFound, err
}

// DeleteProduct deletes the product numbered pn (compared folded, as
// search compares product numbers; a variant's number is not its
// product's), or answers engine.NotFound when there is none.
func (l *Writer) DeleteProduct(uuid, pn string) (a store.Applied, err error) {
	defer l.answered(l.arrive(), &err)
	l.mu.Lock()
	defer l.mu.Unlock()
	g, err := l.Website(uuid) // the store's state: writes hold l.mu
	if err != nil {
		return store.Applied{}, err
	}
	key, ok := g.StoredNumber(pn)
	if !ok {
		return store.Applied{}, engine.NotFound("productNumber", "no product %q", pn)
	}
	var b store.Batch
	b.DeleteProduct(key)
	return l.apply(g, &b)
}

// SetConfig replaces the stored configuration with f and serves every
// website it holds; websites it no longer names stop being served (their
// catalog stays stored). f is checked first, as config.Parse and
// engine.CheckWebsite check it, and every website of it is opened before it is
// stored: a file the engine cannot serve changes nothing and the error
// says why. A website that already failed to open (engine.Engine.Failed) and
// whose configuration f leaves as it was stays unserved, reported, and
// does not stop the change. A website whose indexed fields or language
// changed has its product index rebuilt; the others load theirs.
func (l *Writer) SetConfig(f *config.File) (a store.Applied, err error) {
	if err := f.Validate(); err != nil {
		return store.Applied{}, engine.Invalid("config", "%v; nothing changed", err)
	}
	defer l.answered(l.arrive(), &err)
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.setConfig(f, nil)
}

// setConfig is SetConfig of a validated f with l.mu held. logged is the
// entry of a replicated log that sets f, with its audit entries
// (ApplyLogged); nil for a change made here.
func (l *Writer) setConfig(f *config.File, logged *store.Batch) (store.Applied, error) {
	for i := range f.Websites {
		w := &f.Websites[i]
		if err := engine.CheckWebsite(w, w.Lang(l.lang)); err != nil && !l.stillFailing(f, w.UUID) {
			return store.Applied{}, engine.Invalid("config", "websites[%d]: %v; nothing changed", i, err)
		}
	}
	gens, failed := l.openEach(f)
	for _, fl := range failed {
		if errors.Is(fl.Err, store.ErrUnavailable) { // a rebuild's save: the disk refused it
			return store.Applied{}, fl
		}
		if !l.stillFailing(f, fl.UUID) {
			i := slices.IndexFunc(f.Websites, func(w config.Website) bool { return w.UUID == fl.UUID })
			return store.Applied{}, engine.Invalid("config", "websites[%d] (%s) cannot be served: %v; nothing changed", i, fl.UUID, fl.Err)
		}
	}
	b := logged
	if b == nil {
		old, err := l.st.Config()
		if err != nil {
			return store.Applied{}, err
		}
		b = &store.Batch{}
		b.SetConfig(f)
		b.Audit(l.configEntries(old, f)...)
	}
	a, err := l.commit(b)
	if err != nil {
		return a, err
	}
	for _, g := range gens {
		g.Seq = a.Seq
	}
	l.eng.Replace(gens, failed)
	l.saveReplayed(gens)
	return a, nil
}

// stillFailing reports whether the website uuid already failed to open
// and f configures it as the served configuration did; l.mu is held.
func (l *Writer) stillFailing(f *config.File, uuid string) bool {
	if !slices.ContainsFunc(l.eng.Failed(), func(fl engine.WebsiteFailure) bool { return fl.UUID == uuid }) {
		return false
	}
	cur, err := l.st.Config()
	if err != nil || cur == nil {
		return false
	}
	was, ok := cur.Website(uuid)
	now, _ := f.Website(uuid)
	a, errA := json.Marshal(was)
	b, errB := json.Marshal(now)
	return ok && errA == nil && errB == nil && bytes.Equal(a, b)
}

// DeleteContent deletes a content item, or answers engine.NotFound when there
// is none (kinds compared exactly, ids by store.ContentID).
func (l *Writer) DeleteContent(uuid string, kind catalog.ContentKind, id string) (a store.Applied, err error) {
	defer l.answered(l.arrive(), &err)
	l.mu.Lock()
	defer l.mu.Unlock()
	g, err := l.Website(uuid)
	if err != nil {
		return store.Applied{}, err
	}
	ok, err := l.st.HasContent(g.Website.UUID, kind, id)
	if err != nil {
		return store.Applied{}, err
	}
	if !ok {
		return store.Applied{}, engine.NotFound("id", "no %s item %q", kind, id)
	}
	var b store.Batch
	b.DeleteContent(kind, id)
	return l.apply(g, &b)
}
