package catalog

import (
	"bytes"
	"encoding/csv"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

// checkProduct is what every fuzz target asks of a product Read returns:
// Normalize and Validate run on it without panicking.
func checkProduct(p *Product) error {
	p.Normalize()
	_ = p.Validate()
	return nil
}

func addFile(f *testing.F, path string) {
	if b, err := os.ReadFile(path); err == nil {
		f.Add(b)
	}
}

func FuzzReadJSONL(f *testing.F) {
	addFile(f, "testdata/products.jsonl")
	addFile(f, "testdata/lines.json")
	f.Add([]byte(`{"productNumber":"1","title":"t","price":1}` + "\n\n" + `{"productNumber":"2"}`))
	f.Add([]byte(`{"hierarchies":[["a","b$"]],"extraData":{"x.y":"y"},"extraDataNumber":{"n":1e308},"created":"2024-01-01T00:00:00Z"}`))
	f.Add([]byte("\xef\xbb\xbf{\"title\":\"\\u00e9\"}\r\n \t\r\n{\"price\":-1}"))
	f.Add([]byte(`{"productNumber":"1" "x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		n := 0
		err := Read(bytes.NewReader(data), ReadOptions{Format: FormatJSONL}, func(p *Product) error { n++; return checkProduct(p) })
		if err != nil {
			if !strings.HasPrefix(err.Error(), "feed:") {
				t.Errorf("error without the file and line: %v", err)
			}
			return
		}
		// Every line with more than white space is one product.
		lines := 0
		for line := range bytes.SplitSeq(bytes.TrimPrefix(data, utf8BOM), []byte{'\n'}) {
			if len(bytes.TrimLeft(bytes.TrimRight(line, "\r"), " \t\r")) > 0 {
				lines++
			}
		}
		if n != lines {
			t.Errorf("%d products from %d lines", n, lines)
		}
	})
}

func FuzzReadJSON(f *testing.F) {
	addFile(f, "testdata/products.json")
	f.Add([]byte(`[{"productNumber":"1","title":"t"},{"price":"x"}]`))
	f.Add([]byte("[\n]\n"))
	f.Add([]byte(`[{"a":1}] x`))
	f.Fuzz(func(t *testing.T, data []byte) {
		err := Read(bytes.NewReader(data), ReadOptions{Format: FormatJSON}, checkProduct)
		if err != nil && !strings.HasPrefix(err.Error(), "feed:") {
			t.Errorf("error without the file: %v", err)
		}
	})
}

func FuzzReadCSV(f *testing.F) {
	addFile(f, "testdata/products.csv")
	f.Add([]byte("sku,name,cost,cat,stock,added,n,tags\n1,t,2.5,a > b,yes,2024-01-01,x,a|b\n"))
	f.Add([]byte("sku,name\n\"unterminated\n"))
	f.Add([]byte("sku,name,cost\n1,t\n"))
	f.Add([]byte("\xef\xbb\xbfsku,name,sku\n"))
	m := &CSVMapping{Name: "f", Columns: map[string]string{"productNumber": "sku", "title": "name", "price": "cost",
		"hierarchies": "cat", "inStock": "stock", "created": "added", "extraDataNumber.n": "n", "extraDataList.tags": "tags"},
		HierarchySeparator: " > ", HierarchyDropLast: true, Defaults: map[string]string{"currency": "EUR"}}
	lenient := *m
	lenient.LenientNumbers = true
	fixed := *testMapping(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, m := range []*CSVMapping{m, &lenient, &fixed} {
			err := Read(bytes.NewReader(data), ReadOptions{Format: FormatCSV, Mapping: m}, checkProduct)
			if err != nil && !strings.HasPrefix(err.Error(), "feed") {
				t.Errorf("error without the file: %v", err)
			}
		}
	})
}

func FuzzParseCSVMapping(f *testing.F) {
	addFile(f, "testdata/mapping.json")
	f.Add([]byte(`{"columns":{"productNumber":"a","title":"b"}}`))
	f.Add([]byte(`{"columns":{"productNumber":"a","title":"a","hierarchies":"c","extraDataList.x":"d"},"hierarchySeparator":"/","hierarchyDropLast":true,"defaults":{"inStock":"1","created":"2024-01-01"}}`))
	f.Add([]byte(`{"columns":{"productNumber":"a","title":"b"},"defaults":{"price":"x"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseCSVMapping(data)
		if err != nil {
			if m != nil || !strings.HasPrefix(err.Error(), "mapping") {
				t.Errorf("ParseCSVMapping = %v, %v", m, err)
			}
			return
		}
		if m.Columns["productNumber"] == "" || m.Columns["title"] == "" {
			t.Fatal("accepted a mapping without productNumber and title")
		}
		if err := m.validate(); err != nil {
			t.Fatalf("a parsed mapping fails validation: %v", err)
		}
		// Read a file with the mapping's own columns, filled with their names.
		header := slices.Sorted(maps.Keys(maps.Collect(func(yield func(string, bool) bool) {
			for _, c := range m.Columns {
				if !yield(strings.TrimSpace(c), true) {
					return
				}
			}
		})))
		var b bytes.Buffer
		w := csv.NewWriter(&b)
		_ = w.Write(header)
		_ = w.Write(header)
		w.Flush()
		_ = Read(&b, ReadOptions{Format: FormatCSV, Mapping: m}, checkProduct)
	})
}
