package engine

import (
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
)

// filterCache keeps the docs of recommendation source filters on one
// generation's products, by filter (field, operator, values): a box's
// filters repeat on every call, and a range over a hundred thousand
// prices costs a fraction of a millisecond to gather. The bitmaps are
// read only. At most maxCachedFilters are kept (they are not evicted: a
// new generation starts empty), so filters drawn from each request's
// context cannot grow it without bound.
type filterCache struct {
	mu sync.RWMutex
	m  map[string]*roaring.Bitmap
}

// maxCachedFilters bounds a generation's cached filters: at a million
// products a bitmap takes up to 125 KB.
const maxCachedFilters = 64

func (c *filterCache) get(key string) (*roaring.Bitmap, bool) {
	if c == nil { // a generation compiled without products (CheckWebsite)
		return nil, false
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	bm, ok := c.m[key]
	return bm, ok
}

func (c *filterCache) put(key string, bm *roaring.Bitmap) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*roaring.Bitmap{}
	}
	if len(c.m) < maxCachedFilters {
		c.m[key] = bm
	}
}
