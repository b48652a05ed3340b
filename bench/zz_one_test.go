package bench

import (
	"testing"
	"os"

	"github.com/goccy/go-json"
	"github.com/aisle-search/aisle/engine"
)

func BenchmarkZZOne(b *testing.B) {
	g, _ := benchCatalog(b)
	var req engine.SearchRequest
	if err := json.Unmarshal([]byte(os.Getenv("ZZ_BODY")), &req); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := g.Search(&req); err != nil {
			b.Fatal(err)
		}
	}
}
