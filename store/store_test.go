package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble"
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
	b := Batch{Website: testSite}
	for i := range 3 {
		if err := b.PutProduct(&catalog.Product{ProductNumber: fmt.Sprintf("P%d", i), Title: "t", Price: float64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.PutContent(&catalog.Content{Kind: catalog.KindBrand, ID: "b1", Title: "Brand"}); err != nil {
		t.Fatal(err)
	}
	b.SetConfig(config.Default(testSite))
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
	if err := st.Products(testSite, func(p *catalog.Product) error { titles = append(titles, p.ProductNumber+"="+p.Title); return nil }); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(titles) != "[P0=t P2=updated]" {
		t.Fatalf("products %v", titles)
	}
	var content []string
	_ = st.Content(testSite, func(c *catalog.Content) error { content = append(content, c.Title); return nil })
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
	if n, _ := st.Count(testSite); n != 2 {
		t.Fatalf("count %d", n)
	}
}

func TestSegmentStamp(t *testing.T) {
	st := openTemp(t)
	if _, ok, err := st.Stamp("products"); ok || err != nil {
		t.Fatalf("stamp on an empty store: %v %v", ok, err)
	}
	want := SegmentStamp{Seq: 7, Fingerprint: "abc"}
	err := st.SaveSegment("products", want, func(w *SegmentWriter) error {
		for i := range 1000 {
			if err := w.Set([]byte(fmt.Sprintf("%sk%04d", w.Prefix(), i)), bytes.Repeat([]byte{'v'}, 100)); err != nil {
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
	// Saving again replaces every key: the keys of the older generation
	// are gone, under its prefix or any other.
	first, _ := st.SegmentPrefix("products")
	_ = st.SaveSegment("products", want, func(w *SegmentWriter) error {
		return w.Set([]byte(w.Prefix()+"only"), []byte("x"))
	})
	second, _ := st.SegmentPrefix("products")
	n := 0
	_ = st.Scan([]byte(prefixSegment), func(k, _ []byte) error { n++; return nil })
	if n != 1 || first == second {
		t.Fatalf("%d keys after replacing the segment (prefix %q, then %q), want 1 under a new prefix", n, first, second)
	}
	// An older save of the same fingerprint is refused and changes
	// nothing; another fingerprint replaces it whatever its position.
	older := SegmentStamp{Seq: 6, Fingerprint: "abc"}
	err = st.SaveSegment("products", older, func(w *SegmentWriter) error {
		return w.Set([]byte(w.Prefix()+"old"), []byte("x"))
	})
	if got, _, _ := st.Stamp("products"); !errors.Is(err, ErrStaleSegment) || got != want {
		t.Fatalf("an older save: %v, stamp %+v", err, got)
	}
	other := SegmentStamp{Seq: 1, Fingerprint: "def"}
	if err := st.SaveSegment("products", other, func(*SegmentWriter) error { return nil }); err != nil {
		t.Fatalf("another fingerprint: %v", err)
	}
	if got, _, _ := st.Stamp("products"); got != other {
		t.Fatalf("stamp %+v after a save under another fingerprint", got)
	}
	// A failed save leaves no stamp, so the next start rebuilds: an
	// error from the segment, a key outside it, a key written twice.
	for _, save := range []func(w *SegmentWriter) error{
		func(w *SegmentWriter) error { return fmt.Errorf("boom") },
		func(w *SegmentWriter) error { return w.Set([]byte("p/elsewhere"), []byte("x")) },
		func(w *SegmentWriter) error {
			k := []byte(w.Prefix() + "twice")
			_ = w.Set(k, []byte("1"))
			return w.Set(k, []byte("2"))
		},
	} {
		if err := st.SaveSegment("products", want, save); err == nil {
			t.Fatal("a broken save succeeded")
		}
		if _, ok, _ := st.Stamp("products"); ok {
			t.Fatal("a failed save left a stamp")
		}
	}
}

// TestBulkWriter imports products in log entries of BulkBatch, keeps the
// last write of a repeated product number, accounts for every product
// and byte, and shows nothing until Commit, which survives a reopen.
func TestBulkWriter(t *testing.T) {
	dir := t.TempDir()
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	b := Batch{Website: testSite}
	_ = b.PutProduct(&catalog.Product{ProductNumber: "OLD", Title: "kept"})
	_ = b.PutProduct(&catalog.Product{ProductNumber: "P00003", Title: "before the import"})
	if _, err := st.Append(&b, false); err != nil {
		t.Fatal(err)
	}
	const n = 2*BulkBatch + 1
	w, err := st.NewBulkWriter(testSite)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.NewBulkWriter(testSite); !errors.Is(err, ErrBulkInProgress) {
		t.Fatalf("second bulk writer: %v", err)
	}
	if _, err := st.Append(&b, false); !errors.Is(err, ErrBulkInProgress) {
		t.Fatalf("append during a bulk write: %v", err)
	}
	var wantBytes int64
	for i := range n {
		// Out of order, with one product number twice.
		p := catalog.Product{ProductNumber: fmt.Sprintf("P%05d", (i*7919)%n), Title: "drill"}
		if i == n-1 {
			p.ProductNumber, p.Title = "P00042", "last write"
		}
		data, _ := json.Marshal(&p)
		wantBytes += int64(len(data))
		if err := w.Put(p.ProductNumber, data); err != nil {
			t.Fatalf("put %s: %v", p.ProductNumber, err)
		}
	}
	if c, _ := st.Count(testSite); c != 2 || st.Seq() != 1 {
		t.Fatalf("before commit: %d products at seq %d, want the 2 from before at 1", c, st.Seq())
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	w.Abort() // a no-op after Commit
	if w.Count != n || w.Bytes != wantBytes {
		t.Fatalf("counted %d products, %d bytes; want %d, %d", w.Count, w.Bytes, n, wantBytes)
	}
	after := Batch{Website: testSite}
	_ = after.PutProduct(&catalog.Product{ProductNumber: "AFTER", Title: "appended"})
	if _, err := st.Append(&after, false); err != nil {
		t.Fatalf("append after the bulk write: %v", err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if st, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if st.Seq() != 5 {
		t.Fatalf("seq %d after reopening, want 5 (1 + 3 bulk entries + 1)", st.Seq())
	}
	var sizes []int
	if err := st.Entries(1, func(e *Entry) error { sizes = append(sizes, len(e.Products)); return nil }); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(sizes) != fmt.Sprint([]int{BulkBatch, BulkBatch, 1, 1}) {
		t.Fatalf("entry sizes %v", sizes)
	}
	titles := map[string]string{}
	count := 0
	if err := st.Products(testSite, func(p *catalog.Product) error { titles[p.ProductNumber] = p.Title; count++; return nil }); err != nil {
		t.Fatal(err)
	}
	// n-1 distinct bulk numbers (P00042 twice; the one the last put
	// replaced is gone), OLD and AFTER.
	if count != n+1 || titles["OLD"] != "kept" || titles["P00042"] != "last write" || titles["P00003"] != "drill" || titles["AFTER"] != "appended" {
		t.Fatalf("%d products; OLD=%q P00042=%q P00003=%q AFTER=%q", count, titles["OLD"], titles["P00042"], titles["P00003"], titles["AFTER"])
	}
}

// TestBulkWriterAbort leaves the store as it was, and usable.
func TestBulkWriterAbort(t *testing.T) {
	dir := t.TempDir()
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { st.Close() }() // st is reopened below
	w, err := st.NewBulkWriter(testSite)
	if err != nil {
		t.Fatal(err)
	}
	for i := range BulkBatch + 10 {
		if err := w.PutProduct(&catalog.Product{ProductNumber: fmt.Sprint(i), Title: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	w.Abort()
	if err := w.Commit(); err == nil {
		t.Fatal("commit after abort succeeded")
	}
	// A crash leaves an import's tables behind; the next open drops them.
	if err := os.MkdirAll(filepath.Join(dir, "import-123", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if st, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	if has, err := st.HasProducts(testSite); has || err != nil || st.Seq() != 0 {
		t.Fatalf("after abort: products %v (%v), seq %d", has, err, st.Seq())
	}
	b := Batch{Website: testSite}
	_ = b.PutProduct(&catalog.Product{ProductNumber: "A", Title: "x"})
	if seq, err := st.Append(&b, true); seq != 1 || err != nil {
		t.Fatalf("append after abort: %d %v", seq, err)
	}
	if has, _ := st.HasProducts(testSite); !has {
		t.Fatal("HasProducts false after an append")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "import-") {
			t.Fatalf("the aborted import left %s behind", e.Name())
		}
	}
}

// TestBulkCommitBeforeLogWriterRuns commits before the log's goroutine
// has been scheduled (one P, nothing yields): it once read the cleared
// queue field, ranged over a nil channel and hung the commit.
func TestBulkCommitBeforeLogWriterRuns(t *testing.T) {
	st := openTemp(t)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	done := make(chan error, 1)
	go func() {
		w, err := st.NewBulkWriter(testSite)
		if err != nil {
			done <- err
			return
		}
		if err := w.Put("A", []byte(`{"productNumber":"A"}`)); err != nil {
			done <- err
			return
		}
		done <- w.Commit()
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("commit hung")
	}
	if n, _ := st.Count(testSite); n != 1 {
		t.Fatalf("%d products after commit", n)
	}
}

// TestBulkWriterStoresConfig: a configuration given to SetConfig is stored
// by Commit in the same atomic step as the products (the last log entry
// carries it, and m/config holds it), and an aborted bulk write leaves the
// stored one as it was (README.md: "An import is one atomic write").
func TestBulkWriterStoresConfig(t *testing.T) {
	dir := t.TempDir()
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { st.Close() }()
	site := func(uuid string) *config.File {
		return &config.File{Websites: []config.Website{{UUID: uuid, Name: "shop " + uuid}}}
	}
	write := func(cfg *config.File, products int, commit bool) {
		t.Helper()
		w, err := st.NewBulkWriter(testSite)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.SetConfig(cfg); err != nil {
			t.Fatal(err)
		}
		for i := range products {
			if err := w.PutProduct(&catalog.Product{ProductNumber: fmt.Sprintf("%s-%d", cfg.Websites[0].UUID, i), Title: "x"}); err != nil {
				t.Fatal(err)
			}
		}
		if !commit {
			w.Abort()
			return
		}
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	stored := func() (uuid string, seq uint64, products int, lastEntry *Entry) {
		t.Helper()
		st.Close()
		if st, err = Open(dir); err != nil {
			t.Fatal(err)
		}
		cfg, err := st.Config()
		if err != nil {
			t.Fatal(err)
		}
		if cfg != nil {
			uuid = cfg.Websites[0].UUID
		}
		if products, err = st.Count(testSite); err != nil {
			t.Fatal(err)
		}
		err = st.Entries(0, func(e *Entry) error { lastEntry = e; return nil })
		if err != nil {
			t.Fatal(err)
		}
		return uuid, st.Seq(), products, lastEntry
	}

	// Products and a configuration, over more than one log entry.
	write(site("a"), BulkBatch+3, true)
	uuid, seq, n, last := stored()
	if uuid != "a" || seq != 2 || n != BulkBatch+3 {
		t.Fatalf("after the first write: config %q, seq %d, %d products", uuid, seq, n)
	}
	if last == nil || last.Seq != 2 || last.Config == nil || last.Config.Websites[0].UUID != "a" || len(last.Products) != 3 {
		t.Fatalf("the last log entry does not carry the configuration with its products: %+v", last)
	}
	// Aborted: neither the configuration nor the products are stored.
	write(site("b"), 5, false)
	if uuid, seq, n, _ = stored(); uuid != "a" || seq != 2 || n != BulkBatch+3 {
		t.Fatalf("after an aborted write: config %q, seq %d, %d products", uuid, seq, n)
	}
	// A configuration alone is one entry of no products.
	write(site("c"), 0, true)
	uuid, seq, n, last = stored()
	if uuid != "c" || seq != 3 || n != BulkBatch+3 || last.Seq != 3 || last.Config == nil || len(last.Products) != 0 {
		t.Fatalf("after a configuration alone: config %q, seq %d, %d products, last entry %+v", uuid, seq, n, last)
	}
}

// TestSegmentTablesUncompressed: a segment is written without block
// compression (its sections are compressed already): 1 MB of one byte
// takes its size on disk, where snappy would make it a few KB.
func TestSegmentTablesUncompressed(t *testing.T) {
	st := openTemp(t)
	before := st.pdb().Metrics().DiskSpaceUsage()
	err := st.SaveSegment("products", SegmentStamp{Seq: 1}, func(w *SegmentWriter) error {
		for i := range 64 {
			if err := w.Set(fmt.Appendf(nil, "%sk%04d", w.Prefix(), i), bytes.Repeat([]byte{'v'}, 16<<10)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if grew := st.pdb().Metrics().DiskSpaceUsage() - before; grew < 1<<20 {
		t.Errorf("1 MiB of segment took %d bytes on disk: compressed", grew)
	}
}

// TestSegmentGenerations: each save writes a new generation that pebble
// ingests at the bottom level, never into level 0 (where compactions
// would rewrite it), and drops the older ones; a segment saved before
// generations (under x/<name>/, a stamp without gen) loads from there
// and is dropped by the next save.
func TestSegmentGenerations(t *testing.T) {
	st := openTemp(t)
	legacy := segmentPrefix("products", 0)
	if err := st.pdb().Set([]byte(legacy+"meta"), []byte("old"), pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if err := st.pdb().Set(segmentStampKey("products"), []byte(`{"seq":1,"fingerprint":"f"}`), pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if p, err := st.SegmentPrefix("products"); p != legacy || err != nil {
		t.Fatalf("a stamp without a generation: prefix %q (%v), want %q", p, err, legacy)
	}
	var prefixes []string
	for i := range 3 {
		b := Batch{Website: testSite}
		b.PutProduct(&catalog.Product{ProductNumber: fmt.Sprint(i), Title: "t"}) // the memtable holds writes
		if _, err := st.Apply(&b, true); err != nil {
			t.Fatal(err)
		}
		err := st.SaveSegment("products", SegmentStamp{Seq: uint64(2 + i), Fingerprint: "f"}, func(w *SegmentWriter) error {
			return w.Set([]byte(w.Prefix()+"meta"), fmt.Appendf(nil, "save %d", i))
		})
		if err != nil {
			t.Fatal(err)
		}
		p, _ := st.SegmentPrefix("products")
		prefixes = append(prefixes, p)
		if n := st.pdb().Metrics().Levels[0].NumFiles; n != 0 {
			t.Errorf("save %d: %d tables in level 0: the segment was not ingested at the bottom", i, n)
		}
	}
	if prefixes[0] == prefixes[1] || prefixes[1] == prefixes[2] || prefixes[0] == legacy {
		t.Errorf("generations share a prefix: %q", prefixes)
	}
	var keys []string
	_ = st.Scan([]byte(prefixSegment), func(k, v []byte) error { keys = append(keys, string(k)+"="+string(v)); return nil })
	if want := []string{prefixes[2] + "meta=save 2"}; !slices.Equal(keys, want) {
		t.Errorf("segment keys after three saves: %q, want %q", keys, want)
	}
}

// TestAppendGroup: a group of batches is consecutive log entries written
// in one commit: events kept as given under their website, a product
// change among them moving its website's product stamp only, all there
// after a reopen; a group with an empty batch, or one without its
// website, writes nothing.
func TestAppendGroup(t *testing.T) {
	const other = "00000000-0000-4000-8000-0000000000b2"
	dir := t.TempDir()
	st := openWithConfig(t, dir)
	ev := eventBatch
	put := &Batch{Website: testSite}
	if err := put.PutProduct(&catalog.Product{ProductNumber: "P1", Title: "Drill"}); err != nil {
		t.Fatal(err)
	}
	group := []*Batch{ev(testSite, `{"kind":"view","productNumber":"P1"}`, `{"kind":"cart"}`), ev(other, `{"kind":"pageview","url":"/"}`), put}
	first, err := st.AppendGroup(group, true)
	if err != nil || first != 2 {
		t.Fatalf("AppendGroup: first entry %d, %v; want 2", first, err)
	}
	for name, bad := range map[string][]*Batch{
		"an empty batch":          {ev(testSite, `{}`), {Website: testSite}},
		"a batch with no website": {ev(testSite, `{}`), ev("", `{"kind":"cart"}`)},
	} {
		if _, err := st.AppendGroup(bad, true); err == nil {
			t.Errorf("a group with %s was written", name)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if st.Seq() != 4 || st.ProductSeq(testSite) != 4 || st.ProductSeq(other) != 0 {
		t.Errorf("after a reopen: seq %d, product stamps %d and %d; want 4, 4 and 0", st.Seq(), st.ProductSeq(testSite), st.ProductSeq(other))
	}
	var got []string
	if err := st.Entries(1, func(e *Entry) error {
		got = append(got, fmt.Sprintf("%d %s %d events %d products", e.Seq, e.Website, e.EventCount, len(e.Products)))
		if len(e.Events) > 0 {
			t.Errorf("entry %d holds its events itself", e.Seq)
		}
		evs, err := st.EntryEvents(e)
		if err != nil {
			return err
		}
		for _, raw := range evs {
			got = append(got, "  "+string(raw))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"2 " + testSite + " 2 events 0 products", `  {"kind":"view","productNumber":"P1"}`, `  {"kind":"cart"}`,
		"3 " + other + " 1 events 0 products", `  {"kind":"pageview","url":"/"}`,
		"4 " + testSite + " 0 events 1 products",
	}
	if !slices.Equal(got, want) {
		t.Errorf("entries after the group:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Events reads the same events without the rest of the log,
	// website by website.
	got = nil
	if err := st.Events(func(website string, seq uint64, events []json.RawMessage) error {
		got = append(got, fmt.Sprintf("%d %s %d events", seq, website, len(events)))
		for _, raw := range events {
			got = append(got, "  "+string(raw))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want = []string{
		"2 " + testSite + " 2 events", `  {"kind":"view","productNumber":"P1"}`, `  {"kind":"cart"}`,
		"3 " + other + " 1 events", `  {"kind":"pageview","url":"/"}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("Events:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// It does not read the log: a log entry it cannot read (a catalog
	// import's, a million products long, is only slow) is not read.
	if err := st.pdb().Set(appendLogKey(nil, 99), []byte("not JSON"), pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if err := st.Events(func(string, uint64, []json.RawMessage) error { return nil }); err != nil {
		t.Errorf("Events read the log: %v", err)
	}
}

// TestTruncateEvents: a failed bulk load's entries go, with their
// events, and the log ends where it did, also after a reopen; entries
// that change anything but events are never removed.
func TestTruncateEvents(t *testing.T) {
	dir := t.TempDir()
	st := openWithConfig(t, dir)
	ev := func(events ...string) *Batch { return eventBatch(testSite, events...) }
	if _, err := st.AppendGroup([]*Batch{ev(`{"kind":"view","productNumber":"kept"}`)}, true); err != nil {
		t.Fatal(err)
	}
	put := &Batch{Website: testSite}
	if err := put.PutProduct(&catalog.Product{ProductNumber: "P1", Title: "Drill"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AppendGroup([]*Batch{put}, true); err != nil {
		t.Fatal(err)
	}
	kept := st.Seq() // 3
	for range 3 {
		if _, err := st.AppendGroup([]*Batch{ev(`{"kind":"view","productNumber":"gone"}`, `{"kind":"cart"}`)}, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.TruncateEvents(kept - 1); !errors.Is(err, ErrNotEventsOnly) || st.Seq() != kept+3 {
		t.Fatalf("truncating over a product entry: %v, seq %d; want ErrNotEventsOnly and seq %d", err, st.Seq(), kept+3)
	}
	if err := st.TruncateEvents(kept); err != nil || st.Seq() != kept {
		t.Fatalf("TruncateEvents(%d): %v, seq %d", kept, err, st.Seq())
	}
	check := func(when string) {
		t.Helper()
		var logged []string
		if err := st.Entries(0, func(e *Entry) error {
			logged = append(logged, fmt.Sprint(e.Seq))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		var evs []string
		if err := st.Events(func(_ string, seq uint64, raw []json.RawMessage) error {
			for _, r := range raw {
				evs = append(evs, fmt.Sprint(seq, " ", string(r)))
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if strings.Join(logged, " ") != "1 2 3" || strings.Join(evs, "|") != `2 {"kind":"view","productNumber":"kept"}` {
			t.Errorf("%s: entries %v, events %v; want 1 2 3 and the first view", when, logged, evs)
		}
	}
	check("truncated")
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if st.Seq() != kept {
		t.Errorf("reopened at entry %d, want %d", st.Seq(), kept)
	}
	check("reopened")
	if seq, err := st.AppendGroup([]*Batch{ev(`{"kind":"pageview","url":"/"}`)}, true); err != nil || seq != kept+1 {
		t.Errorf("the next entry: %d, %v; want %d", seq, err, kept+1)
	}
}

// TestSnapshotsAndEventsAfter: a snapshot of several chunks reads back
// whole, a smaller one replaces it leaving no chunk behind, websites
// keep their own; EventsAfter streams one website's entries past a
// point, in order.
func TestSnapshotsAndEventsAfter(t *testing.T) {
	const other = "00000000-0000-4000-8000-0000000000b2"
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	big := make([]byte, 2*SnapshotChunk+123)
	for i := range big {
		big[i] = byte(i * 7)
	}
	if err := st.PutSnapshot(testSite, big); err != nil {
		t.Fatal(err)
	}
	if err := st.PutSnapshot(other, []byte("other's")); err != nil {
		t.Fatal(err)
	}
	if got, err := st.Snapshot(testSite); err != nil || !bytes.Equal(got, big) {
		t.Fatalf("Snapshot: %d bytes, %v; want the %d put", len(got), err, len(big))
	}
	if err := st.PutSnapshot(testSite, []byte("small")); err != nil {
		t.Fatal(err)
	}
	for w, want := range map[string]string{testSite: "small", other: "other's", "00000000-0000-4000-8000-0000000000b3": ""} {
		if got, err := st.Snapshot(w); err != nil || string(got) != want {
			t.Errorf("Snapshot(%s): %q, %v; want %q", w, got, err, want)
		}
	}

	var seed Batch
	seed.SetConfig(config.Default(testSite))
	if _, err := st.Append(&seed, true); err != nil {
		t.Fatal(err)
	}
	ev := func(website, e string) *Batch { return eventBatch(website, e) }
	for i := range 3 {
		if _, err := st.AppendGroup([]*Batch{ev(testSite, fmt.Sprintf(`{"n":%d}`, i)), ev(other, `{"other":true}`)}, false); err != nil {
			t.Fatal(err)
		}
	}
	// Entries: 1 the configuration, then (2, 3), (4, 5), (6, 7).
	var got []string
	if err := st.EventsAfter(testSite, 2, func(seq uint64, evs []json.RawMessage) error {
		for _, e := range evs {
			got = append(got, fmt.Sprint(seq, " ", string(e)))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := []string{`4 {"n":1}`, `6 {"n":2}`}; !slices.Equal(got, want) {
		t.Errorf("EventsAfter(2): %q, want %q", got, want)
	}
}

// openWithConfig opens a store in dir whose first entry is the default
// configuration of testSite.
func openWithConfig(t *testing.T, dir string) *Store {
	t.Helper()
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var seed Batch
	seed.SetConfig(config.Default(testSite))
	if _, err := st.Append(&seed, true); err != nil {
		t.Fatal(err)
	}
	return st
}

// eventBatch is a batch of website's events, each JSON as given.
func eventBatch(website string, events ...string) *Batch {
	b := &Batch{Website: website}
	for _, e := range events {
		b.AddEvent([]byte(e))
	}
	return b
}
