package live

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"testing"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/store"
)

// benchLive imports n demo products into a store and serves them live.
func benchLive(b *testing.B, n int) (*store.Store, *Writer, *config.Website) {
	b.Helper()
	st, err := store.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	cfg := demo.Config()
	w := &cfg.Websites[0]
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	g, _, err := Import(st, w, w.Lang(""), func(fn func(*catalog.Product) error) error { return demo.Each(n, 42, fn) }, quiet, nil)
	if err != nil {
		b.Fatal(err)
	}
	eng := engine.New("", g)
	live := New(st, eng, "", quiet)
	b.Cleanup(live.Close)
	return st, live, w
}

// BenchmarkLivePriceUpdate: one partial update setting one product's
// price, through Live (append, synced, and the column update), at
// 100,000 demo products; and a batch of 10,000. AISLE_BENCH_MILLION=1:
// at 1,000,000, a batch of 100 (as aisle bench --live sends) and one of
// 100,000.
func BenchmarkLivePriceUpdate(b *testing.B) {
	n, sizes := 100000, []int{1, 10000}
	if os.Getenv("AISLE_BENCH_MILLION") != "" { // the 100,000 of 1,000,000
		n, sizes = 1000000, []int{1, 100, 100000}
	}
	_, live, w := benchLive(b, n)
	var numbers []string
	demo.Each(n, 42, func(p *catalog.Product) error { numbers = append(numbers, p.ProductNumber); return nil })
	price := 1000 // every update sets a price no product had: never a no-op
	for _, size := range sizes {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				patches := make([][]byte, size)
				for i := range patches {
					price++
					patches[i] = fmt.Appendf(nil, `{"productNumber":"%s","price":%d}`, numbers[(i*7919+price)%n], price)
				}
				if _, _, err := live.PatchProducts(w.UUID, patches, func(int) string { return "" }, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLiveNewProduct: one new product through Live (append, synced,
// and index.WithDocs), then one product renamed (its doc replaced), at
// 100,000 demo products; AISLE_BENCH_MILLION=1: at 1,000,000.
func BenchmarkLiveNewProduct(b *testing.B) {
	n := 100000
	if os.Getenv("AISLE_BENCH_MILLION") != "" {
		n = 1000000
	}
	_, live, w := benchLive(b, n)
	var numbers []string
	demo.Each(n, 42, func(p *catalog.Product) error { numbers = append(numbers, p.ProductNumber); return nil })
	i := 0
	b.Run("new", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			i++
			var bt store.Batch
			bt.PutProduct(&catalog.Product{ProductNumber: fmt.Sprintf("NEW-%07d", i), Title: fmt.Sprintf("Bench lamp %d", i), Price: 10})
			if _, err := live.Apply(w.UUID, &bt); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("renamed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			i++
			patch := fmt.Appendf(nil, `{"productNumber":"%s","title":"Renamed thing %d"}`, numbers[(i*7919)%n], i)
			if _, _, err := live.PatchProducts(w.UUID, [][]byte{patch}, func(int) string { return "" }, false); err != nil {
				b.Fatal(err)
			}
		}
	})
}
