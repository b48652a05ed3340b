package catalog

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseCSVMapping(t *testing.T) {
	m, err := ParseCSVMapping([]byte(`{"name":"shop","columns":{"productNumber":"SKU","title":"Name","extraDataList.tags":"Tags"},
		"hierarchySeparator":"/","hierarchyDropLast":true,"lenientNumbers":true,"defaults":{"currency":"EUR","inStock":"yes"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &CSVMapping{Name: "shop", Columns: map[string]string{"productNumber": "SKU", "title": "Name", "extraDataList.tags": "Tags"},
		HierarchySeparator: "/", HierarchyDropLast: true, LenientNumbers: true, Defaults: map[string]string{"currency": "EUR", "inStock": "yes"}}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("got %+v\nwant %+v", m, want)
	}
}

func TestParseCSVMappingErrors(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{``, "mapping: malformed JSON"},
		{`{"columns":`, "mapping: malformed JSON"},
		{`[]`, "mapping: expected object, got array"},
		{`null`, "mapping: columns is empty"},
		{`{"columns":{}}`, "mapping: columns is empty"},
		{`{"name":"x","columns":{"productNumber":"a","title":"b","colour":"c"}}`, `mapping "x": columns: "colour" is not a product field (fields: productNumber, title,`},
		{`{"columns":{"productNumber":"a","title":"b","prise":"c"}}`, `"prise" is not a product field (did you mean "price"?)`},
		{`{"columns":{"title":"b"}}`, "columns must map productNumber and title (productNumber is missing)"},
		{`{"columns":{"productNumber":"a","title":" "}}`, `columns: "title" maps to an empty column name`},
		{`{"columns":{"productNumber":"a","title":"b"},"extra":1}`, `mapping: unknown field "extra"`},
		{`{"columns":{"productNumber":"a","title":"b"},"default":{}}`, `mapping: unknown field "default" (did you mean "defaults"?)`},
		{`{"columns":{"productNumber":"a","title":"b"},"hierarchyDropLast":"yes"}`, `mapping: field "hierarchyDropLast": expected boolean, got string`},
		{`{"columns":{"productNumber":1}}`, `mapping: field "columns.productNumber": expected string, got number`},
		{`{"columns":{"productNumber":"a","title":"b","extraData.":"c"}}`, `"extraData.": the key after "extraData." must be non-empty and without '.'`},
		{`{"columns":{"productNumber":"a","title":"b","extraDataNumber.a.b":"c"}}`, `must be non-empty and without '.', got "a.b"`},
		{`{"columns":{"productNumber":"a","title":"b"},"defaults":{"inStock":"maybe"}}`, `defaults: field "inStock": "maybe" is not a boolean`},
		{`{"columns":{"productNumber":"a","title":"b"},"defaults":{"price":"cheap"}}`, `defaults: field "price": "cheap" is not a number`},
		{`{"columns":{"productNumber":"a","title":"b"},"defaults":{"colour":"red"}}`, `defaults: "colour" is not a product field`},
	} {
		if m, err := ParseCSVMapping([]byte(tc.doc)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseCSVMapping(%s) = %+v, %v\nwant %q", tc.doc, m, err, tc.want)
		}
	}
}

func TestBuiltinMapping(t *testing.T) {
	for _, name := range []string{"flipkart", "homedepot"} {
		m, err := BuiltinMapping(name)
		if err != nil || m.Name != name {
			t.Fatalf("%s: %+v %v", name, m, err)
		}
		if err := m.validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		// A caller's change must not reach the next caller.
		m.Columns["title"] = "changed"
		m.Defaults["currency"] = "XXX"
		again, _ := BuiltinMapping(name)
		if again.Columns["title"] == "changed" || again.Defaults["currency"] == "XXX" {
			t.Errorf("%s: BuiltinMapping hands out the shared mapping", name)
		}
	}
	if _, err := BuiltinMapping("nope"); err == nil || err.Error() != `no built-in mapping "nope" (built in: flipkart, homedepot)` {
		t.Errorf("unknown built-in: %v", err)
	}
}

// TestCSVValues covers the value syntaxes a CSV cell may use.
func TestCSVValues(t *testing.T) {
	m := &CSVMapping{Name: "v", Columns: map[string]string{"productNumber": "id", "title": "t", "inStock": "stock", "created": "c",
		"hierarchies": "path", "price": "p", "currency": "cur", "extraDataNumber.n": "n", "variantProductNumbers": "v"},
		HierarchySeparator: " >> ", HierarchyDropLast: true, LenientNumbers: true,
		Defaults: map[string]string{"currency": "INR", "inStock": "true", "brand": "Acme"}}
	in := "id,t,stock,c,path,p,cur,n,v\n" +
		"1,a,TRUE,2024-01-02T03:04:05Z,A >> B >> Name,1e3,,No rating available,x| y |\n" +
		"2,b,no,2024-01-02 03:04:05,Only,-0.5,USD,3.5,\n" +
		"3,c,1,2024-01-02,A >>  >> B >> ,,,,\n" +
		"4,d,False,,,.25,,,\n" +
		"5,e,,,,,,,\n"
	var got []*Product
	if err := Read(strings.NewReader(in), ReadOptions{Format: FormatCSV, Mapping: m}, func(p *Product) error { got = append(got, p); return nil }); err != nil {
		t.Fatal(err)
	}
	ts := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	want := []*Product{
		{ProductNumber: "1", Title: "a", InStock: true, Created: ts, Hierarchies: [][]string{{"A", "B"}}, Price: 1000, Currency: "INR", Brand: "Acme", VariantProductNumbers: []string{"x", "y"}},
		{ProductNumber: "2", Title: "b", InStock: false, Created: ts, Hierarchies: [][]string{{"Only"}}, Price: -0.5, Currency: "USD", Brand: "Acme", ExtraDataNumber: map[string]float64{"n": 3.5}},
		{ProductNumber: "3", Title: "c", InStock: true, Created: time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC), Hierarchies: [][]string{{"A"}}, Currency: "INR", Brand: "Acme"},
		{ProductNumber: "4", Title: "d", InStock: false, Price: 0.25, Currency: "INR", Brand: "Acme"},
		{ProductNumber: "5", Title: "e", InStock: true, Currency: "INR", Brand: "Acme"}, // empty cells take the defaults
	}
	if len(got) != len(want) {
		t.Fatalf("%d products", len(got))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("record %d:\n got %+v\nwant %+v", i+1, *got[i], *want[i])
		}
	}
	if err := got[1].Validate(); err == nil || !strings.Contains(err.Error(), `field "price"`) {
		t.Errorf("a negative price passes Validate: %v", err)
	}
}
