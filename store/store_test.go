package store

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
)

func TestAppendApplyReopen(t *testing.T) {
	dir := t.TempDir()
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b Batch
	for i := range 3 {
		if err := b.PutProduct(&catalog.Product{ProductNumber: fmt.Sprintf("P%d", i), Title: "t", Price: float64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.PutContent(&catalog.Content{Kind: catalog.KindBrand, ID: "b1", Title: "Brand"}); err != nil {
		t.Fatal(err)
	}
	b.SetConfig(config.Default())
	if seq, err := st.Append(&b, true); err != nil || seq != 1 {
		t.Fatalf("append: %d %v", seq, err)
	}
	b.Reset()
	b.DeleteProduct("P1")
	_ = b.PutProduct(&catalog.Product{ProductNumber: "P2", Title: "updated"})
	if seq, err := st.Append(&b, false); err != nil || seq != 2 {
		t.Fatalf("append: %d %v", seq, err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if st.Seq() != 2 {
		t.Fatalf("seq after reopen %d", st.Seq())
	}
	var titles []string
	if err := st.Products(func(p *catalog.Product) error { titles = append(titles, p.ProductNumber+"="+p.Title); return nil }); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(titles) != "[P0=t P2=updated]" {
		t.Fatalf("products %v", titles)
	}
	var content []string
	_ = st.Content(func(c *catalog.Content) error { content = append(content, c.Title); return nil })
	if fmt.Sprint(content) != "[Brand]" {
		t.Fatalf("content %v", content)
	}
	cfg, err := st.Config()
	if err != nil || cfg == nil || cfg.Websites[0].Search[0].Key != config.DefaultKey {
		t.Fatalf("config %v %v", cfg, err)
	}
	var seqs []uint64
	var products []int
	if err := st.Entries(0, func(e *Entry) error {
		seqs = append(seqs, e.Seq)
		products = append(products, len(e.Products))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(seqs, products) != "[1 2] [3 1]" {
		t.Fatalf("log %v %v", seqs, products)
	}
	if n, _ := st.Count(); n != 2 {
		t.Fatalf("count %d", n)
	}
}

func TestSegmentStamp(t *testing.T) {
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, ok, err := st.Stamp("products"); ok || err != nil {
		t.Fatalf("stamp on an empty store: %v %v", ok, err)
	}
	want := SegmentStamp{Seq: 7, Fingerprint: "abc"}
	err = st.SaveSegment("products", want, func(w *SegmentWriter) error {
		for i := range 1000 {
			if err := w.Set([]byte(fmt.Sprintf("%sk%04d", SegmentPrefix("products"), i)), bytes.Repeat([]byte{'v'}, 100)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, ok, err := st.Stamp("products")
	if !ok || err != nil || got != want {
		t.Fatalf("stamp %v %v %v", got, ok, err)
	}
	// Saving again replaces every key.
	_ = st.SaveSegment("products", want, func(w *SegmentWriter) error {
		return w.Set([]byte(SegmentPrefix("products")+"only"), []byte("x"))
	})
	n := 0
	_ = st.Scan([]byte(SegmentPrefix("products")), func(_, _ []byte) error { n++; return nil })
	if n != 1 {
		t.Fatalf("%d keys after replacing the segment, want 1", n)
	}
	// A failed save leaves no stamp, so the next start rebuilds.
	_ = st.SaveSegment("products", want, func(w *SegmentWriter) error { return fmt.Errorf("boom") })
	if _, ok, _ := st.Stamp("products"); ok {
		t.Fatal("a failed save left a stamp")
	}
}

// TestProductWriter writes products in entries of BulkBatch and accounts
// for every product and byte it wrote.
func TestProductWriter(t *testing.T) {
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const n = 2*BulkBatch + 1
	w := st.NewProductWriter()
	var wantBytes int64
	for i := range n {
		p := catalog.Product{ProductNumber: fmt.Sprintf("P%05d", i), Title: "drill"}
		b, _ := json.Marshal(&p)
		wantBytes += int64(len(b))
		if err := w.Put(&p); err != nil {
			t.Fatal(err)
		}
	}
	if st.Seq() != 2 {
		t.Fatalf("%d entries before Close, want 2 full ones", st.Seq())
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var sizes []int
	if err := st.Entries(0, func(e *Entry) error { sizes = append(sizes, len(e.Products)); return nil }); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.Count(); got != n || w.Count != n || w.Bytes != wantBytes || fmt.Sprint(sizes) != fmt.Sprint([]int{BulkBatch, BulkBatch, 1}) {
		t.Fatalf("count %d, written %d, bytes %d (want %d), entries %v", got, w.Count, w.Bytes, wantBytes, sizes)
	}
}
