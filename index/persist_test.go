package index

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/internal/expect"
	"github.com/aisle-search/aisle/internal/golden"
)

// The saved layout, as docs/architecture.md describes it, read and
// written here independently of persist.go: terms "each with its document
// frequency, a roaring bitmap when it keeps one, and delta-coded
// per-field postings", words with their term ids, docs as key and stored
// bytes.

type savedPosting struct {
	field byte
	docs  []uint64 // absolute ids, written as deltas
	tfs   []byte
}

type savedTerm struct {
	term  string
	df    uint64
	bm    []byte
	posts []savedPosting
}

type reader struct {
	t *testing.T
	b []byte
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.t.Fatalf("bad uvarint in a saved chunk")
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) bytes(n int) []byte {
	if n > len(r.b) {
		r.t.Fatalf("saved chunk ends early")
	}
	out := r.b[:n:n]
	r.b = r.b[n:]
	return out
}

func decodeTerms(t *testing.T, chunk []byte) []savedTerm {
	t.Helper()
	r := &reader{t, chunk}
	var out []savedTerm
	for len(r.b) > 0 {
		e := savedTerm{term: string(r.bytes(int(r.uvarint())))}
		e.df = r.uvarint()
		e.bm = r.bytes(int(r.uvarint()))
		for range r.bytes(1)[0] {
			p := savedPosting{field: r.bytes(1)[0]}
			cnt := int(r.uvarint())
			prev := uint64(0)
			for range cnt {
				prev += r.uvarint()
				p.docs = append(p.docs, prev)
			}
			p.tfs = r.bytes(cnt)
			e.posts = append(e.posts, p)
		}
		out = append(out, e)
	}
	return out
}

func encodeTerms(terms []savedTerm) []byte {
	var b []byte
	for _, e := range terms {
		b = binary.AppendUvarint(b, uint64(len(e.term)))
		b = append(b, e.term...)
		b = binary.AppendUvarint(b, e.df)
		b = binary.AppendUvarint(b, uint64(len(e.bm)))
		b = append(b, e.bm...)
		b = append(b, byte(len(e.posts)))
		for _, p := range e.posts {
			b = append(b, p.field)
			b = binary.AppendUvarint(b, uint64(len(p.docs)))
			prev := uint64(0)
			for _, d := range p.docs {
				b = binary.AppendUvarint(b, d-prev)
				prev = d
			}
			b = append(b, p.tfs...)
		}
	}
	return b
}

type savedPair struct {
	a  []byte
	b  uint64 // words: the term id
	df uint64 // words: the doc count
	v  []byte // docs: the stored bytes
}

// decodePairs reads a word chunk (word, term id, doc count) or, with docs, a doc
// chunk (key, stored bytes).
func decodePairs(t *testing.T, chunk []byte, docs bool) []savedPair {
	t.Helper()
	r := &reader{t, chunk}
	var out []savedPair
	for len(r.b) > 0 {
		p := savedPair{a: r.bytes(int(r.uvarint()))}
		if docs {
			p.v = r.bytes(int(r.uvarint()))
		} else {
			p.b = r.uvarint()
			p.df = r.uvarint()
		}
		out = append(out, p)
	}
	return out
}

func encodePairs(pairs []savedPair, docs bool) []byte {
	var b []byte
	for _, p := range pairs {
		b = binary.AppendUvarint(b, uint64(len(p.a)))
		b = append(b, p.a...)
		if docs {
			b = binary.AppendUvarint(b, uint64(len(p.v)))
			b = append(b, p.v...)
		} else {
			b = binary.AppendUvarint(b, p.b)
			b = binary.AppendUvarint(b, p.df)
		}
	}
	return b
}

func decodeUint32s(t *testing.T, r *reader) []uint32 {
	n := int(r.uvarint())
	raw := r.bytes(4 * n)
	out := make([]uint32, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(raw[4*i:])
	}
	return out
}

func appendU32s(b []byte, vs []uint32) []byte {
	b = binary.AppendUvarint(b, uint64(len(vs)))
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return b
}

func chunk0(kind string) string { return "x/" + kind + "\x00\x00\x00\x00" }

func (kv *memKV) clone() *memKV {
	c := &memKV{m: map[string][]byte{}}
	for k, v := range kv.m {
		c.m[k] = slices.Clone(v)
	}
	return c
}

// smallSaved is a 60-doc segment of the random corpus, saved under "x/":
// one chunk of each kind, compressed docs, a term in every doc.
func smallSaved(t testing.TB) (*memKV, *reference) {
	t.Helper()
	s, ref := buildShuffled(t, randomCorpus(3, 60), 4)
	kv := &memKV{m: map[string][]byte{}}
	if err := s.Save(kv, "x/"); err != nil {
		t.Fatal(err)
	}
	if _, ok := kv.m["x/dict"]; !ok {
		t.Fatal("the small segment's docs are not compressed")
	}
	return kv, ref
}

// saveAndLoad is s saved under "x/" and loaded back.
func saveAndLoad(t testing.TB, s *Segment) *Segment {
	t.Helper()
	kv := &memKV{m: map[string][]byte{}}
	if err := s.Save(kv, "x/"); err != nil {
		t.Fatal(err)
	}
	l, err := Load(kv, "x/")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestLoadRefusesCorruption names each check Load makes on what it reads
// ("corrupt segment" errors; docs/architecture.md: "aisle serve loads the
// saved segment when its stamp still matches, and rebuilds it
// otherwise"): each corruption, made on an otherwise sound segment, is
// refused with an error naming the part, never loaded and never a panic.
func TestLoadRefusesCorruption(t *testing.T) {
	saved, ref := smallSaved(t)
	n := uint64(ref.n)
	var meta segMeta
	if err := json.Unmarshal(saved.m["x/meta"], &meta); err != nil {
		t.Fatal(err)
	}
	terms := decodeTerms(t, saved.m[chunk0("T/")])
	withBitmap, withoutBitmap := -1, -1
	for i, e := range terms {
		if len(e.bm) > 0 && withBitmap < 0 {
			withBitmap = i
		}
		if len(e.bm) == 0 && len(e.posts) > 0 && len(e.posts[0].docs) > 1 && withoutBitmap < 0 {
			withoutBitmap = i
		}
	}
	if withBitmap < 0 || withoutBitmap < 0 {
		t.Fatal("the small segment lacks a term with a bitmap or one in two docs without")
	}
	editTerms := func(edit func(ts []savedTerm) []savedTerm) func(kv *memKV) {
		return func(kv *memKV) {
			ts := decodeTerms(t, kv.m[chunk0("T/")])
			kv.m[chunk0("T/")] = encodeTerms(edit(ts))
		}
	}
	editPairs := func(kind string, docs bool, edit func(ps []savedPair) []savedPair) func(kv *memKV) {
		return func(kv *memKV) {
			kv.m[chunk0(kind)] = encodePairs(edit(decodePairs(t, kv.m[chunk0(kind)], docs)), docs)
		}
	}
	editColumn := func(edit func(offs, vals []uint32) ([]uint32, []uint32)) func(kv *memKV) {
		return func(kv *memKV) {
			r := &reader{t, kv.m["x/k/color\x00col"]}
			offs, vals := decodeUint32s(t, r), decodeUint32s(t, r)
			offs, vals = edit(offs, vals)
			kv.m["x/k/color\x00col"] = appendU32s(appendU32s(nil, offs), vals)
		}
	}
	editMeta := func(edit func(m map[string]any)) func(kv *memKV) {
		return func(kv *memKV) {
			var m map[string]any
			if err := json.Unmarshal(kv.m["x/meta"], &m); err != nil {
				t.Fatal(err)
			}
			edit(m)
			kv.m["x/meta"], _ = json.Marshal(m)
		}
	}
	numeric := func(cnt int, has []byte) []byte {
		b := binary.AppendUvarint(nil, uint64(cnt))
		for range cnt {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(1))
		}
		return append(b, has...)
	}
	allDocs := roaring.New()
	allDocs.AddRange(0, n)
	allBytes, _ := allDocs.ToBytes()
	altKey := ""
	for _, k := range slices.Sorted(maps.Keys(saved.m)) {
		if strings.HasPrefix(k, "x/a/") && altKey == "" {
			altKey = k
		}
	}
	if altKey == "" {
		t.Fatal("the small segment saves no alternative key")
	}
	colors := len(meta.Keywords["color"].Values)

	var report strings.Builder
	for _, tc := range []struct {
		check   string
		part    string // what the error names
		corrupt func(kv *memKV)
	}{
		{"no meta", "no segment", func(kv *memKV) { delete(kv.m, "x/meta") }},
		{"meta not JSON", "load segment meta", func(kv *memKV) { kv.m["x/meta"] = []byte("{") }},
		{"meta of another format version", "saved segment format 2, this build reads " + fmt.Sprint(FormatVersion), editMeta(func(m map[string]any) { m["format"] = 2 })},
		{"meta without a format version", "saved segment format 0", editMeta(func(m map[string]any) { delete(m, "format") })},

		{"term chunk cut inside an entry", "load terms", func(kv *memKV) {
			c := kv.m[chunk0("T/")]
			kv.m[chunk0("T/")] = c[:len(c)-1]
		}},
		{"term chunk cut inside a term", "load terms", func(kv *memKV) { kv.m[chunk0("T/")] = encodeTerms(terms[:1])[:2] }},
		{"terms out of order", "load terms", editTerms(func(ts []savedTerm) []savedTerm {
			ts[0], ts[1] = ts[1], ts[0]
			return ts
		})},
		{"term repeated", "load terms", editTerms(func(ts []savedTerm) []savedTerm { return slices.Insert(ts, 1, ts[0]) })},
		{"doc frequency above the doc count", "load terms", editTerms(func(ts []savedTerm) []savedTerm {
			ts[withoutBitmap].df = n + 1
			return ts
		})},
		{"bitmap disagrees with the doc frequency", "load terms", editTerms(func(ts []savedTerm) []savedTerm {
			ts[withBitmap].df--
			return ts
		})},
		{"bitmap unreadable", "load terms", editTerms(func(ts []savedTerm) []savedTerm {
			ts[withBitmap].bm = []byte{1, 2, 3, 4, 5, 6, 7}
			return ts
		})},
		{"posting field unknown", "load terms", editTerms(func(ts []savedTerm) []savedTerm {
			ts[withoutBitmap].posts[0].field = byte(NumTextFields)
			return ts
		})},
		{"posting longer than the doc count", "load terms", editTerms(func(ts []savedTerm) []savedTerm {
			p := &ts[withoutBitmap].posts[0]
			p.docs, p.tfs = nil, nil
			for d := range n + 1 {
				p.docs, p.tfs = append(p.docs, d), append(p.tfs, 1)
			}
			return ts
		})},
		{"doc listed twice in a posting", "load terms", editTerms(func(ts []savedTerm) []savedTerm {
			p := &ts[withoutBitmap].posts[0]
			p.docs[1] = p.docs[0]
			return ts
		})},
		{"posting doc past the last doc", "load terms", editTerms(func(ts []savedTerm) []savedTerm {
			p := &ts[withoutBitmap].posts[0]
			p.docs[len(p.docs)-1] = n
			return ts
		})},
		{"posting frequencies cut", "load terms", editTerms(func(ts []savedTerm) []savedTerm {
			ts = ts[:withoutBitmap+1]
			p := &ts[withoutBitmap].posts[len(ts[withoutBitmap].posts)-1]
			p.tfs = p.tfs[:len(p.tfs)-1]
			return ts
		})},

		{"word points past the terms", "load words", editPairs("W/", false, func(ps []savedPair) []savedPair {
			ps[3].b = uint64(len(terms))
			return ps
		})},
		{"word in no doc", "load words", editPairs("W/", false, func(ps []savedPair) []savedPair {
			ps[3].df = 0
			return ps
		})},
		{"word in more docs than the segment", "load words", editPairs("W/", false, func(ps []savedPair) []savedPair {
			ps[3].df = uint64(n) + 1
			return ps
		})},
		{"word chunk cut", "load words", func(kv *memKV) {
			c := kv.m[chunk0("W/")]
			kv.m[chunk0("W/")] = c[:len(c)-1]
		}},
		{"words out of order", "load words", editPairs("W/", false, func(ps []savedPair) []savedPair {
			ps[0], ps[1] = ps[1], ps[0]
			return ps
		})},
		{"word repeated", "load words", editPairs("W/", false, func(ps []savedPair) []savedPair { return slices.Insert(ps, 1, ps[0]) })},

		{"field lengths disagree with the saved means", "load field lengths", func(kv *memKV) {
			fl := slices.Clone(kv.m["x/fl/0"])
			fl[0] += 3
			kv.m["x/fl/0"] = fl
		}},
		{"field lengths short", "load field lengths", func(kv *memKV) { kv.m["x/fl/0"] = kv.m["x/fl/0"][:n-1] }},
		{"field lengths long", "load field lengths", func(kv *memKV) { kv.m["x/fl/6"] = append(kv.m["x/fl/6"], 1) }},
		{"field lengths of a field past the last", "load field lengths", func(kv *memKV) { kv.m["x/fl/7"] = kv.m["x/fl/0"] }},
		{"field lengths of a field before the first", "load field lengths", func(kv *memKV) { kv.m["x/fl/"+string(rune('0'-1))] = kv.m["x/fl/0"] }},

		{"doc chunk cut", "load documents", func(kv *memKV) {
			c := kv.m[chunk0("D/")]
			kv.m[chunk0("D/")] = c[:len(c)-1]
		}},
		{"doc past the doc count", "load documents", editPairs("D/", true, func(ps []savedPair) []savedPair { return append(ps, ps[0]) })},
		{"doc missing", "load documents", editPairs("D/", true, func(ps []savedPair) []savedPair { return ps[:len(ps)-1] })},
		{"doc's title hashes past its entry", "load documents", editPairs("D/", true, func(ps []savedPair) []savedPair {
			ps[1].v = binary.AppendUvarint(nil, uint64(len(ps[1].v)))
			return ps
		})},
		{"doc's member offsets past its entry", "load documents", editPairs("D/", true, func(ps []savedPair) []savedPair {
			ps[1].v = binary.AppendUvarint([]byte{0}, uint64(len(ps[1].v)))
			return ps
		})},
		{"doc's member offsets' bytes past its entry", "load documents", editPairs("D/", true, func(ps []savedPair) []savedPair {
			ps[1].v = binary.AppendUvarint([]byte{0, 1}, uint64(len(ps[1].v)))
			return ps
		})},
		{"doc's member offsets short of their bytes", "load documents", editPairs("D/", true, func(ps []savedPair) []savedPair {
			ps[1].v = append([]byte{0, 1, 2, 5, 0}, `{"a":1}`...) // one offset of 1 byte in 2
			return ps
		})},
		{"dictionary unreadable", "load documents", func(kv *memKV) { kv.m["x/dict"] = []byte{0xff} }},
		{"dictionary missing", "load documents", func(kv *memKV) { delete(kv.m, "x/dict") }},
		{"dictionary unexpected", "load documents", editMeta(func(m map[string]any) { m["compressed"] = false })},

		{"alternative key past the docs", "load keys", func(kv *memKV) { kv.m[altKey] = binary.AppendUvarint(nil, n) }},
		{"alternative key unreadable", "load keys", func(kv *memKV) { kv.m[altKey] = []byte{0x80} }},

		{"column for fewer docs", "load field color", editColumn(func(offs, vals []uint32) ([]uint32, []uint32) { return offs[:n], vals[:offs[n-1]] })},
		{"column not starting at 0", "load field color", editColumn(func(offs, vals []uint32) ([]uint32, []uint32) {
			offs[0] = 1
			return offs, vals
		})},
		{"column offsets decrease", "load field color", editColumn(func(offs, vals []uint32) ([]uint32, []uint32) {
			for d := 1; d < len(offs)-1; d++ {
				if offs[d] < offs[d+1] {
					offs[d] = offs[d+1] + 1
					return offs, vals
				}
			}
			t.Fatal("no doc with a colour")
			return nil, nil
		})},
		{"column end past the values", "load field color", editColumn(func(offs, vals []uint32) ([]uint32, []uint32) { return offs, vals[:len(vals)-1] })},
		{"column value past the values", "load field color", editColumn(func(offs, vals []uint32) ([]uint32, []uint32) {
			vals[len(vals)-1] = uint32(colors)
			return offs, vals
		})},
		{"column unreadable", "load field color", func(kv *memKV) { kv.m["x/k/color\x00col"] = kv.m["x/k/color\x00col"][:9] }},
		{"value bitmap missing", "load field color", func(kv *memKV) { delete(kv.m, "x/k/color\x00v00000000") }},
		{"value bitmap past the values", "load field color", func(kv *memKV) {
			kv.m[fmt.Sprintf("x/k/color\x00v%08x", colors)] = kv.m["x/k/color\x00v00000000"]
		}},
		{"value key unreadable", "load field color", func(kv *memKV) { kv.m["x/k/color\x00vzz"] = kv.m["x/k/color\x00v00000000"] }},
		{"value key of a negative id", "load field color", func(kv *memKV) { kv.m["x/k/color\x00v-0000001"] = kv.m["x/k/color\x00v00000000"] }},
		{"value key with bytes after the id", "load field color", func(kv *memKV) { kv.m["x/k/color\x00v00000000x"] = kv.m["x/k/color\x00v00000000"] }},
		{"value bitmap unreadable", "load field color", func(kv *memKV) { kv.m["x/k/color\x00v00000000"] = []byte{1, 2, 3, 4, 5, 6, 7} }},
		{"keyword field without keys", "load field ghost", editMeta(func(m map[string]any) {
			m["keywords"].(map[string]any)["ghost"] = map[string]any{"values": []string{"a"}}
		})},

		{"numeric column for fewer docs", "load numeric price", func(kv *memKV) { kv.m["x/n/price"] = numeric(int(n)-1, allBytes) }},
		{"numeric column for more docs", "load numeric price", func(kv *memKV) { kv.m["x/n/price"] = numeric(int(n)+1, allBytes) }},
		{"numeric has-bitmap unreadable", "load numeric price", func(kv *memKV) { kv.m["x/n/price"] = numeric(int(n), []byte{1, 2, 3, 4, 5, 6, 7}) }},
		{"numeric column cut", "load numeric price", func(kv *memKV) { kv.m["x/n/price"] = kv.m["x/n/price"][:8*n/2] }},
		{"numeric column missing", "load numeric price", func(kv *memKV) { delete(kv.m, "x/n/price") }},

		{"sort ranks short", "load sort title", func(kv *memKV) { kv.m["x/s/title"] = appendU32s(nil, make([]uint32, n-1)) }},
		{"sort ranks long", "load sort title", func(kv *memKV) { kv.m["x/s/title"] = appendU32s(nil, make([]uint32, n+1)) }},
		{"sort ranks cut", "load sort title", func(kv *memKV) { kv.m["x/s/title"] = kv.m["x/s/title"][:9] }},
		{"sort ranks missing", "load sort title", func(kv *memKV) { delete(kv.m, "x/s/title") }},
	} {
		t.Run(tc.check, func(t *testing.T) {
			kv := saved.clone()
			tc.corrupt(kv)
			if maps.EqualFunc(kv.m, saved.m, bytes.Equal) {
				t.Fatal("the corruption changed nothing")
			}
			s, err := Load(kv, "x/")
			fmt.Fprintf(&report, "%s: %v\n", tc.check, err)
			if err == nil {
				t.Fatalf("loaded a segment of %d docs", s.Len())
			}
			if !strings.Contains(err.Error(), tc.part) {
				t.Fatalf("error %q does not name %q", err, tc.part)
			}
			corrupt := errors.Is(err, ErrCorrupt)
			if want := !strings.HasPrefix(tc.check, "meta") && tc.check != "no meta"; corrupt != want {
				t.Fatalf("error %q: corrupt segment %v, want %v", err, corrupt, want)
			}
		})
	}
	// Another format version is ErrFormat, for the caller to rebuild.
	kv := saved.clone()
	editMeta(func(m map[string]any) { m["format"] = FormatVersion + 1 })(kv)
	if _, err := Load(kv, "x/"); !errors.Is(err, ErrFormat) {
		t.Errorf("a segment of format %d: %v, want ErrFormat", FormatVersion+1, err)
	}
	// Each error names the part and the check that failed
	// (testdata/corruption.txt; -update rewrites it).
	golden.Check(t, "corruption.txt", []byte(report.String()))
	// The same store, untouched, loads.
	if _, err := Load(saved, "x/"); err != nil {
		t.Fatal(err)
	}
}

// TestLoadSteps: each step of Load, run alone on a saved segment (the
// steps it needs run before it), reads its section back as the segment
// that was saved has it.
func TestLoadSteps(t *testing.T) {
	s, _ := buildShuffled(t, randomCorpus(3, 600), 4) // several doc chunks
	kv := &memKV{m: map[string][]byte{}}
	if err := s.Save(kv, "x/"); err != nil {
		t.Fatal(err)
	}
	meta, err := loadMeta(kv, "x/")
	if err != nil || meta.N != s.n {
		t.Fatalf("meta of %d docs, %v", meta.N, err)
	}
	if len(s.keyword) == 0 || len(s.numeric) == 0 || len(meta.Sorts) == 0 || len(s.keyDoc.docs) == int(s.n) || s.stored.dict == nil {
		t.Fatal("the segment lacks a keyword, number or text sort field, an alternative key or compressed docs")
	}
	sameDict := func(a, b dict) bool { return bytes.Equal(a.text, b.text) && slices.Equal(a.off, b.off) }
	sameBitmaps := func(a, b []*roaring.Bitmap) bool {
		return slices.EqualFunc(a, b, func(x, y *roaring.Bitmap) bool { return x == nil && y == nil || x != nil && y != nil && x.Equals(y) })
	}
	for _, tc := range []struct {
		name string
		load func(l *Segment) error
		same func(l *Segment) bool
	}{
		{"terms", func(l *Segment) error { return l.loadTerms(kv, "x/", meta) }, func(l *Segment) bool {
			if !sameDict(l.terms, s.terms) || !slices.Equal(l.post.df, s.post.df) || !sameBitmaps(l.post.bitmaps, s.post.bitmaps) {
				return false
			}
			for id := range uint32(s.terms.len()) {
				if !slices.EqualFunc(l.TermPostings(id, nil), s.TermPostings(id, nil), func(a, b FieldPosting) bool {
					return a.Field == b.Field && slices.Equal(a.Docs, b.Docs) && slices.Equal(a.TFs, b.TFs)
				}) {
					return false
				}
			}
			return true
		}},
		{"typo lists", func(l *Segment) error {
			l.byLen = typoTerms(&s.terms)
			return nil
		}, func(l *Segment) bool { return slices.EqualFunc(l.byLen, s.byLen, slices.Equal) }},
		{"words", func(l *Segment) error {
			l.terms = s.terms
			return l.loadWords(kv, "x/", meta)
		}, func(l *Segment) bool {
			return sameDict(l.surfaces, s.surfaces) && slices.Equal(l.surfaceTerm, s.surfaceTerm) && slices.Equal(l.surfaceDF, s.surfaceDF)
		}},
		{"field lengths", func(l *Segment) error { return l.loadFieldLens(kv, "x/", meta) }, func(l *Segment) bool {
			return slices.EqualFunc(l.fieldLen[:], s.fieldLen[:], slices.Equal) && l.avgLen == s.avgLen
		}},
		{"docs and keys", func(l *Segment) error {
			own, err := l.loadDocs(kv, "x/", meta)
			if err == nil {
				err = l.loadAltKeys(kv, "x/", meta, own)
			}
			return err
		}, func(l *Segment) bool {
			for d := range s.n {
				if !bytes.Equal(l.Stored(d), s.Stored(d)) {
					return false
				}
			}
			return sameDict(l.keys, s.keys) && sameDict(l.keyDoc.keys, s.keyDoc.keys) && slices.Equal(l.keyDoc.docs, s.keyDoc.docs)
		}},
		{"keyword, number and sort fields", func(l *Segment) error { return l.loadFields(kv, "x/", meta) }, func(l *Segment) bool {
			if len(l.keyword) != len(s.keyword) || len(l.numeric) != len(s.numeric) || len(l.sorts) != len(s.sorts) {
				return false
			}
			for name, k := range s.keyword {
				lk := l.keyword[name]
				if lk == nil || !slices.Equal(lk.Values, k.Values) || !slices.Equal(lk.offs, k.offs) || !slices.Equal(lk.vals, k.vals) || !sameBitmaps(lk.Bitmaps, k.Bitmaps) {
					return false
				}
			}
			for name, f := range s.numeric {
				if lf := l.numeric[name]; lf == nil || !slices.Equal(lf.vals, f.vals) || !lf.has.Equals(f.has) {
					return false
				}
			}
			for name, ranks := range s.sorts {
				if !slices.Equal(l.sorts[name], ranks) {
					return false
				}
			}
			return true
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := loadingSegment(meta.N)
			if err := tc.load(l); err != nil {
				t.Fatal(err)
			}
			if !tc.same(l) {
				t.Error("differs from the segment saved")
			}
		})
	}
}

// TestCheckColumn: a value column passes with offsets from 0 to its
// value count, never decreasing, and every value below the count of
// values; else the error names the check it failed.
func TestCheckColumn(t *testing.T) {
	for _, tc := range []struct {
		name       string
		offs, vals []uint32
		want       string // in the error; "" for none
	}{
		{"sound", []uint32{0, 2, 2, 3}, []uint32{1, 0, 2}, ""},
		{"no docs", []uint32{0}, nil, ""},
		{"no offsets", nil, nil, "without offsets"},
		{"not from 0", []uint32{1, 2, 3}, []uint32{0, 1, 2}, "start at 1"},
		{"short of the values", []uint32{0, 1, 2}, []uint32{0, 1, 2}, "end at 2, its values at 3"},
		{"decreasing", []uint32{0, 2, 1, 3}, []uint32{0, 1, 2}, "decrease at doc 2"},
		{"a value past the values", []uint32{0, 1, 2}, []uint32{0, 3}, "value 3 past its 3 values"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkColumn(tc.offs, tc.vals, 3)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v, want a corrupt segment naming %q", err, tc.want)
			}
		})
	}
}

var errInjected = errors.New("injected")

// failingKV fails the Set numbered failAt, or a Scan of keys starting
// with prefix+scanKind.
type failingKV struct {
	*memKV
	sets, failAt int
	scanFail     string
}

func (kv *failingKV) Set(k, v []byte) error {
	kv.sets++
	if kv.sets-1 == kv.failAt {
		return errInjected
	}
	if kv.sets-1 > kv.failAt {
		return fmt.Errorf("Set %q after a failed Set", k)
	}
	return kv.memKV.Set(k, v)
}

func (kv *failingKV) Scan(prefix []byte, fn func(k, v []byte) error) error {
	if kv.scanFail != "" && strings.HasPrefix(string(prefix), kv.scanFail) {
		return errInjected
	}
	return kv.memKV.Scan(prefix, fn)
}

// TestSaveAndLoadPassStoreErrors: a store error in any Set ends Save with
// that error, and one in any Scan ends Load with it ("Save writes the
// segment under prefix, so a restart loads it": a half-written segment
// must not pass for a whole one).
func TestSaveAndLoadPassStoreErrors(t *testing.T) {
	saved, _ := smallSaved(t)
	s, err := Load(saved, "x/")
	if err != nil {
		t.Fatal(err)
	}
	for i := range len(saved.m) {
		kv := &failingKV{memKV: &memKV{m: map[string][]byte{}}, failAt: i}
		if err := s.Save(kv, "x/"); !errors.Is(err, errInjected) {
			t.Fatalf("Set %d of %d failed: Save returned %v", i, len(saved.m), err)
		}
	}
	kinds := expect.Some(t, "key kinds", []string{"meta", "T/", "W/", "fl/", "D/", "dict", "a/", "k/", "n/price", "n/date", "s/"})
	for _, kind := range kinds {
		kv := &failingKV{memKV: saved, failAt: -1, scanFail: "x/" + kind}
		if _, err := Load(kv, "x/"); !errors.Is(err, errInjected) {
			t.Fatalf("Scan of %s failed: Load returned %v", kind, err)
		}
	}
}

// TestSavedLayout: the keys docs/architecture.md lists ("documents in
// chunks of 256 ..., terms in chunks of 4,096 ..., words in chunks of
// 4,096, alternative keys, the compression dictionary, field lengths,
// keyword columns and bitmaps, numeric columns, text sort ranks"), chunks
// numbered from 0, and nothing else; Save writes them in key order (the
// test store refuses any other).
func TestSavedLayout(t *testing.T) {
	docs := randomCorpus(5, 2100)
	s, ref := buildShuffled(t, docs, 6)
	kv := &memKV{m: map[string][]byte{}}
	if err := s.Save(kv, "seg/"); err != nil {
		t.Fatal(err)
	}
	chunks := func(n, size int) int { return (n + size - 1) / size }
	alts := 0 // keys some doc lists as an alternative to its own
	for k, docs := range ref.altKey {
		if slices.ContainsFunc(docs, func(d uint32) bool { return fold(ref.keys[d]) != k }) {
			alts++
		}
	}
	want := map[string]int{
		"D/": chunks(ref.n, 256), "T/": chunks(len(ref.terms), 4096), "W/": chunks(len(ref.words), 4096),
		"a/": alts, "dict": 1, "fl/": int(NumTextFields), "meta": 1, "s/": 2,
		"n/": len(ref.numeric),
	}
	for name, rk := range ref.keyword {
		want["k/"+name+"\x00"] = len(rk.display) + 1
	}
	if want["T/"] < 2 || want["W/"] < 2 || want["D/"] < 9 {
		t.Fatalf("%d term, %d word and %d doc chunks: the corpus does not reach a second chunk", want["T/"], want["W/"], want["D/"])
	}
	got := map[string]int{}
	for _, k := range expect.Some(t, "saved keys", sortedNames(kv.m)) {
		rest, ok := strings.CutPrefix(k, "seg/")
		if !ok {
			t.Fatalf("key %q outside the prefix", k)
		}
		kind := rest
		switch {
		case strings.HasPrefix(rest, "k/"):
			kind = rest[:strings.IndexByte(rest, 0)+1]
		case rest != "meta" && rest != "dict":
			kind = rest[:strings.IndexByte(rest, '/')+1]
		}
		if kind == "D/" || kind == "T/" || kind == "W/" {
			if num := rest[len(kind):]; len(num) != 4 || int(binary.BigEndian.Uint32([]byte(num))) != got[kind] {
				t.Fatalf("chunk key %q: want chunk %d", k, got[kind])
			}
		}
		got[kind]++
	}
	if !maps.Equal(got, want) {
		t.Fatalf("saved keys by kind %v, want %v", got, want)
	}
	for _, kind := range []string{"D/", "T/", "W/"} {
		prefix := "seg/" + kind
		var lens []int
		kv.Scan([]byte(prefix), func(k, v []byte) error { //nolint:errcheck // the callback never fails
			switch kind {
			case "T/":
				lens = append(lens, len(decodeTerms(t, v)))
			default:
				lens = append(lens, len(decodePairs(t, v, kind == "D/")))
			}
			return nil
		})
		size := map[string]int{"D/": 256, "T/": 4096, "W/": 4096}[kind]
		for i, l := range lens[:len(lens)-1] {
			if l != size {
				t.Fatalf("%s chunk %d holds %d entries, want %d", kind, i, l, size)
			}
		}
	}
}

// TestSaveLoadEmptyAndEdgeSegments: a segment of no docs, and one doc
// whose key is empty, load back as they were built.
func TestSaveLoadEmptyAndEdgeSegments(t *testing.T) {
	for _, docs := range [][]Doc{nil, {{Key: "", Stored: []byte(`{}`)}}} {
		s, ref := buildShuffled(t, docs, 1)
		l := saveAndLoad(t, s)
		for _, seg := range []*Segment{s, l} {
			if seg.Len() != len(docs) || seg.All().GetCardinality() != uint64(len(docs)) || seg.Terms() != 0 {
				t.Fatalf("%d docs: Len %d, All %d, Terms %d", len(docs), seg.Len(), seg.All().GetCardinality(), seg.Terms())
			}
			calls := 0
			seg.PrefixTerms("", func(uint32) bool { calls++; return true })
			if calls != 0 || seg.TermsOfLen(0) != nil || seg.Keyword("brand") != nil || seg.Numeric("price") != nil {
				t.Fatalf("%d docs: words, terms or fields in an empty segment", len(docs))
			}
			for d := range uint32(ref.n) {
				if seg.Key(d) != ref.keys[d] || !bytes.Equal(seg.Stored(d), ref.stored[d]) {
					t.Fatalf("doc %d: key %q, stored %q", d, seg.Key(d), seg.Stored(d))
				}
				if got, ok := seg.DocByKey(""); !ok || got != d {
					t.Fatalf("DocByKey(\"\") = %d, %v", got, ok)
				}
			}
		}
	}
}

// TestLoadRefusesTruncation: a key cut short is refused, at its start,
// inside its first entry, in its middle and at its end. Two cuts the
// format cannot tell from a sound key load instead (see the report in the
// commit): a word chunk cut between two words, and a dictionary cut to a
// shorter one; those must still read without a panic.
func TestLoadRefusesTruncation(t *testing.T) {
	saved, _ := smallSaved(t)
	wordEnds := map[int]bool{}
	end := 0
	for _, p := range decodePairs(t, saved.m[chunk0("W/")], false) {
		end += len(encodePairs([]savedPair{p}, false))
		wordEnds[end] = true
	}
	refused := expect.Counter{What: "truncations refused", Min: 300}
	for _, k := range expect.Some(t, "saved keys", sortedNames(saved.m)) {
		v := saved.m[k]
		for _, cut := range slices.Compact([]int{0, 1, 2, len(v) / 3, len(v) / 2, len(v) - 2, len(v) - 1}) {
			if cut < 0 || cut >= len(v) {
				continue
			}
			kv := saved.clone()
			kv.m[k] = v[:cut]
			s, err := Load(kv, "x/")
			if err != nil {
				refused.N++
				continue
			}
			if k != "x/dict" && !(k == chunk0("W/") && (cut == 0 || wordEnds[cut])) {
				t.Fatalf("%q cut from %d to %d bytes loaded", k, len(v), cut)
			}
			readAll(s)
		}
	}
	refused.Check(t)
}

// FuzzLoad: a saved segment with one key's value damaged (a byte flipped,
// or the whole value replaced) is refused with ErrCorrupt, ErrFormat or,
// for the meta, a decoding error, or loads a segment whose every
// observable reads without a panic (a flipped frequency, value or stored
// byte cannot be told from a sound one). The seeds flip the first,
// middle and last byte of every key, both one bit and all eight.
func FuzzLoad(f *testing.F) {
	saved, _ := smallSaved(f)
	keys := sortedNames(saved.m)
	for i, k := range keys {
		v := saved.m[k]
		for _, at := range slices.Compact([]int{0, len(v) / 2, len(v) - 1}) {
			for _, mask := range []byte{0x01, 0xff} {
				f.Add(uint16(i), uint32(max(at, 0)), mask, []byte(nil))
			}
		}
	}
	f.Add(uint16(1), uint32(0), byte(0), []byte{0x80, 0x80, 0x80})
	f.Fuzz(func(t *testing.T, key uint16, at uint32, mask byte, replace []byte) {
		kv := saved.clone()
		k := keys[int(key)%len(keys)]
		switch v := kv.m[k]; {
		case replace != nil && k != "x/meta":
			// A replaced meta could declare billions of docs; its damage
			// is tried by flips only.
			kv.m[k] = replace
		case len(v) > 0:
			v[int(at)%len(v)] ^= mask
		}
		s, err := Load(kv, "x/")
		switch {
		case err == nil:
			readAll(s)
		case !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrFormat) && k != "x/meta":
			t.Fatalf("%s damaged: %v, want ErrCorrupt", k, err)
		}
	})
}

// readAll reads every observable of a segment.
func readAll(s *Segment) {
	var posts []FieldPosting
	for d := range uint32(s.Len()) {
		s.Stored(d)
		s.DocByKey(analysis.FoldString(s.Key(d)))
	}
	for id := range uint32(s.Terms()) {
		s.TermDocs(id)
		posts = s.TermPostings(id, posts[:0])
		s.DocFreq(id)
		s.TermsOfLen(len(s.TermString(id)))
	}
	s.PrefixTerms("", func(uint32) bool { return true })
	for f := range NumTextFields {
		s.FieldLen(f)
		s.AvgFieldLen(f)
	}
	for _, k := range s.keyword {
		for d := range uint32(s.Len()) {
			k.DocValues(d)
		}
		k.AddChains(make([]uint32, len(k.Values)), make([]uint32, len(k.Values)))
	}
	for _, f := range s.numeric {
		c := f.Check(0, 50)
		for d := range uint32(s.Len()) {
			f.Value(d)
			c.Contains(d)
		}
		f.Range(0, 50, roaring.New())
	}
}

// TestLoadJoinsChunks: a segment of several term and doc chunks loads
// back to the same segment, laid out in arenas of the sizes its meta
// gives, or without them in per-chunk arenas joined at the end.
func TestLoadJoinsChunks(t *testing.T) {
	docs := make([]Doc, 2*termChunk)
	for i := range docs {
		docs[i] = Doc{Key: fmt.Sprintf("K%06d", i), Stored: fmt.Appendf(nil, `{"n":%d}`, i)}
		docs[i].Text[FieldTitle] = []string{fmt.Sprintf("common word%d", i)}
		docs[i].Text[FieldDescription] = []string{"common"}
	}
	s := buildInKeyOrder(t, docs)
	saved := &memKV{m: map[string][]byte{}}
	if err := s.Save(saved, "x/"); err != nil {
		t.Fatal(err)
	}
	chunks := 0
	for k := range saved.m {
		if strings.HasPrefix(k, "x/"+kTerm) {
			chunks++
		}
	}
	if chunks < 3 {
		t.Fatalf("%d term chunks for %d terms: the test needs several", chunks, s.Terms())
	}
	// With the section sizes in the meta (one arena each, exactly that
	// size), without them (per-chunk arenas joined), and with sizes too
	// small (arenas grown): the same segment.
	metas := map[string]func(m map[string]any){
		"sized": func(map[string]any) {},
		"unsized": func(m map[string]any) {
			for _, k := range []string{"postings", "spans", "terms", "termBytes", "keyBytes", "storedBytes", "words", "wordBytes"} {
				delete(m, k)
			}
		},
		"undersized": func(m map[string]any) {
			for _, k := range []string{"postings", "spans", "terms", "termBytes", "keyBytes", "storedBytes", "words", "wordBytes"} {
				m[k] = 1
			}
		},
	}
	for what, edit := range metas {
		kv := saved.clone()
		var m map[string]any
		if err := json.Unmarshal(kv.m["x/"+kMeta], &m); err != nil {
			t.Fatal(err)
		}
		edit(m)
		kv.m["x/"+kMeta], _ = json.Marshal(m)
		l, err := Load(kv, "x/")
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		sameSegment(t, what, l, s)
		var posts []FieldPosting
		if id, ok := l.Term("common"); !ok || len(l.TermPostings(id, posts)) != 2 {
			t.Fatalf("%s: common: %v, postings %v", what, ok, l.TermPostings(id, posts))
		}
		if what == "sized" && (cap(l.post.docs) != len(l.post.docs) || cap(l.stored.data) != len(l.stored.data)) {
			t.Errorf("sized: postings %d of %d, stored %d of %d: the arenas are not the saved sizes", len(l.post.docs), cap(l.post.docs), len(l.stored.data), cap(l.stored.data))
		}
		if what == "sized" && (cap(l.surfaces.text) != len(l.surfaces.text) || cap(l.surfaceTerm) != len(l.surfaceTerm)) {
			t.Errorf("sized: words %d of %d bytes, %d of %d entries: the arenas are not the saved sizes", len(l.surfaces.text), cap(l.surfaces.text), len(l.surfaceTerm), cap(l.surfaceTerm))
		}
	}
}

// BenchmarkSaveLoad: a 20,000-doc segment of the random corpus (several
// chunks of each kind, compressed docs, keyword, number and sort
// columns) saved to an in-memory store, and loaded back from one.
func BenchmarkSaveLoad(b *testing.B) {
	s, _ := buildShuffled(b, randomCorpus(8, 20000), 9)
	saved := &memKV{m: map[string][]byte{}}
	if err := s.Save(saved, "x/"); err != nil {
		b.Fatal(err)
	}
	b.Run("save", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := s.Save(&memKV{m: make(map[string][]byte, len(saved.m))}, "x/"); err != nil {
				b.Fatal(err)
			}
		}
	})
	sorted := newSortedKV(saved)
	b.Run("load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Load(sorted, "x/"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// sortedKV is a read-only KVReader over keys sorted once, so a benchmark
// of Load measures Load rather than memKV's sort per Scan.
type sortedKV struct {
	keys []string
	vals [][]byte
}

func newSortedKV(kv *memKV) *sortedKV {
	s := &sortedKV{keys: sortedNames(kv.m)}
	for _, k := range s.keys {
		s.vals = append(s.vals, kv.m[k])
	}
	return s
}

func (kv *sortedKV) Scan(prefix []byte, fn func(k, v []byte) error) error {
	i, _ := slices.BinarySearch(kv.keys, string(prefix))
	for ; i < len(kv.keys) && strings.HasPrefix(kv.keys[i], string(prefix)); i++ {
		if err := fn([]byte(kv.keys[i]), kv.vals[i]); err != nil {
			return err
		}
	}
	return nil
}
