package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aisle-search/aisle/datasets"
)

func readAll(t *testing.T, path string, m *CSVMapping) ([]Product, error) {
	t.Helper()
	var out []Product
	var last int64
	err := ReadFile(path, m, func(n int64) { last = n }, func(p *Product) error {
		p.Normalize()
		if err := p.Validate(); err != nil {
			return err
		}
		out = append(out, *p)
		return nil
	})
	if err == nil {
		if fi, _ := os.Stat(path); last != fi.Size() {
			t.Errorf("progress ended at %d of %d bytes", last, fi.Size())
		}
	}
	return out, err
}

func TestReadFormats(t *testing.T) {
	m, err := os.ReadFile("testdata/mapping.json")
	if err != nil {
		t.Fatal(err)
	}
	mapping, err := ParseCSVMapping(m)
	if err != nil {
		t.Fatal(err)
	}
	jsonl, err := readAll(t, "testdata/products.jsonl", nil)
	if err != nil || len(jsonl) != 2 {
		t.Fatalf("jsonl: %d %v", len(jsonl), err)
	}
	if jsonl[0].Hierarchies[0][1] != "Drills" || jsonl[0].ExtraData["color"] != "Red" || jsonl[0].PriceFormatted != "$99.50" {
		t.Errorf("jsonl[0] = %+v", jsonl[0])
	}
	if !jsonl[1].IsOnSale || !jsonl[1].PriceLowered || jsonl[1].PriceFormatted != "1.299,00 €" || !jsonl[1].Created.Equal(time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("jsonl[1] = %+v", jsonl[1])
	}
	arr, err := readAll(t, "testdata/products.json", nil)
	if err != nil || len(arr) != 2 || arr[0].ExtraDataNumber["rating"] != 4.5 || arr[1].ExtraDataList["tags"][1] != "eco" {
		t.Fatalf("json array: %+v %v", arr, err)
	}
	csvp, err := readAll(t, "testdata/products.csv", mapping)
	if err != nil || len(csvp) != 2 {
		t.Fatalf("csv: %d %v", len(csvp), err)
	}
	want := Product{ProductNumber: "S1", Title: "Garden Hose", Price: 19.99, PreviousPrice: 24.99, PriceLowered: true, IsOnSale: true,
		PriceFormatted: "19,99 kr.", Currency: "DKK", InStock: true, Hierarchies: [][]string{{"Garden", "Watering", "Hoses"}},
		Created: time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), ExtraData: map[string]string{"color": "Green"}, ExtraDataList: map[string][]string{"tags": {"eco", "new"}}}
	if !reflect.DeepEqual(csvp[0], want) {
		t.Errorf("csv[0] = %+v\nwant      %+v", csvp[0], want)
	}
	if csvp[1].Title != "Rake, Steel" || csvp[1].InStock || csvp[1].ExtraData != nil {
		t.Errorf("csv[1] = %+v", csvp[1])
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mapping := &CSVMapping{Name: "m", Columns: map[string]string{"productNumber": "sku", "title": "name", "price": "cost"}}
	for _, tc := range []struct {
		path    string
		mapping *CSVMapping
		want    string
	}{
		{write("a.jsonl", "{\"productNumber\":\"1\",\"title\":\"t\"}\n{\"productNumber\":\n"), nil, "a.jsonl:2: malformed JSON"},
		{write("b.jsonl", `{"productNumber":"1","title":"t","colour":"red"}`), nil, `b.jsonl:1: unknown field "colour"`},
		{write("c.jsonl", `{"productNumber":"1","title":"t","price":"cheap"}`), nil, `c.jsonl:1: field "price": expected float64, got string`},
		{write("d.json", `[{"productNumber":"1","title":"t"},{"productNumber":2}]`), nil, "d.json: product 2"},
		{write("e.csv", "sku,name,cost\n1,t,abc\n"), mapping, `e.csv: record 1: column "cost": field "price": "abc" is not a number`},
		{write("f.csv", "sku,name\n1,t\n"), mapping, `column "cost" (for price) is not in the header`},
		{write("g.csv", "sku,name,cost\n"), nil, "needs a column mapping"},
		{write("h.xml", "<x/>"), nil, "unknown feed format"},
		{write("i.jsonl", `{"productNumber":"","title":"t"}`), nil, `i.jsonl:1: field "productNumber": is required`},
		{write("j.jsonl", `{"productNumber":"1","title":"t","hierarchies":[["a$b"]]}`), nil, "must not contain $"},
		{filepath.Join(dir, "missing.jsonl"), nil, "missing.jsonl"},
	} {
		_, err := readAll(t, tc.path, tc.mapping)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", filepath.Base(tc.path), err, tc.want)
		}
	}
}

func TestParseCSVMappingErrors(t *testing.T) {
	for doc, want := range map[string]string{
		`{"columns":{}}`: "columns is empty",
		`{"columns":{"productNumber":"a","title":"b","colour":"c"}}`:     `"colour" is not a product field`,
		`{"columns":{"title":"b"}}`:                                      "must map productNumber and title",
		`{"columns":{"productNumber":"a","title":"b"},"extra":1}`:        "unknown field",
		`{"columns":{"productNumber":"a","title":"b","extraData.":"c"}}`: "is not a product field",
	} {
		if _, err := ParseCSVMapping([]byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseCSVMapping(%s) = %v, want %q", doc, err, want)
		}
	}
	if _, err := BuiltinMapping("nope"); err == nil || !strings.Contains(err.Error(), "flipkart, homedepot") {
		t.Errorf("unknown builtin: %v", err)
	}
}

func TestFormatPrice(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		cur  string
		want string
	}{
		{1299, "USD", "$1,299.00"}, {1299, "EUR", "1.299,00 €"}, {1299.5, "DKK", "1.299,50 kr."},
		{1234567.891, "INR", "₹1,234,567.89"}, {5, "", "5.00"}, {99, "CHF", "99.00 CHF"}, {100, "GBP", "£100.00"},
	} {
		if got := FormatPrice(tc.v, tc.cur); got != tc.want {
			t.Errorf("FormatPrice(%v,%s) = %q, want %q", tc.v, tc.cur, got, tc.want)
		}
	}
}

func TestRealCatalogs(t *testing.T) {
	data := datasets.SkipOrDir(t)
	fk, _ := BuiltinMapping("flipkart")
	ps, err := readAll(t, filepath.Join(data, "flipkart", "products.csv"), fk)
	if err != nil || len(ps) != 20000 {
		t.Fatalf("flipkart: %d products, %v", len(ps), err)
	}
	p := ps[0]
	if p.Title != "Alisha Solid Women's Cycling Shorts" || p.Brand != "Alisha" || p.Price != 379 || p.PreviousPrice != 999 ||
		fmt.Sprint(p.Hierarchies) != "[[Clothing Women's Clothing Lingerie, Sleep & Swimwear Shorts Alisha Shorts]]" {
		t.Errorf("flipkart row 1: %+v", p)
	}
	hd, _ := BuiltinMapping("homedepot")
	ps, err = readAll(t, filepath.Join(data, "homedepot", "products.csv"), hd)
	if err != nil || len(ps) != 54667 {
		t.Fatalf("homedepot: %d products, %v", len(ps), err)
	}
	if ps[0].ProductNumber != "100001" || ps[0].Title != "Simpson Strong-Tie 12-Gauge Angle" {
		t.Errorf("homedepot row 1: %+v", ps[0])
	}
}

func FuzzReadJSONL(f *testing.F) {
	f.Add([]byte(`{"productNumber":"1","title":"t","price":1}` + "\n\n" + `{"productNumber":"2"}`))
	f.Add([]byte(`{"hierarchies":[["a","b"]],"extraData":{"x":"y"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = Read(strings.NewReader(string(data)), ReadOptions{Format: FormatJSONL}, func(p *Product) error {
			p.Normalize()
			_ = p.Validate()
			return nil
		})
	})
}

func FuzzReadCSV(f *testing.F) {
	f.Add([]byte("sku,name,cost,cat\n1,t,2.5,a > b\n"))
	f.Add([]byte("sku,name\n\"unterminated\n"))
	m := &CSVMapping{Name: "f", Columns: map[string]string{"productNumber": "sku", "title": "name", "price": "cost", "hierarchies": "cat"}, HierarchySeparator: " > ", HierarchyDropLast: true}
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = Read(strings.NewReader(string(data)), ReadOptions{Format: FormatCSV, Mapping: m}, func(p *Product) error {
			p.Normalize()
			_ = p.Validate()
			return nil
		})
	})
}

func FuzzParseCSVMapping(f *testing.F) {
	f.Add([]byte(`{"columns":{"productNumber":"a","title":"b"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseCSVMapping(data)
		if err == nil && (m.Columns["productNumber"] == "" || m.Columns["title"] == "") {
			t.Fatal("accepted a mapping without productNumber and title")
		}
	})
}

func BenchmarkReadJSONL(b *testing.B) {
	var sb strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&sb, `{"productNumber":"P%d","title":"Cordless Drill %d","price":%d.99,"brand":"Voltmax","hierarchies":[["Tools","Power Tools","Drills"]],"extraData":{"color":"Red","size":"M"},"description":"A compact drill for everyday work."}`+"\n", i, i, i%500)
	}
	data := sb.String()
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		n := 0
		if err := Read(strings.NewReader(data), ReadOptions{Format: FormatJSONL}, func(*Product) error { n++; return nil }); err != nil || n != 10000 {
			b.Fatal(err, n)
		}
	}
	b.ReportMetric(float64(b.N)*10000/b.Elapsed().Seconds(), "products/s")
}
