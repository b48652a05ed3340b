package engine

import (
	"testing"
)

func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{"brand:Makita", "price:10,50", "price:,5", "price:7", "created:2024-01-01,", "inStock:true", "hierarchies:a$b", "x", ":", "price:1e308,-1e308", "created:NaN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fl, err := ParseFilter(s, typeOf)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %T is not a client error", err)
			}
			return
		}
		if fl.IsRange && !(fl.Min <= fl.Max) {
			t.Fatalf("%q: range %v..%v", s, fl.Min, fl.Max)
		}
		if fl.Field == "" {
			t.Fatalf("%q: empty field accepted", s)
		}
	})
}

func FuzzParseSorting(f *testing.F) {
	for _, s := range []string{"price asc", "price desc", "price", " a  DESC ", "", "a b c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		field, _, err := ParseSorting(s)
		if err == nil && field == "" {
			t.Fatalf("%q: empty field accepted", s)
		}
	})
}
