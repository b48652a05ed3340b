package index

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// TestSectionPairsRoundTrip: each section's decode reads back what its
// append wrote, several entries in a row as in a chunk, and refuses the
// entry cut short.
func TestSectionPairsRoundTrip(t *testing.T) {
	t.Run("term entries", func(t *testing.T) {
		s := &Segment{n: 40, post: newPostings(0, 0), terms: newDict(0, 0)}
		bm := roaring.BitmapOf(1, 5, 39)
		type entry struct {
			term  string
			df    uint32
			bm    *roaring.Bitmap
			posts []FieldPosting
		}
		entries := []entry{
			{"apple", 3, bm, []FieldPosting{{Field: FieldTitle, Docs: []uint32{1, 5, 39}, TFs: []uint8{1, 2, 1}}}},
			{"pear", 2, nil, []FieldPosting{{Field: FieldTitle, Docs: []uint32{0}, TFs: []uint8{4}}, {Field: FieldDescription, Docs: []uint32{0, 7}, TFs: []uint8{1, 1}}}},
		}
		var buf []byte
		for _, e := range entries {
			var err error
			if buf, err = appendTermEntry(buf, e.term, e.df, e.bm, e.posts); err != nil {
				t.Fatal(err)
			}
		}
		dec := decoder{b: buf}
		prev := ""
		for range entries {
			if err := s.decodeTermEntry(&dec, prev); err != nil {
				t.Fatal(err)
			}
			prev = s.terms.at(s.terms.len() - 1)
		}
		if len(dec.b) != 0 || s.terms.len() != 2 {
			t.Fatalf("%d bytes left, %d terms", len(dec.b), s.terms.len())
		}
		for id, e := range entries {
			got := s.TermPostings(uint32(id), nil)
			if s.terms.at(id) != e.term || s.post.df[id] != e.df || (s.post.bitmaps[id] == nil) != (e.bm == nil) || len(got) != len(e.posts) {
				t.Fatalf("term %d: %q df %d, %d postings", id, s.terms.at(id), s.post.df[id], len(got))
			}
			for i := range got {
				if got[i].Field != e.posts[i].Field || !slices.Equal(got[i].Docs, e.posts[i].Docs) || !slices.Equal(got[i].TFs, e.posts[i].TFs) {
					t.Fatalf("term %q posting %d: %+v, want %+v", e.term, i, got[i], e.posts[i])
				}
			}
		}
		cut := decoder{b: buf[:len(buf)-1]}
		s2 := &Segment{n: 40, post: newPostings(0, 0), terms: newDict(0, 0)}
		s2.decodeTermEntry(&cut, "")
		if err := s2.decodeTermEntry(&cut, "apple"); !errors.Is(err, ErrCorrupt) {
			t.Errorf("a cut entry: %v", err)
		}
	})
	t.Run("word entries", func(t *testing.T) {
		buf := appendWordEntry(appendWordEntry(nil, "apples", 0, 3), "pears", 1, 1)
		dec := decoder{b: buf}
		for _, want := range []struct {
			word   string
			id, df uint32
		}{{"apples", 0, 3}, {"pears", 1, 1}} {
			w, id, df, err := decodeWordEntry(&dec, 2, 10)
			if err != nil || string(w) != want.word || id != want.id || df != want.df {
				t.Fatalf("%q %d %d %v, want %q %d %d", w, id, df, err, want.word, want.id, want.df)
			}
		}
		if _, _, _, err := decodeWordEntry(&decoder{b: appendWordEntry(nil, "plums", 2, 1)}, 2, 10); !errors.Is(err, ErrCorrupt) {
			t.Errorf("a word past the terms: %v", err)
		}
		for _, df := range []uint32{0, 11} {
			if _, _, _, err := decodeWordEntry(&decoder{b: appendWordEntry(nil, "plums", 1, df)}, 2, 10); !errors.Is(err, ErrCorrupt) {
				t.Errorf("a word in %d docs of 10: %v", df, err)
			}
		}
	})
	t.Run("doc entries", func(t *testing.T) {
		buf := appendDocEntry(appendDocEntry(nil, "A1", []byte(`{"a":1}`)), "", nil)
		dec := decoder{b: buf}
		k, d, err := decodeDocEntry(&dec)
		k2, d2, err2 := decodeDocEntry(&dec)
		if err != nil || err2 != nil || string(k) != "A1" || string(d) != `{"a":1}` || len(k2) != 0 || len(d2) != 0 || len(dec.b) != 0 {
			t.Fatalf("%q %q %v; %q %q %v", k, d, err, k2, d2, err2)
		}
		if _, _, err := decodeDocEntry(&decoder{b: buf[:4]}); !errors.Is(err, ErrCorrupt) {
			t.Errorf("a cut entry: %v", err)
		}
	})
	t.Run("alternative keys", func(t *testing.T) {
		if d, err := decodeAltKey([]uint32{1}, []byte("k"), appendAltKey(appendAltKey(nil, 7), 300), 301); err != nil || !slices.Equal(d, []uint32{1, 7, 300}) {
			t.Fatalf("%d %v", d, err)
		}
		for _, tc := range []struct {
			name string
			v    []byte
		}{
			{"a doc past the segment", appendAltKey(nil, 301)},
			{"docs out of order", appendAltKey(appendAltKey(nil, 9), 8)},
			{"a doc twice", appendAltKey(appendAltKey(nil, 9), 9)},
			{"no doc", nil},
			{"a cut varint", []byte{0x80}},
		} {
			if _, err := decodeAltKey(nil, []byte("k"), tc.v, 301); !errors.Is(err, ErrCorrupt) {
				t.Errorf("%s: %v", tc.name, err)
			}
		}
	})
	t.Run("keyword column", func(t *testing.T) {
		offs, vals := []uint32{0, 2, 2, 3}, []uint32{4, 1, 0}
		o, v, err := decodeKeywordColumn(appendKeywordColumn(nil, offs, vals))
		if err != nil || !slices.Equal(o, offs) || !slices.Equal(v, vals) {
			t.Fatalf("%v %v %v", o, v, err)
		}
		if _, _, err := decodeKeywordColumn(appendKeywordColumn(nil, offs, vals)[:9]); !errors.Is(err, ErrCorrupt) {
			t.Errorf("a cut column: %v", err)
		}
	})
	t.Run("numeric column", func(t *testing.T) {
		nf := &NumericField{vals: []float64{1.5, 0, -3, math.MaxFloat64}, has: roaring.BitmapOf(0, 2, 3)}
		buf, err := appendNumericColumn(nil, nf)
		if err != nil {
			t.Fatal(err)
		}
		nb, err := decodeNumericColumn(buf, 4)
		if err != nil || !slices.Equal(nb.vals, nf.vals) || !slices.Equal(nb.has, []bool{true, false, true, true}) {
			t.Fatalf("%+v %v", nb, err)
		}
		if _, err := decodeNumericColumn(buf, 5); !errors.Is(err, ErrCorrupt) {
			t.Errorf("a column for another doc count: %v", err)
		}
	})
	t.Run("sort ranks", func(t *testing.T) {
		ranks := []uint32{2, 0, math.MaxUint32, 1}
		if got, err := decodeSortRanks(appendSortRanks(nil, ranks), 4); err != nil || !slices.Equal(got, ranks) {
			t.Fatalf("%v %v", got, err)
		}
		if _, err := decodeSortRanks(appendSortRanks(nil, ranks), 3); !errors.Is(err, ErrCorrupt) {
			t.Errorf("ranks for another doc count: %v", err)
		}
	})
	t.Run("field lengths", func(t *testing.T) {
		lens := []uint8{3, 0, 255}
		for f := range NumTextFields {
			v := slices.Clone(lens)
			got, l, err := decodeFieldLens([]byte("x/fl/"+fieldLensKey(f)), v, 3)
			v[0] = 9
			if err != nil || got != f || !slices.Equal(l, lens) {
				t.Fatalf("field %d: %d %v %v (a copy of %v)", f, got, l, err, lens)
			}
		}
		for _, tc := range []struct {
			name string
			key  string
			n    uint32
		}{
			{"fewer docs", "x/fl/0", 4},
			{"more docs", "x/fl/0", 2},
			{"a field past the last", "x/fl/" + fieldLensKey(NumTextFields), 3},
			{"a field before the first", "x/fl//", 3},
			{"not a digit", "x/fl/a", 3},
		} {
			if _, _, err := decodeFieldLens([]byte(tc.key), lens, tc.n); !errors.Is(err, ErrCorrupt) {
				t.Errorf("%s: %v", tc.name, err)
			}
		}
	})
	t.Run("compression dictionary", func(t *testing.T) {
		docs := testDocs(3000)
		for i := range docs {
			docs[i].Stored = fmt.Appendf(nil, `{"productNumber":%q,"title":"Cordless drill %d"}`, docs[i].Key, i)
		}
		saved := buildTest(t, docs).stored.dictData
		if saved == nil {
			t.Fatal("the catalog has no dictionary")
		}
		v := slices.Clone(saved)
		data, dict, err := decodeDict(v)
		v[0]++
		if err != nil || dict == nil || !bytes.Equal(data, saved) {
			t.Fatalf("%d bytes (a copy of %d), %v", len(data), len(saved), err)
		}
		for _, v := range [][]byte{nil, {0xff}} {
			if _, _, err := decodeDict(v); !errors.Is(err, ErrCorrupt) {
				t.Errorf("% x: %v", v, err)
			}
		}
	})
	t.Run("keyword value keys", func(t *testing.T) {
		for _, id := range []int{0, 1, 255, 1 << 20} {
			if got, err := decodeKeywordValueKey(keywordValueKey(id), 1<<20+1); err != nil || got != id {
				t.Errorf("%d: %d %v", id, got, err)
			}
		}
		for _, tc := range []struct{ name, key string }{
			{"past the values", keywordValueKey(5)},
			{"negative", "v-0000001"},
			{"signed", "v+0000001"},
			{"bytes after the id", "v00000000x"},
			{"short", "v0000001"},
			{"upper case", "v0000000A"},
			{"not a value", "zz"},
			{"the column's", keywordColumnKey},
		} {
			if _, err := decodeKeywordValueKey(tc.key, 5); !errors.Is(err, ErrCorrupt) {
				t.Errorf("%s %q: %v", tc.name, tc.key, err)
			}
		}
	})
}
