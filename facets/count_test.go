package facets

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/index"
)

type fixture struct {
	seg    *index.Segment
	brands []string
	tags   [][]string
	prices []float64
	has    []bool
}

func build(t testing.TB, n, nBrands int) *fixture {
	r := rand.New(rand.NewPCG(9, 9))
	b := index.NewBuilder(analysis.New(analysis.English))
	fx := &fixture{}
	for i := range n {
		d := index.Doc{Key: fmt.Sprintf("%06d", i), Stored: []byte("{}")} // keys in doc order
		brand := fmt.Sprintf("B%03d", int(float64(nBrands)*r.Float64()*r.Float64()))
		d.Keywords = append(d.Keywords, index.KeywordValue{Field: "brand", Value: brand})
		var tags []string
		for _, tg := range []string{"eco", "new", "sale"} {
			if r.IntN(3) == 0 {
				tags = append(tags, tg)
				d.Keywords = append(d.Keywords, index.KeywordValue{Field: "tags", Value: tg})
			}
		}
		price, has := float64(r.IntN(100000))/100, r.IntN(10) != 0
		if has {
			d.Numbers = append(d.Numbers, index.NumberValue{Field: "price", Value: price})
		}
		fx.brands, fx.tags, fx.prices, fx.has = append(fx.brands, brand), append(fx.tags, tags), append(fx.prices, price), append(fx.has, has)
		if err := b.Add(&d); err != nil {
			t.Fatal(err)
		}
	}
	fx.seg = b.Build()
	return fx
}

func TestCountsMatchBruteForce(t *testing.T) {
	fx := build(t, 20000, 300)
	r := rand.New(rand.NewPCG(1, 1))
	var c Counter
	// Set sizes on both sides of the bitmap/scan switch.
	for _, frac := range []float64{0.0005, 0.01, 0.3, 1} {
		base := roaring.New()
		for d := range fx.seg.Len() {
			if r.Float64() < frac {
				base.Add(uint32(d))
			}
		}
		for _, field := range []string{"brand", "tags"} {
			kf := fx.seg.Keyword(field)
			got := c.Keyword(kf, base)
			want := make(map[string]uint32)
			it := base.Iterator()
			for it.HasNext() {
				d := it.Next()
				if field == "brand" {
					want[fx.brands[d]]++
				} else {
					for _, tg := range fx.tags[d] {
						want[tg]++
					}
				}
			}
			for id, v := range kf.Values {
				if got[id] != want[v] {
					t.Fatalf("frac %v %s=%s: count %d, want %d", frac, field, v, got[id], want[v])
				}
			}
		}
		lo, hi, ok := c.Range(fx.seg.Numeric("price"), base)
		wlo, whi, wok := 0.0, 0.0, false
		it := base.Iterator()
		for it.HasNext() {
			d := it.Next()
			if !fx.has[d] {
				continue
			}
			p := fx.prices[d]
			if !wok {
				wlo, whi, wok = p, p, true
			}
			wlo, whi = min(wlo, p), max(whi, p)
		}
		if lo != wlo || hi != whi || ok != wok {
			t.Fatalf("frac %v: range %v..%v %v, want %v..%v %v", frac, lo, hi, ok, wlo, whi, wok)
		}
	}
	if _, _, ok := c.Range(fx.seg.Numeric("price"), roaring.New()); ok {
		t.Fatal("range over an empty set is ok")
	}
}

func BenchmarkKeyword(b *testing.B) {
	fx := build(b, 200000, 200)
	half := roaring.New()
	for d := 0; d < fx.seg.Len(); d += 2 {
		half.Add(uint32(d))
	}
	small := roaring.New()
	for d := 0; d < fx.seg.Len(); d += 500 {
		small.Add(uint32(d))
	}
	var c Counter
	for name, base := range map[string]*roaring.Bitmap{"half": half, "small": small} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.Keyword(fx.seg.Keyword("brand"), base)
			}
		})
	}
}

// TestHierarchyCountsMatchBruteForce covers the chain column: docs on one
// path, on two paths, on a path whose top level no doc names, and none.
func TestHierarchyCountsMatchBruteForce(t *testing.T) {
	paths := [][]string{
		{"Tools$", "Tools$Power$", "Tools$Power$Drills$"},
		{"Tools$", "Tools$Hand$"},
		{"Garden$"},
		{"Garden$", "Garden$Hoses$"},
		{"Orphan$Leaf$"}, // no doc has Orphan$ itself
	}
	r := rand.New(rand.NewPCG(4, 2))
	b := index.NewBuilder(analysis.New(analysis.English))
	var docVals [][]string
	for i := range 5000 {
		d := index.Doc{Key: fmt.Sprintf("%06d", i), Stored: []byte("{}")} // keys in doc order
		seen := map[string]bool{}
		var vals []string
		for range r.IntN(3) { // 0, 1 or 2 paths
			for _, v := range paths[r.IntN(len(paths))] {
				if !seen[v] {
					seen[v] = true
					vals = append(vals, v)
					d.Keywords = append(d.Keywords, index.KeywordValue{Field: "cat", Value: v})
				}
			}
		}
		docVals = append(docVals, vals)
		if err := b.Add(&d); err != nil {
			t.Fatal(err)
		}
	}
	seg := b.Build()
	kf := seg.Keyword("cat")
	if kf.ChainColumn() == nil || kf.Parent == nil {
		t.Fatal("hierarchy field has no chain column")
	}
	var c Counter
	for _, frac := range []float64{0.01, 0.5, 1} {
		base := roaring.New()
		want := map[string]uint32{}
		for d := range seg.Len() {
			if r.Float64() < frac {
				base.Add(uint32(d))
				for _, v := range docVals[d] {
					want[v]++
				}
			}
		}
		got := c.Keyword(kf, base)
		for id, v := range kf.Values {
			if got[id] != want[v] {
				t.Fatalf("frac %v %s: count %d, want %d", frac, v, got[id], want[v])
			}
		}
	}
}

// TestRangeOnShiftedColumn checks range bounds on a column large enough
// that several positions share a quantum, with ties and missing values.
func TestRangeOnShiftedColumn(t *testing.T) {
	const n = 150_000
	r := rand.New(rand.NewPCG(8, 1))
	b := index.NewBuilder(analysis.New(analysis.English))
	prices := make([]float64, n)
	has := make([]bool, n)
	for i := range n {
		// Keys in doc order: the builder numbers docs by key.
		d := index.Doc{Key: fmt.Sprintf("%06d", i), Stored: []byte("{}")}
		if r.IntN(5) != 0 {
			prices[i], has[i] = float64(r.IntN(3000))/10, true
			d.Numbers = append(d.Numbers, index.NumberValue{Field: "price", Value: prices[i]})
		}
		if err := b.Add(&d); err != nil {
			t.Fatal(err)
		}
	}
	nf := b.Build().Numeric("price")
	var c Counter
	for _, frac := range []float64{0.0001, 0.003, 0.05, 0.2, 0.9} {
		for range 5 {
			base := roaring.New()
			wlo, whi, wok := 0.0, 0.0, false
			for d := range n {
				if r.Float64() >= frac {
					continue
				}
				base.Add(uint32(d))
				if has[d] {
					if !wok {
						wlo, whi, wok = prices[d], prices[d], true
					}
					wlo, whi = min(wlo, prices[d]), max(whi, prices[d])
				}
			}
			if lo, hi, ok := c.Range(nf, base); lo != wlo || hi != whi || ok != wok {
				t.Fatalf("frac %v: %v..%v %v, want %v..%v %v", frac, lo, hi, ok, wlo, whi, wok)
			}
		}
	}
}
