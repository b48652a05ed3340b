package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/goccy/go-json"
)

// KVWriter receives a segment's keys; the store batches them into pebble.
type KVWriter interface {
	Set(key, value []byte) error
}

// KVReader scans keys with a prefix in order; values are valid only during
// fn, so the loader copies what it keeps.
type KVReader interface {
	Scan(prefix []byte, fn func(key, value []byte) error) error
}

// Key layout under the caller's prefix.
const (
	kMeta    = "meta"
	kTerm    = "t/"  // term → docs bitmap + field postings
	kSurface = "w/"  // folded word → term id
	kFldLen  = "fl/" // text field → per-doc lengths
	kDoc     = "d/"  // doc id → key + stored JSON
	kAltKey  = "a/"  // folded alternative key → doc id
	kKeyword = "k/"  // field \x00 value id → bitmap; field \x00 "col" → column
	kNumeric = "n/"  // field → column + has bitmap
	kSort    = "s/"  // field → ranks (text sorts)
)

type segMeta struct {
	N        uint32            `json:"n"`
	AvgLen   []float32         `json:"avgLen"`
	Keywords map[string]kwMeta `json:"keywords"`
	Numeric  []string          `json:"numeric"`
	Sorts    []string          `json:"sorts"`
}

type kwMeta struct {
	Values []string `json:"values"`
	Single bool     `json:"single"`
}

// Save writes the segment under prefix, so a restart loads it instead of
// re-indexing. Postings go out as roaring bitmaps plus delta-coded per-field
// frequencies.
func (s *Segment) Save(w KVWriter, prefix string) error {
	key := func(parts ...string) []byte { return []byte(prefix + strings.Join(parts, "")) }
	meta := segMeta{N: s.n, AvgLen: s.avgLen[:], Keywords: map[string]kwMeta{}}
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
	mb, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	if err := w.Set(key(kMeta), mb); err != nil {
		return err
	}
	var buf []byte
	for id, t := range s.terms {
		buf = appendTerm(buf[:0], s.termDocs[id], s.termPost[id])
		if err := w.Set(key(kTerm, t), buf); err != nil {
			return err
		}
	}
	for i, w2 := range s.surfaces {
		buf = binary.AppendUvarint(buf[:0], uint64(s.surfaceTerm[i]))
		if err := w.Set(key(kSurface, w2), buf); err != nil {
			return err
		}
	}
	for f := range s.fieldLen {
		if err := w.Set(key(kFldLen, string(rune('0'+f))), s.fieldLen[f]); err != nil {
			return err
		}
	}
	for d := uint32(0); d < s.n; d++ {
		buf = binary.AppendUvarint(buf[:0], uint64(len(s.keys[d])))
		buf = append(buf, s.keys[d]...)
		buf = append(buf, s.stored[d]...)
		if err := w.Set(docKey(prefix, d), buf); err != nil {
			return err
		}
	}
	for k, d := range s.keyDoc {
		if s.keys[d] == k {
			continue
		}
		buf = binary.AppendUvarint(buf[:0], uint64(d))
		if err := w.Set(key(kAltKey, k), buf); err != nil {
			return err
		}
	}
	for name, k := range s.keyword {
		for id, bm := range k.Bitmaps {
			b, err := bm.ToBytes()
			if err != nil {
				return err
			}
			if err := w.Set(key(kKeyword, name, "\x00v", fmt.Sprintf("%08x", id)), b); err != nil {
				return err
			}
		}
		buf = appendUint32s(buf[:0], k.offs)
		buf = appendUint32s(buf, k.vals)
		if err := w.Set(key(kKeyword, name, "\x00col"), buf); err != nil {
			return err
		}
	}
	for name, nf := range s.numeric {
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

func docKey(prefix string, d uint32) []byte {
	k := make([]byte, 0, len(prefix)+len(kDoc)+4)
	k = append(k, prefix...)
	k = append(k, kDoc...)
	return binary.BigEndian.AppendUint32(k, d)
}

func appendTerm(buf []byte, docs *roaring.Bitmap, posts []FieldPosting) []byte {
	rb, _ := docs.ToBytes()
	buf = binary.AppendUvarint(buf, uint64(len(rb)))
	buf = append(buf, rb...)
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

var errCorrupt = errors.New("corrupt segment")

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errCorrupt
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) bytes(n int) []byte {
	if n < 0 || n > len(d.b) {
		d.err = errCorrupt
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
		d.err = fmt.Errorf("%w: bitmap: %v", errCorrupt, err)
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
	n := meta.N
	s := &Segment{
		n:       n,
		all:     roaring.New(),
		termIdx: map[string]uint32{},
		keyDoc:  make(map[string]uint32, n),
		keyword: map[string]*KeywordField{},
		numeric: map[string]*NumericField{},
		sorts:   map[string][]uint32{},
		keys:    make([]string, n),
		stored:  make([][]byte, n),
	}
	if n > 0 {
		s.all.AddRange(0, uint64(n))
	}
	copy(s.avgLen[:], meta.AvgLen)
	var dec decoder
	err := r.Scan(p(kTerm), func(k, v []byte) error {
		t := string(k[len(prefix)+len(kTerm):])
		dec = decoder{b: v}
		rb := dec.bytes(int(dec.uvarint()))
		bm := dec.bitmap(rb)
		np := dec.bytes(1)
		var posts []FieldPosting
		for i := 0; dec.err == nil && i < int(np[0]); i++ {
			fp := FieldPosting{Field: TextField(dec.bytes(1)[0])}
			cnt := int(dec.uvarint())
			if cnt > int(n) {
				return errCorrupt
			}
			fp.Docs = make([]uint32, cnt)
			prev := uint32(0)
			for j := range fp.Docs {
				prev += uint32(dec.uvarint())
				fp.Docs[j] = prev
			}
			fp.TFs = slices.Clone(dec.bytes(cnt))
			posts = append(posts, fp)
		}
		if dec.err != nil {
			return fmt.Errorf("term %q: %w", t, dec.err)
		}
		s.termIdx[t] = uint32(len(s.terms))
		s.terms = append(s.terms, t)
		s.termDocs = append(s.termDocs, bm)
		s.termPost = append(s.termPost, posts)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load terms: %w", err)
	}
	for id, t := range s.terms {
		if hasDigit(t) {
			continue
		}
		l := len([]rune(t))
		for len(s.byLen) <= l {
			s.byLen = append(s.byLen, nil)
		}
		s.byLen[l] = append(s.byLen[l], uint32(id))
	}
	err = r.Scan(p(kSurface), func(k, v []byte) error {
		dec = decoder{b: v}
		id := dec.uvarint()
		if dec.err != nil || id >= uint64(len(s.terms)) {
			return errCorrupt
		}
		s.surfaces = append(s.surfaces, string(k[len(prefix)+len(kSurface):]))
		s.surfaceTerm = append(s.surfaceTerm, uint32(id))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load words: %w", err)
	}
	err = r.Scan(p(kFldLen), func(k, v []byte) error {
		f := int(k[len(k)-1] - '0')
		if f < 0 || f >= int(NumTextFields) || len(v) != int(n) {
			return errCorrupt
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
	var arena []byte
	loaded := uint32(0)
	err = r.Scan(p(kDoc), func(k, v []byte) error {
		d := binary.BigEndian.Uint32(k[len(k)-4:])
		dec = decoder{b: v}
		key := string(dec.bytes(int(dec.uvarint())))
		if dec.err != nil || d >= n {
			return errCorrupt
		}
		if cap(arena)-len(arena) < len(dec.b) {
			arena = make([]byte, 0, max(arenaChunk, len(dec.b)))
		}
		start := len(arena)
		arena = append(arena, dec.b...)
		s.stored[d] = arena[start:len(arena):len(arena)]
		s.keys[d] = key
		s.keyDoc[foldKey(key)] = d
		loaded++
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load documents: %w", err)
	}
	if loaded != n {
		return nil, fmt.Errorf("load documents: %d of %d present: %w", loaded, n, errCorrupt)
	}
	err = r.Scan(p(kAltKey), func(k, v []byte) error {
		dec = decoder{b: v}
		d := dec.uvarint()
		if dec.err != nil || d >= uint64(n) {
			return errCorrupt
		}
		s.keyDoc[string(k[len(prefix)+len(kAltKey):])] = uint32(d)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load keys: %w", err)
	}
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
				return errCorrupt
			}
			k.Bitmaps[id] = dec.bitmap(v)
			return dec.err
		})
		if err != nil {
			return nil, fmt.Errorf("load field %s: %w", name, err)
		}
		if len(k.offs) != int(n)+1 || slices.Contains(k.Bitmaps, nil) {
			return nil, fmt.Errorf("load field %s: %w", name, errCorrupt)
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
			if dec.err != nil || cnt != int(n) {
				return errCorrupt
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
		if err != nil || nb.vals == nil && n > 0 {
			return nil, fmt.Errorf("load numeric %s: %w", name, errors.Join(err, errCorrupt))
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
		if err != nil || len(s.sorts[name]) != int(n) {
			return nil, fmt.Errorf("load sort %s: %w", name, errors.Join(err, errCorrupt))
		}
	}
	if !sort.StringsAreSorted(s.terms) || !sort.StringsAreSorted(s.surfaces) {
		return nil, fmt.Errorf("load segment: dictionary out of order: %w", errCorrupt)
	}
	return s, nil
}
