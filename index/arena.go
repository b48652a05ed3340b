package index

import "slices"

// arenaChunk is the size of the chunks a byteArena packs values into:
// hugeMin, so each chunk is makeHuge memory.
const arenaChunk = hugeMin

// byteArena hands out copies of short byte strings from shared chunks of
// arenaChunk bytes, so many small values (stored docs as a builder adds
// or compresses them, the roaring bitmaps of a section Load reads) are a
// few large allocations instead of one per value, filled a huge page at
// a time. A copy is capped at its length: appending to it cannot reach
// its neighbour. A chunk stays alive while any copy in it does. The zero
// value is ready to use; a nil arena copies each value on its own.
type byteArena struct{ chunk []byte }

// copy returns a copy of b from the arena; values of a quarter chunk or
// more get their own allocation, so a chunk is never mostly waste.
func (a *byteArena) copy(b []byte) []byte {
	if a == nil || len(b) >= arenaChunk/4 {
		return slices.Clone(b)
	}
	if cap(a.chunk)-len(a.chunk) < len(b) {
		a.chunk = makeHuge[byte](0, arenaChunk)
	}
	start := len(a.chunk)
	a.chunk = append(a.chunk, b...)
	return a.chunk[start:len(a.chunk):len(a.chunk)]
}
