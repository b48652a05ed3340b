package index

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/klauspost/compress/s2"
)

// The saved segment's sections, one encode/decode pair each: appendX
// writes one entry or value and decodeX reads it back and checks it,
// naming what failed in an ErrCorrupt. Save and Load (persist.go) only
// lay the entries out under their keys.

// appendTermEntry appends a term-chunk entry: the term, its doc frequency,
// its docs bitmap when it keeps one (else a 0 length), then its postings.
func appendTermEntry(dst []byte, term string, df uint32, bm *roaring.Bitmap, posts []FieldPosting) ([]byte, error) {
	dst = binary.AppendUvarint(dst, uint64(len(term)))
	dst = append(dst, term...)
	dst = binary.AppendUvarint(dst, uint64(df))
	if bm != nil {
		rb, err := bm.ToBytes()
		if err != nil {
			return nil, err
		}
		dst = binary.AppendUvarint(dst, uint64(len(rb)))
		dst = append(dst, rb...)
	} else {
		dst = append(dst, 0)
	}
	return appendPostings(dst, posts), nil
}

// appendPostings appends a term's per-field postings: a count, then each
// field, its doc count, delta-coded docs and their frequencies.
func appendPostings(dst []byte, posts []FieldPosting) []byte {
	dst = append(dst, byte(len(posts)))
	for _, fp := range posts {
		dst = append(dst, byte(fp.Field))
		dst = binary.AppendUvarint(dst, uint64(len(fp.Docs)))
		prev := uint32(0)
		for _, d := range fp.Docs {
			dst = binary.AppendUvarint(dst, uint64(d-prev))
			prev = d
		}
		dst = append(dst, fp.TFs...)
	}
	return dst
}

// decodeTermEntry reads the next term-chunk entry into s's terms and
// postings. prevTerm is the term before it: terms are strictly ascending.
func (s *Segment) decodeTermEntry(dec *decoder, prevTerm string) error {
	n := s.n
	t := dec.bytes(int(dec.uvarint()))
	df := dec.uvarint()
	var bm *roaring.Bitmap
	if nb := int(dec.uvarint()); nb > 0 {
		bm = dec.bitmap(dec.bytes(nb))
	}
	np := dec.byte()
	if dec.err != nil {
		return dec.err
	}
	switch {
	case s.terms.len() > 0 && string(t) <= prevTerm:
		return corruptf("term %q not after %q", t, prevTerm)
	case df > uint64(n):
		return corruptf("term %q in %d docs of %d", t, df, n)
	case bm != nil && bm.GetCardinality() != df:
		return corruptf("term %q: bitmap of %d docs, frequency %d", t, bm.GetCardinality(), df)
	}
	pp := &s.post
	for i := 0; dec.err == nil && i < int(np); i++ {
		field := TextField(dec.byte())
		cnt := int(dec.uvarint())
		if cnt > int(n) || field >= NumTextFields {
			return corruptf("term %q: posting of %d docs in field %d (segment of %d docs, %d fields)", t, cnt, field, n, NumTextFields)
		}
		start := len(pp.docs)
		pp.docs, pp.tfs = grow(pp.docs, cnt), grow(pp.tfs, cnt)
		prev := uint32(0)
		for j := range cnt {
			delta := dec.uvarint()
			if j > 0 && delta == 0 || uint64(prev)+delta >= uint64(n) {
				return corruptf("term %q: posting doc %d after %d (segment of %d docs)", t, uint64(prev)+delta, prev, n)
			}
			prev += uint32(delta)
			pp.docs = append(pp.docs, prev)
		}
		pp.tfs = append(pp.tfs, dec.bytes(cnt)...)
		pp.spans = append(pp.spans, postSpan{start: uint32(start), n: uint32(cnt), field: field})
	}
	if dec.err != nil {
		return dec.err
	}
	pp.spanOff = append(pp.spanOff, uint32(len(pp.spans)))
	pp.df = append(pp.df, uint32(df))
	pp.bitmaps = append(pp.bitmaps, bm)
	s.terms.addBytes(t)
	return nil
}

// appendWordEntry appends a word-chunk entry: a folded word, the id of
// the term it stems to and how many docs hold it.
func appendWordEntry(dst []byte, word string, term, df uint32) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(word)))
	dst = append(dst, word...)
	dst = binary.AppendUvarint(dst, uint64(term))
	return binary.AppendUvarint(dst, uint64(df))
}

// decodeWordEntry reads a word-chunk entry of a segment with terms terms
// and n docs.
func decodeWordEntry(dec *decoder, terms int, n uint32) (word []byte, term, df uint32, err error) {
	word = dec.bytes(int(dec.uvarint()))
	id := dec.uvarint()
	cnt := dec.uvarint()
	if dec.err != nil {
		return nil, 0, 0, dec.err
	}
	if id >= uint64(terms) {
		return nil, 0, 0, corruptf("word %q points to term %d of %d", word, id, terms)
	}
	if cnt == 0 || cnt > uint64(n) {
		return nil, 0, 0, corruptf("word %q in %d docs of %d", word, cnt, n)
	}
	return word, uint32(id), uint32(cnt), nil
}

// appendDocEntry appends a doc-chunk entry: the doc's key and its stored
// bytes (compressed when the segment has a dictionary).
func appendDocEntry(dst []byte, key string, doc []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(key)))
	dst = append(dst, key...)
	dst = binary.AppendUvarint(dst, uint64(len(doc)))
	return append(dst, doc...)
}

// decodeDocEntry reads a doc-chunk entry.
func decodeDocEntry(dec *decoder) (key, doc []byte, err error) {
	key = dec.bytes(int(dec.uvarint()))
	doc = dec.bytes(int(dec.uvarint()))
	return key, doc, dec.err
}

// appendAltKey appends one doc listing an alternative key to the key's
// value: every doc listing it, in key order.
func appendAltKey(dst []byte, doc uint32) []byte { return binary.AppendUvarint(dst, uint64(doc)) }

// decodeAltKey appends to docs the docs listing an alternative key; key
// names it in errors.
func decodeAltKey(docs []uint32, key, v []byte, n uint32) ([]uint32, error) {
	dec := decoder{b: v}
	start := len(docs)
	for dec.err == nil && len(dec.b) > 0 {
		d := dec.uvarint()
		if dec.err == nil && d >= uint64(n) {
			return nil, corruptf("alternative key %q points to doc %d of %d", key, d, n)
		}
		if dec.err == nil && len(docs) > start && uint32(d) <= docs[len(docs)-1] {
			return nil, corruptf("alternative key %q lists doc %d after %d", key, d, docs[len(docs)-1])
		}
		docs = append(docs, uint32(d))
	}
	if dec.err == nil && len(docs) == start {
		return nil, corruptf("alternative key %q lists no doc", key)
	}
	return docs, dec.err
}

// appendUint32s appends a length and the values, 4 bytes each.
func appendUint32s(dst []byte, vs []uint32) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(vs)))
	for _, v := range vs {
		dst = binary.LittleEndian.AppendUint32(dst, v)
	}
	return dst
}

// appendKeywordColumn appends a keyword field's per-doc value lists:
// offsets, then values.
func appendKeywordColumn(dst []byte, offs, vals []uint32) []byte {
	return appendUint32s(appendUint32s(dst, offs), vals)
}

// decodeKeywordColumn reads what appendKeywordColumn wrote; Load checks
// the offsets against the doc count and the values.
func decodeKeywordColumn(v []byte) (offs, vals []uint32, err error) {
	dec := decoder{b: v}
	offs = dec.uint32s()
	vals = dec.uint32s()
	return offs, vals, dec.err
}

// appendNumericColumn appends a numeric field's column: the doc count,
// each doc's value as 8 bytes, then the bitmap of the docs that have one.
func appendNumericColumn(dst []byte, nf *NumericField) ([]byte, error) {
	dst = binary.AppendUvarint(dst, uint64(len(nf.vals)))
	for _, v := range nf.vals {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v))
	}
	hb, err := nf.has.ToBytes()
	if err != nil {
		return nil, err
	}
	return append(dst, hb...), nil
}

// decodeNumericColumn reads what appendNumericColumn wrote, for a segment
// of n docs.
func decodeNumericColumn(v []byte, n uint32) (*numBuilder, error) {
	dec := decoder{b: v}
	cnt := int(dec.uvarint())
	raw := dec.bytes(8 * cnt)
	has := dec.bitmap(dec.b)
	if dec.err != nil {
		return nil, dec.err
	}
	if cnt != int(n) {
		return nil, corruptf("column of %d docs, not %d", cnt, n)
	}
	nb := &numBuilder{vals: makeHuge[float64](cnt, cnt), has: make([]bool, cnt)}
	for i := range nb.vals {
		nb.vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	it := has.Iterator()
	for it.HasNext() {
		if d := it.Next(); d < n {
			nb.has[d] = true
		}
	}
	return nb, nil
}

// appendSortRanks appends a text sort's per-doc ranks.
func appendSortRanks(dst []byte, ranks []uint32) []byte { return appendUint32s(dst, ranks) }

// decodeSortRanks reads what appendSortRanks wrote, for n docs.
func decodeSortRanks(v []byte, n uint32) ([]uint32, error) {
	dec := decoder{b: v}
	ranks := dec.uint32s()
	if dec.err != nil {
		return nil, dec.err
	}
	if len(ranks) != int(n) {
		return nil, corruptf("ranks of %d docs, not %d", len(ranks), n)
	}
	return ranks, nil
}

// grow makes room for n more elements of s, at least doubling its
// capacity when it must move (append grows a large slice by a quarter,
// copying it over and over).
func grow[T any](s []T, n int) []T {
	if cap(s)-len(s) >= n {
		return s
	}
	return slices.Grow(s, max(n, cap(s)))
}

// fieldLensKey is the key of text field f's per-doc lengths (under
// kFldLen): its digit. The lengths are saved as they are, a byte a doc.
func fieldLensKey(f TextField) string { return string(rune('0' + f)) }

// decodeFieldLens reads the lengths saved under key (ending in a
// fieldLensKey) for n docs: the field and a copy of the lengths.
func decodeFieldLens(key, v []byte, n uint32) (TextField, []uint8, error) {
	f := int(key[len(key)-1] - '0')
	if f < 0 || f >= int(NumTextFields) || len(v) != int(n) {
		return 0, nil, corruptf("field lengths %q: %d of %d docs", key, len(v), n)
	}
	return TextField(f), slices.Clone(v), nil
}

// decodeDict reads the stored docs' compression dictionary, saved as its
// bytes: a copy of them and the dictionary.
func decodeDict(v []byte) ([]byte, *s2.Dict, error) {
	data := slices.Clone(v)
	dict := s2.NewDict(data)
	if dict == nil {
		return nil, nil, corruptf("compression dictionary of %d bytes unreadable", len(v))
	}
	return data, dict, nil
}

// keywordColumnKey is the key of a keyword field's column, after the
// field's name and a 0 byte (under kKeyword).
const keywordColumnKey = "col"

// keywordValueKey is the key of a keyword field's value id's bitmap,
// after the field's name and a 0 byte (under kKeyword).
func keywordValueKey(id int) string { return fmt.Sprintf("v%08x", id) }

// decodeKeywordValueKey reads the value id of a keywordValueKey of a
// field of values values; the key must be the id's own, as written.
func decodeKeywordValueKey(key string, values int) (int, error) {
	var id int
	if _, err := fmt.Sscanf(key, "v%08x", &id); err != nil || id < 0 || id >= values || keywordValueKey(id) != key {
		return 0, corruptf("value key %q (of %d values)", key, values)
	}
	return id, nil
}
