package engine

import (
	"encoding/binary"
	"slices"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/ranking"
)

// The title re-ranking raises a query's best products (the top
// config.ProximityDepth by text score, with the boosts) by what their
// titles hold, so pages further down are the same set as before; it
// runs on unsorted queries. Two settings of the search version weigh it:
//
//   - proximity (config.SearchVersion.Proximity): a title holding the
//     query's words side by side, in the order typed ("mail slot" in
//     "Brass Mail Slot"), gains weight × pairs found / pairs; for a
//     query of two words or more.
//   - exact forms (config.SearchVersion.ExactForms): a title holding a
//     query word as typed, but for a plural ending
//     (analysis.Analyzer.Form), gains weight × such words / the query's
//     words (its function words aside): "lighting" prefers "Lighting
//     Kit" to "Light Fixture", which its stem, light, also matches.
//
// Titles are read as the index keeps them, their words' term and form
// hashes in order (index.Segment.TitleHashes): a title word whose hash
// is a query word's counts as it, one chance in 65,536 for a word that
// is not.

// titleRerank is a query's re-ranking: its words' stems in order and
// its words' forms, hashed as the index hashes titles (index.TitleHash).
type titleRerank struct {
	g          *Generation
	hashes     []uint16 // nil: no proximity
	forms      []uint16 // nil: no exact forms
	proximity  float32
	exactForms float32
	fold       byte // prefetchEntries', kept
}

// titleRerank is q's re-ranking with the weights, nil when there is
// none to do.
func (g *Generation) titleRerank(q *ranking.Query, proximity, exactForms float64) func([]ranking.Hit) {
	r := &titleRerank{g: g, proximity: float32(proximity), exactForms: float32(exactForms)}
	buf := make([]uint16, 0, 2*len(q.Words)) // the hashes, then the forms
	if len(q.Words) >= 2 && proximity > 0 {
		for _, w := range q.Words {
			buf = append(buf, index.TitleHash(w.Term))
		}
		r.hashes = buf
	}
	if exactForms > 0 {
		at := len(buf)
		for _, w := range q.Words {
			if !w.Stop {
				buf = append(buf, index.TitleHash(g.an.Form(w.Text)))
			}
		}
		if len(buf) > at {
			r.forms = buf[at:]
		}
	}
	if r.hashes == nil && r.forms == nil {
		return nil
	}
	return r.rerank
}

// rerank raises the scores of the first config.ProximityDepth hits by
// their titles and sorts them again (stable: equal scores keep their
// order).
func (r *titleRerank) rerank(hits []ranking.Hit) {
	n := min(config.ProximityDepth, len(hits))
	var found []bool
	if r.hashes != nil {
		found = make([]bool, len(r.hashes)-1)
	}
	r.fold = prefetchEntries(r.g.Products, hits[:n])
	for i := range hits[:n] {
		terms, forms := r.g.Products.TitleHashes(hits[i].Doc)
		factor := float32(1)
		if r.hashes != nil {
			if pairs := r.pairs(terms, found); pairs > 0 {
				factor *= 1 + r.proximity*float32(pairs)/float32(len(found))
			}
		}
		if r.forms != nil {
			if exact := r.exact(forms); exact > 0 {
				factor *= 1 + r.exactForms*float32(exact)/float32(len(r.forms))
			}
		}
		hits[i].Score *= factor
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

// pairs is how many of the query's consecutive word pairs a title's
// term hashes hold side by side, in order; found is scratch, a flag a
// pair.
func (r *titleRerank) pairs(terms []byte, found []bool) int {
	clear(found)
	pairs := 0
	prev := -1 // the query word the previous title word is, -1: none
	for k := 0; k+1 < len(terms); k += 2 {
		cur := r.word(binary.LittleEndian.Uint16(terms[k:]), prev)
		if prev >= 0 && cur == prev+1 && !found[prev] {
			found[prev] = true
			pairs++
		}
		prev = cur
	}
	return pairs
}

// word is which query word a title word (its hash) is: the one after
// prev when it is that (so a repeated word chains), else the first it
// is; -1 when none.
func (r *titleRerank) word(h uint16, prev int) int {
	if prev >= 0 && prev+1 < len(r.hashes) && r.hashes[prev+1] == h {
		return prev + 1
	}
	return slices.Index(r.hashes, h)
}

// exact is how many of the query's words a title's form hashes hold.
func (r *titleRerank) exact(forms []byte) int {
	exact := 0
	for _, f := range r.forms {
		for k := 0; k+1 < len(forms); k += 2 {
			if binary.LittleEndian.Uint16(forms[k:]) == f {
				exact++
				break
			}
		}
	}
	return exact
}
