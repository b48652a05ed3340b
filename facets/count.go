// Package facets counts facet values over a result set: per-value bitmap
// intersections when a field has few values, one pass over the set's docs
// otherwise, and range bounds from the sorted numeric columns.
package facets

import (
	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/index"
)

// bitmapCostFactor is how many docs of a column scan one per-value
// AndCardinality is worth; above it, intersecting value bitmaps wins. It
// is high because a sparse set's containers are arrays, and intersecting
// arrays costs their length for every value, where the scan reads one
// 2-byte cell a doc.
const bitmapCostFactor = 4096

// Counter holds reusable buffers for one request's facet counting.
type Counter struct {
	buf    []uint32
	counts []uint32
	ends   []uint32
}

// Keyword counts, for each value of k, the docs of base holding it. The
// returned slice is indexed by value id and valid until the next call.
func (c *Counter) Keyword(k *index.KeywordField, base *roaring.Bitmap) []uint32 {
	nv := len(k.Values)
	if cap(c.counts) < nv {
		c.counts = make([]uint32, nv)
	}
	counts := c.counts[:nv]
	clear(counts)
	card := base.GetCardinality()
	if card == 0 {
		return counts
	}
	if uint64(nv)*bitmapCostFactor < card {
		for v, bm := range k.Bitmaps {
			counts[v] = uint32(base.AndCardinality(bm))
		}
		return counts
	}
	buf := c.docBuf()
	offs, vals := k.Column()
	if one := k.ChainColumn(); one != nil {
		if cap(c.ends) < nv {
			c.ends = make([]uint32, nv)
		}
		ends := c.ends[:nv]
		clear(ends)
		it := base.ManyIterator()
		for {
			n := it.NextMany(buf)
			if n == 0 {
				break
			}
			for _, d := range buf[:n] {
				switch v := one[d]; {
				case v < index.Multi16:
					ends[v]++
				case v == index.Multi16:
					for _, v := range vals[offs[d]:offs[d+1]] {
						counts[v]++
					}
				}
			}
		}
		k.AddChains(counts, ends)
		return counts
	}
	it := base.ManyIterator()
	single := k.Single()
	for {
		n := it.NextMany(buf)
		if n == 0 {
			break
		}
		if single {
			for _, d := range buf[:n] {
				if lo := offs[d]; offs[d+1] > lo {
					counts[vals[lo]]++
				}
			}
			continue
		}
		for _, d := range buf[:n] {
			for _, v := range vals[offs[d]:offs[d+1]] {
				counts[v]++
			}
		}
	}
	return counts
}

// Range is the smallest and largest value of f over base; ok is false when
// no doc of base has a value. A set holding most of the column walks the
// sorted column from both ends; others are scanned, reading the 2-byte
// quantised positions and a value only when it may be a new extreme.
func (c *Counter) Range(f *index.NumericField, base *roaring.Bitmap) (lo, hi float64, ok bool) {
	card := base.GetCardinality()
	if card == 0 {
		return 0, 0, false
	}
	perm, sorted := f.Sorted()
	if len(perm) == 0 {
		return 0, 0, false
	}
	if card*4 >= uint64(len(perm)) {
		i := 0
		for i < len(perm) && !base.Contains(perm[i]) {
			i++
		}
		if i == len(perm) {
			return 0, 0, false
		}
		j := len(perm) - 1
		for !base.Contains(perm[j]) {
			j--
		}
		return sorted[i], sorted[j], true
	}
	buf := c.docBuf()
	vals, qpos := f.Values(), f.Quantised()
	minQ, maxQ := uint16(index.NoValue16), uint16(0)
	it := base.ManyIterator()
	for {
		n := it.NextMany(buf)
		if n == 0 {
			break
		}
		for _, d := range buf[:n] {
			q := qpos[d]
			if q == index.NoValue16 {
				continue
			}
			if q <= minQ {
				if v := vals[d]; !ok || q < minQ || v < lo {
					lo = v
				}
				minQ = q
			}
			if q >= maxQ {
				if v := vals[d]; !ok || q > maxQ || v > hi {
					hi = v
				}
				maxQ = q
			}
			ok = true
		}
	}
	return lo, hi, ok
}

// docBuf is the counter's reused buffer for a bitmap's docs, taken a
// batch at a time.
func (c *Counter) docBuf() []uint32 {
	if cap(c.buf) < 1024 {
		c.buf = make([]uint32, 1024)
	}
	return c.buf[:cap(c.buf)]
}
