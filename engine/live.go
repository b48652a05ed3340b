package engine

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/store"
	"github.com/goccy/go-json"
)

// Live applies writes to a served website: each write is one store entry
// (store.Apply: durable, all or nothing), after which a generation of the
// new state is swapped in, so a write is searchable when Apply returns.
// Requests in flight finish on the generation they started with.
//
// Until the base/tail index lands (docs/live-engine.md), the new
// generation comes from Open: a configuration or content entry reuses
// the saved product index, and an entry that changes products rebuilds
// and saves it, which takes seconds at a million products. Writes are
// serialised; searches never wait on them.
type Live struct {
	mu   sync.Mutex
	st   *store.Store
	eng  *Engine
	w    *config.Website
	lang analysis.Language
	log  *slog.Logger
}

// NewLive applies writes for website w, served by eng from st.
func NewLive(st *store.Store, eng *Engine, w *config.Website, lang analysis.Language, log *slog.Logger) *Live {
	if log == nil {
		log = slog.Default()
	}
	return &Live{st: st, eng: eng, w: w, lang: lang, log: log}
}

// Apply appends b, synced, and swaps in the generation that includes it.
// When the append fails nothing changed; when the append succeeded but
// the new generation could not be made, the change is stored (and served
// after the next successful write or restart) and the error says so.
func (l *Live) Apply(b *store.Batch) (store.Applied, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.apply(b)
}

// apply is Apply with l.mu held. An empty batch appends nothing: a
// batch whose every row was rejected, or a delete that matched nothing.
func (l *Live) apply(b *store.Batch) (store.Applied, error) {
	if b.Empty() {
		return store.Applied{Seq: l.st.Seq()}, nil
	}
	a, err := l.st.Apply(b, true)
	if err != nil {
		return a, err
	}
	return a, l.serve(a)
}

// serve swaps in the generation of the store's state, which entry a
// changed; l.mu is held.
func (l *Live) serve(a store.Applied) error {
	g, err := Open(l.st, l.w, l.lang, l.log)
	if err != nil {
		return fmt.Errorf("entry %d is stored but not yet served: %w", a.Seq, err)
	}
	l.eng.Swap(g)
	return nil
}

// Website is the website being served, from the current generation (so
// reading it never waits on a write).
func (l *Live) Website() *config.Website { return l.eng.Current().Website }

// RowError is a row of a batch that was left out (allowErrors).
type RowError struct {
	Row     string // the row's label: "body:3", "body: product 2"
	Message string
}

// PatchProducts applies partial products (catalog.Patch) in one entry.
// Each names an existing product by productNumber, compared as
// DeleteProduct compares; label(i) names patch i in errors ("body:3").
// The first patch that names no product or does not make a valid product
// aborts the entry, and nothing is applied; with allowErrors such patches
// are left out and listed instead, and the others applied. Each patch is
// merged once, into the product as stored (writes hold l.mu, so it cannot
// change underneath) or as earlier patches of the batch left it.
func (l *Live) PatchProducts(patches [][]byte, label func(i int) string, allowErrors bool) (store.Applied, []RowError, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	g := l.eng.Current()
	var b store.Batch
	var rejected []RowError
	merged := map[string][]byte{} // key → the product as the patches so far leave it
	var order []string            // keys in first-patch order
	for i, raw := range patches {
		key, data, err := l.patchOne(g, merged, raw)
		if err != nil {
			if !allowErrors {
				return store.Applied{}, nil, Invalid("products", "%s: %v; nothing was applied", label(i), err)
			}
			rejected = append(rejected, RowError{label(i), err.Error()})
			continue
		}
		if _, seen := merged[key]; !seen {
			order = append(order, key)
		}
		merged[key] = data
	}
	for _, key := range order {
		b.PutProductJSON(key, merged[key])
	}
	a, err := l.apply(&b)
	return a, rejected, err
}

// patchOne finds the product a patch names and merges the patch into it
// as stored, or as earlier patches of the batch left it (merged).
func (l *Live) patchOne(g *Generation, merged map[string][]byte, raw []byte) (key string, data []byte, err error) {
	var head struct {
		ProductNumber string `json:"productNumber"`
	}
	if err := json.Unmarshal(raw, &head); err != nil || head.ProductNumber == "" {
		return "", nil, errors.New("a partial update is a JSON object naming its product by productNumber")
	}
	key, ok := g.productKey(head.ProductNumber)
	stored := merged[key]
	if ok && stored == nil {
		if stored, err = l.st.Product(key); err != nil {
			return "", nil, err
		}
	}
	if stored == nil {
		return "", nil, fmt.Errorf("no product %q to update", head.ProductNumber)
	}
	p, err := catalog.Patch(stored, raw)
	if err != nil {
		return "", nil, err
	}
	p.ProductNumber = key
	data, err = json.Marshal(p)
	return key, data, err
}

// DeleteProducts deletes the products numbered pns in one entry, as
// DeleteProduct matches them, and lists the numbers that matched none.
// When none matches, nothing is appended.
func (l *Live) DeleteProducts(pns []string) (a store.Applied, notFound []string, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	g := l.eng.Current() // the store's state: writes hold l.mu
	var b store.Batch
	for _, pn := range pns {
		key, ok := g.productKey(pn)
		if !ok {
			notFound = append(notFound, pn)
			continue
		}
		b.DeleteProduct(key)
	}
	a, err = l.apply(&b)
	return a, notFound, err
}

// DeleteProduct deletes the product numbered pn (compared folded, as
// search compares product numbers; a variant's number is not its
// product's), or answers NotFound when there is none.
func (l *Live) DeleteProduct(pn string) (store.Applied, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	key, ok := l.eng.Current().productKey(pn) // the store's state: writes hold l.mu
	if !ok {
		return store.Applied{}, NotFound("productNumber", "no product %q", pn)
	}
	var b store.Batch
	b.DeleteProduct(key)
	return l.apply(&b)
}

// SetConfig replaces the stored configuration with f and serves its
// first website (one website per server until many are served). f is
// checked first, as config.Parse and CheckWebsite check it: a file the
// engine cannot serve changes nothing and the error says why. A change
// of indexed fields rebuilds the product index.
func (l *Live) SetConfig(f *config.File) (store.Applied, error) {
	if err := f.Validate(); err != nil {
		return store.Applied{}, Invalid("config", "%v; nothing changed", err)
	}
	w := &f.Websites[0]
	if err := CheckWebsite(w, l.lang); err != nil {
		return store.Applied{}, Invalid("config", "websites[0]: %v; nothing changed", err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var b store.Batch
	b.SetConfig(f)
	a, err := l.st.Apply(&b, true)
	if err != nil {
		return a, err
	}
	l.w = w
	return a, l.serve(a)
}

// DeleteContent deletes a content item, or answers NotFound when there
// is none (kinds and ids are compared exactly).
func (l *Live) DeleteContent(kind catalog.ContentKind, id string) (store.Applied, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ok, err := l.st.HasContent(kind, id)
	if err != nil {
		return store.Applied{}, err
	}
	if !ok {
		return store.Applied{}, NotFound("id", "no %s item %q", kind, id)
	}
	var b store.Batch
	b.DeleteContent(kind, id)
	return l.apply(&b)
}

// productKey is the stored number of the product numbered pn, compared
// folded; a variant's number is not its product's.
func (g *Generation) productKey(pn string) (string, bool) {
	d, ok := g.Products.DocByKey(foldString(pn))
	if !ok || foldString(g.Products.Key(d)) != foldString(pn) {
		return "", false
	}
	return g.Products.Key(d), true
}
