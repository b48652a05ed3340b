package live

import (
	"errors"
	"fmt"
	"slices"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/internal/background"
	"github.com/aisle-search/aisle/store"
)

// Column writes: an upsert of products that already exist, changing none
// of what their text, keys and sort values are made of (a price, stock or
// sale feed), is served by index.WithColumns on the current product index
// instead of a rebuild. The result is the fresh build's (the differential
// test and index/columns_test.go hold it to that); anything else (a new
// product, a delete, a new title) is a doc write (docwrites.go).

// columnChanges turns product upserts (store numbers and JSON) into
// column changes of g's product index: ok is false when one of them is
// not a column change (a new product, or one whose text, keys or sort
// values change), and then nothing else is meaningful. A product put
// twice counts with its last JSON. The products are compared on every
// core, at least perWorker a goroutine. judged says the writer of a
// replicated log judged them column writes (store.Batch.ColumnWrite)
// against the state g serves: then each is decoded, not compared with
// its stored product again.
func columnChanges(g *engine.Generation, numbers []string, data [][]byte, perWorker int, judged bool) (changes []index.ColumnChange, ok bool, err error) {
	last := make(map[string]int, len(numbers)) // store.ProductID → its last put
	var order []string
	for i, pn := range numbers {
		id := store.ProductID(pn)
		if _, seen := last[id]; !seen {
			order = append(order, id)
		}
		last[id] = i
	}
	changes = make([]index.ColumnChange, len(order))
	notColumn := make([]bool, len(order))
	errs := make([]error, len(order))
	workers := min(background.Cores(), max(1, len(order)/perWorker))
	background.Each(workers, func(w int) {
		var before, after index.Doc
		for k := w; k < len(order); k += workers {
			i := last[order[k]]
			c, isColumn, err := columnChange(g, numbers[i], data[i], judged, &before, &after)
			changes[k], notColumn[k], errs[k] = c, !isColumn, err
		}
	})
	if err := errors.Join(errs...); err != nil {
		return nil, false, err
	}
	if slices.Contains(notColumn, true) {
		return nil, false, nil
	}
	return changes, true, nil
}

// columnChange is columnChanges for one product; before and after are
// scratch docs.
func columnChange(g *engine.Generation, pn string, data []byte, judged bool, before, after *index.Doc) (index.ColumnChange, bool, error) {
	d, found := g.Products.DocByKey(analysis.FoldString(pn))
	if !found || g.Products.Key(d) != pn {
		return index.ColumnChange{}, false, nil
	}
	var cur catalog.Product
	if err := json.Unmarshal(data, &cur); err != nil {
		return index.ColumnChange{}, false, fmt.Errorf("product %s: %w", pn, err)
	}
	if judged {
		if err := engine.ProductDoc(&cur, g.Website.IndexedFields, data, after); err != nil {
			return index.ColumnChange{}, false, err
		}
		return changeOf(d, after, data), true, nil
	}
	var old catalog.Product
	stored := g.Products.Stored(d)
	if err := json.Unmarshal(stored, &old); err != nil {
		return index.ColumnChange{}, false, fmt.Errorf("stored product %s: %w", pn, err)
	}
	return columnChangeOf(g, d, &old, &cur, stored, data, before, after)
}

// changeOf is the column change setting doc d to after, stored as data.
func changeOf(d uint32, after *index.Doc, data []byte) index.ColumnChange {
	return index.ColumnChange{Doc: d, Keywords: slices.Clone(after.Keywords), Numbers: slices.Clone(after.Numbers), Stored: data}
}

// columnChangeOf is the column change of doc d, product old as stored,
// to product cur, encoded as data; ok is false when it is not one.
// before and after are scratch docs.
func columnChangeOf(g *engine.Generation, d uint32, old, cur *catalog.Product, stored, data []byte, before, after *index.Doc) (c index.ColumnChange, ok bool, err error) {
	if err := engine.ProductDoc(old, g.Website.IndexedFields, stored, before); err != nil {
		return index.ColumnChange{}, false, err
	}
	if err := engine.ProductDoc(cur, g.Website.IndexedFields, data, after); err != nil {
		return index.ColumnChange{}, false, err
	}
	if !sameText(before, after) {
		return index.ColumnChange{}, false, nil
	}
	return changeOf(d, after, data), true, nil
}

// sameText reports that two docs of one product index alike but for
// their keyword and number values: the same key, alternative keys, text
// and sort values.
func sameText(a, b *index.Doc) bool {
	if a.Key != b.Key || !slices.Equal(a.AltKeys, b.AltKeys) || !slices.Equal(a.Sort, b.Sort) {
		return false
	}
	for f := range a.Text {
		if !slices.Equal(a.Text[f], b.Text[f]) {
			return false
		}
	}
	return true
}

// docKeywords reads a doc's keyword values from its stored JSON, for
// index.WithColumns.
func docKeywords(g *engine.Generation) index.DocKeywords {
	src := docSource(g)
	return func(doc uint32) ([]index.KeywordValue, error) {
		d, err := src(doc)
		if err != nil {
			return nil, err
		}
		return d.Keywords, nil
	}
}
