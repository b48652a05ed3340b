package engine

import (
	"fmt"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/index"
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
// (a batch, or the log since a save): its last JSON, or nil once
// deleted. Within one entry a delete wins over a put, as the store
// applies it.
type productWrites struct {
	order []string // product numbers, first write first
	data  map[string][]byte
}

func newProductWrites() *productWrites {
	return &productWrites{data: map[string][]byte{}}
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

func (pw *productWrites) set(pn string, data []byte) {
	if _, seen := pw.data[pn]; !seen {
		pw.order = append(pw.order, pn)
	}
	pw.data[pn] = data
}

// productsWith is g's product index with the written products' current
// docs removed and their puts added.
func (g *Generation) productsWith(pw *productWrites) (*index.Segment, error) {
	seg := g.Products
	var removed []uint32
	added := make([]index.Doc, 0, len(pw.order))
	for _, pn := range pw.order {
		if d, ok := seg.DocByKey(foldString(pn)); ok && seg.Key(d) == pn {
			removed = append(removed, d)
		}
		data := pw.data[pn]
		if data == nil {
			continue
		}
		var p catalog.Product
		if err := json.Unmarshal(data, &p); err != nil {
			return nil, fmt.Errorf("product %s: %w", pn, err)
		}
		added = append(added, index.Doc{})
		if err := productDoc(&p, g.Website.IndexedFields, data, &added[len(added)-1]); err != nil {
			return nil, err
		}
	}
	return seg.WithDocs(g.an, removed, added, g.docSource())
}

// docSource gives the Doc a product of g's index was indexed from, read
// from its stored JSON, for index.WithDocs.
func (g *Generation) docSource() index.DocSource {
	seg := g.Products
	return func(doc uint32) (*index.Doc, error) {
		stored := seg.Stored(doc)
		var p catalog.Product
		if err := json.Unmarshal(stored, &p); err != nil {
			return nil, fmt.Errorf("stored product %s: %w", seg.Key(doc), err)
		}
		var d index.Doc
		if err := productDoc(&p, g.Website.IndexedFields, stored, &d); err != nil {
			return nil, err
		}
		return &d, nil
	}
}
