package engine

import (
	"fmt"
	"slices"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/index"
)

// Column writes: an upsert of products that already exist, changing none
// of what their text, keys and sort values are made of (a price, stock or
// sale feed), is served by index.WithColumns on the current product index
// instead of a rebuild. The result is the fresh build's (the differential
// test and index/columns_test.go hold it to that); anything else (a new
// product, a delete, a new title) takes the rebuild until the base/tail
// index lands (docs/live-engine.md).

// columnChanges turns product upserts (store numbers and JSON) into
// column changes of g's product index: ok is false when one of them is
// not a column change (a new product, or one whose text, keys or sort
// values change), and then nothing else is meaningful.
func (g *Generation) columnChanges(numbers []string, data [][]byte) (changes []index.ColumnChange, ok bool, err error) {
	at := make(map[uint32]int, len(numbers)) // doc → its change; a later put of a product wins
	var before, after index.Doc
	for i, pn := range numbers {
		d, found := g.Products.DocByKey(foldString(pn))
		if !found || g.Products.Key(d) != pn {
			return nil, false, nil
		}
		var old, cur catalog.Product
		if err := json.Unmarshal(g.Products.Stored(d), &old); err != nil {
			return nil, false, fmt.Errorf("stored product %s: %w", pn, err)
		}
		if err := json.Unmarshal(data[i], &cur); err != nil {
			return nil, false, fmt.Errorf("product %s: %w", pn, err)
		}
		if err := productDoc(&old, g.Website.IndexedFields, g.Products.Stored(d), &before); err != nil {
			return nil, false, err
		}
		if err := productDoc(&cur, g.Website.IndexedFields, data[i], &after); err != nil {
			return nil, false, err
		}
		if !sameText(&before, &after) {
			return nil, false, nil
		}
		c := index.ColumnChange{Doc: d, Keywords: slices.Clone(after.Keywords), Numbers: slices.Clone(after.Numbers), Stored: data[i]}
		if j, seen := at[d]; seen {
			changes[j] = c
			continue
		}
		at[d] = len(changes)
		changes = append(changes, c)
	}
	return changes, true, nil
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
func (g *Generation) docKeywords(seg *index.Segment) index.DocKeywords {
	return func(doc uint32) ([]index.KeywordValue, error) {
		var p catalog.Product
		if err := json.Unmarshal(seg.Stored(doc), &p); err != nil {
			return nil, fmt.Errorf("stored product %s: %w", seg.Key(doc), err)
		}
		var d index.Doc
		if err := productDoc(&p, g.Website.IndexedFields, seg.Stored(doc), &d); err != nil {
			return nil, err
		}
		return d.Keywords, nil
	}
}

// withColumns is g with changes made to its product index, at log
// position seq (which changed its products): the content indexes are
// shared, the search configurations compiled anew (their caches hold
// products).
func (g *Generation) withColumns(changes []index.ColumnChange, seq uint64) (*Generation, error) {
	seg, err := g.Products.WithColumns(changes, g.docKeywords(g.Products))
	if err != nil {
		return nil, err
	}
	n := &Generation{Seq: seq, ProductSeq: seq, Website: g.Website, Products: seg, Content: g.Content, an: g.an, fields: g.fields}
	if err := n.compile(); err != nil {
		return nil, err
	}
	return n, nil
}
