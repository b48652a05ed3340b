package index

import (
	"cmp"
	"encoding/binary"
	"slices"
	"sort"
	"strings"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"
)

// dict is a sorted list of strings packed into one arena: two allocations
// however many words, where a []string costs a header and an allocation
// each, and a map half a kilobyte per thousand. A catalog with a million
// product numbers has two million unique terms, so this is most of what
// the dictionary weighs.
//
// A sorted dict finds a string in two steps (lowerBound): a binary
// search over heads, the first 8 bytes of every headStride-th string as
// one number (an array a 64th the size, whose probes share cache lines),
// then one within the block it names. A search of a million products'
// two million terms reads about 12 cache lines, where a binary search
// over the strings reads about 40, each from another part of the arena.
type dict struct {
	text  []byte
	off   []uint32 // string i is text[off[i]:off[i+1]]; len is count+1
	heads []uint64 // head8 of strings 0, headStride, 2·headStride, …
}

// headStride is how many strings a dict's head stands for.
const headStride = 64

// head8 is s's first 8 bytes as a big-endian number, zero-padded: for
// strings a and b, head8(a) < head8(b) implies a < b, and > implies >.
func head8(s string) uint64 {
	var b [8]byte
	copy(b[:], s)
	return binary.BigEndian.Uint64(b[:])
}

func newDict(count, bytes int) dict {
	d := dict{text: makeHuge[byte](0, bytes), off: makeHuge[uint32](1, count+1)}
	return d
}

// add appends s, which must not sort before the last string added.
func (d *dict) add(s string) {
	if d.len()%headStride == 0 {
		d.heads = append(d.heads, head8(s))
	}
	d.text = append(d.text, s...)
	d.off = append(d.off, uint32(len(d.text)))
}

// addBytes is add for a byte slice.
func (d *dict) addBytes(s []byte) {
	if d.len()%headStride == 0 {
		d.heads = append(d.heads, head8(unsafe.String(unsafe.SliceData(s), len(s))))
	}
	d.text = append(d.text, s...)
	d.off = append(d.off, uint32(len(d.text)))
}

func (d *dict) len() int { return len(d.off) - 1 }

// at is string i, pointing into the arena (never modified once built).
func (d *dict) at(i int) string {
	lo, hi := d.off[i], d.off[i+1]
	if lo == hi {
		return ""
	}
	return unsafe.String(&d.text[lo], hi-lo)
}

// lowerBound is the first index whose string is >= s.
func (d *dict) lowerBound(s string) int {
	n := d.len()
	if len(d.heads) != (n+headStride-1)/headStride { // not built by add: no heads to trust
		return sort.Search(n, func(i int) bool { return d.at(i) >= s })
	}
	// Block j starts with a string of head heads[j]. The first block
	// whose head is over s's starts past the answer; the last whose head
	// is under it starts before it.
	h := head8(s)
	hi := sort.Search(len(d.heads), func(j int) bool { return d.heads[j] > h })
	lo := hi
	for lo > 0 && d.heads[lo-1] == h {
		lo--
	}
	from, to := 0, min(hi*headStride, n)
	if lo > 0 {
		from = (lo-1)*headStride + 1
	}
	return from + sort.Search(to-from, func(i int) bool { return d.at(from+i) >= s })
}

// find is the index of s.
func (d *dict) find(s string) (int, bool) {
	i := d.lowerBound(s)
	return i, i < d.len() && d.at(i) == s
}

// sorted reports whether the strings ascend strictly.
func (d *dict) sorted() bool {
	for i := 1; i < d.len(); i++ {
		if strings.Compare(d.at(i-1), d.at(i)) >= 0 {
			return false
		}
	}
	return true
}

// postSpan locates one field's postings of a term in the segment arenas:
// the base arena, or the tail arena when start has tailSpan set.
type postSpan struct {
	start, n uint32
	field    TextField
}

// tailSpan marks a span in the tail arena; the base arena holds fewer
// postings than this.
const tailSpan = 1 << 31

// postings holds every term's per-field postings in flat arenas, so a
// term costs a few words however many fields it is in, and the garbage
// collector has no per-term pointers to trace.
//
// A Build lays every posting in the base arena, a term's spans one per
// field, fields ascending. Segment.WithDocs leaves the base arena as it
// is (a removed doc stays in its lists, a hole no candidate set holds)
// and lays the postings of the docs it adds in the tail arena, which it
// makes anew each time: a term's tail spans follow its base spans.
type postings struct {
	spanOff []uint32 // term i's spans are spans[spanOff[i]:spanOff[i+1]]
	spans   []postSpan
	docs    []uint32
	tfs     []uint8
	tdocs   []uint32 // the tail arena
	ttfs    []uint8
	df      []uint32          // docs holding the term in any field
	bitmaps []*roaring.Bitmap // nil for terms under bitmapMinDF docs
	// live is the segment's docs when its lists hold holes (nil
	// otherwise): a bitmap built from the lists keeps only these.
	live *roaring.Bitmap
	// dense is the common terms' base docs as bitsets, liveDense live
	// as one (dense.go).
	dense     map[uint32][]uint64
	liveDense []uint64
}

// spanDocs is a span's docs and frequencies.
func (p *postings) spanDocs(sp postSpan) ([]uint32, []uint8) {
	docs, tfs, start := p.docs, p.tfs, sp.start
	if start&tailSpan != 0 {
		docs, tfs, start = p.tdocs, p.ttfs, start&^tailSpan
	}
	end := start + sp.n
	return docs[start:end:end], tfs[start:end:end]
}

func newPostings(terms, entries int) postings {
	return postings{
		spanOff: append(makeHuge[uint32](0, terms+1), 0),
		docs:    makeHuge[uint32](0, entries),
		tfs:     makeHuge[uint8](0, entries),
		df:      makeHuge[uint32](0, terms),
		bitmaps: make([]*roaring.Bitmap, 0, terms),
	}
}

// bitmapMinDF is the document frequency from which a term keeps a roaring
// bitmap of its docs; rarer terms (product numbers, model codes, rare
// words) build one when a query needs it, from their few postings.
const bitmapMinDF = 32

// fieldPostings appends term id's postings to dst as views into the
// arenas.
func (p *postings) fieldPostings(id uint32, dst []FieldPosting) []FieldPosting {
	for _, sp := range p.spans[p.spanOff[id]:p.spanOff[id+1]] {
		docs, tfs := p.spanDocs(sp)
		dst = append(dst, FieldPosting{Field: sp.field, Docs: docs, TFs: tfs})
	}
	return dst
}

// docs is term id's docs in any field: its kept bitmap, or a new one.
func (p *postings) docBitmap(id uint32) *roaring.Bitmap {
	if bm := p.bitmaps[id]; bm != nil {
		return bm
	}
	bm := roaring.New()
	for _, sp := range p.spans[p.spanOff[id]:p.spanOff[id+1]] {
		docs, _ := p.spanDocs(sp)
		bm.AddMany(docs)
	}
	if p.live != nil {
		bm.And(p.live)
	}
	return bm
}

// inFields reports whether term id has a posting in a field of m.
func (p *postings) inFields(id uint32, m FieldMask) bool {
	for _, sp := range p.spans[p.spanOff[id]:p.spanOff[id+1]] {
		if m.Has(sp.field) {
			return true
		}
	}
	return false
}

// docBitmapIn is term id's docs in the fields of m: docBitmap when the
// term is in no other field, else a new bitmap of m's postings.
func (p *postings) docBitmapIn(id uint32, m FieldMask) *roaring.Bitmap {
	spans := p.spans[p.spanOff[id]:p.spanOff[id+1]]
	outside := false
	for _, sp := range spans {
		outside = outside || !m.Has(sp.field)
	}
	if !outside {
		return p.docBitmap(id)
	}
	bm := roaring.New()
	p.addDocsIn(bm, id, m)
	p.keepLive(bm)
	return bm
}

// keyIndex finds docs by folded external id (product numbers and their
// variants): the keys sorted and packed, their docs beside them. A map of
// a million string keys is a million pointers for every garbage
// collection to trace; this is three.
//
// A key may be listed more than once: a doc's own key first, then the
// docs listing it as an alternative, in key order. The first entry is
// the one found; the others take its place when its doc is removed.
type keyIndex struct {
	keys dict
	docs []uint32
}

// newKeyIndex sorts own keys (one per doc) and alternatives (docs
// numbered in key order) into an index; an alternative listed twice by
// one doc counts once.
func newKeyIndex(own, alts []keyID) keyIndex {
	type entry struct {
		key  string
		doc  uint32
		rank uint8 // 0 own, 1 alternative
	}
	entries := makeHuge[entry](0, len(own)+len(alts))
	total := 0
	for _, o := range own {
		entries = append(entries, entry{o.key, o.id, 0})
		total += len(o.key)
	}
	for _, a := range alts {
		entries = append(entries, entry{a.key, a.id, 1})
		total += len(a.key)
	}
	slices.SortFunc(entries, func(a, b entry) int {
		if c := strings.Compare(a.key, b.key); c != 0 {
			return c
		}
		if a.rank != b.rank {
			return int(a.rank) - int(b.rank)
		}
		return cmp.Compare(a.doc, b.doc)
	})
	entries = slices.Compact(entries)
	ki := keyIndex{keys: newDict(len(entries), total), docs: make([]uint32, len(entries))}
	for i, e := range entries {
		ki.keys.add(e.key)
		ki.docs[i] = e.doc
	}
	return ki
}

// find is the doc of a folded key.
func (ki *keyIndex) find(folded string) (uint32, bool) {
	i, ok := ki.keys.find(folded)
	if !ok {
		return 0, false
	}
	return ki.docs[i], true
}

// joinPostings lays parts (each a run of terms, in order) end to end in
// arenas of their exact size.
func joinPostings(parts []postings) postings {
	var terms, spans, entries int
	for i := range parts {
		terms += len(parts[i].df)
		spans += len(parts[i].spans)
		entries += len(parts[i].docs)
	}
	out := newPostings(terms, entries)
	out.spans = make([]postSpan, 0, spans)
	for i := range parts {
		pt := &parts[i]
		docBase, spanBase := uint32(len(out.docs)), uint32(len(out.spans))
		out.docs = append(out.docs, pt.docs...)
		out.tfs = append(out.tfs, pt.tfs...)
		for _, sp := range pt.spans {
			sp.start += docBase
			out.spans = append(out.spans, sp)
		}
		for _, o := range pt.spanOff[1:] {
			out.spanOff = append(out.spanOff, o+spanBase)
		}
		out.df = append(out.df, pt.df...)
		out.bitmaps = append(out.bitmaps, pt.bitmaps...)
	}
	return out
}

// addDocsIn adds term id's docs in the fields of m to bm, the docs a
// write removed included (keepLive drops those once, after the last
// add): a word's routes go into one bitmap without one for each.
func (p *postings) addDocsIn(bm *roaring.Bitmap, id uint32, m FieldMask) {
	spans := p.spans[p.spanOff[id]:p.spanOff[id+1]]
	if bb := p.bitmaps[id]; bb != nil {
		all := true
		for _, sp := range spans {
			all = all && m.Has(sp.field)
		}
		if all {
			bm.Or(bb)
			return
		}
	}
	for _, sp := range spans {
		if m.Has(sp.field) {
			docs, _ := p.spanDocs(sp)
			bm.AddMany(docs)
		}
	}
}

// keepLive drops from bm the docs a write removed.
func (p *postings) keepLive(bm *roaring.Bitmap) {
	if p.live != nil {
		bm.And(p.live)
	}
}
