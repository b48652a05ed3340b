package store

import (
	"fmt"
	"slices"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
)

// TestCompactEvents: CompactEvents removes a website's entries of
// events alone, oldest first, up to the entry it is given and while
// their events are expired, each whole (entry and events); it passes
// over an entry that changes products, stops at the first unexpired
// entry, never touches another website's, leaves the log's last number,
// and every reader steps over the gaps, also after a reopen. A website
// with a snapshot and no events left is still listed.
func TestCompactEvents(t *testing.T) {
	const other = "00000000-0000-4000-8000-0000000000b2"
	dir := t.TempDir()
	st := openWithConfig(t, dir) // entry 1
	closed := false
	defer func() {
		if !closed {
			st.Close()
		}
	}()
	// old: an event of time 1; new: of time 9.
	old, young := `{"time":1}`, `{"time":9}`
	products := eventBatch(testSite, old)
	if err := products.PutProduct(&catalog.Product{ProductNumber: "P1", Title: "p"}); err != nil {
		t.Fatal(err)
	}
	for i, b := range []*Batch{
		eventBatch(testSite, old, old), // 2
		eventBatch(other, old),         // 3
		eventBatch(testSite, old),      // 4
		products,                       // 5: events beside a product
		eventBatch(testSite, old),      // 6
		eventBatch(testSite, young),    // 7
		eventBatch(testSite, old),      // 8: after an unexpired one
		eventBatch(testSite, old),      // 9: past through
	} {
		if seq, err := st.Append(b, false); err != nil || seq != uint64(i+2) {
			t.Fatalf("entry %d: %d, %v", i+2, seq, err)
		}
	}
	expired := func(events []json.RawMessage) bool {
		for _, raw := range events {
			var e struct{ Time int64 }
			if err := json.Unmarshal(raw, &e); err != nil || e.Time >= 5 {
				return false
			}
		}
		return true
	}
	if n, err := st.CompactEvents(testSite, 8, expired); err != nil || n != 3 {
		t.Fatalf("CompactEvents: %d removed, %v; want 3 (entries 2, 4 and 6)", n, err)
	}
	if n, err := st.CompactEvents(testSite, 8, expired); err != nil || n != 0 {
		t.Errorf("CompactEvents again: %d removed, %v; want none", n, err)
	}
	check := func(st *Store) {
		t.Helper()
		var entries []uint64
		if err := st.Entries(0, func(e *Entry) error {
			entries = append(entries, e.Seq)
			_, err := st.EntryEvents(e)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if want := []uint64{1, 3, 5, 7, 8, 9}; !slices.Equal(entries, want) {
			t.Errorf("entries %v, want %v", entries, want)
		}
		var events []string
		if err := st.Events(func(w string, seq uint64, evs []json.RawMessage) error {
			events = append(events, fmt.Sprint(w[len(w)-2:], " ", seq, " ", len(evs)))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if want := []string{"01 5 1", "01 7 1", "01 8 1", "01 9 1", "b2 3 1"}; !slices.Equal(events, want) {
			t.Errorf("events %q, want %q", events, want)
		}
		if st.Seq() != 9 {
			t.Errorf("Seq %d, want 9", st.Seq())
		}
		if p, err := st.Product(testSite, "P1"); err != nil || p == nil {
			t.Errorf("the product of entry 5: %s, %v", p, err)
		}
	}
	check(st)
	closed = true
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	check(st)

	// Every event of other compacted: its snapshot still names it.
	if err := st.PutSnapshot(other, []byte("snap")); err != nil {
		t.Fatal(err)
	}
	if n, err := st.CompactEvents(other, 9, expired); err != nil || n != 1 {
		t.Fatalf("CompactEvents of %s: %d, %v", other, n, err)
	}
	if ws, err := st.EventWebsites(); err != nil || !slices.Equal(ws, []string{testSite}) {
		t.Errorf("EventWebsites: %q, %v", ws, err)
	}
	if ws, err := st.SnapshotWebsites(); err != nil || !slices.Equal(ws, []string{other}) {
		t.Errorf("SnapshotWebsites: %q, %v", ws, err)
	}
}
