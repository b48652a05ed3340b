package catalog

import (
	"bytes"
	"encoding/csv"
	stdjson "encoding/json"
	"errors"
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/internal/expect"
)

// checkProduct is what every fuzz target asks of a product Read returns,
// after Normalize: Validate either refuses it naming a product member, or
// accepts it, and then Normalize changes nothing more and the product
// round-trips through the JSON Aisle stores (encoded, read back as a feed
// line, normalized and validated again, encoded the same).
func checkProduct(t *testing.T, p *Product) {
	t.Helper()
	p.Normalize()
	if err := p.Validate(); err != nil {
		fe, ok := errors.AsType[*FieldError](err)
		if !ok {
			t.Fatalf("Validate error %v is no FieldError", err)
		}
		member := strings.FieldsFunc(fe.Field, func(r rune) bool { return r == '.' || r == '[' })
		if len(member) == 0 || !slices.Contains(productFields, member[0]) {
			t.Fatalf("Validate error names %q, no product member", fe.Field)
		}
		return
	}
	enc, err := json.Marshal(p)
	if err != nil {
		t.Fatalf("encode a valid product: %v", err)
	}
	again := *p
	again.Normalize()
	if b, _ := json.Marshal(&again); !bytes.Equal(b, enc) {
		t.Fatalf("Normalize is not idempotent:\n%s\n%s", enc, b)
	}
	var back []*Product
	if err := Read(bytes.NewReader(enc), ReadOptions{Format: FormatJSONL}, func(q *Product) error { back = append(back, q); return nil }); err != nil || len(back) != 1 {
		t.Fatalf("the encoded product reads back as %d products, %v:\n%s", len(back), err, enc)
	}
	q := back[0]
	q.Normalize()
	if err := q.Validate(); err != nil {
		t.Fatalf("read back, the product is refused: %v\n%s", err, enc)
	}
	if b, _ := json.Marshal(q); !sameJSON(b, enc) || !expect.SameAfterJSON(p, q) {
		t.Fatalf("read back, the product changed:\n%+v\n%+v", p, q)
	}
}

// sameJSON reports whether two JSON documents hold the same values,
// whatever their escapes: the encoder writes a byte that is not UTF-8 as
// \ufffd, and the replacement character read back is written as it is.
func sameJSON(a, b []byte) bool {
	var va, vb any
	return stdjson.Unmarshal(a, &va) == nil && stdjson.Unmarshal(b, &vb) == nil && reflect.DeepEqual(va, vb)
}

// collect is a Read callback that checks and keeps every product.
func collect(t *testing.T, out *[]*Product) func(*Product) error {
	return func(p *Product) error {
		checkProduct(t, p)
		*out = append(*out, p)
		return nil
	}
}

// addFile adds a testdata file to the seed corpus.
func addFile(f *testing.F, path string) {
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
}

// feedError is the start of every error Read returns for a feed named
// "feed": the name, then a line number or a colon.
var feedError = regexp.MustCompile(`^feed(:\d+)?: `)

func FuzzReadJSONL(f *testing.F) {
	addFile(f, "testdata/products.jsonl")
	addFile(f, "testdata/lines.json")
	f.Add([]byte(`{"productNumber":"1","title":"t","price":1}` + "\n\n" + `{"productNumber":"2"}`))
	f.Add([]byte(`{"hierarchies":[["a","b$"]],"extraData":{"x.y":"y"},"extraDataNumber":{"n":1e308},"created":"2024-01-01T00:00:00Z"}`))
	f.Add([]byte("\xef\xbb\xbf{\"title\":\"\\u00e9\"}\r\n \t\r\n{\"price\":-1}"))
	f.Add([]byte(`{"productNumber":" 7 ","title":"T\u00fcr \"x\"","price":-0,"previousPrice":2,"created":"2024-05-01T10:00:00+02:00","extraDataNumber":{"n":-0.5e-7},"extraDataList":{"l":[]}}`))
	f.Add([]byte(`{"productNumber":"1","title":"t","price":-1}` + "\n" + `{"productNumber":"2","title":"u","hierarchies":[["a",""]]}`))
	f.Add([]byte(`{"productNumber":"1" "x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var got []*Product
		err := Read(bytes.NewReader(data), ReadOptions{Format: FormatJSONL}, collect(t, &got))
		if err != nil {
			if !feedError.MatchString(err.Error()) {
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
		if len(got) != lines {
			t.Errorf("%d products from %d lines", len(got), lines)
		}
	})
}

func FuzzReadJSON(f *testing.F) {
	addFile(f, "testdata/products.json")
	f.Add([]byte(`[{"productNumber":"1","title":"t"},{"price":"x"}]`))
	f.Add([]byte(`[{"productNumber":"1","title":"t"},{"productNumber":"2","title":"u","price":3}]`))
	f.Add([]byte("[\n]\n"))
	f.Add([]byte(`[{"a":1}] x`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var got []*Product
		err := Read(bytes.NewReader(data), ReadOptions{Format: FormatJSON}, collect(t, &got))
		if err != nil {
			if !feedError.MatchString(err.Error()) {
				t.Errorf("error without the file: %v", err)
			}
			return
		}
		// One product per element of the array.
		var elems []json.RawMessage
		if err := json.Unmarshal(bytes.TrimPrefix(data, utf8BOM), &elems); err != nil {
			t.Fatalf("Read accepted what is no JSON array: %v", err)
		}
		if len(got) != len(elems) {
			t.Errorf("%d products from an array of %d", len(got), len(elems))
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
			var got []*Product
			err := Read(bytes.NewReader(data), ReadOptions{Format: FormatCSV, Mapping: m}, collect(t, &got))
			if err != nil {
				if !feedError.MatchString(err.Error()) {
					t.Errorf("error without the file: %v", err)
				}
				continue
			}
			// One product per record after the header.
			records, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, utf8BOM))).ReadAll()
			if err != nil || len(records) == 0 {
				t.Fatalf("Read accepted a file encoding/csv refuses: %v", err)
			}
			if len(got) != len(records)-1 {
				t.Errorf("%d products from %d records", len(got), len(records)-1)
			}
		}
	})
}

// stringDefaults are the product fields a mapping default sets as text.
var stringDefaults = map[string]func(*Product) string{
	"url": func(p *Product) string { return p.URL }, "imgUrl": func(p *Product) string { return p.ImgURL },
	"currency": func(p *Product) string { return p.Currency }, "description": func(p *Product) string { return p.Description },
	"keywords": func(p *Product) string { return p.Keywords }, "brand": func(p *Product) string { return p.Brand },
	"groupingKey": func(p *Product) string { return p.GroupingKey },
}

func FuzzParseCSVMapping(f *testing.F) {
	addFile(f, "testdata/mapping.json")
	f.Add([]byte(`{"columns":{"productNumber":"a","title":"b"}}`))
	f.Add([]byte(`{"columns":{"productNumber":"a","title":"a","hierarchies":"c","extraDataList.x":"d"},"hierarchySeparator":"/","hierarchyDropLast":true,"defaults":{"inStock":"1","created":"2024-01-01"}}`))
	f.Add([]byte(`{"columns":{"productNumber":"a","title":"b"},"defaults":{"price":"x"}}`))
	f.Add([]byte(`{"columns":{"productNumber":" a ","title":"b, \"c\""},"defaults":{"brand":" House ","currency":"EUR","isOnSale":"yes","url":"u"}}`))
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
		// Read a file with the mapping's own columns, its one row filled
		// with their names.
		header := slices.Sorted(maps.Keys(maps.Collect(func(yield func(string, bool) bool) {
			for _, c := range m.Columns {
				if !yield(strings.TrimSpace(c), true) {
					return
				}
			}
		})))
		for _, h := range header {
			if strings.Contains(h, "\r") || strings.HasPrefix(h, string(utf8BOM)) {
				return // encoding/csv reads "\r\n" in a field as "\n", and Read drops a leading BOM
			}
		}
		var b bytes.Buffer
		w := csv.NewWriter(&b)
		_ = w.Write(header)
		_ = w.Write(header)
		w.Flush()
		var got []*Product
		err = Read(&b, ReadOptions{Format: FormatCSV, Mapping: m}, collect(t, &got))
		if err != nil {
			// Only a cell the field cannot take (a name that is no number,
			// boolean or date) may fail, naming its line and column.
			if !strings.HasPrefix(err.Error(), "feed:2: record 1: column ") {
				t.Fatalf("reading the mapping's own columns: %v", err)
			}
			return
		}
		if len(got) != 1 {
			t.Fatalf("%d products from one row", len(got))
		}
		p := got[0]
		if p.ProductNumber != strings.TrimSpace(m.Columns["productNumber"]) || p.Title != strings.TrimSpace(m.Columns["title"]) {
			t.Fatalf("product %q %q, want the cells %q %q", p.ProductNumber, p.Title, m.Columns["productNumber"], m.Columns["title"])
		}
		// Defaults fill the fields without a column.
		for field, def := range m.Defaults {
			if _, mapped := m.Columns[field]; mapped || strings.TrimSpace(def) == "" {
				continue
			}
			if get, ok := stringDefaults[field]; ok && get(p) != strings.TrimSpace(def) {
				t.Fatalf("default %s %q not applied: %q", field, def, get(p))
			}
			want, _ := parseBool(strings.TrimSpace(def))
			if field == "inStock" && p.InStock != want || field == "isOnSale" && p.IsOnSale != (want || p.PriceLowered) {
				t.Fatalf("default %s %q not applied: %+v", field, def, p)
			}
		}
	})
}
