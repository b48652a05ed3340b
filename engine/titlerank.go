package engine

import (
	"encoding/binary"
	"slices"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/ranking"
)

// Proximity (config.SearchVersion.Proximity): among a query's best
// products, those whose title holds the query's words side by side, in
// the order typed ("mail slot" in "Brass Mail Slot"), rank above those
// that have the words apart. It re-ranks the top config.ProximityDepth
// by text score (with the boosts), so pages further down are the same
// set as before, and it runs only for a query of two words or more,
// unsorted.

// proximity is a query's re-ranking: its words' stems in order, as
// the index hashes title words (index.TitleHash).
type proximity struct {
	g      *Generation
	hashes []uint16
	weight float32
}

// proximityRerank is q's re-ranking with weight, nil when there is none
// to do.
func (g *Generation) proximityRerank(q *ranking.Query, weight float64) func([]ranking.Hit) {
	if len(q.Words) < 2 || weight <= 0 {
		return nil
	}
	p := &proximity{g: g, weight: float32(weight), hashes: make([]uint16, len(q.Words))}
	for i, w := range q.Words {
		p.hashes[i] = index.TitleHash(w.Term)
	}
	return p.rerank
}

// rerank raises the scores of the first config.ProximityDepth hits by
// their titles' adjacent pairs and sorts them again (stable: equal
// scores keep their order). A title is read as the index keeps it, its
// words' hashes in order (index.Segment.TitleHashes): a title word
// whose hash is a query word's counts as it, one chance in 65,536 for
// a word that is not.
func (p *proximity) rerank(hits []ranking.Hit) {
	n := min(config.ProximityDepth, len(hits))
	found := make([]bool, len(p.hashes)-1)
	for i := range hits[:n] {
		title := p.g.Products.TitleHashes(hits[i].Doc)
		clear(found)
		pairs := 0
		prev := -1 // the query word the previous title word is, -1: none
		for k := 0; k+1 < len(title); k += 2 {
			cur := p.word(binary.LittleEndian.Uint16(title[k:]), prev)
			if prev >= 0 && cur == prev+1 && !found[prev] {
				found[prev] = true
				pairs++
			}
			prev = cur
		}
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

// word is which query word a title word (its hash) is: the one after
// prev when it is that (so a repeated word chains), else the first it
// is; -1 when none.
func (p *proximity) word(h uint16, prev int) int {
	if prev >= 0 && prev+1 < len(p.hashes) && p.hashes[prev+1] == h {
		return prev + 1
	}
	return slices.Index(p.hashes, h)
}
