package index

import "slices"

// byteArena hands out copies of short byte strings from shared chunks
// of hugeMin bytes (makeHuge memory), so a section of many small values
// (the roaring bitmaps of a field's values or of the frequent terms) is
// a few large allocations instead of one per value, filled a huge page
// at a time. A copy is capped at its length: appending to it cannot
// reach its neighbour. A chunk stays alive while any copy in it does.
// The zero value is ready to use.
type byteArena struct{ chunk []byte }

// copy returns a copy of b from the arena; values of a quarter chunk or
// more get their own allocation, so a chunk is never mostly waste.
func (a *byteArena) copy(b []byte) []byte {
	if len(b) >= hugeMin/4 {
		return slices.Clone(b)
	}
	if cap(a.chunk)-len(a.chunk) < len(b) {
		a.chunk = makeHuge[byte](0, hugeMin)
	}
	start := len(a.chunk)
	a.chunk = append(a.chunk, b...)
	return a.chunk[start:len(a.chunk):len(a.chunk)]
}
