package engine

import (
	"math"
	"sync"
	"sync/atomic"

	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/internal/background"
)

// personalDoc is what personalization reads of one product, packed in
// 12 bytes, so reading a hit or a history product costs one cache line
// rather than one for each column.
type personalDoc struct {
	logPrice float32                    // log2 of its price; NaN without one
	ends     [piFields - piBrand]uint16 // brand, category, colour and size: its chain column's value (index.NoValue16 none, index.Multi16 several, or no column)
}

// personalColumn is a generation's personalDocs, built once on first
// need: at once for a small catalog, else in the background while
// personalization reads the columns themselves.
type personalColumn struct {
	mu   sync.Mutex // held while it is built
	docs atomic.Pointer[[]personalDoc]
}

// personalSyncDocs: a catalog of fewer products has its column built
// on the search's time (about a millisecond at this size).
const personalSyncDocs = 50000

// personalDocs is g's packed column, nil until built.
func (g *Generation) personalDocs() []personalDoc {
	c := g.personalCol
	if c == nil {
		return nil
	}
	if p := c.docs.Load(); p != nil {
		return *p
	}
	if g.Products.Slots() < personalSyncDocs {
		c.mu.Lock()
		defer c.mu.Unlock()
		if p := c.docs.Load(); p == nil {
			docs := g.buildPersonalDocs()
			c.docs.Store(&docs)
		}
		return *c.docs.Load()
	}
	if c.mu.TryLock() {
		background.Go(func() {
			defer c.mu.Unlock()
			if c.docs.Load() == nil {
				docs := g.buildPersonalDocs()
				c.docs.Store(&docs)
			}
		})
	}
	return nil
}

// buildPersonalDocs reads every product's price and chain values.
func (g *Generation) buildPersonalDocs() []personalDoc {
	docs := make([]personalDoc, g.Products.Slots())
	for d := range docs {
		docs[d] = g.personalDocOf(nil, uint32(d))
	}
	return docs
}

// personalDocOf is doc's personalDoc: packed's entry when packed holds
// it, else read from the columns (a doc past them has no values).
func (g *Generation) personalDocOf(packed []personalDoc, doc uint32) personalDoc {
	if int(doc) < len(packed) {
		return packed[doc]
	}
	pd := personalDoc{logPrice: float32(math.NaN())}
	if price := g.personal.price; price != nil {
		if v, ok := price.ValueAt(doc); ok && v > 0 {
			pd.logPrice = float32(math.Log2(v))
		}
	}
	for k, kf := range g.personal.keyword {
		pd.ends[k] = index.NoValue16
		if kf == nil {
			continue
		}
		col := kf.ChainColumn()
		switch {
		case col == nil:
			pd.ends[k] = index.Multi16 // values read from the field
		case int(doc) < len(col):
			pd.ends[k] = col[doc]
		}
	}
	return pd
}
