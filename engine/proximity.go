package engine

import (
	"bytes"
	"slices"
	"unsafe"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/ranking"
)

// Proximity (config.SearchVersion.Proximity): among a query's best
// products, those whose title holds the query's words side by side, in
// the order typed ("mail slot" in "Brass Mail Slot"), rank above those
// that have the words apart. It re-ranks the top config.ProximityDepth
// by text score (with the boosts), so pages further down are the same
// set as before, and it runs only for a query of two words or more,
// unsorted.

// proximity is a query's re-ranking: its words' stems in order.
type proximity struct {
	g      *Generation
	stems  []string
	weight float32
}

// proximityRerank is q's re-ranking with weight, nil when there is none
// to do.
func (g *Generation) proximityRerank(q *ranking.Query, weight float64) func([]ranking.Hit) {
	if len(q.Words) < 2 || weight <= 0 {
		return nil
	}
	p := &proximity{g: g, weight: float32(weight), stems: make([]string, len(q.Words))}
	for i, w := range q.Words {
		p.stems[i] = g.an.Stem(analysis.FoldString(w.Text))
	}
	return p.rerank
}

// rerank raises the scores of the first config.ProximityDepth hits by
// their titles' adjacent pairs and sorts them again (stable: equal
// scores keep their order).
func (p *proximity) rerank(hits []ranking.Hit) {
	n := min(config.ProximityDepth, len(hits))
	var doc []byte
	found := make([]bool, len(p.stems)-1)
	for i := range hits[:n] {
		doc = p.g.Products.AppendStored(doc[:0], hits[i].Doc)
		title, ok := storedString(doc, "title")
		if !ok {
			continue
		}
		clear(found)
		pairs := 0
		prev := -1 // the query word the previous title word is, -1: none
		p.g.an.Each(title, func(folded []byte, numeric bool, _ int) {
			cur := p.word(folded, numeric, prev)
			if prev >= 0 && cur == prev+1 && !found[prev] {
				found[prev] = true
				pairs++
			}
			prev = cur
		})
		if pairs > 0 {
			hits[i].Score *= 1 + p.weight*float32(pairs)/float32(len(found))
		}
	}
	slices.SortStableFunc(hits[:n], func(a, b ranking.Hit) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
}

// word is which query word a title word is: the one after prev when it
// is that (so a repeated word chains), else the first it is; -1 when
// none. A title word is stemmed only when it begins as a query word's
// stem does: most are not, and stemming is the cost.
func (p *proximity) word(folded []byte, numeric bool, prev int) int {
	match := func(j int) bool {
		s := p.stems[j]
		if numeric {
			return string(folded) == s
		}
		head := min(3, len(s))
		if len(folded) < head || !bytes.Equal(folded[:head], []byte(s[:head])) {
			return false
		}
		return string(folded) == s || p.g.an.Stem(string(folded)) == s
	}
	if prev >= 0 && prev+1 < len(p.stems) && match(prev+1) {
		return prev + 1
	}
	for j := range p.stems {
		if match(j) {
			return j
		}
	}
	return -1
}

// storedString is the string member name of a stored document; without
// escapes it points into doc, valid until doc changes.
func storedString(doc []byte, name string) (string, bool) {
	var raw []byte
	members(doc, func(key []byte, v span) bool {
		if string(key) == name {
			raw = doc[v.start:v.end]
			return true
		}
		return false
	})
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 { // the doc's own bytes: valid while doc is
		return unsafe.String(&raw[1], len(raw)-2), true
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}
