package live

import (
	"fmt"
	"slices"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/store"
)

// Doc writes: a product write that is not a column write (a new product,
// a delete, a new title, category or variant) is served by
// index.WithDocs on the current product index: the written products'
// docs are removed and their new versions added, nothing else is
// indexed again. The result answers as a fresh build of the stored
// products does (the differential test holds it to that); the saver
// saves it compacted, and Open replays the writes logged after a save
// the same way.

// productWrites is each written product's state after a run of writes
// (a batch, or the log since a save), by store.ProductID: its last JSON,
// or nil once deleted. Within one entry a delete wins over a put, as the
// store applies it.
type productWrites struct {
	order  []string          // product ids, first write first
	data   map[string][]byte // id → its last JSON, nil once deleted
	number map[string]string // id → the number it was last written under
}

func newProductWrites() *productWrites {
	return &productWrites{data: map[string][]byte{}, number: map[string]string{}}
}

// entry records one entry's puts, then its deletes.
func (pw *productWrites) entry(numbers []string, data [][]byte, deletes []string) {
	for i, pn := range numbers {
		pw.set(pn, data[i])
	}
	for _, pn := range deletes {
		pw.set(pn, nil)
	}
}

// writesOf is the product writes of bs, in order.
func writesOf(bs []*store.Batch) *productWrites {
	pw := newProductWrites()
	for _, b := range bs {
		numbers, data := b.ProductPuts()
		pw.entry(numbers, data, b.ProductDeletes())
	}
	return pw
}

func (pw *productWrites) set(pn string, data []byte) {
	id := store.ProductID(pn)
	if _, seen := pw.data[id]; !seen {
		pw.order = append(pw.order, id)
	}
	pw.data[id], pw.number[id] = data, pn
}

// puts are the numbers and JSON of the products written and not
// deleted, first write first; ok is false when some write is a delete.
func (pw *productWrites) puts() (numbers []string, data [][]byte, ok bool) {
	for _, id := range pw.order {
		if pw.data[id] == nil {
			return nil, nil, false
		}
		numbers, data = append(numbers, pw.number[id]), append(data, pw.data[id])
	}
	return numbers, data, true
}

// productsWith is g's product index with the written products' current
// docs removed (whatever spelling of their number they were indexed
// under) and their puts added.
func productsWith(g *engine.Generation, pw *productWrites) (*index.Segment, error) {
	dc, err := makeDocChanges(g, pw)
	if err != nil {
		return nil, err
	}
	return withDocChanges(g, dc)
}

// docChanges are a run of writes turned into docs of g's product index:
// the docs they remove and the docs they add.
type docChanges struct {
	removed []uint32
	added   []index.Doc
}

// makeDocChanges decodes and indexes the writes' products: the part of a
// doc write that can fail on what was written, so a write is refused
// before it is logged; what is left (withDocChanges) fails only when the
// index is full.
func makeDocChanges(g *engine.Generation, pw *productWrites) (*docChanges, error) {
	dc := &docChanges{added: make([]index.Doc, 0, len(pw.order))}
	for _, id := range pw.order {
		if d, ok := g.Doc(id); ok {
			dc.removed = append(dc.removed, d)
		}
		data := pw.data[id]
		if data == nil {
			continue
		}
		var p catalog.Product
		if err := json.Unmarshal(data, &p); err != nil {
			return nil, fmt.Errorf("product %s: %w", pw.number[id], err)
		}
		dc.added = append(dc.added, index.Doc{})
		if err := engine.ProductDoc(&p, g.Website.IndexedFields, data, &dc.added[len(dc.added)-1]); err != nil {
			return nil, fmt.Errorf("product %s: %w", pw.number[id], err)
		}
	}
	return dc, nil
}

// withDocChanges is g's product index with dc made.
func withDocChanges(g *engine.Generation, dc *docChanges) (*index.Segment, error) {
	return g.Products.WithDocs(g.Analyzer(), dc.removed, dc.added, docSource(g))
}

// docSource gives the Doc a product of g's index was indexed from, read
// from its stored JSON, for index.WithDocs.
func docSource(g *engine.Generation) index.DocSource {
	seg := g.Products
	return func(doc uint32) (*index.Doc, error) {
		stored := seg.Stored(doc)
		var p catalog.Product
		if err := json.Unmarshal(stored, &p); err != nil {
			return nil, fmt.Errorf("stored product %s: %w", seg.Key(doc), err)
		}
		var d index.Doc
		if err := engine.ProductDoc(&p, g.Website.IndexedFields, stored, &d); err != nil {
			return nil, err
		}
		return &d, nil
	}
}

// checkContent refuses a batch whose content items would not index:
// each decodes, names a kind and makes a doc, as indexContent needs.
func checkContent(b *store.Batch) error {
	var d index.Doc
	for _, data := range b.ContentPuts() {
		var c catalog.Content
		if err := json.Unmarshal(data, &c); err != nil {
			return err
		}
		if !slices.Contains(catalog.ContentKinds, c.Kind) {
			return fmt.Errorf("content %s: unknown kind %q", c.ID, c.Kind)
		}
		if err := engine.ContentDoc(&c, &d); err != nil {
			return fmt.Errorf("content %s: %w", c.ID, err)
		}
	}
	return nil
}
