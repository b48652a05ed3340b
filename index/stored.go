package index

import (
	"encoding/binary"
	"slices"
	"sync"

	"github.com/klauspost/compress/s2"

	"github.com/aisle-search/aisle/internal/jsonscan"
)

// storedDocs holds every doc's entry (stored_entry.go: its title's word
// hashes and its JSON's member offsets, then its JSON) with the JSON
// compressed with S2 against a dictionary sampled from the catalog
// itself. Product JSON repeats its
// keys, URLs and vocabulary from doc to doc, so a 64 KB dictionary takes
// a doc to about a third of its size (913 MB of demo JSON becomes about
// 270 MB). Decoding a 900-byte demo doc costs about 0.75 µs, 20 hits a
// page (stored_reader.go's decoder); a field projection decodes a doc
// only as far as its last wanted member (StoredReader).
type storedDocs struct {
	data     []byte   // every doc's entry, end to end
	off      []uint64 // doc i is data[off[i]:off[i+1]]; no pointer per doc for the GC to trace
	dict     *s2.Dict // nil: docs are stored as they came
	dictData []byte   // what NewDict rebuilds dict from, for saving
	// over holds docs replaced or added since data was laid out (column
	// updates, WithDocs), encoded as data's are, at version ver; nil for
	// none. It is shared with the storedDocs this one was derived from
	// and those derived from it: each sees the versions up to its own.
	over *storedOverlay
	ver  uint64
	// extra is how many docs follow data's, all in over.
	extra uint32
	// names is the docs' top-level member names (nil: not known).
	names *MemberNames
}

// storedOverlay is the docs a chain of writes replaced or added, every
// version of each kept, so a write adds its docs without copying the
// others (a copy per write cost more than the write at a million
// products). Only the storedDocs at the newest version (tip) adds to it;
// a write derived from an older one copies what that one sees first.
// Readers and the one writer meet under mu.
type storedOverlay struct {
	mu      sync.RWMutex
	docs    map[uint32][]overDoc // per doc, its versions, oldest first
	tip     uint64
	entries int // versions held, of every doc
}

type overDoc struct {
	ver uint64
	b   []byte
}

// get is doc i's bytes at version ver, if the overlay holds them.
func (o *storedOverlay) get(i uint32, ver uint64) ([]byte, bool) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	vs := o.docs[i]
	for j := len(vs) - 1; j >= 0; j-- {
		if vs[j].ver <= ver {
			return vs[j].b, true
		}
	}
	return nil, false
}

// claim reserves the next version for a storedDocs at ver: ok is false
// when ver is not the tip (a sibling was derived from it already).
func (o *storedOverlay) claim(ver uint64) (next uint64, ok bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.tip != ver {
		return 0, false
	}
	o.tip++
	return o.tip, true
}

// add adds docs[k] as doc ids[k] at version ver, claimed; a version no
// reader sees yet, so the lock is let go between chunks.
func (o *storedOverlay) add(ids []uint32, docs [][]byte, ver uint64) {
	for lo := 0; lo < len(ids); lo += 1024 {
		hi := min(lo+1024, len(ids))
		o.mu.Lock()
		for k := lo; k < hi; k++ {
			o.docs[ids[k]] = append(o.docs[ids[k]], overDoc{ver, docs[k]})
		}
		o.entries += hi - lo
		o.mu.Unlock()
	}
}

// size is how many versions o holds.
func (o *storedOverlay) size() int {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return o.entries
}

// visible is a new overlay of what a storedDocs at ver sees of o (nil
// o: empty), every doc at version 0.
func (o *storedOverlay) visible(ver uint64) *storedOverlay {
	out := &storedOverlay{docs: map[uint32][]overDoc{}}
	if o == nil {
		return out
	}
	o.mu.RLock()
	defer o.mu.RUnlock()
	for i, vs := range o.docs {
		for j := len(vs) - 1; j >= 0; j-- {
			if vs[j].ver <= ver {
				out.docs[i] = []overDoc{{0, vs[j].b}}
				out.entries++
				break
			}
		}
	}
	return out
}

// count is how many docs there are.
func (sd *storedDocs) count() int { return len(sd.off) - 1 + int(sd.extra) }

// doc is doc i's stored bytes.
func (sd *storedDocs) doc(i uint32) []byte {
	if sd.over != nil {
		if b, ok := sd.over.get(i, sd.ver); ok {
			return b
		}
	}
	return sd.data[sd.off[i]:sd.off[i+1]]
}

// withDocs is sd, grown to n docs, with the changed docs' stored JSON in
// place of theirs, encoded with sd's dictionary; sd is unchanged, and
// the docs sd does not hold are neither copied nor read. Once the
// overlay holds more than overlayMax versions, every doc is laid out
// end to end again, which drops the versions no one reads.
func (sd *storedDocs) withDocs(changes []ColumnChange, n uint32) storedDocs {
	out := *sd
	out.extra = n - uint32(len(sd.off)-1)
	encoded := make([][]byte, len(changes))
	ids := make([]uint32, len(changes))
	old := uint32(sd.count())
	var names nameDelta
	eachRange(len(changes), 1024, func(lo, hi int) {
		var buf []byte
		var starts []uint32
		var batch nameBatch
		var was StoredReader
		defer names.flush(&batch)
		for i := lo; i < hi; i++ {
			c := &changes[i]
			ids[i] = c.Doc
			if sd.names != nil && c.Doc < old { // the names it had, counted out
				sd.read(&was, c.Doc)
				batch.addDoc(was.Through(was.Len()), was.Starts, -1)
			}
			if len(c.Stored) == 0 { // a removed doc: an empty entry
				encoded[i] = []byte{}
				continue
			}
			// A column change keeps the doc's title and so its hashes.
			hashes := c.titles
			if !c.newTitle && c.Doc < old {
				hashes = sd.titleHashes(c.Doc)
			}
			starts, _ = jsonscan.MemberStarts(starts[:0], c.Stored)
			batch.addDoc(c.Stored, starts, 1)
			payload := c.Stored
			if sd.dict != nil {
				buf = sd.dict.Encode(buf[:cap(buf)], c.Stored)
				payload = buf
			}
			encoded[i] = appendEntry(make([]byte, 0, 2*binary.MaxVarintLen32+len(hashes)+2*len(starts)+len(payload)), hashes, starts, payload)
		}
	})
	out.names = sd.names.apply(&names)
	ver, ok := uint64(0), false
	if sd.over != nil {
		ver, ok = sd.over.claim(sd.ver)
	}
	if !ok {
		out.over = sd.over.visible(sd.ver)
		ver, _ = out.over.claim(0)
	}
	out.over.add(ids, encoded, ver)
	out.ver = ver
	if out.over.size() > overlayMax(out.count()) {
		out = out.flatten()
	}
	return out
}

// overlayMax is how many doc versions an overlay over n docs holds at
// most.
func overlayMax(n int) int { return max(4096, n/8) }

// flatten lays every doc out end to end again, the overlay's in place,
// copying on every core.
func (sd storedDocs) flatten() storedDocs {
	n := sd.count()
	out := storedDocs{dict: sd.dict, dictData: sd.dictData, names: sd.names, off: make([]uint64, n+1)}
	for d := range uint32(n) {
		out.off[d+1] = out.off[d] + uint64(len(sd.doc(d)))
	}
	out.data = make([]byte, out.off[n]) // exact: growing would copy it all again
	eachRange(n, 1<<16, func(lo, hi int) {
		for d := uint32(lo); d < uint32(hi); d++ {
			copy(out.data[out.off[d]:], sd.doc(d))
		}
	})
	return out
}

// add appends a doc's entry.
func (sd *storedDocs) add(b []byte) {
	if len(sd.off) == 0 {
		sd.off = append(sd.off, 0)
	}
	sd.data = append(sd.data, b...)
	sd.off = append(sd.off, uint64(len(sd.data)))
}

// joinStored lays parts (each a run of docs, in order, without a
// dictionary) end to end in an arena of their exact size.
func joinStored(parts []storedDocs) storedDocs {
	size, docs := 0, 0
	for _, pt := range parts {
		size += len(pt.data)
		docs += max(len(pt.off)-1, 0)
	}
	out := storedDocs{data: make([]byte, 0, size), off: make([]uint64, 1, docs+1)}
	for _, pt := range parts {
		base := uint64(len(out.data))
		out.data = append(out.data, pt.data...)
		for _, o := range pt.off[min(1, len(pt.off)):] {
			out.off = append(out.off, o+base)
		}
	}
	return out
}

// packDocs lays entries end to end.
func packDocs(docs [][]byte) storedDocs {
	total := 0
	for _, d := range docs {
		total += len(d)
	}
	sd := storedDocs{data: make([]byte, 0, total), off: make([]uint64, 1, len(docs)+1)}
	for _, d := range docs {
		sd.add(d)
	}
	return sd
}

// dictSample is how much of the catalog the dictionary is made from.
const dictSample = s2.MaxDictSize

// compressDocs makes the entries of raw docs with their title hashes
// (titles[i]: doc i's, its words' terms' then forms', 2 bytes each),
// compressing the JSON on every core when a dictionary can be made
// (sampleDict), and counts their member names; raw is left untouched.
func compressDocs(raw, titles [][]byte) storedDocs {
	var names nameDelta
	entries := func(payload func(i int, buf []byte) []byte) [][]byte {
		docs := make([][]byte, len(raw))
		eachRange(len(raw), 1024, func(lo, hi int) {
			var arena byteArena
			var buf, entry []byte
			var starts []uint32
			var batch nameBatch
			defer names.flush(&batch)
			for i := lo; i < hi; i++ {
				starts, _ = jsonscan.MemberStarts(starts[:0], raw[i])
				batch.addDoc(raw[i], starts, 1)
				buf = payload(i, buf[:cap(buf)])
				entry = appendEntry(entry[:0], titles[i], starts, buf)
				docs[i] = arena.copy(entry)
			}
		})
		return docs
	}
	var out storedDocs
	if dict := sampleDict(raw); dict != nil {
		out = packDocs(entries(func(i int, buf []byte) []byte { return dict.Encode(buf, raw[i]) }))
		out.dict, out.dictData = dict, dict.Bytes()
	} else {
		out = packDocs(entries(func(i int, _ []byte) []byte { return raw[i] }))
	}
	out.names = names.built()
	return out
}

// sampleDict is a compression dictionary made from docs spread over the
// whole catalog, so it holds every department's words, not the first
// one's; nil when the catalog is too small for one.
func sampleDict(raw [][]byte) *s2.Dict {
	var sample []byte
	total := 0
	for _, d := range raw {
		total += len(d)
	}
	step := max(1, total/dictSample) // in docs: about dictSample bytes in all
	for i := 0; i < len(raw) && len(sample) < dictSample; i += step {
		sample = append(sample, raw[i]...)
	}
	if len(sample) < s2.MinDictSize {
		return nil
	}
	return s2.MakeDict(sample, raw[0][:min(len(raw[0]), 16)])
}

// prefetch reads the first byte of doc's entry (0 for an empty one).
func (sd *storedDocs) prefetch(doc uint32) byte {
	if b := sd.doc(doc); len(b) > 0 {
		return b[0]
	}
	return 0
}

// titleHashes is doc's title hashes, its words' terms' then their
// forms', 2 bytes each (none for a doc whose entry does not read:
// checked at load).
func (sd *storedDocs) titleHashes(doc uint32) []byte {
	return entryTitle(sd.doc(doc))
}

// appendDoc appends doc's JSON to dst.
func (sd *storedDocs) appendDoc(dst []byte, doc uint32) []byte {
	e, err := decodeEntry(sd.doc(doc))
	if err != nil {
		return append(dst, "{}"...) // checked at load; cannot happen
	}
	return sd.appendPayload(dst, e.payload)
}

// appendPayload appends the JSON of an entry's payload src to dst,
// decoded whole (stored_reader.go: StoredReader's decoder, a fifth
// faster than s2's own on product JSON); {} when it does not decode.
func (sd *storedDocs) appendPayload(dst, src []byte) []byte {
	if sd.dict == nil || len(src) == 0 {
		return append(dst, src...)
	}
	n, k, ok := blockLen(src)
	if !ok {
		return append(dst, "{}"...) // checked at load; cannot happen
	}
	l := len(dst)
	dst = slices.Grow(dst, n+moveSlack)
	var r StoredReader
	if !sd.open(&r, src, k, dst[l:l+n+moveSlack]) {
		return append(dst, "{}"...)
	}
	if r.decode(n); r.d != n {
		return append(dst, "{}"...)
	}
	return dst[:l+n]
}
