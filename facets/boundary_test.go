package facets

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/internal/expect"
)

// wide is a catalog past 16-bit columns: more values than a 2-byte
// keyword column holds (so counting takes the per-doc value list), and
// more numbers than 2-byte positions hold (so two neighbouring values
// share a quantum).
type wide struct {
	seg   *index.Segment
	n     int
	value map[string]func(d int) (float64, bool)
	sku   func(d int) (string, bool)
}

var (
	wideOnce sync.Once
	wideSeg  *wide
)

// buildWide builds the wide catalog once for the tests that share it.
func buildWide(t testing.TB) *wide {
	wideOnce.Do(func() { wideSeg = newWide(t) })
	if wideSeg == nil {
		t.Fatal("the wide catalog failed to build")
	}
	return wideSeg
}

func newWide(t testing.TB) *wide {
	const n = 72_000
	w := &wide{n: n}
	w.value = map[string]func(int) (float64, bool){
		"up":     func(d int) (float64, bool) { return float64(d), true },         // sorted position d
		"down":   func(d int) (float64, bool) { return float64(n - 1 - d), true }, // position n-1-d
		"steps":  func(d int) (float64, bool) { return float64(d / 3), true },     // runs of three ties
		"sparse": func(d int) (float64, bool) { return float64(d), d%50 == 0 },
	}
	w.sku = func(d int) (string, bool) { return fmt.Sprintf("S%05d", d), d%50 != 7 }
	b := index.NewBuilder(analysis.New(analysis.None))
	for d := range n {
		doc := index.Doc{Key: fmt.Sprintf("%06d", d), Stored: []byte("{}")} // keys in doc order
		for _, name := range []string{"up", "down", "steps", "sparse"} {
			if v, ok := w.value[name](d); ok {
				doc.Numbers = append(doc.Numbers, index.NumberValue{Field: name, Value: v})
			}
		}
		if s, ok := w.sku(d); ok {
			doc.Keywords = append(doc.Keywords, index.KeywordValue{Field: "sku", Value: s})
		}
		if err := b.Add(&doc); err != nil {
			t.Fatal(err)
		}
	}
	w.seg = b.Build()
	return w
}

// wantRange is the brute-force smallest and largest value of field over
// base.
func (w *wide) wantRange(field string, base *roaring.Bitmap) (lo, hi float64, ok bool) {
	it := base.Iterator()
	for it.HasNext() {
		v, has := w.value[field](int(it.Next()))
		if !has {
			continue
		}
		if !ok {
			lo, hi, ok = v, v, true
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi, ok
}

// TestRangeNeighboursInOneQuantum: Counter.Range is "the smallest and
// largest value of f over base" also when the extremes share a 2-byte
// quantum with other docs of base (facets/count.go; docs/decisions.md
// "RANGE facets answer min/max"): small sets of neighbours in value
// order, the larger first in doc order ("down"), the smaller first
// ("up"), ties ("steps"), with docs without a value.
func TestRangeNeighboursInOneQuantum(t *testing.T) {
	w := buildWide(t)
	r := rand.New(rand.NewPCG(7, 3))
	var c Counter
	checked := expect.Counter{What: "ranges compared", Min: 3000}
	for _, field := range []string{"up", "down", "steps", "sparse"} {
		f := w.seg.Numeric(field)
		perm, _ := f.Sorted()
		if len(perm) >= 65_535 && f.Quantised()[perm[0]] != f.Quantised()[perm[1]] {
			t.Fatalf("%s: the first two docs in value order do not share a quantum", field)
		}
		for range 1000 {
			base := roaring.New()
			p := r.IntN(len(perm) - 4)
			for k := range 4 { // neighbours in value order: at most three quanta
				if r.IntN(3) != 0 {
					base.Add(perm[p+k])
				}
			}
			if r.IntN(3) == 0 {
				base.Add(uint32(r.IntN(w.n))) // any doc, with or without a value
			}
			lo, hi, ok := c.Range(f, base)
			wlo, whi, wok := w.wantRange(field, base)
			if lo != wlo || hi != whi || ok != wok {
				t.Fatalf("%s over %v: %v..%v %v, want %v..%v %v", field, base.ToArray(), lo, hi, ok, wlo, whi, wok)
			}
			checked.N++
		}
	}
	checked.Check(t)
}

// TestRangeOverDocsWithoutValues: a set holding none of the docs with a
// value has no range (ok false), whichever way it is counted: larger
// than a quarter of the column (walked from both ends of the sorted
// column) or smaller (scanned).
func TestRangeOverDocsWithoutValues(t *testing.T) {
	w := buildWide(t)
	f := w.seg.Numeric("sparse")
	perm, _ := f.Sorted()
	var c Counter
	for _, size := range []int{len(perm) / 4, len(perm), 5 * len(perm)} {
		base := roaring.New()
		for d := 1; base.GetCardinality() < uint64(size); d++ {
			if d%50 != 0 {
				base.Add(uint32(d))
			}
		}
		if lo, hi, ok := c.Range(f, base); ok {
			t.Errorf("%d docs without a value: range %v..%v", size, lo, hi)
		}
		// The first and the last doc in value order alone.
		for _, d := range []uint32{perm[0], perm[len(perm)-1]} {
			with := base.Clone()
			with.Add(d)
			v, _ := f.Value(d)
			if lo, hi, ok := c.Range(f, with); !ok || lo != v || hi != v {
				t.Errorf("%d docs without a value and doc %d: range %v..%v %v, want %v..%v", size, d, lo, hi, ok, v, v)
			}
		}
	}
}

// TestKeywordCountsPerDocValueList: a field with more values than a
// 2-byte column holds counts from each doc's value list: docs without a
// value, the first and the last doc (facets/count.go Keyword: "for each
// value of k, the docs of base holding it").
func TestKeywordCountsPerDocValueList(t *testing.T) {
	w := buildWide(t)
	kf := w.seg.Keyword("sku")
	if kf.ChainColumn() != nil || !kf.Single() || len(kf.Values) < index.Multi16 {
		t.Fatalf("sku: %d values, chain column %v, single %v: want the per-doc list path", len(kf.Values), kf.ChainColumn() != nil, kf.Single())
	}
	r := rand.New(rand.NewPCG(2, 9))
	var c Counter
	for _, frac := range []float64{0.001, 0.2, 1} {
		base := roaring.New()
		base.Add(0)
		base.Add(uint32(w.n - 1))
		base.Add(7) // no value
		for d := range w.n {
			if r.Float64() < frac {
				base.Add(uint32(d))
			}
		}
		got := c.Keyword(kf, base)
		want := make(map[string]uint32)
		it := base.Iterator()
		for it.HasNext() {
			if s, ok := w.sku(int(it.Next())); ok {
				want[s]++
			}
		}
		for id, v := range expect.Some(t, "sku values", kf.Values) {
			if got[id] != want[v] {
				t.Fatalf("frac %v: %s counted %d, want %d", frac, v, got[id], want[v])
			}
		}
	}
}

// TestCounterStrategiesAndReuse: facets/count.go: "per-value bitmap
// intersections when a field has few values, one pass over the set's
// docs otherwise" (bitmaps when values × bitmapCostFactor < the set's
// size), and range bounds from "the sorted column from both ends" for a
// set holding a quarter of the column or more, a scan otherwise; a
// Counter "holds reusable buffers". The strategies are told apart by
// what they allocate once the counter is warm: the bitmap ways nothing,
// the scans only the bitmap iterator.
func TestCounterStrategiesAndReuse(t *testing.T) {
	const n, priced = 9000, 8000
	b := index.NewBuilder(analysis.New(analysis.None))
	for d := range n {
		doc := index.Doc{Key: fmt.Sprintf("%06d", d), Stored: []byte("{}")}
		doc.Keywords = append(doc.Keywords, index.KeywordValue{Field: "one", Value: "x"})
		doc.Keywords = append(doc.Keywords, index.KeywordValue{Field: "tags", Value: "a"}, index.KeywordValue{Field: "tags", Value: "b"})
		if d < priced {
			doc.Numbers = append(doc.Numbers, index.NumberValue{Field: "price", Value: float64(d % 997)})
		}
		if err := b.Add(&doc); err != nil {
			t.Fatal(err)
		}
	}
	seg := b.Build()
	first := func(k int) *roaring.Bitmap {
		bm := roaring.New()
		bm.AddRange(0, uint64(k))
		return bm
	}
	buf := make([]uint32, 16)
	small := first(100)
	iter := testing.AllocsPerRun(10, func() { small.ManyIterator().NextMany(buf) })
	if iter < 1 {
		t.Fatalf("iterating a bitmap allocates %v times: this test cannot tell the strategies apart", iter)
	}
	one, tags, price := seg.Keyword("one"), seg.Keyword("tags"), seg.Numeric("price")
	if one.ChainColumn() == nil || tags.ChainColumn() != nil {
		t.Fatal("want a chain column for one and none for tags")
	}
	var c Counter
	for _, tc := range []struct {
		name  string
		count func(*roaring.Bitmap)
		base  *roaring.Bitmap
		want  float64 // allocations
	}{
		{"one value, 4096 docs: scan", func(bm *roaring.Bitmap) { c.Keyword(one, bm) }, first(bitmapCostFactor), iter},
		{"one value, 4097 docs: bitmaps", func(bm *roaring.Bitmap) { c.Keyword(one, bm) }, first(bitmapCostFactor + 1), 0},
		{"two values, 8192 docs: scan", func(bm *roaring.Bitmap) { c.Keyword(tags, bm) }, first(2 * bitmapCostFactor), iter},
		{"two values, 8193 docs: bitmaps", func(bm *roaring.Bitmap) { c.Keyword(tags, bm) }, first(2*bitmapCostFactor + 1), 0},
		{"range, a quarter of the column: both ends", func(bm *roaring.Bitmap) { c.Range(price, bm) }, first(priced / 4), 0},
		{"range, one doc fewer: scan", func(bm *roaring.Bitmap) { c.Range(price, bm) }, first(priced/4 - 1), iter},
	} {
		tc.count(tc.base) // warm the counter
		if got := testing.AllocsPerRun(10, func() { tc.count(tc.base) }); got != tc.want {
			t.Errorf("%s: %v allocations, want %v", tc.name, got, tc.want)
		}
	}
}

// TestCountsOverEmptySet: an empty result set counts zero for every value
// and has no range, also right after a Counter counted a full set (its
// buffers are reused).
func TestCountsOverEmptySet(t *testing.T) {
	fx := build(t, 3000, 40)
	var c Counter
	full := fx.seg.All()
	for _, field := range []string{"brand", "tags"} {
		kf := fx.seg.Keyword(field)
		c.Keyword(kf, full)
		for id, n := range expect.Some(t, field+" counts", c.Keyword(kf, roaring.New())) {
			if n != 0 {
				t.Errorf("%s=%s: %d over an empty set", field, kf.Values[id], n)
			}
		}
	}
	price := fx.seg.Numeric("price")
	c.Range(price, full)
	if lo, hi, ok := c.Range(price, roaring.New()); ok || lo != 0 || hi != 0 {
		t.Errorf("range over an empty set: %v..%v %v", lo, hi, ok)
	}
}
