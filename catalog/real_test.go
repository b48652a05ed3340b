package catalog

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/aisle-search/aisle/datasets"
)

// TestRealCatalogs reads the public catalogs under shared/data (beside the
// checkout, never copied into it) with their built-in mappings.
func TestRealCatalogs(t *testing.T) {
	data := datasets.SkipOrDir(t)
	read := func(name string) []*Product {
		t.Helper()
		m, err := BuiltinMapping(name)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := readFile(t, filepath.Join(data, name, "products.csv"), m)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return ps
	}

	ps := read("flipkart")
	if len(ps) != 20000 {
		t.Fatalf("flipkart: %d products, want 20000", len(ps))
	}
	want := &Product{
		ProductNumber: "c2d766ca982eca8304150849735ffef9", Title: "Alisha Solid Women's Cycling Shorts", Brand: "Alisha",
		Price: 379, PreviousPrice: 999, Currency: "INR", InStock: true,
		Hierarchies: [][]string{{"Clothing", "Women's Clothing", "Lingerie, Sleep & Swimwear", "Shorts", "Alisha Shorts"}},
		ExtraData:   map[string]string{"pid": "SRTEH2FF9KEDEFGF", "fkAdvantage": "FALSE"},
	}
	if !reflect.DeepEqual(ps[0], want) {
		t.Errorf("flipkart row 1:\n got %+v\nwant %+v", *ps[0], *want)
	}
	ps[0].Normalize()
	if !ps[0].PriceLowered || !ps[0].IsOnSale || ps[0].PriceFormatted != "₹379.00" {
		t.Errorf("flipkart row 1 normalized: %+v", *ps[0])
	}
	seen := map[string]bool{}
	free, rated := 0, 0
	for _, p := range ps {
		seen[p.ProductNumber] = true
		if p.Price == 0 {
			free++
		}
		if _, ok := p.ExtraDataNumber["rating"]; ok {
			rated++
		}
		if len(p.Hierarchies) != 1 || len(p.Hierarchies[0]) == 0 {
			t.Fatalf("flipkart %s: hierarchies %q", p.ProductNumber, p.Hierarchies)
		}
	}
	// 78 rows have no prices; 18,151 say "No rating available".
	if len(seen) != 20000 || free != 78 || rated != 20000-18151 {
		t.Errorf("flipkart: %d distinct product numbers, %d without a price, %d rated", len(seen), free, rated)
	}

	ps = read("homedepot")
	if len(ps) != 54667 {
		t.Fatalf("homedepot: %d products, want 54667", len(ps))
	}
	want = &Product{ProductNumber: "100001", Title: "Simpson Strong-Tie 12-Gauge Angle", Currency: "USD", InStock: true}
	if !reflect.DeepEqual(ps[0], want) {
		t.Errorf("homedepot row 1:\n got %+v\nwant %+v", *ps[0], *want)
	}
}
