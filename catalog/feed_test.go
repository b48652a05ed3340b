package catalog

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// readFile reads a feed with ReadFile, checks every product passes
// Validate and that progress ended at the file's size.
func readFile(t *testing.T, path string, m *CSVMapping) ([]*Product, error) {
	t.Helper()
	var out []*Product
	var last int64
	err := ReadFile(path, m, func(n int64) { last = n }, func(p *Product) error {
		if err := p.Validate(); err != nil {
			return err
		}
		out = append(out, p)
		return nil
	})
	if err == nil {
		if fi, _ := os.Stat(path); last != fi.Size() {
			t.Errorf("%s: progress ended at %d of %d bytes", path, last, fi.Size())
		}
	}
	return out, err
}

func testMapping(t testing.TB) *CSVMapping {
	t.Helper()
	b, err := os.ReadFile("testdata/mapping.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseCSVMapping(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestDetectFormat(t *testing.T) {
	for _, tc := range []struct {
		name, head string
		want       Format
		err        string
	}{
		{"a.jsonl", "", FormatJSONL, ""},
		{"dir/A.NDJSON", "[", FormatJSONL, ""},
		{"a.json", "[{}]", FormatJSON, ""},
		{"a.json", " \n\t[", FormatJSON, ""},
		{"a.json", "", FormatJSON, ""},
		{"a.json", "\n  {\"productNumber\":1}", FormatJSONL, ""},
		{"a.json", "\xef\xbb\xbf{", FormatJSONL, ""},
		{"a.csv", "{", FormatCSV, ""},
		{"a.xml", "<x/>", "", `a.xml: unknown feed format ".xml": name the file .jsonl, .ndjson, .json or .csv`},
		{"feed", "{", "", `unknown feed format ""`},
	} {
		got, err := DetectFormat(tc.name, []byte(tc.head))
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("DetectFormat(%q, %q) = %q, %v; want %q, %q", tc.name, tc.head, got, err, tc.want, tc.err)
		}
	}
}

func TestReadFormats(t *testing.T) {
	day := func(y, m, d, h, min int) time.Time { return time.Date(y, time.Month(m), d, h, min, 0, 0, time.UTC) }
	for _, tc := range []struct {
		file    string
		mapping *CSVMapping
		want    []*Product
	}{
		{"products.jsonl", nil, []*Product{
			{ProductNumber: "A1", Title: "Cordless Drill", Price: 99.5, Currency: "USD", Hierarchies: [][]string{{"Tools", "Drills"}}, ExtraData: map[string]string{"color": "Red"}},
			{ProductNumber: "A2", Title: "Table Lamp", Price: 1299, PreviousPrice: 1499, Currency: "EUR", InStock: true, Created: day(2024, 5, 1, 10, 0)},
			{ProductNumber: "A3", Title: "Hose", Price: 5, Currency: "DKK", ExtraDataList: map[string][]string{"tags": {"eco"}}, ExtraDataNumber: map[string]float64{"rating": 4}},
		}},
		{"products.json", nil, []*Product{
			{ProductNumber: "B1", Title: "Sofa", Price: 500, ExtraDataNumber: map[string]float64{"rating": 4.5}},
			{ProductNumber: "B2", Title: "Couch", Price: 450, PreviousPrice: 450, IsOnSale: true, ExtraDataList: map[string][]string{"tags": {"new", "eco"}}},
		}},
		{"lines.json", nil, []*Product{ // a .json file of lines is read as JSONL
			{ProductNumber: "C1", Title: "Mug", Price: 3},
			{ProductNumber: "C2", Title: "Cup", Price: 2.5, Currency: "GBP"},
		}},
		{"products.csv", testMapping(t), []*Product{
			{ProductNumber: "S1", Title: "Garden Hose", Price: 19.99, PreviousPrice: 24.99, Currency: "DKK", InStock: true,
				Hierarchies: [][]string{{"Garden", "Watering", "Hoses"}}, Created: day(2024, 3, 1, 0, 0),
				ExtraData: map[string]string{"color": "Green"}, ExtraDataList: map[string][]string{"tags": {"eco", "new"}}, ExtraDataNumber: map[string]float64{"rating": 4.5}},
			{ProductNumber: "S2", Title: "Rake, Steel", Price: 12, Currency: "DKK", Hierarchies: [][]string{{"Garden", "Tools"}}, Created: day(2024, 3, 2, 10, 0)},
			{ProductNumber: "S3", Title: "Trowel\n(hand)", Price: 7.5, PreviousPrice: 7.5, Currency: "DKK", InStock: true,
				Hierarchies: [][]string{{"Garden"}}, Created: day(2024, 3, 3, 6, 30)},
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got, err := readFile(t, filepath.Join("testdata", tc.file), tc.mapping)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d products, want %d", len(got), len(tc.want))
			}
			for i := range got {
				if !reflect.DeepEqual(got[i], tc.want[i]) {
					t.Errorf("product %d:\n got %+v\nwant %+v", i+1, *got[i], *tc.want[i])
				}
			}
		})
	}
}

var errStop = errors.New("stop")

func TestReadErrors(t *testing.T) {
	csvMap := &CSVMapping{Name: "m", Columns: map[string]string{"productNumber": "sku", "title": "name", "price": "cost",
		"inStock": "stock", "created": "added", "extraDataNumber.r": "rating"}}
	const csvHead = "sku,name,cost,stock,added,rating\n"
	const good = `{"productNumber":"1","title":"t"}`
	for _, tc := range []struct {
		name   string
		format Format
		in     string
		want   string
	}{
		// JSONL: the line number counts blank lines.
		{"f.jsonl", FormatJSONL, good + "\n\n{\"productNumber\":\n", `f.jsonl:3: malformed JSON`},
		{"f.jsonl", FormatJSONL, `{"productNumber":"1" "x"}`, `f.jsonl:1: malformed JSON at column 22: invalid character '"' after object key:value pair`},
		{"f.jsonl", FormatJSONL, good + ` {"productNumber":"2"}`, `f.jsonl:1: malformed JSON`},
		{"products.jsonl", FormatJSONL, strings.Repeat(good+"\n", 16) + `{"productNumber":"1","title":"t","price":"cheap"}`, `products.jsonl:17: field "price": expected number, got string`},
		{"f.jsonl", FormatJSONL, `{"productNumber":"1","title":"t","colour":"red"}`, `f.jsonl:1: unknown field "colour"`},
		{"f.jsonl", FormatJSONL, `{"productNumber":"1","title":"t","prise":1}`, `f.jsonl:1: unknown field "prise" (did you mean "price"?)`},
		{"f.jsonl", FormatJSONL, `{"productNumber":1}`, `f.jsonl:1: field "productNumber": expected string, got number`},
		{"f.jsonl", FormatJSONL, `{"inStock":"yes"}`, `field "inStock": expected boolean, got string`},
		{"f.jsonl", FormatJSONL, `{"hierarchies":[["a",1]]}`, `field "hierarchies[0][1]": expected string, got number`},
		{"f.jsonl", FormatJSONL, `{"hierarchies":"a"}`, `field "hierarchies": expected array of arrays of strings, got string`},
		{"f.jsonl", FormatJSONL, `{"extraDataNumber":{"rating":"x"}}`, `field "extraDataNumber.rating": expected number, got string`},
		{"f.jsonl", FormatJSONL, `{"extraData":[]}`, `field "extraData": expected object of strings, got array`},
		{"f.jsonl", FormatJSONL, `{"created":"yesterday"}`, `field "created": "yesterday" is not an RFC 3339 time`},
		{"f.jsonl", FormatJSONL, `{"created":5}`, `field "created": expected RFC 3339 time string, got number`},
		{"f.jsonl", FormatJSONL, `{"price":1e999}`, `field "price": number 1e999 is out of range`},
		{"f.jsonl", FormatJSONL, `[1,2]`, `f.jsonl:1: expected product object, got array`},
		{"f.jsonl", FormatJSONL, good + "\n" + good, `f.jsonl:2: stop`},
		// JSON arrays: the line where the product starts, and its number.
		{"f.json", FormatJSON, "[\n " + good + ",\n {\"productNumber\":2}\n]", `f.json:3: product 2: field "productNumber": expected string, got number`},
		{"f.json", FormatJSON, "[\n\n  {\"productNumber\":\"1\",\n   \"colour\":\"red\"}]", `f.json:3: product 1: unknown field "colour"`},
		{"f.json", FormatJSON, "[" + good + ",\n" + good + "]", `f.json:2: product 2: stop`},
		{"f.json", FormatJSON, `{"productNumber":"1"}`, `f.json: expected a JSON array of products, got an object`},
		{"f.json", FormatJSON, `"x"`, `f.json: expected a JSON array of products, got a string`},
		{"f.json", FormatJSON, " \n ", `f.json: empty file: expected a JSON array of products`},
		{"f.json", FormatJSON, "[" + good + "\n", `f.json:2: unexpected end of file: the array is not closed with ]`},
		{"f.json", FormatJSON, "[" + good + ",]", `f.json:1: product 2: malformed JSON`},
		{"f.json", FormatJSON, "[" + good + good + "]", `malformed JSON`},
		{"f.json", FormatJSON, "[" + good + "]\n\n x", `f.json:3: data after the closing ] of the product array`},
		{"f.json", FormatJSON, "[" + good + "]\n[]", `f.json:2: "[" after the closing ]`},
		{"f.json", FormatJSON, "[1]", `f.json:1: product 1: expected product object, got number`},
		// CSV: line and record number, column, field and value.
		{"f.csv", FormatCSV, csvHead + "1,t,abc,,,\n", `f.csv:2: record 1: column "cost", field "price": "abc" is not a number`},
		{"f.csv", FormatCSV, csvHead + "1,t,1,,,\n2,t,NaN,,,\n", `f.csv:3: record 2: column "cost", field "price": "NaN" is not a number`},
		{"f.csv", FormatCSV, csvHead + "1,t,1,maybe,,\n", `f.csv:2: record 1: column "stock", field "inStock": "maybe" is not a boolean`},
		{"f.csv", FormatCSV, csvHead + "1,t,1,,01/02/2024,\n", `f.csv:2: record 1: column "added", field "created": "01/02/2024" is not a date`},
		{"f.csv", FormatCSV, csvHead + "1,t,1,,,n/a\n", `f.csv:2: record 1: column "rating", field "extraDataNumber.r": "n/a" is not a number`},
		{"f.csv", FormatCSV, csvHead + "1,\"multi\nline\",1,,,\n2,t,x,,,\n", `f.csv:4: record 2: column "cost"`},
		{"f.csv", FormatCSV, csvHead + "1,t,1\n", `f.csv:2: record 1: wrong number of columns: the header has 6`},
		{"f.csv", FormatCSV, csvHead + "1,t\"x,1,,,\n", `f.csv:2: record 1: column 4: bare " in non-quoted-field`},
		{"f.csv", FormatCSV, "sku,name\n1,t\n", `f.csv: mapping "m": not in the header: "added" (for created), "rating" (for extraDataNumber.r), "stock" (for inStock), "cost" (for price); the header has "sku", "name"`},
		{"f.csv", FormatCSV, "sku,name,cost,stock,added,rating,cost\n", `f.csv: mapping "m": column "cost" (for price) appears more than once in the header`},
		{"f.csv", FormatCSV, "", `f.csv: empty file: expected a header row`},
		{"f.csv", FormatCSV, csvHead + "1,t,1,,,\n2,t,1,,,\n", `f.csv:3: record 2: stop`},
		{"x", "xml", "<x/>", `x: unknown format "xml" (jsonl, json or csv)`},
		{"", FormatJSONL, "{", `feed:1: malformed JSON`},
	} {
		n := 0
		stop := strings.HasSuffix(tc.want, ": stop")
		err := Read(strings.NewReader(tc.in), ReadOptions{Format: tc.format, Mapping: csvMap, Name: tc.name}, func(*Product) error {
			if n++; stop && n == 2 {
				return errStop
			}
			return nil
		})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q:\n got %v\nwant %q", tc.name, tc.in, err, tc.want)
		}
		if stop && !errors.Is(err, errStop) {
			t.Errorf("%s: fn's error is not wrapped: %v", tc.name, err)
		}
	}
}

func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		path    string
		mapping *CSVMapping
		want    string
	}{
		{write("g.csv", "sku,name\n"), nil, "g.csv: a CSV feed needs a column mapping: pass --mapping NAME or FILE (built in: flipkart, homedepot)"},
		{write("h.xml", "<x/>"), nil, `h.xml: unknown feed format ".xml"`},
		{filepath.Join(dir, "missing.jsonl"), nil, "missing.jsonl: no such file"},
		{write("i.jsonl", `{"productNumber":"","title":"t"}`), nil, `i.jsonl:1: field "productNumber": is required`},
		{write("j.jsonl", `{"productNumber":"1","title":"t","hierarchies":[["a$b"]]}`), nil, `j.jsonl:1: field "hierarchies[0][0]": must not contain $`},
		{write("k.csv", "sku,name\n1,\n"), &CSVMapping{Columns: map[string]string{"productNumber": "sku", "title": "name"}}, `k.csv:2: record 1: field "title": is required`},
		{write("l.csv", "sku,name\n"), &CSVMapping{Columns: map[string]string{"productNumber": "sku"}}, `l.csv: mapping: columns must map productNumber and title (title is missing)`},
	} {
		_, err := readFile(t, tc.path, tc.mapping)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n got %v\nwant %q", filepath.Base(tc.path), err, tc.want)
		}
	}
}

func TestReadByteOrderMark(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	m := &CSVMapping{Columns: map[string]string{"productNumber": "sku", "title": "name"}}
	for _, tc := range []struct {
		format Format
		in     string
	}{
		{FormatJSONL, bom + `{"productNumber":"1","title":"t"}`},
		{FormatJSON, bom + `[{"productNumber":"1","title":"t"}]`},
		{FormatCSV, bom + "sku,name\n1,t\n"},
	} {
		var got []*Product
		err := Read(strings.NewReader(tc.in), ReadOptions{Format: tc.format, Mapping: m}, func(p *Product) error { got = append(got, p); return nil })
		if err != nil || len(got) != 1 || got[0].ProductNumber != "1" || got[0].Title != "t" {
			t.Errorf("%s with a byte order mark: %v %v", tc.format, got, err)
		}
	}
}

// TestReadFreshProducts checks fn may keep the products it is given.
func TestReadFreshProducts(t *testing.T) {
	m := &CSVMapping{Columns: map[string]string{"productNumber": "sku", "title": "name"}}
	for _, tc := range []struct {
		format Format
		in     string
	}{
		{FormatJSONL, "{\"productNumber\":\"1\",\"title\":\"a\"}\n{\"productNumber\":\"2\",\"title\":\"b\"}\n"},
		{FormatJSON, `[{"productNumber":"1","title":"a"},{"productNumber":"2","title":"b"}]`},
		{FormatCSV, "sku,name\n1,a\n2,b\n"},
	} {
		var got []*Product
		if err := Read(strings.NewReader(tc.in), ReadOptions{Format: tc.format, Mapping: m}, func(p *Product) error { got = append(got, p); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0] == got[1] || got[0].ProductNumber != "1" || got[1].Title != "b" {
			t.Errorf("%s: kept products %+v %+v", tc.format, got[0], got[1])
		}
	}
}

// TestReadLongLine reads a JSONL line longer than the read buffer and
// checks the lines after it are still numbered right.
func TestReadLongLine(t *testing.T) {
	desc := strings.Repeat("long description ", 200_000) // 3.4 MB
	in := fmt.Sprintf("{\"productNumber\":\"1\",\"title\":\"t\"}\n{\"productNumber\":\"2\",\"title\":\"t\",\"description\":%q}\n{\"productNumber\":\"3\",\"title\":\"t\"}\n{\"bad\":1}\n", desc)
	var got []*Product
	err := Read(strings.NewReader(in), ReadOptions{Format: FormatJSONL}, func(p *Product) error { got = append(got, p); return nil })
	if err == nil || !strings.Contains(err.Error(), `feed:4: unknown field "bad"`) {
		t.Errorf("error %v, want it at line 4", err)
	}
	if len(got) != 3 || got[1].Description != desc || got[2].ProductNumber != "3" {
		t.Errorf("read %d products around a long line", len(got))
	}
}

// chunkReader returns at most n bytes a read, to exercise buffer refills.
type chunkReader struct {
	r io.Reader
	n int
}

func (c chunkReader) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

// TestJSONArrayLines checks the line numbers of a large array, read in
// small and large pieces, while the decoder refills its buffer many times.
func TestJSONArrayLines(t *testing.T) {
	var b strings.Builder
	b.WriteString("[\n")
	const n, bad = 20000, 15001
	line := 2
	wantLine := 0
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString(",\n")
			line++
		}
		if i == bad {
			wantLine = line
			fmt.Fprintf(&b, "  {\"productNumber\":\"P%d\",\n   \"title\":\"T\",\n   \"price\":\"x\"}", i)
			line += 2
			continue
		}
		if i%3 == 0 { // a product over three lines
			fmt.Fprintf(&b, "  {\n    \"productNumber\": \"P%d\",\n    \"title\": \"Title %d\"}", i, i)
			line += 2
		} else {
			fmt.Fprintf(&b, "  {\"productNumber\":\"P%d\",\"title\":\"Title %d\",\"description\":%q}", i, i, strings.Repeat("x", i%700))
		}
	}
	b.WriteString("\n]\n")
	want := fmt.Sprintf("feed:%d: product %d: field \"price\": expected number, got string", wantLine, bad)
	for _, size := range []int{7, 4096, 1 << 20} {
		count := 0
		err := Read(chunkReader{strings.NewReader(b.String()), size}, ReadOptions{Format: FormatJSON}, func(p *Product) error {
			count++
			if p.ProductNumber != fmt.Sprintf("P%d", count) {
				return fmt.Errorf("product %d is %s", count, p.ProductNumber)
			}
			return nil
		})
		if err == nil || err.Error() != want || count != bad-1 {
			t.Errorf("reads of %d bytes: %d products, error %v\nwant %s", size, count, err, want)
		}
	}
}

// TestReadFileProgress: catalog/feed.go, ReadFile's onBytes "is told the
// bytes read so far at least every MiB and once at the end".
func TestReadFileProgress(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.jsonl")
	var b strings.Builder
	for i := 0; b.Len() < 3_500_000; i++ {
		fmt.Fprintf(&b, "{\"productNumber\":\"P%d\",\"title\":\"Product %d\",\"description\":%q}\n", i, i, strings.Repeat("d", i%400))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var reports []int64
	n := 0
	err := ReadFile(path, nil, func(done int64) { reports = append(reports, done) }, func(*Product) error { n++; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(reports) < 4 {
		t.Errorf("%d reports for %d bytes", len(reports), b.Len())
	}
	checkProgress(t, reports, int64(b.Len()))
	if err := ReadFile(path, nil, nil, func(*Product) error { return nil }); err != nil {
		t.Errorf("without a progress function: %v", err)
	}
}

// TestStrictFlag guards the option flag read from go-json at init: without
// it, unknown members would pass silently.
func TestStrictFlag(t *testing.T) {
	if disallowUnknown.Flags == 0 {
		t.Fatal("go-json's DisallowUnknownFields flag was not found")
	}
	if err := Read(strings.NewReader(`{"productNumber":"1","title":"t","typo":1}`), ReadOptions{Format: FormatJSONL}, func(*Product) error { return nil }); err == nil {
		t.Error("an unknown member passed")
	}
}
