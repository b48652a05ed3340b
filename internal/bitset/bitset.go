// Package bitset holds sets of doc ids as plain bitsets: bit d%64 of
// word d/64 is doc d. A set over a segment's doc ids takes Words(slots)
// words whatever it holds, and ORs and ANDs 64 docs a step, where a
// roaring bitmap's array containers merge element by element. The index
// keeps common terms' docs this way and ranking.Match combines a
// search's words in them; roaring bitmaps go in and come out at the
// edges (OrBitmap, roaring.FromDense).
//
// Every function takes sets of the same length and trusts its doc ids
// to be below the sets' length in bits.
package bitset

import (
	"math/bits"

	"github.com/RoaringBitmap/roaring/v2"
)

// Words is the length of a set over doc ids below slots.
func Words(slots int) int { return (slots + 63) / 64 }

// Set adds docs to dst.
func Set(dst []uint64, docs []uint32) {
	for _, d := range docs {
		dst[d>>6] |= 1 << (d & 63)
	}
}

// Or adds src's docs to dst. src may be shorter than dst: a set over
// fewer doc ids.
func Or(dst, src []uint64) {
	dst = dst[:len(src)]
	for i := range src {
		dst[i] |= src[i]
	}
}

// And keeps in dst only the docs src holds too.
func And(dst, src []uint64) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] &= src[i]
	}
}

// Count is how many docs s holds.
func Count(s []uint64) int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// orBatch is how many docs OrBitmap reads from its iterator at a time.
const orBatch = 256

// OrBitmap adds bm's docs to dst.
func OrBitmap(dst []uint64, bm *roaring.Bitmap) {
	var buf [orBatch]uint32
	it := bm.ManyIterator()
	for n := it.NextMany(buf[:]); n > 0; n = it.NextMany(buf[:]) {
		Set(dst, buf[:n])
	}
}
