package index

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/analysis"
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

func TestTermsAndStemming(t *testing.T) {
	s := buildTest(t, testDocs(500))
	id, ok := s.Term("drill")
	if !ok {
		t.Fatal("no term drill")
	}
	// drills and drill stem together, so every doc with either is listed.
	want := roaring.New()
	for i, d := range testDocs(500) {
		if bytes.Contains([]byte(d.Text[FieldTitle][0]), []byte("drill")) {
			want.Add(uint32(i))
		}
	}
	if !s.TermDocs(id).Equals(want) {
		t.Fatalf("drill docs %d, want %d", s.TermDocs(id).GetCardinality(), want.GetCardinality())
	}
	var prefixed []string
	s.PrefixTerms("dri", func(t uint32) bool { prefixed = append(prefixed, s.TermString(t)); return true })
	if !slices.Contains(prefixed, "drill") {
		t.Fatalf("prefix dri gave %v", prefixed)
	}
	if _, ok := s.Term("sc141"); !ok {
		t.Fatal("compound sc141 not indexed")
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
	// Every surface leads to a term that exists.
	for i := range s.surfaces.len() {
		if int(s.surfaceTerm[i]) >= s.Terms() {
			t.Fatalf("surface %q points past the terms", s.surfaces.at(i))
		}
	}
}

func TestRangeMatchesBruteForce(t *testing.T) {
	docs := testDocs(5000)
	s := buildTest(t, docs)
	nf := s.Numeric("price")
	r := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		lo, hi := float64(r.IntN(1100))/10-5, float64(r.IntN(1100))/10-5
		if r.IntN(10) == 0 {
			lo = math.Inf(-1)
		}
		if r.IntN(10) == 0 {
			hi = math.Inf(1)
		}
		got := roaring.New()
		nf.Range(lo, hi, got)
		want := roaring.New()
		for i, d := range docs {
			for _, nv := range d.Numbers {
				if nv.Value >= lo && nv.Value <= hi {
					want.Add(uint32(i))
				}
			}
		}
		if !got.Equals(want) {
			t.Fatalf("Range(%v,%v) = %d docs, want %d", lo, hi, got.GetCardinality(), want.GetCardinality())
		}
	}
}

func TestKeywordsAndHierarchy(t *testing.T) {
	s := buildTest(t, testDocs(300))
	cat := s.Keyword("cat")
	top, _ := cat.Lookup("tools$")
	power, _ := cat.Lookup("tools$power$")
	if cat.Parent[power] != int32(top) || cat.Depth[power] != 2 || cat.Parent[top] != -1 {
		t.Fatalf("hierarchy links wrong: %v %v", cat.Parent, cat.Depth)
	}
	if cat.Single() {
		t.Fatal("cat holds two values per doc for some docs")
	}
	if got := cat.Bitmaps[power].GetCardinality(); got != 100 {
		t.Fatalf("power has %d docs, want 100", got)
	}
	if _, ok := s.Keyword("brand").Lookup("muller"); !ok {
		t.Fatal("brand Müller not found by its folded form")
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	s := buildTest(t, testDocs(3000))
	kv := &memKV{m: map[string][]byte{}}
	if err := s.Save(kv, "x/"); err != nil {
		t.Fatal(err)
	}
	l, err := Load(kv, "x/")
	if err != nil {
		t.Fatal(err)
	}
	if l.Len() != s.Len() || !reflect.DeepEqual(l.terms, s.terms) || !reflect.DeepEqual(l.surfaces, s.surfaces) || !reflect.DeepEqual(l.surfaceTerm, s.surfaceTerm) {
		t.Fatal("dictionary differs after load")
	}
	if !reflect.DeepEqual(l.post.spanOff, s.post.spanOff) || !reflect.DeepEqual(l.post.df, s.post.df) {
		t.Fatal("posting offsets or frequencies differ after load")
	}
	for id := range uint32(s.Terms()) {
		if (l.post.bitmaps[id] == nil) != (s.post.bitmaps[id] == nil) || !l.TermDocs(id).Equals(s.TermDocs(id)) ||
			!reflect.DeepEqual(l.TermPostings(id, nil), s.TermPostings(id, nil)) {
			t.Fatalf("postings of %q differ", s.TermString(id))
		}
	}
	if !reflect.DeepEqual(l.byLen, s.byLen) || l.avgLen != s.avgLen || !reflect.DeepEqual(l.fieldLen, s.fieldLen) {
		t.Fatal("typo lists or lengths differ")
	}
	for d := uint32(0); d < uint32(s.Len()); d++ {
		if !bytes.Equal(l.Stored(d), s.Stored(d)) || l.Key(d) != s.Key(d) {
			t.Fatalf("doc %d differs", d)
		}
	}
	if !reflect.DeepEqual(l.keyDoc, s.keyDoc) {
		t.Fatal("key map differs")
	}
	for name, k := range s.keyword {
		lk := l.keyword[name]
		if !reflect.DeepEqual(lk.Values, k.Values) || !reflect.DeepEqual(lk.offs, k.offs) || !reflect.DeepEqual(lk.vals, k.vals) || lk.single != k.single || !reflect.DeepEqual(lk.Parent, k.Parent) {
			t.Fatalf("keyword %s differs", name)
		}
		for i := range k.Bitmaps {
			if !lk.Bitmaps[i].Equals(k.Bitmaps[i]) {
				t.Fatalf("keyword %s value %d differs", name, i)
			}
		}
	}
	if !reflect.DeepEqual(l.sorts, s.sorts) {
		t.Fatal("sort ranks differ")
	}
	a, b := roaring.New(), roaring.New()
	s.Numeric("price").Range(10, 50, a)
	l.Numeric("price").Range(10, 50, b)
	if !a.Equals(b) {
		t.Fatal("range differs after load")
	}
}

func TestLoadCorrupt(t *testing.T) {
	s := buildTest(t, testDocs(50))
	saved := &memKV{m: map[string][]byte{}}
	if err := s.Save(saved, "x/"); err != nil {
		t.Fatal(err)
	}
	clone := func() *memKV {
		kv := &memKV{m: map[string][]byte{}}
		for k, v := range saved.m {
			kv.m[k] = slices.Clone(v)
		}
		return kv
	}
	for _, tc := range []struct{ name, prefix string }{{"term chunk", "x/T/"}, {"doc chunk", "x/D/"}, {"word chunk", "x/W/"}} {
		kv := clone()
		for k := range kv.m {
			if strings.HasPrefix(k, tc.prefix) {
				kv.m[k] = kv.m[k][:3]
			}
		}
		if _, err := Load(kv, "x/"); err == nil {
			t.Errorf("a truncated %s loaded without error", tc.name)
		}
	}
	if _, err := Load(&memKV{m: map[string][]byte{}}, "x/"); err == nil {
		t.Fatal("an empty store loaded without error")
	}
	// Any truncation or flipped byte of any key errs or loads; never panics.
	r := rand.New(rand.NewPCG(7, 7))
	for k, v := range saved.m {
		for range 20 {
			kv := clone()
			b := slices.Clone(v)
			if len(b) > 0 && r.IntN(2) == 0 {
				b[r.IntN(len(b))] ^= byte(1 + r.IntN(255))
			} else {
				b = b[:r.IntN(len(b)+1)]
			}
			kv.m[k] = b
			Load(kv, "x/") //nolint:errcheck // only panics matter here
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

// TestRangeCheckMatchesValues checks the quantised per-doc range test on
// a column large enough that positions are shifted, with ties, missing
// values and ranges that start or end inside a quantum.
func TestRangeCheckMatchesValues(t *testing.T) {
	const n = 200_000
	r := rand.New(rand.NewPCG(5, 6))
	nb := &numBuilder{vals: make([]float64, n), has: make([]bool, n)}
	for d := range n {
		if r.IntN(7) != 0 {
			nb.vals[d], nb.has[d] = float64(r.IntN(5000))/10, true
		}
	}
	nf := nb.build("price", n)
	if nf.qshift == 0 {
		t.Fatalf("%d values fit 16 bits unshifted: the test does not reach the boundary quanta", n)
	}
	for range 200 {
		lo := float64(r.IntN(5200))/10 - 10
		hi := lo + float64(r.IntN(3000))/10
		if r.IntN(10) == 0 {
			hi = lo // a single value
		}
		c := nf.Check(lo, hi)
		for range 2000 {
			d := uint32(r.IntN(n))
			want := nb.has[d] && nb.vals[d] >= lo && nb.vals[d] <= hi
			if got := c.Contains(d); got != want {
				t.Fatalf("[%v,%v] doc %d (value %v, has %v): %v, want %v", lo, hi, d, nb.vals[d], nb.has[d], got, want)
			}
		}
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
