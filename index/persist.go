package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/goccy/go-json"
	"github.com/klauspost/compress/s2"
)

// KVWriter receives a segment's keys in ascending order; the store
// streams them into a table pebble ingests.
type KVWriter interface {
	Set(key, value []byte) error
}

// KVReader scans keys with a prefix in order; values are valid only during
// fn, so the loader copies what it keeps.
type KVReader interface {
	Scan(prefix []byte, fn func(key, value []byte) error) error
}

// FormatVersion is the saved segment's layout (the keys below and the
// encoding of each); it changes whenever either does, and Load refuses a
// segment saved in another, so a caller rebuilds it rather than misread
// it. 3: the version is kept in the meta.
const FormatVersion = 3

// ErrFormat is returned by Load for a segment saved in another
// FormatVersion.
var ErrFormat = errors.New("saved segment format")

// Key layout under the caller's prefix.
const (
	kMeta    = "meta"
	kTerm    = "T/"   // chunk → its terms' docs bitmaps + field postings
	kSurface = "W/"   // chunk → folded words and their term ids
	kFldLen  = "fl/"  // text field → per-doc lengths
	kDoc     = "D/"   // chunk → its docs' keys + stored JSON, compressed
	kDict    = "dict" // the stored docs' compression dictionary
	kAltKey  = "a/"   // folded alternative key → doc id
	kKeyword = "k/"   // field \x00 value id → bitmap; field \x00 "col" → column
	kNumeric = "n/"   // field → column + has bitmap
	kSort    = "s/"   // field → ranks (text sorts)
)

type segMeta struct {
	Format   int               `json:"format"` // FormatVersion when saved
	N        uint32            `json:"n"`
	AvgLen   []float32         `json:"avgLen"`
	Keywords map[string]kwMeta `json:"keywords"`
	Numeric  []string          `json:"numeric"`
	Sorts    []string          `json:"sorts"`
	// Compressed: the docs are S2 blocks against the kDict dictionary.
	Compressed bool `json:"compressed"`
}

type kwMeta struct {
	Values []string `json:"values"`
	Single bool     `json:"single"`
}

// Chunk sizes: terms, words and docs are written a chunk to a key, so a
// catalog of a million products is a few thousand pebble keys rather than
// millions.
const (
	termChunk = 4096
	docChunk  = 256
)

func chunkKey(prefix, kind string, chunk int) []byte {
	k := make([]byte, 0, len(prefix)+len(kind)+4)
	k = append(k, prefix...)
	k = append(k, kind...)
	return binary.BigEndian.AppendUint32(k, uint32(chunk))
}

// Save writes the segment under prefix, so a restart loads it instead of
// re-indexing. Keys go out in ascending order (kinds D/ T/ W/ a/ dict
// fl/ k/ meta n/ s/), so the store streams them into a table. Postings
// go out as delta-coded per-field docs and frequencies, with roaring
// bitmaps for the terms that keep one.
func (s *Segment) Save(w KVWriter, prefix string) error {
	key := func(parts ...string) []byte { return []byte(prefix + strings.Join(parts, "")) }
	meta := segMeta{Format: FormatVersion, N: s.n, AvgLen: s.avgLen[:], Keywords: map[string]kwMeta{}, Compressed: s.stored.dict != nil}
	for name, k := range s.keyword {
		meta.Keywords[name] = kwMeta{Values: k.Values, Single: k.single}
	}
	for name := range s.numeric {
		meta.Numeric = append(meta.Numeric, name)
	}
	for name := range s.sorts {
		if s.numeric[name] == nil {
			meta.Sorts = append(meta.Sorts, name)
		}
	}
	slices.Sort(meta.Numeric)
	slices.Sort(meta.Sorts)
	err := writeChunks(w, prefix, kDoc, int(s.n), docChunk, func(buf []byte, d int) ([]byte, error) {
		key := s.keys.at(d)
		buf = binary.AppendUvarint(buf, uint64(len(key)))
		buf = append(buf, key...)
		doc := s.stored.doc(uint32(d))
		buf = binary.AppendUvarint(buf, uint64(len(doc)))
		return append(buf, doc...), nil
	})
	if err != nil {
		return err
	}
	var posts []FieldPosting
	err = writeChunks(w, prefix, kTerm, s.terms.len(), termChunk, func(buf []byte, id int) ([]byte, error) {
		t := s.terms.at(id)
		buf = binary.AppendUvarint(buf, uint64(len(t)))
		buf = append(buf, t...)
		buf = binary.AppendUvarint(buf, uint64(s.post.df[id]))
		if bm := s.post.bitmaps[id]; bm != nil {
			rb, err := bm.ToBytes()
			if err != nil {
				return nil, err
			}
			buf = binary.AppendUvarint(buf, uint64(len(rb)))
			buf = append(buf, rb...)
		} else {
			buf = append(buf, 0)
		}
		posts = s.TermPostings(uint32(id), posts[:0])
		return appendPostings(buf, posts), nil
	})
	if err != nil {
		return err
	}
	err = writeChunks(w, prefix, kSurface, s.surfaces.len(), termChunk, func(buf []byte, i int) ([]byte, error) {
		word := s.surfaces.at(i)
		buf = binary.AppendUvarint(buf, uint64(len(word)))
		buf = append(buf, word...)
		return binary.AppendUvarint(buf, uint64(s.surfaceTerm[i])), nil
	})
	if err != nil {
		return err
	}
	var buf []byte
	for i, d := range s.keyDoc.docs {
		k := s.keyDoc.keys.at(i)
		if foldKey(s.keys.at(int(d))) == k {
			continue // the doc's own id: loaded with the doc
		}
		buf = binary.AppendUvarint(buf[:0], uint64(d))
		if err := w.Set(key(kAltKey, k), buf); err != nil {
			return err
		}
	}
	if s.stored.dict != nil {
		if err := w.Set(key(kDict), s.stored.dictData); err != nil {
			return err
		}
	}
	for f := range s.fieldLen {
		if err := w.Set(key(kFldLen, string(rune('0'+f))), s.fieldLen[f]); err != nil {
			return err
		}
	}
	for _, name := range sortedNames(s.keyword) {
		k := s.keyword[name]
		buf = appendUint32s(buf[:0], k.offs)
		buf = appendUint32s(buf, k.vals)
		if err := w.Set(key(kKeyword, name, "\x00col"), buf); err != nil {
			return err
		}
		for id, bm := range k.Bitmaps {
			b, err := bm.ToBytes()
			if err != nil {
				return err
			}
			if err := w.Set(key(kKeyword, name, "\x00v", fmt.Sprintf("%08x", id)), b); err != nil {
				return err
			}
		}
	}
	mb, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	if err := w.Set(key(kMeta), mb); err != nil {
		return err
	}
	for _, name := range meta.Numeric {
		nf := s.numeric[name]
		buf = binary.AppendUvarint(buf[:0], uint64(len(nf.vals)))
		for _, v := range nf.vals {
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
		}
		hb, err := nf.has.ToBytes()
		if err != nil {
			return err
		}
		buf = append(buf, hb...)
		if err := w.Set(key(kNumeric, name), buf); err != nil {
			return err
		}
	}
	for _, name := range meta.Sorts {
		buf = appendUint32s(buf[:0], s.sorts[name])
		if err := w.Set(key(kSort, name), buf); err != nil {
			return err
		}
	}
	return nil
}

// writeChunks writes n entries, size to a key, under prefix+kind and the
// chunk's number; appendOne appends entry i to the chunk's buffer.
func writeChunks(w KVWriter, prefix, kind string, n, size int, appendOne func(buf []byte, i int) ([]byte, error)) error {
	var buf []byte
	for i := 0; i < n; i++ {
		if i%size == 0 {
			buf = buf[:0]
		}
		var err error
		if buf, err = appendOne(buf, i); err != nil {
			return err
		}
		if i%size == size-1 || i == n-1 {
			if err := w.Set(chunkKey(prefix, kind, i/size), buf); err != nil {
				return err
			}
		}
	}
	return nil
}

// sortedNames is a map's keys in order.
func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func appendPostings(buf []byte, posts []FieldPosting) []byte {
	buf = append(buf, byte(len(posts)))
	for _, fp := range posts {
		buf = append(buf, byte(fp.Field))
		buf = binary.AppendUvarint(buf, uint64(len(fp.Docs)))
		prev := uint32(0)
		for _, d := range fp.Docs {
			buf = binary.AppendUvarint(buf, uint64(d-prev))
			prev = d
		}
		buf = append(buf, fp.TFs...)
	}
	return buf
}

func appendUint32s(buf []byte, vs []uint32) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(vs)))
	for _, v := range vs {
		buf = binary.LittleEndian.AppendUint32(buf, v)
	}
	return buf
}

// ErrCorrupt marks a saved segment Load cannot read; the error wrapping it
// names the part ("load terms") and the check that failed. The caller
// rebuilds the segment.
var ErrCorrupt = errors.New("corrupt segment")

// corruptf is ErrCorrupt with the check that failed.
func corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// validColumn checks a loaded value column: offsets from 0 to len(vals),
// never decreasing, and value ids in range.
func validColumn(offs, vals []uint32, values int) bool {
	if len(offs) == 0 || offs[0] != 0 || offs[len(offs)-1] != uint32(len(vals)) {
		return false
	}
	for i := 1; i < len(offs); i++ {
		if offs[i] < offs[i-1] {
			return false
		}
	}
	for _, v := range vals {
		if v >= uint32(values) {
			return false
		}
	}
	return true
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = corruptf("varint cut short or too long")
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.err = corruptf("byte past the end")
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) bytes(n int) []byte {
	if n < 0 || n > len(d.b) {
		d.err = corruptf("%d bytes wanted, %d left", n, len(d.b))
		d.b = nil
		return nil
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

func (d *decoder) uint32s() []uint32 {
	n := int(d.uvarint())
	raw := d.bytes(4 * n)
	if d.err != nil {
		return nil
	}
	out := make([]uint32, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(raw[4*i:])
	}
	return out
}

func (d *decoder) bitmap(b []byte) *roaring.Bitmap {
	bm := roaring.New()
	if _, err := bm.FromBuffer(slices.Clone(b)); err != nil {
		d.err = corruptf("bitmap: %v", err)
	}
	return bm
}

// Load reads a segment saved under prefix.
func Load(r KVReader, prefix string) (*Segment, error) {
	p := func(parts ...string) []byte { return []byte(prefix + strings.Join(parts, "")) }
	var meta segMeta
	found := false
	if err := r.Scan(p(kMeta), func(_, v []byte) error {
		found = true
		return json.Unmarshal(v, &meta)
	}); err != nil {
		return nil, fmt.Errorf("load segment meta: %w", err)
	}
	if !found {
		return nil, fmt.Errorf("load segment: no segment under %q", prefix)
	}
	if meta.Format != FormatVersion {
		return nil, fmt.Errorf("load segment: %w %d, this build reads %d", ErrFormat, meta.Format, FormatVersion)
	}
	n := meta.N
	s := &Segment{
		n:       n,
		all:     roaring.New(),
		post:    newPostings(0, 0),
		keys:    newDict(int(n), 0),
		keyword: map[string]*KeywordField{},
		numeric: map[string]*NumericField{},
		sorts:   map[string][]uint32{},
		stored:  storedDocs{off: make([]uint64, 1, n+1)},
	}
	if n > 0 {
		s.all.AddRange(0, uint64(n))
	}
	copy(s.avgLen[:], meta.AvgLen)
	var dec decoder
	s.terms = newDict(0, 0)
	var prevTerm string
	err := r.Scan(p(kTerm), func(k, v []byte) error {
		dec = decoder{b: v}
		for dec.err == nil && len(dec.b) > 0 {
			t := dec.bytes(int(dec.uvarint()))
			df := dec.uvarint()
			var bm *roaring.Bitmap
			if nb := int(dec.uvarint()); nb > 0 {
				bm = dec.bitmap(dec.bytes(nb))
			}
			np := dec.byte()
			if dec.err != nil {
				break
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
				break
			}
			pp.spanOff = append(pp.spanOff, uint32(len(pp.spans)))
			pp.df = append(pp.df, uint32(df))
			pp.bitmaps = append(pp.bitmaps, bm)
			s.terms.addBytes(t)
			prevTerm = s.terms.at(s.terms.len() - 1)
		}
		return dec.err
	})
	if err != nil {
		return nil, fmt.Errorf("load terms: %w", err)
	}
	for id := 0; id < s.terms.len(); id++ {
		t := s.terms.at(id)
		if hasDigit(t) {
			continue
		}
		l := utf8.RuneCountInString(t)
		for len(s.byLen) <= l {
			s.byLen = append(s.byLen, nil)
		}
		s.byLen[l] = append(s.byLen[l], uint32(id))
	}
	s.surfaces = newDict(0, 0)
	err = r.Scan(p(kSurface), func(k, v []byte) error {
		dec = decoder{b: v}
		for dec.err == nil && len(dec.b) > 0 {
			word := dec.bytes(int(dec.uvarint()))
			id := dec.uvarint()
			if dec.err != nil {
				return dec.err
			}
			if id >= uint64(s.terms.len()) {
				return corruptf("word %q points to term %d of %d", word, id, s.terms.len())
			}
			s.surfaces.addBytes(word)
			s.surfaceTerm = append(s.surfaceTerm, uint32(id))
		}
		return dec.err
	})
	if err != nil {
		return nil, fmt.Errorf("load words: %w", err)
	}
	err = r.Scan(p(kFldLen), func(k, v []byte) error {
		f := int(k[len(k)-1] - '0')
		if f < 0 || f >= int(NumTextFields) || len(v) != int(n) {
			return corruptf("field lengths %q: %d of %d docs", k, len(v), n)
		}
		s.fieldLen[f] = slices.Clone(v)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load field lengths: %w", err)
	}
	for f := range s.fieldLen {
		if len(s.fieldLen[f]) != int(n) {
			s.fieldLen[f] = make([]uint8, n)
		}
	}
	loaded := uint32(0)
	keyDoc := make(map[string]uint32, n)
	err = r.Scan(p(kDoc), func(k, v []byte) error {
		dec = decoder{b: v}
		for dec.err == nil && len(dec.b) > 0 {
			key := dec.bytes(int(dec.uvarint()))
			doc := dec.bytes(int(dec.uvarint()))
			if dec.err != nil {
				return dec.err
			}
			if loaded >= n {
				return corruptf("more than %d docs", n)
			}
			s.stored.add(doc)
			s.keys.addBytes(key)
			keyDoc[foldKey(s.keys.at(int(loaded)))] = loaded
			loaded++
		}
		return dec.err
	})
	if err != nil {
		return nil, fmt.Errorf("load documents: %w", err)
	}
	err = r.Scan(p(kDict), func(k, v []byte) error {
		if string(k) != prefix+kDict {
			return nil
		}
		s.stored.dictData = slices.Clone(v)
		if s.stored.dict = s2.NewDict(s.stored.dictData); s.stored.dict == nil {
			return corruptf("compression dictionary of %d bytes unreadable", len(v))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load documents: dictionary: %w", err)
	}
	if meta.Compressed != (s.stored.dict != nil) {
		return nil, fmt.Errorf("load documents: %w", corruptf("dictionary missing or unexpected (compressed %v)", meta.Compressed))
	}
	if loaded != n {
		return nil, fmt.Errorf("load documents: %w", corruptf("%d of %d present", loaded, n))
	}
	err = r.Scan(p(kAltKey), func(k, v []byte) error {
		dec = decoder{b: v}
		d := dec.uvarint()
		if dec.err != nil {
			return dec.err
		}
		if d >= uint64(n) {
			return corruptf("alternative key %q points to doc %d of %d", k, d, n)
		}
		keyDoc[string(k[len(prefix)+len(kAltKey):])] = uint32(d)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load keys: %w", err)
	}
	s.keyDoc = newKeyIndex(keyDoc)
	for name, km := range meta.Keywords {
		k := &KeywordField{Name: name, Values: km.Values, single: km.Single, lookup: make(map[string]uint32, len(km.Values))}
		k.Bitmaps = make([]*roaring.Bitmap, len(km.Values))
		err := r.Scan(p(kKeyword, name, "\x00"), func(key, v []byte) error {
			rest := string(key[len(prefix)+len(kKeyword)+len(name)+1:])
			dec = decoder{b: v}
			if rest == "col" {
				k.offs = dec.uint32s()
				k.vals = dec.uint32s()
				return dec.err
			}
			var id int
			if _, err := fmt.Sscanf(rest, "v%08x", &id); err != nil || id >= len(k.Bitmaps) {
				return corruptf("value key %q (of %d values)", rest, len(k.Bitmaps))
			}
			k.Bitmaps[id] = dec.bitmap(v)
			return dec.err
		})
		if err != nil {
			return nil, fmt.Errorf("load field %s: %w", name, err)
		}
		switch {
		case k.offs == nil:
			return nil, fmt.Errorf("load field %s: %w", name, corruptf("column missing"))
		case len(k.offs) != int(n)+1:
			return nil, fmt.Errorf("load field %s: %w", name, corruptf("column of %d docs, not %d", len(k.offs)-1, n))
		case slices.Contains(k.Bitmaps, nil):
			return nil, fmt.Errorf("load field %s: %w", name, corruptf("value %d has no bitmap", slices.Index(k.Bitmaps, nil)))
		case !validColumn(k.offs, k.vals, len(k.Values)):
			return nil, fmt.Errorf("load field %s: %w", name, corruptf("column offsets or values out of range"))
		}
		for id, v := range k.Values {
			k.lookup[foldKey(v)] = uint32(id)
		}
		k.initHierarchy()
		k.initColumns()
		s.keyword[name] = k
	}
	for _, name := range meta.Numeric {
		var nb numBuilder
		err := r.Scan(p(kNumeric, name), func(key, v []byte) error {
			if string(key) != prefix+kNumeric+name {
				return nil
			}
			dec = decoder{b: v}
			cnt := int(dec.uvarint())
			raw := dec.bytes(8 * cnt)
			has := dec.bitmap(dec.b)
			if dec.err != nil {
				return dec.err
			}
			if cnt != int(n) {
				return corruptf("column of %d docs, not %d", cnt, n)
			}
			nb.vals = make([]float64, cnt)
			nb.has = make([]bool, cnt)
			for i := range nb.vals {
				nb.vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
			}
			it := has.Iterator()
			for it.HasNext() {
				if d := it.Next(); d < n {
					nb.has[d] = true
				}
			}
			return nil
		})
		if err == nil && nb.vals == nil {
			err = corruptf("column missing")
		}
		if err != nil {
			return nil, fmt.Errorf("load numeric %s: %w", name, err)
		}
		nf := nb.build(name, n)
		s.numeric[name] = nf
		s.sorts[name] = numericRank(nf, n)
	}
	for _, name := range meta.Sorts {
		err := r.Scan(p(kSort, name), func(key, v []byte) error {
			if string(key) != prefix+kSort+name {
				return nil
			}
			dec = decoder{b: v}
			s.sorts[name] = dec.uint32s()
			return dec.err
		})
		if err == nil && len(s.sorts[name]) != int(n) {
			err = corruptf("ranks of %d docs, not %d", len(s.sorts[name]), n)
		}
		if err != nil {
			return nil, fmt.Errorf("load sort %s: %w", name, err)
		}
	}
	if !s.surfaces.sorted() {
		return nil, fmt.Errorf("load segment: %w", corruptf("dictionary out of order"))
	}
	return s, nil
}
