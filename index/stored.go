package index

import (
	"maps"
	"slices"

	"github.com/klauspost/compress/s2"
)

// storedDocs holds every doc's JSON compressed with S2 against a
// dictionary sampled from the catalog itself. Product JSON repeats its
// keys, URLs and vocabulary from doc to doc, so a 64 KB dictionary takes
// a doc to about a third of its size (913 MB of demo JSON becomes about
// 270 MB), and decoding one costs about a microsecond: 20 hits a page.
type storedDocs struct {
	data     []byte   // every doc, compressed, end to end
	off      []uint64 // doc i is data[off[i]:off[i+1]]; no pointer per doc for the GC to trace
	dict     *s2.Dict // nil: docs are stored as they came
	dictData []byte   // what NewDict rebuilds dict from, for saving
	// over holds docs replaced or added since data was laid out (column
	// updates, WithDocs), encoded as data's are; nil for none. Never
	// modified: withDocs makes a new map.
	over map[uint32][]byte
	// extra is how many docs follow data's, all in over.
	extra uint32
}

// count is how many docs there are.
func (sd *storedDocs) count() int { return len(sd.off) - 1 + int(sd.extra) }

// doc is doc i's stored bytes.
func (sd *storedDocs) doc(i uint32) []byte {
	if sd.over != nil {
		if b, ok := sd.over[i]; ok {
			return b
		}
	}
	return sd.data[sd.off[i]:sd.off[i+1]]
}

// withDocs is sd, grown to n docs, with the changed docs' stored JSON in
// place of theirs, encoded with sd's dictionary; sd is unchanged. Once
// the overlay passes overlayMax, its docs are laid out with the others
// again, so copying it never costs more than laying out every doc.
func (sd *storedDocs) withDocs(changes []ColumnChange, n uint32) storedDocs {
	out := *sd
	out.extra = n - uint32(len(sd.off)-1)
	encoded := make([][]byte, len(changes))
	eachRange(len(changes), 1024, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			encoded[i] = slices.Clone(changes[i].Stored)
			if sd.dict != nil {
				encoded[i] = sd.dict.Encode(nil, changes[i].Stored)
			}
		}
	})
	out.over = make(map[uint32][]byte, len(sd.over)+len(changes))
	maps.Copy(out.over, sd.over)
	for i, c := range changes {
		out.over[c.Doc] = encoded[i]
	}
	if len(out.over) > overlayMax(out.count()) {
		out = out.flatten()
	}
	return out
}

// overlayMax is how many replaced docs of n an overlay holds at most.
func overlayMax(n int) int { return max(4096, n/32) }

// flatten lays every doc out end to end again, the overlay's in place,
// copying on every core.
func (sd storedDocs) flatten() storedDocs {
	n := sd.count()
	out := storedDocs{dict: sd.dict, dictData: sd.dictData, off: make([]uint64, n+1)}
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

// add appends a doc's stored bytes.
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

// packDocs lays docs end to end.
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

// compressDocs compresses raw docs on every core, returning the
// compressed set; raw is left untouched.
func compressDocs(raw [][]byte) storedDocs {
	if len(raw) == 0 {
		return packDocs(raw)
	}
	// Sample docs spread over the whole catalog, so the dictionary holds
	// every department's words, not the first one's.
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
		return packDocs(raw)
	}
	start := raw[0][:min(len(raw[0]), 16)]
	dict := s2.MakeDict(sample, start)
	if dict == nil {
		return packDocs(raw)
	}
	docs := make([][]byte, len(raw))
	eachRange(len(raw), 1024, func(lo, hi int) {
		var arena, buf []byte
		for i := lo; i < hi; i++ {
			buf = dict.Encode(buf[:cap(buf)], raw[i])
			if cap(arena)-len(arena) < len(buf) {
				arena = make([]byte, 0, max(arenaChunk, len(buf)))
			}
			s := len(arena)
			arena = append(arena, buf...)
			docs[i] = arena[s:len(arena):len(arena)]
		}
	})
	out := packDocs(docs)
	out.dict, out.dictData = dict, dict.Bytes()
	return out
}

// appendDoc appends doc's JSON to dst.
func (sd *storedDocs) appendDoc(dst []byte, doc uint32) []byte {
	src := sd.doc(doc)
	if sd.dict == nil {
		return append(dst, src...)
	}
	n, err := s2.DecodedLen(src)
	if err != nil {
		return append(dst, "{}"...) // checked at load; cannot happen
	}
	l := len(dst)
	dst = slices.Grow(dst, n)
	out, err := sd.dict.Decode(dst[l:l+n], src)
	if err != nil {
		return append(dst, "{}"...)
	}
	return dst[:l+len(out)]
}
