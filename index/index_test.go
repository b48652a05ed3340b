package index

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/internal/expect"
)

// memKV is a sorted in-memory KV for round-trip tests; the store's pebble
// implementation is tested in package store. Like the store's table
// writer, it refuses keys that do not ascend.
type memKV struct {
	m    map[string][]byte
	last string
}

func (kv *memKV) Set(k, v []byte) error {
	if len(kv.m) > 0 && string(k) <= kv.last {
		return fmt.Errorf("key %q after %q", k, kv.last)
	}
	kv.last = string(k)
	kv.m[string(k)] = slices.Clone(v)
	return nil
}

func (kv *memKV) Scan(prefix []byte, fn func(k, v []byte) error) error {
	keys := make([]string, 0)
	for k := range kv.m {
		if bytes.HasPrefix([]byte(k), prefix) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := fn([]byte(k), kv.m[k]); err != nil {
			return err
		}
	}
	return nil
}

func testDocs(n int) []Doc {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"drill", "drills", "cordless", "hammer", "Søstrene", "lamp", "SC-141", "sofa", "couch", "table"}
	brands := []string{"Makita", "Bosch", "Müller"}
	docs := make([]Doc, n)
	for i := range docs {
		d := &docs[i]
		d.Key = fmt.Sprintf("P-%04d", i)
		if i%7 == 0 {
			d.AltKeys = []string{fmt.Sprintf("V-%04d", i)}
		}
		d.Stored = []byte(fmt.Sprintf(`{"productNumber":%q}`, d.Key))
		d.Text[FieldTitle] = []string{words[r.IntN(len(words))] + " " + words[r.IntN(len(words))]}
		b := brands[r.IntN(len(brands))]
		d.Text[FieldBrand] = []string{b}
		d.Keywords = append(d.Keywords, KeywordValue{"brand", b}, KeywordValue{"cat", "Tools$"})
		if i%3 == 0 {
			d.Keywords = append(d.Keywords, KeywordValue{"cat", "Tools$Power$"})
		}
		if i%5 != 0 {
			d.Numbers = append(d.Numbers, NumberValue{"price", float64(r.IntN(1000)) / 10})
		}
		d.Sort = append(d.Sort, SortValue{"title", d.Text[FieldTitle][0]})
	}
	return docs
}

func buildTest(t testing.TB, docs []Doc) *Segment {
	b := NewBuilder(analysis.New(analysis.English))
	for i := range docs {
		if err := b.Add(&docs[i]); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

// TestBuildOrdersByKey adds the same docs in key order and shuffled: the
// segments must be the same, byte for byte as saved, since doc ids break
// ties and a rebuild from the store reads products in key order. Some
// docs have no text, no price or no sort value.
func TestBuildOrdersByKey(t *testing.T) {
	docs := testDocs(600)
	for i := 0; i < len(docs); i += 11 {
		docs[i].Text = [NumTextFields][]string{}
		docs[i].Sort = nil
	}
	save := func(docs []Doc) map[string][]byte {
		kv := &memKV{m: map[string][]byte{}}
		if err := buildTest(t, docs).Save(kv, "x/"); err != nil {
			t.Fatal(err)
		}
		return kv.m
	}
	want := save(docs)
	shuffled := slices.Clone(docs)
	rand.New(rand.NewPCG(3, 4)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	got := save(shuffled)
	if len(got) != len(want) {
		t.Fatalf("%d keys saved from the shuffled docs, %d in order", len(got), len(want))
	}
	for k, v := range want {
		if !bytes.Equal(got[k], v) {
			t.Fatalf("key %q differs", k)
		}
	}
}

func TestDuplicateKey(t *testing.T) {
	b := NewBuilder(analysis.New(analysis.English))
	d := Doc{Key: "A", Stored: []byte("{}")}
	if err := b.Add(&d); err != nil {
		t.Fatal(err)
	}
	if err := b.Add(&Doc{Key: "a", Stored: []byte("{}")}); err == nil {
		t.Fatal("a duplicate key (after folding) was accepted")
	}
	// A variant number listed earlier does not block the product itself.
	if err := b.Add(&Doc{Key: "B", AltKeys: []string{"C"}, Stored: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	if err := b.Add(&Doc{Key: "C", Stored: []byte("{}")}); err != nil {
		t.Fatalf("own key after a variant listing: %v", err)
	}
	s := b.Build()
	if d, _ := s.DocByKey("c"); d != 2 {
		t.Fatalf("C resolves to doc %d, want its own doc 2", d)
	}
}

// TestNumericAndWordTerms covers words with digits, which the builder
// keeps apart from other words: each surface and term must still be
// listed once and find its docs, including a truncated token whose digit
// fell off and Arabic-Indic digits.
func TestNumericAndWordTerms(t *testing.T) {
	long := strings.Repeat("k", analysis.MaxTokenLen)
	texts := []string{
		"Drill AB-12 drills", "ab12 model 12 ab", "12.5 volts", long + "7 " + long,
		"٣٤ mm", "x100 X100 x-100", long + " and again",
	}
	b := NewBuilder(analysis.New(analysis.English))
	for i, text := range texts {
		d := Doc{Key: fmt.Sprint(i), Stored: []byte("{}")}
		d.Text[FieldTitle] = []string{text}
		if err := b.Add(&d); err != nil {
			t.Fatal(err)
		}
	}
	s := b.Build()
	if !s.surfaces.sorted() || !s.terms.sorted() {
		t.Fatal("surfaces or terms listed twice or out of order")
	}
	for _, tc := range []struct {
		term string
		docs []uint32
	}{
		{"ab12", []uint32{0, 1}}, {"12", []uint32{0, 1}}, {"drill", []uint32{0}}, {"ab", []uint32{0, 1}},
		{"12.5", []uint32{2}}, {long, []uint32{3, 6}}, {"٣٤", []uint32{4}},
		{"x100", []uint32{5}}, {"100", []uint32{5}},
	} {
		id, ok := s.Term(tc.term)
		if !ok {
			t.Errorf("no term %q", tc.term)
			continue
		}
		if got := s.TermDocs(id).ToArray(); !slices.Equal(got, tc.docs) {
			t.Errorf("%q in docs %v, want %v", tc.term, got, tc.docs)
		}
	}
	// Every surface leads to a term that exists, and counts the docs
	// whose text holds it.
	an := analysis.New(analysis.English)
	docsOf := map[string]map[int]bool{}
	for i, text := range texts {
		an.Each(text, func(folded []byte, _ bool, _ int) {
			if docsOf[string(folded)] == nil {
				docsOf[string(folded)] = map[int]bool{}
			}
			docsOf[string(folded)][i] = true
		})
	}
	if s.surfaces.len() != len(docsOf) {
		t.Errorf("%d surfaces, want %d", s.surfaces.len(), len(docsOf))
	}
	for i := range s.surfaces.len() {
		if int(s.surfaceTerm[i]) >= s.Terms() {
			t.Fatalf("surface %q points past the terms", s.surfaces.at(i))
		}
		if w := s.surfaces.at(i); int(s.surfaceDF[i]) != len(docsOf[w]) {
			t.Errorf("surface %q in %d docs, want %d", w, s.surfaceDF[i], len(docsOf[w]))
		}
	}
}

func BenchmarkBuild(b *testing.B) {
	docs := testDocs(20000)
	b.ReportAllocs()
	for b.Loop() {
		buildTest(b, docs)
	}
}

// TestStoredDocsCompressed checks that docs come back byte for byte, that
// the dictionary pays on a repetitive catalog, and that a catalog too
// small for a dictionary is kept as it came.
func TestStoredDocsCompressed(t *testing.T) {
	docs := testDocs(3000)
	for i := range docs {
		docs[i].Stored = fmt.Appendf(nil, `{"productNumber":%q,"title":"Cordless drill %d","url":"https://shop.example/p/%d","inStock":true}`, docs[i].Key, i, i)
	}
	s := buildTest(t, docs)
	raw := 0
	var buf []byte
	for i, d := range docs {
		raw += len(d.Stored)
		buf = s.AppendStored(buf[:0], uint32(i))
		if !bytes.Equal(buf, d.Stored) || !bytes.Equal(s.Stored(uint32(i)), d.Stored) {
			t.Fatalf("doc %d: %s, want %s", i, buf, d.Stored)
		}
	}
	if got := len(s.stored.data); got*2 > raw {
		t.Fatalf("stored %d bytes for %d of JSON: the dictionary does not pay", got, raw)
	}
	tiny := buildTest(t, []Doc{{Key: "a", Stored: []byte("{}")}})
	if tiny.stored.dict != nil || string(tiny.Stored(0)) != "{}" {
		t.Fatalf("tiny catalog: dict %v, doc %s", tiny.stored.dict != nil, tiny.Stored(0))
	}
}

// TestStoredCopiedUnlessKept: without KeepStored the builder copies a
// doc's JSON, so the caller may reuse its buffer ("KeepStored says Stored
// stays valid and unchanged while the builder lives, so the builder keeps
// it instead of copying it", doc.go), including docs larger than the
// blocks docs are packed into and docs that do not fit the current one.
func TestStoredCopiedUnlessKept(t *testing.T) {
	b := NewBuilder(analysis.New(analysis.None))
	var buf []byte
	var want [][]byte
	for i, size := range []int{100, 3 << 20, 2 << 20, 5 << 20, 10, 0, 30} {
		buf = append(buf[:0], '"')
		for j := range max(size-2, 0) {
			buf = append(buf, 'a'+byte((i+j)%26))
		}
		buf = append(buf, '"')
		want = append(want, slices.Clone(buf))
		if err := b.Add(&Doc{Key: fmt.Sprint(i), Stored: buf}); err != nil {
			t.Fatal(err)
		}
		for j := range buf {
			buf[j] = '!'
		}
	}
	s := b.Build()
	for d, w := range expect.Some(t, "docs", want) {
		if got := s.Stored(uint32(d)); !bytes.Equal(got, w) {
			t.Fatalf("doc %d: %d bytes starting %.20q, want %d starting %.20q", d, len(got), got, len(w), w)
		}
	}
}

// TestStoredDictionarySampledAcrossCatalog: the dictionary is "sampled
// across the catalog" (docs/architecture.md, Index), so the second half of
// a catalog whose halves share no words compresses as well as the first.
func TestStoredDictionarySampledAcrossCatalog(t *testing.T) {
	halves := []string{
		`"department":"garden","title":"Brass hose reel","description":"Wall mounted garden hose reel with brass fittings, frost resistant, holds 30 metres"`,
		`"department":"kitchen","title":"Chef knife","description":"Forged stainless steel chef knife, full tang, pakkawood handle, dishwasher unsafe"`,
	}
	docs := make([]Doc, 3000)
	for i := range docs {
		docs[i] = Doc{Key: fmt.Sprintf("%05d", i), Stored: fmt.Appendf(nil, `{"productNumber":"%05d",%s}`, i, halves[2*i/len(docs)])}
	}
	s := buildTest(t, docs)
	var raw, packed [2]int
	for i := range docs {
		h := 2 * i / len(docs)
		raw[h] += len(docs[i].Stored)
		packed[h] += len(s.stored.doc(uint32(i)))
		if got := s.Stored(uint32(i)); !bytes.Equal(got, docs[i].Stored) {
			t.Fatalf("doc %d: %s, want %s", i, got, docs[i].Stored)
		}
	}
	for h := range 2 {
		if packed[h]*3 > raw[h] {
			t.Fatalf("half %d: %d bytes of JSON stored in %d: the dictionary misses its words", h, raw[h], packed[h])
		}
	}
}

// TestPostingsLimitRefusesBeforeTaking: a doc whose postings would bring
// the count to 2^31 is refused with "index full" before its key is taken
// (the base arena is addressed by 31 bits, the 32nd marks the tail), and
// a smaller doc under the same key still fits. The count is set near the
// limit directly: two billion real postings do not fit a test.
func TestPostingsLimitRefusesBeforeTaking(t *testing.T) {
	b := NewBuilder(analysis.New(analysis.None))
	b.nrec = tailSpan - 3
	d := Doc{Key: "a", Stored: []byte("{}")}
	d.Text[FieldTitle] = []string{"x y z"}
	if err := b.Add(&d); err == nil || !strings.Contains(err.Error(), "index full") {
		t.Fatalf("a doc reaching 2^31 postings: %v", err)
	}
	d.Text[FieldTitle] = []string{"x y"}
	if err := b.Add(&d); err != nil {
		t.Fatalf("a doc staying under the limit, under the refused doc's key: %v", err)
	}
}
