package analysis

import (
	"hash/maphash"
	"sync/atomic"
)

// stemCacheSlots is how many words a stem cache holds (a power of two):
// 32 KiB of pointers an analyzer, enough for the words of the queries a
// shop sees most.
const stemCacheSlots = 4096

// stemCache remembers the stems of recent words, direct-mapped by a hash
// of the word: a query's words come back search after search, and
// Snowball's stemmer costs a few hundred nanoseconds a word where a hit
// costs a hash and a compare. A slot holds an immutable entry, replaced
// whole by the last word stemmed there, so readers on any goroutine
// need no lock.
type stemCache struct {
	seed  maphash.Seed
	slots [stemCacheSlots]atomic.Pointer[stemEntry]
}

type stemEntry struct{ word, stem string }

func newStemCache() *stemCache { return &stemCache{seed: maphash.MakeSeed()} }

// slot is word's slot.
func (c *stemCache) slot(word string) *atomic.Pointer[stemEntry] {
	return &c.slots[maphash.String(c.seed, word)&(stemCacheSlots-1)]
}
