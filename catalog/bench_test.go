package catalog

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/datasets"
)

const benchProducts = 10_000

// benchJSONL is benchProducts product lines shaped like a shop's feed.
func benchJSONL() []byte {
	var b bytes.Buffer
	for i := range benchProducts {
		fmt.Fprintf(&b, `{"productNumber":"P%d","title":"Cordless Drill %d","url":"https://shop.example/p/%d","imgUrl":"https://shop.example/i/%d.jpg","currency":"USD","price":%d.99,"previousPrice":%d.99,"inStock":true,"brand":"Voltmax","hierarchies":[["Tools","Power Tools","Drills"]],"extraData":{"color":"Red","size":"M"},"extraDataNumber":{"rating":4.5},"description":"A compact drill for everyday work, with two batteries and a case.","created":"2024-05-01T10:00:00Z"}`+"\n",
			i, i, i, i, i%500, i%500+20)
	}
	return b.Bytes()
}

func benchRead(b *testing.B, data []byte, opt ReadOptions, want int) {
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		n := 0
		if err := Read(bytes.NewReader(data), opt, func(*Product) error { n++; return nil }); err != nil || n != want {
			b.Fatal(err, n)
		}
	}
	b.ReportMetric(float64(b.N)*float64(want)/b.Elapsed().Seconds(), "products/s")
}

func BenchmarkReadJSONL(b *testing.B) {
	benchRead(b, benchJSONL(), ReadOptions{Format: FormatJSONL}, benchProducts)
}

func BenchmarkReadJSON(b *testing.B) {
	lines := bytes.Split(bytes.TrimSpace(benchJSONL()), []byte{'\n'})
	data := append(append([]byte("[\n"), bytes.Join(lines, []byte(",\n"))...), "\n]\n"...)
	benchRead(b, data, ReadOptions{Format: FormatJSON}, benchProducts)
}

func BenchmarkReadCSV(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("sku,name,url,price,old,stock,brand,category,color,rating,description,added\n")
	for i := range benchProducts {
		fmt.Fprintf(&sb, "P%d,Cordless Drill %d,https://shop.example/p/%d,%d.99,%d.99,yes,Voltmax,Tools > Power Tools > Drills,Red,4.5,\"A compact drill, with two batteries.\",2024-05-01\n", i, i, i, i%500, i%500+20)
	}
	m := &CSVMapping{Name: "bench", Columns: map[string]string{"productNumber": "sku", "title": "name", "url": "url", "price": "price",
		"previousPrice": "old", "inStock": "stock", "brand": "brand", "hierarchies": "category", "extraData.color": "color",
		"extraDataNumber.rating": "rating", "description": "description", "created": "added"},
		HierarchySeparator: " > ", Defaults: map[string]string{"currency": "USD"}}
	benchRead(b, []byte(sb.String()), ReadOptions{Format: FormatCSV, Mapping: m}, benchProducts)
}

// BenchmarkReadFlipkart reads the real Flipkart catalog when it is there.
func BenchmarkReadFlipkart(b *testing.B) {
	data, err := os.ReadFile(datasets.SkipOrFile(b, "flipkart/products.csv"))
	if err != nil {
		b.Fatal(err)
	}
	m, _ := BuiltinMapping("flipkart")
	benchRead(b, data, ReadOptions{Format: FormatCSV, Mapping: m}, 20000)
}
