package live

import (
	"errors"
	"fmt"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/internal/background"
	"github.com/aisle-search/aisle/store"
)

// PatchProducts applies partial products (catalog.PatchProduct) in one
// entry. Each names an existing product by productNumber, compared as
// DeleteProduct compares; label(i) names patch i in errors ("body:3").
// The first patch that names no product or does not make a valid product
// aborts the entry, and nothing is applied; with allowErrors such patches
// are left out and listed instead, and the others applied. Each patch is
// merged once, into the product as served (writes hold l.mu, so it is the
// stored one and cannot change underneath) or as earlier patches of the
// batch left it. The products are merged on every core, each product's
// patches in order, and compared there with what they were, so a price
// and stock feed is a column write without decoding a product twice.
func (l *Writer) PatchProducts(uuid string, patches [][]byte, label func(i int) string, allowErrors bool) (a store.Applied, _ []RowError, err error) {
	defer l.answered(l.arrive(), &err)
	l.mu.Lock()
	defer l.mu.Unlock()
	g, err := l.Website(uuid)
	if err != nil {
		return store.Applied{}, nil, err
	}
	errs := make([]error, len(patches))
	var groups []*patchGroup // by product, in first-patch order
	byKey := map[string]*patchGroup{}
	for i, raw := range patches {
		var head struct {
			ProductNumber string `json:"productNumber"`
		}
		if err := json.Unmarshal(raw, &head); err != nil || head.ProductNumber == "" {
			errs[i] = errors.New("a partial update is a JSON object naming its product by productNumber")
			continue
		}
		doc, ok := g.Doc(head.ProductNumber)
		if !ok {
			errs[i] = fmt.Errorf("no product %q to update", head.ProductNumber)
			continue
		}
		key := g.Products.Key(doc)
		pg := byKey[key]
		if pg == nil {
			pg = &patchGroup{key: key, doc: doc}
			byKey[key] = pg
			groups = append(groups, pg)
		}
		pg.patches = append(pg.patches, i)
	}
	mergeGroups(g, groups, patches, errs, l.patchesPerWorker)
	var rejected []RowError
	for i, err := range errs {
		if err == nil {
			continue
		}
		if !allowErrors {
			return store.Applied{}, nil, engine.Invalid("products", "%s: %v; nothing was applied", label(i), err)
		}
		rejected = append(rejected, RowError{label(i), err.Error()})
	}
	var b store.Batch
	cw := productWrite{ok: true}
	for _, pg := range groups {
		if pg.merged != nil {
			b.PutProductJSON(pg.key, pg.merged)
			cw.changes = append(cw.changes, pg.change)
			cw.ok = cw.ok && pg.column
		}
	}
	if b.Empty() {
		return store.Applied{Seq: l.st.Seq()}, rejected, nil
	}
	a, err = l.applyColumns(g, &b, cw)
	return a, rejected, err
}

// patchesPerWorker is how many products a merge or compare goroutine
// takes at least, by default (Writer.patchesPerWorker): fewer are
// merged on one.
const patchesPerWorker = 256

// patchGroup is one product's patches (their indexes, in order) and the
// product they leave.
type patchGroup struct {
	key     string
	doc     uint32 // in the served index
	patches []int
	merged  []byte // nil while no patch applied
	// change is the product's column change when column is true.
	change index.ColumnChange
	column bool
}

// mergeGroups merges each group's patches into its product as the index
// serves it, the groups on every core, and compares each merged product
// with what it was, at least perWorker groups a goroutine; patch i's
// failure goes to errs[i].
func mergeGroups(g *engine.Generation, groups []*patchGroup, patches [][]byte, errs []error, perWorker int) {
	workers := min(background.Cores(), max(1, len(groups)/perWorker))
	background.Each(workers, func(w int) {
		var before, after index.Doc
		for k := w; k < len(groups); k += workers {
			mergeGroup(g, groups[k], patches, errs, &before, &after)
		}
	})
}

// mergeGroup is mergeGroups for one group; before and after are scratch
// docs. Each index of errs belongs to one group: workers never share one.
func mergeGroup(g *engine.Generation, pg *patchGroup, patches [][]byte, errs []error, before, after *index.Doc) {
	stored := g.Products.Stored(pg.doc)
	var old catalog.Product
	if err := json.Unmarshal(stored, &old); err != nil {
		for _, i := range pg.patches {
			errs[i] = fmt.Errorf("the stored product does not decode: %w", err)
		}
		return
	}
	cur := &old
	for _, i := range pg.patches {
		p, err := catalog.PatchProduct(cur, patches[i])
		if errs[i] = err; err == nil {
			p.ProductNumber = pg.key
			cur = p
		}
	}
	if cur == &old {
		return
	}
	data, err := json.Marshal(cur)
	if err == nil {
		pg.change, pg.column, err = columnChangeOf(g, pg.doc, &old, cur, stored, data, before, after)
	}
	if err != nil {
		errs[pg.patches[len(pg.patches)-1]] = err
		return
	}
	pg.merged = data
}
