package index

import (
	"slices"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/aisle-search/aisle/internal/background"
)

// A typo index finds the terms within k edits of a word without
// comparing it with every term of a near length: each typo term (byLen's)
// is listed under the bigrams of its runes with a start and an end mark
// ("^dr", ..., "l$" for "drill"), and a candidate must share enough of
// the word's bigrams. An edit changes at most two bigrams, and a
// transposition (one edit here, as in the optimal-string-alignment
// distance) at most three, so a term within k edits of an n-rune word
// shares at least n+1-3k of the word's n+1 bigrams, counted with their
// repeats: the rest are not looked at, and no term within k is missed.
//
// A segment's typo index is built on a background thread the first time
// a typo is looked up; until it is ready, TypoCandidates reports false
// and the caller scans TermsOfLen as before. Segments that share their
// terms (a column write, a compaction) share it; a write that changes
// the terms starts a new one.

// bigram is two runes, packed.
type bigram uint64

const (
	gramStart = rune(-1) // before the first rune
	gramEnd   = rune(-2) // after the last
)

func gramOf(a, b rune) bigram { return bigram(uint64(uint32(a))<<32 | uint64(uint32(b))) }

// gramIndex lists ids (terms or surfaces) under each bigram of their
// words, each id once for each time its word holds the bigram,
// ascending.
type gramIndex struct {
	grams map[bigram][]uint32
	runes []uint8 // by id: the word's rune length (capped at 255); 0 for an id not listed
}

func newGramIndex(n int) gramIndex {
	return gramIndex{grams: map[bigram][]uint32{}, runes: make([]uint8, n)}
}

// add lists id under word's bigrams; ids come in ascending order.
func (gi *gramIndex) add(id uint32, word string) {
	n := 0
	prev := gramStart
	for _, r := range word {
		g := gramOf(prev, r)
		gi.grams[g] = append(gi.grams[g], id)
		prev = r
		n++
	}
	g := gramOf(prev, gramEnd)
	gi.grams[g] = append(gi.grams[g], id)
	gi.runes[id] = uint8(min(n, 255))
}

// CommonSurfaceDocs is the doc frequency from which a surface's term is
// common: CommonSurfaceTypoCandidates looks only among those, so a
// caller that wants typos at least this frequent reads far shorter
// bigram lists (a catalog's words are mostly rare).
const CommonSurfaceDocs = 50

// typoIndex is a segment's typo terms' bigrams, and its non-numeric
// surfaces' (the words as indexed, unstemmed: typos of the word as
// typed); common is the surfaces whose term was in CommonSurfaceDocs
// docs or more when it was built.
type typoIndex struct {
	terms, surfaces, common typoLookup
}

// typoLookup finds one list's words near a word: the deletion index for
// one edit where it covers the lengths, the bigram index otherwise.
type typoLookup struct {
	grams gramIndex
	dels  deletionIndex
}

func newTypoLookup(n int) typoLookup { return typoLookup{grams: newGramIndex(n)} }

// add lists id under word; ids come in ascending order.
func (tl *typoLookup) add(id uint32, word string) {
	tl.grams.add(id, word)
	tl.dels.add(id, []rune(word))
}

// candidates calls fn once with every id that may be within k edits of
// word (a superset: the caller checks the distance).
func (tl *typoLookup) candidates(word []rune, k int, fn func(id uint32)) {
	if tl.dels.covers(len(word), k) {
		tl.dels.candidates(word, fn)
		return
	}
	tl.grams.candidates(word, k, fn)
}

// typoHolder is a segment's typo index, built once on demand.
type typoHolder struct {
	once  sync.Once
	ready atomic.Pointer[typoIndex]
}

func newTypoHolder() *typoHolder { return &typoHolder{} }

// buildTypoIndex indexes the terms of byLen and the surfaces without a
// digit.
func buildTypoIndex(s *Segment) *typoIndex {
	idx := &typoIndex{
		terms:    newTypoLookup(s.terms.len()),
		surfaces: newTypoLookup(s.surfaces.len()),
		common:   newTypoLookup(s.surfaces.len()),
	}
	var ids []uint32
	for _, l := range s.byLen {
		ids = append(ids, l...)
	}
	slices.Sort(ids)
	for _, id := range ids {
		idx.terms.add(id, s.TermString(id))
	}
	for i := range s.surfaces.len() {
		if w := s.surfaces.at(i); !hasDigit(w) {
			idx.surfaces.add(uint32(i), w)
			if s.DocFreq(s.surfaceTerm[i]) >= CommonSurfaceDocs {
				idx.common.add(uint32(i), w)
			}
		}
	}
	idx.terms.dels.sort()
	idx.surfaces.dels.sort()
	idx.common.dels.sort()
	return idx
}

// BuildTypoIndex builds s's typo index now, if it is not built; tests and
// a start that wants typos fast from the first query call it.
func (s *Segment) BuildTypoIndex() {
	if s.typo == nil {
		return
	}
	s.typo.once.Do(func() { s.typo.ready.Store(buildTypoIndex(s)) })
}

// typoIndex is s's typo index, nil while it is being built (the first
// call starts building it on a background thread).
func (s *Segment) typoIndex() *typoIndex {
	h := s.typo
	if h == nil {
		return nil
	}
	if idx := h.ready.Load(); idx != nil {
		return idx
	}
	background.Go(s.BuildTypoIndex)
	return nil
}

// typoCounts is a reusable per-term counter for TypoCandidates.
type typoCounts struct {
	n       []uint8
	touched []uint32
}

var typoCountPool sync.Pool

// TypoCandidates calls fn, in no particular order, with every typo term
// whose rune length is within k of word's and that shares enough bigrams
// to be within k edits of it (fn checks the distance itself); ok is
// false when the index is not built yet (or the word is longer than it
// counts), and the caller scans TermsOfLen instead.
func (s *Segment) TypoCandidates(word []rune, k int, fn func(id uint32)) (ok bool) {
	idx := s.typoIndexFor(word, k)
	if idx != nil {
		idx.terms.candidates(word, k, fn)
	}
	return idx != nil
}

// SurfaceTypoCandidates is TypoCandidates for the surfaces (Surface):
// the indexed words without a digit, unstemmed; false while the index is
// not built, and the caller scans the surfaces.
func (s *Segment) SurfaceTypoCandidates(word []rune, k int, fn func(surface int)) (ok bool) {
	idx := s.typoIndexFor(word, k)
	if idx != nil {
		idx.surfaces.candidates(word, k, func(id uint32) { fn(int(id)) })
	}
	return idx != nil
}

// CommonSurfaceTypoCandidates is SurfaceTypoCandidates among the
// surfaces whose term was in CommonSurfaceDocs docs or more when the
// index was built: a caller wanting typos that frequent checks each
// candidate's current frequency, since a segment sharing the index
// (a compaction) can hold fewer. False while the index is not built.
func (s *Segment) CommonSurfaceTypoCandidates(word []rune, k int, fn func(surface int)) (ok bool) {
	idx := s.typoIndexFor(word, k)
	if idx != nil {
		idx.common.candidates(word, k, func(id uint32) { fn(int(id)) })
	}
	return idx != nil
}

// typoIndexFor is s's typo index for a word of len(word) runes within k
// edits: nil while it is being built, or when the word is longer than
// its rune lengths count.
func (s *Segment) typoIndexFor(word []rune, k int) *typoIndex {
	if len(word)+k >= 255 {
		return nil
	}
	return s.typoIndex()
}

// candidates calls fn with every id whose word's rune length is within
// k of word's and that shares at least n+1-3k of word's n+1 bigrams.
func (gi *gramIndex) candidates(word []rune, k int, fn func(id uint32)) {
	n := len(word)
	need := n + 1 - 3*k
	if need <= 0 { // too short for the bigrams to rule anything out
		for id, l := range gi.runes {
			if l != 0 && int(l) >= n-k && int(l) <= n+k {
				fn(uint32(id))
			}
		}
		return
	}
	// The word's bigrams and how often each appears.
	type want struct {
		g bigram
		c int
	}
	var buf [32]want
	wants := buf[:0]
	prev := gramStart
	for i := 0; i <= n; i++ {
		r := gramEnd
		if i < n {
			r = word[i]
		}
		g := gramOf(prev, r)
		if j := slices.IndexFunc(wants, func(w want) bool { return w.g == g }); j >= 0 {
			wants[j].c++
		} else {
			wants = append(wants, want{g, 1})
		}
		prev = r
	}
	tc, _ := typoCountPool.Get().(*typoCounts)
	if tc == nil {
		tc = &typoCounts{}
	}
	if len(tc.n) < len(gi.runes) {
		tc.n = make([]uint8, len(gi.runes))
	}
	for _, w := range wants {
		ids := gi.grams[w.g]
		for i := 0; i < len(ids); {
			id, run := ids[i], 1
			for i+run < len(ids) && ids[i+run] == id {
				run++
			}
			i += run
			if l := int(gi.runes[id]); l < n-k || l > n+k {
				continue
			}
			if tc.n[id] == 0 {
				tc.touched = append(tc.touched, id)
			}
			tc.n[id] = uint8(min(int(tc.n[id])+min(run, w.c), 255))
		}
	}
	for _, id := range tc.touched {
		if int(tc.n[id]) >= need {
			fn(id)
		}
		tc.n[id] = 0
	}
	tc.touched = tc.touched[:0]
	typoCountPool.Put(tc)
}

// typoTerms is the ids of terms' non-numeric terms by rune length
// (Segment.byLen), each length's ascending.
func typoTerms(terms *dict) [][]uint32 {
	var byLen [][]uint32
	for id := 0; id < terms.len(); id++ {
		t := terms.at(id)
		if hasDigit(t) {
			continue
		}
		l := utf8.RuneCountInString(t)
		for len(byLen) <= l {
			byLen = append(byLen, nil)
		}
		byLen[l] = append(byLen[l], uint32(id))
	}
	return byLen
}
