package engine

import (
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/config"
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

// FuzzParseBaseFilter: any JSON object reads as a base filter or fails
// with a client error naming a member under params.filters, without a
// panic; what reads has at most MaxFilters values and maxFilterNodes
// nodes, and the count of nodes in its text is at least the count in
// what it decodes to (more only for repeated keys), so the decoder's
// bound never refuses what the parser's allows.
func FuzzParseBaseFilter(f *testing.F) {
	for _, s := range []string{`{}`, `{"brand":"Acme"}`, `{"brand":["a","b"],"price":{"$gte":1,"$lte":2}}`,
		`{"$or":[{"brand":"a"},{"$and":[{"inStock":true},{"created":{"$gte":"2024-01-01"}}]}]}`,
		`{"price":{"$in":[1,2],"$eq":3}}`, `{"$or":[]}`, `{"hierarchies":"a$b$"}`, `{"x":null}`,
		`{"$and":[{"$or":[{},{}]},{}]}`, `{"brand" : "a\":b" , "b\\":[ -1.5e3 ,true,null, "\u0022:"]}`, `{"a":1,"a":2}`} {
		f.Add(s)
	}
	fields := map[string]config.IndexedField{}
	for _, fd := range []config.IndexedField{{Name: "brand", Type: config.TypeKeyword}, {Name: "price", Type: config.TypeNumber},
		{Name: "inStock", Type: config.TypeBoolean}, {Name: "created", Type: config.TypeDate}, {Name: "hierarchies", Type: config.TypeHierarchy},
		{Name: "title", Type: config.TypeText}} {
		fields[fd.Name] = fd
	}
	f.Fuzz(func(t *testing.T, s string) {
		var obj map[string]any
		if json.Unmarshal([]byte(s), &obj) != nil {
			return
		}
		const big = 1 << 30
		text, tree := jsonNodes([]byte(s), big), filterNodes(obj, big)
		if text < tree {
			t.Fatalf("%s: %d nodes counted in the text, %d in the object", s, text, tree)
		}
		bf, err := parseBaseFilter(obj, fields, "params.filters")
		if err != nil {
			e, ok := err.(*Error)
			if !ok || e.Kind != KindInvalid || !strings.HasPrefix(e.Field, "params.filters") {
				t.Fatalf("%s: %v (%T): want an invalid-request error naming a member of params.filters", s, err, err)
			}
			return
		}
		var values func(b *baseFilter) int
		values = func(b *baseFilter) int {
			n := len(b.strs)
			for i := range b.kids {
				n += values(&b.kids[i])
			}
			return n
		}
		if n := values(&bf); n > MaxFilters || tree > maxFilterNodes {
			t.Fatalf("%s: %d values and %d nodes read", s, n, tree)
		}
	})
}
