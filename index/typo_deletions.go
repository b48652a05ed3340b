package index

import (
	"slices"
	"sync"
)

// A deletion index finds the words one edit from a word by hashing, as
// SymSpell does: each word of delMinRunes to delMaxRunes runes is listed
// under the hash of itself and of each string one rune shorter than it.
// Two words one insertion, deletion, substitution or transposition apart
// share one of those strings, so looking up the word's own n+1 strings
// finds every word within one edit with n+1 binary searches, where the
// bigram lists of a common bigram hold thousands of words. What it finds
// beyond them (two edits, a hash collision) the caller's distance check
// drops. Words of other lengths, and two edits, take the bigram index.

const (
	delMinRunes = 3 // the shortest word listed: 4-rune words look 1 edit away
	delMaxRunes = 9
)

// deletionIndex is the sorted (hash<<32 | id) of every listed word's
// strings; an id appears under each distinct hash of its strings once.
type deletionIndex struct {
	entries []uint64
}

// add lists id under word's strings; any order, sort before use.
func (di *deletionIndex) add(id uint32, word []rune) {
	if len(word) < delMinRunes || len(word) > delMaxRunes {
		return
	}
	start := len(di.entries)
	di.entries = append(di.entries, uint64(hashRunes(word, -1))<<32|uint64(id))
	for i := range word {
		e := uint64(hashRunes(word, i))<<32 | uint64(id)
		if !slices.Contains(di.entries[start:], e) { // "drill": both l's give "dril"
			di.entries = append(di.entries, e)
		}
	}
}

// sort readies di for lookups.
func (di *deletionIndex) sort() { slices.Sort(di.entries) }

// covers reports whether di finds every word within k edits of an
// n-rune word: one edit, and all the lengths it reaches listed.
func (di *deletionIndex) covers(n, k int) bool {
	return k == 1 && n-1 >= delMinRunes && n+1 <= delMaxRunes
}

// deletionSeen is a reusable list of the ids one lookup has met.
type deletionSeen struct{ ids []uint32 }

var deletionSeenPool sync.Pool

// candidates calls fn once with each id listed under one of word's n+1
// strings (covers must hold).
func (di *deletionIndex) candidates(word []rune, fn func(id uint32)) {
	seen, _ := deletionSeenPool.Get().(*deletionSeen)
	if seen == nil {
		seen = &deletionSeen{}
	}
	ids := seen.ids[:0]
	for i := -1; i < len(word); i++ {
		h := uint64(hashRunes(word, i)) << 32
		j, _ := slices.BinarySearch(di.entries, h)
		for ; j < len(di.entries) && di.entries[j]&^0xffffffff == h; j++ {
			ids = append(ids, uint32(di.entries[j]))
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	for _, id := range ids {
		fn(id)
	}
	seen.ids = ids[:0]
	deletionSeenPool.Put(seen)
}

// hashRunes is the 32-bit FNV-1a hash of word without its rune at skip
// (-1: the whole word).
func hashRunes(word []rune, skip int) uint32 {
	h := uint32(2166136261)
	for i, r := range word {
		if i == skip {
			continue
		}
		for v := uint32(r); ; v >>= 8 { // a rune's bytes, low first, at least one
			h = (h ^ (v & 0xff)) * 16777619
			if v < 0x100 {
				break
			}
		}
	}
	return h
}
