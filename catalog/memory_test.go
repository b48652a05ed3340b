package catalog

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// generatedFeed is a feed of n products written as it is read, so a test
// can read a feed much larger than what the reader may keep in memory
// without holding the feed itself.
type generatedFeed struct {
	format Format
	n, i   int // products, and the next piece: 0 the header, n+1 the trailer
	desc   string
	buf    []byte
}

func newGeneratedFeed(format Format, n int) *generatedFeed {
	return &generatedFeed{format: format, n: n, desc: strings.Repeat("a long description ", 50)}
}

func (g *generatedFeed) piece(i int) string {
	switch {
	case i == 0 && g.format == FormatJSON:
		return "[\n"
	case i == 0 && g.format == FormatCSV:
		return "sku,name,text\n"
	case i == g.n+1 && g.format == FormatJSON:
		return "\n]\n"
	case i == 0 || i == g.n+1:
		return ""
	case g.format == FormatCSV:
		return fmt.Sprintf("P%d,Product %d,%s\n", i, i, g.desc)
	}
	p := fmt.Sprintf(`{"productNumber":"P%d","title":"Product %d","description":%q}`, i, i, g.desc)
	if g.format == FormatJSON && i < g.n {
		return "  " + p + ",\n"
	}
	return p + "\n"
}

func (g *generatedFeed) Read(p []byte) (int, error) {
	for len(g.buf) == 0 {
		if g.i > g.n+1 {
			return 0, io.EOF
		}
		g.buf = append(g.buf[:0], g.piece(g.i)...)
		g.i++
	}
	n := copy(p, g.buf)
	g.buf = g.buf[n:]
	return n, nil
}

// liveHeap is the heap in use after a collection.
func liveHeap() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// TestReadConstantMemory: catalog/feed.go, Read "streams products ... so a
// feed of any size is imported in constant memory". Each format reads a
// 6 MB feed; the live heap at the last product may exceed the one at the
// 1,000th (when every buffer is allocated) by a quarter of the feed read
// in between, at most (it grows by a few KB). A JSON array's line tracker
// that kept every byte it passed to the decoder would hold all 5 MB.
func TestReadConstantMemory(t *testing.T) {
	const n = 6000 // products of about 1 KB
	m := &CSVMapping{Columns: map[string]string{"productNumber": "sku", "title": "name", "description": "text"}}
	for _, format := range []Format{FormatJSONL, FormatJSON, FormatCSV} {
		t.Run(string(format), func(t *testing.T) {
			feed := newGeneratedFeed(format, n)
			var count int
			var early, late int64
			err := Read(feed, ReadOptions{Format: format, Mapping: m}, func(p *Product) error {
				count++
				switch count {
				case 1000:
					early = liveHeap()
				case n:
					late = liveHeap()
				}
				if want := fmt.Sprintf("P%d", count); p.ProductNumber != want {
					return fmt.Errorf("product %d is %q, want %q", count, p.ProductNumber, want)
				}
				return nil
			})
			if err != nil || count != n {
				t.Fatalf("read %d of %d products: %v", count, n, err)
			}
			read := int64(n-1000) * int64(len(feed.piece(n)))
			if grown := late - early; grown > read/4 {
				t.Errorf("the live heap grew by %d bytes while %d bytes of feed were read", grown, read)
			}
		})
	}
}
