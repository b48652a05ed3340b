package store

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/cockroachdb/pebble"
)

// TestLogKeysRoundTripInOrder: a log key decodes to its sequence number,
// and keys sort as their numbers do, so a scan from a key reads the log
// in order.
func TestLogKeysRoundTripInOrder(t *testing.T) {
	seqs := []uint64{0, 1, 255, 256, 1 << 32, math.MaxUint64 - 1, math.MaxUint64}
	for i, seq := range seqs {
		k := appendLogKey([]byte("junk"), seq)[len("junk"):]
		got, err := decodeLogKey(k)
		if err != nil || got != seq {
			t.Errorf("decodeLogKey(appendLogKey(%d)) = %d, %v", seq, got, err)
		}
		if i > 0 && bytes.Compare(appendLogKey(nil, seqs[i-1]), k) >= 0 {
			t.Errorf("log key of %d does not sort after %d's", seq, seqs[i-1])
		}
	}
}

// TestDecodeRefusesMalformed: a key or value of the wrong shape is a
// corruption error naming what it read.
func TestDecodeRefusesMalformed(t *testing.T) {
	for _, k := range [][]byte{nil, []byte("l/"), []byte("l/1234567"), []byte("l/123456789"), []byte("p/12345678")} {
		if _, err := decodeLogKey(k); !errors.Is(err, ErrCorrupt) {
			t.Errorf("decodeLogKey(%q) = %v, want a corruption error", k, err)
		}
	}
	for _, v := range [][]byte{nil, {1, 2, 3}, make([]byte, 9)} {
		if _, err := decodeSeq(keySeq, v); !errors.Is(err, ErrCorrupt) || !bytes.Contains([]byte(err.Error()), []byte(keySeq)) {
			t.Errorf("decodeSeq(%v) = %v, want a corruption error naming %s", v, err, keySeq)
		}
	}
}

// TestEventsKeys: an events key reads back its website and entry, sorts
// by website then entry, and a malformed one is a corruption error.
func TestEventsKeys(t *testing.T) {
	const w1, w2 = "00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"
	keys := [][]byte{appendEventsKey(nil, w1, 1), appendEventsKey(nil, w1, 256), appendEventsKey(nil, w2, 0)}
	for i, k := range keys {
		if i > 0 && bytes.Compare(keys[i-1], k) >= 0 {
			t.Errorf("events key %q does not sort after %q", k, keys[i-1])
		}
	}
	if w, seq, err := decodeEventsKey(keys[1]); err != nil || w != w1 || seq != 256 {
		t.Errorf("decodeEventsKey = %q %d %v", w, seq, err)
	}
	for _, k := range [][]byte{nil, []byte("v/"), []byte("v/w"), []byte("v/w12345678"), append([]byte("l/w/"), make([]byte, 8)...)} {
		if _, _, err := decodeEventsKey(k); !errors.Is(err, ErrCorrupt) {
			t.Errorf("decodeEventsKey(%q) = %v, want a corruption error", k, err)
		}
	}
}

// FuzzDecodeLogKey: any bytes either decode to a number whose key is the
// same bytes, or are refused as corrupt; never a panic.
func FuzzDecodeLogKey(f *testing.F) {
	f.Add(appendLogKey(nil, 42))
	f.Add([]byte("l/"))
	f.Add([]byte("x/12345678"))
	f.Fuzz(func(t *testing.T, k []byte) {
		seq, err := decodeLogKey(k)
		switch {
		case err == nil && !bytes.Equal(appendLogKey(nil, seq), k):
			t.Fatalf("%q decodes to %d, whose key is %q", k, seq, appendLogKey(nil, seq))
		case err != nil && !errors.Is(err, ErrCorrupt):
			t.Fatalf("%q: %v is not a corruption error", k, err)
		}
	})
}

// TestProductSeq: ProductSeq is the last entry that added, replaced or
// deleted a product, by Append or by a bulk import; content and
// configuration entries leave it, and it survives a reopen.
func TestProductSeq(t *testing.T) {
	dir := t.TempDir()
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, seq, pseq uint64) {
		t.Helper()
		if st.Seq() != seq || st.ProductSeq(testSite) != pseq {
			t.Errorf("%s: seq %d, product seq %d; want %d, %d", what, st.Seq(), st.ProductSeq(testSite), seq, pseq)
		}
	}
	b := Batch{Website: testSite}
	add := func(what string, fill func(), seq, pseq uint64) {
		t.Helper()
		b.Reset()
		fill()
		if _, err := st.Append(&b, true); err != nil {
			t.Fatal(err)
		}
		check(what, seq, pseq)
	}
	check("empty", 0, 0)
	add("content", func() { b.PutContent(&catalog.Content{Kind: catalog.KindBrand, ID: "b1", Title: "B"}) }, 1, 0)
	add("product", func() { b.PutProduct(&catalog.Product{ProductNumber: "P1", Title: "p"}) }, 2, 2)
	add("config", func() { b.SetConfig(&config.File{}) }, 3, 2)
	add("delete", func() { b.DeleteProduct("P1") }, 4, 4)
	add("content again", func() { b.PutContent(&catalog.Content{Kind: catalog.KindBrand, ID: "b2", Title: "C"}) }, 5, 4)

	bulk := func(what string, products int, cfg bool, seq, pseq uint64) {
		t.Helper()
		w, err := st.NewBulkWriter(testSite)
		if err != nil {
			t.Fatal(err)
		}
		for i := range products {
			if err := w.PutProduct(&catalog.Product{ProductNumber: string(rune('A' + i)), Title: "x"}); err != nil {
				t.Fatal(err)
			}
		}
		if cfg {
			if err := w.SetConfig(&config.File{}); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
		check(what, seq, pseq)
	}
	bulk("bulk configuration only", 0, true, 6, 4)
	bulk("bulk products", 3, false, 7, 7)

	reopen := func() {
		t.Helper()
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		if st, err = Open(dir); err != nil {
			t.Fatal(err)
		}
	}
	reopen()
	check("reopened", 7, 7)
	add("content after reopening", func() { b.PutContent(&catalog.Content{Kind: catalog.KindBrand, ID: "b3", Title: "D"}) }, 8, 7)
	reopen()
	check("reopened after content", 8, 7)

	// Another website's products move only its own sequence.
	other := Batch{Website: "00000000-0000-4000-8000-000000000002"}
	other.PutProduct(&catalog.Product{ProductNumber: "P1", Title: "p"})
	if _, err := st.Append(&other, true); err != nil {
		t.Fatal(err)
	}
	check("another website's product", 9, 7)
	if got := st.ProductSeq(other.Website); got != 9 {
		t.Errorf("the other website's product seq %d, want 9", got)
	}
	reopen()
	check("reopened after another website's product", 9, 7)

	// A product sequence past the log, or a sequence of the wrong size,
	// is a corrupt store.
	for _, tc := range []struct{ key, val []byte }{
		{productSeqKey(testSite), appendSeq(nil, 10)},
		{[]byte(keySeq), []byte{1, 2, 3}},
		{productSeqKey(testSite), []byte{1}},
	} {
		if err := st.pdb().Set(tc.key, tc.val, pebble.Sync); err != nil {
			t.Fatal(err)
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(dir); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("%s = %v: open %v, want a corruption error", tc.key, tc.val, err)
		}
		// Put it right again through pebble itself.
		db, err := pebble.Open(dir, rawOptions())
		if err != nil {
			t.Fatal(err)
		}
		db.Set([]byte(keySeq), appendSeq(nil, 9), pebble.Sync)
		db.Set(productSeqKey(testSite), appendSeq(nil, 8), pebble.Sync)
		db.Close()
		if st, err = Open(dir); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
}

// TestEntriesRefuseMismatchedSeq: a log entry whose JSON names another
// sequence number than its key is a corrupt log, not replayed.
func TestEntriesRefuseMismatchedSeq(t *testing.T) {
	st := openTemp(t)
	b := Batch{Website: testSite}
	b.PutContent(&catalog.Content{Kind: catalog.KindBrand, ID: "b1", Title: "B"})
	if _, err := st.Append(&b, true); err != nil {
		t.Fatal(err)
	}
	if err := st.pdb().Set(appendLogKey(nil, 2), []byte(`{"seq":3}`), pebble.Sync); err != nil {
		t.Fatal(err)
	}
	var seen []uint64
	err := st.Entries(0, func(e *Entry) error { seen = append(seen, e.Seq); return nil })
	if !errors.Is(err, ErrCorrupt) || len(seen) != 1 {
		t.Errorf("entries %v, %v; want entry 1 then a corruption error", seen, err)
	}
	if err := st.pdb().Set(appendLogKey(nil, 2), []byte(`{"seq":`), pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if err := st.Entries(1, func(*Entry) error { return nil }); !errors.Is(err, ErrCorrupt) {
		t.Errorf("an entry that is not JSON: %v, want a corruption error", err)
	}
}

// testSite is the website the tests' batches change.
const testSite = "00000000-0000-4000-8000-000000000001"

// TestOldLayoutRefused: a store written before keys named their website
// (a log, no m/layout) or in a layout this Aisle does not know is refused
// with ErrLayout, saying to import again, and left as it was.
func TestOldLayoutRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		layout []byte // nil: absent
	}{{"layout 1 (no m/layout)", nil}, {"layout 4", appendSeq(nil, 4)}} {
		dir := t.TempDir()
		db, err := pebble.Open(dir, rawOptions())
		if err != nil {
			t.Fatal(err)
		}
		db.Set([]byte(keySeq), appendSeq(nil, 4), pebble.Sync)
		db.Set([]byte("p/SKU-1"), []byte(`{"productNumber":"SKU-1"}`), pebble.Sync)
		if tc.layout != nil {
			db.Set([]byte(keyLayout), tc.layout, pebble.Sync)
		}
		db.Close()
		_, err = Open(dir)
		if !errors.Is(err, ErrLayout) || !bytes.Contains([]byte(err.Error()), []byte("import the catalog again")) {
			t.Errorf("%s: open %v, want ErrLayout saying to import again", tc.name, err)
		}
	}
	// A new store is stamped with Layout, and opens again.
	dir := t.TempDir()
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if st, err = Open(dir); err != nil {
		t.Fatalf("a new store reopened: %v", err)
	}
	st.Close()
}

// TestBatchNamesItsWebsite: products or content without a website are
// refused before anything is written; a configuration alone needs none.
func TestBatchNamesItsWebsite(t *testing.T) {
	st := openTemp(t)
	var b Batch
	b.DeleteProduct("P1")
	if _, err := st.Apply(&b, true); !errors.Is(err, ErrNoWebsite) || st.Seq() != 0 {
		t.Errorf("a delete without a website: %v, seq %d", err, st.Seq())
	}
	if _, err := st.NewBulkWriter(""); !errors.Is(err, ErrNoWebsite) {
		t.Errorf("a bulk write without a website: %v", err)
	}
	var c Batch
	c.SetConfig(&config.File{})
	if _, err := st.Apply(&c, true); err != nil {
		t.Errorf("a configuration alone: %v", err)
	}
}

// openTemp opens a store in a new temporary directory, closed when the
// test ends.
func openTemp(t *testing.T) *Store {
	t.Helper()
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
