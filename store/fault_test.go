package store

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/vfs"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/internal/diskfault"
)

// rawOptions are the store's pebble options, for a test that opens the
// directory with pebble itself.
func rawOptions() *pebble.Options {
	return options(&handle{fs: newFenceFS(vfs.Default, func(error) {}), flushFailed: make(chan struct{}, 1)})
}

// openFaulty opens a store in dir through faults, probing every
// millisecond while it is degraded.
func openFaulty(t *testing.T, dir string, faults *diskfault.Injector) *Store {
	t.Helper()
	st, err := OpenWith(dir, Options{FS: diskfault.FS(faults), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), retryEvery: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// waitWrites waits until st takes writes again.
func waitWrites(t *testing.T, st *Store) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); st.Unavailable() != nil; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("writes still refused a minute after the faults stopped: %v", st.Unavailable())
		}
	}
}

func putProduct(t *testing.T, pn string) *Batch {
	t.Helper()
	b := &Batch{Website: testSite}
	if err := b.PutProduct(&catalog.Product{ProductNumber: pn, Title: "a drill " + pn}); err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDiskFaultsAreAnswers: a write the disk refuses, full or failing to
// sync, is answered ErrUnavailable (no panic) and changes nothing, in
// memory or on the disk (a reopen does not replay it); every write after
// it is refused too, each kind of write; reads go on from what was
// synced; and once the disk takes writes the store takes them again by
// itself, and a reopen finds exactly what was acknowledged.
func TestDiskFaultsAreAnswers(t *testing.T) {
	for _, fault := range []diskfault.Fault{diskfault.Full, diskfault.FailingSync} {
		t.Run(fault.Name, func(t *testing.T) {
			dir := t.TempDir()
			faults := diskfault.New(fault)
			st := openFaulty(t, dir, faults)
			defer func() { st.Close() }()
			if _, err := st.Apply(putProduct(t, "P1"), true); err != nil {
				t.Fatal(err)
			}

			faults.On()
			_, err := st.Apply(putProduct(t, "P2"), true)
			if !errors.Is(err, ErrUnavailable) {
				t.Fatalf("a product write on a %s: %v, want ErrUnavailable", fault.Name, err)
			}
			if faults.Failed() == 0 {
				t.Fatal("no fault was injected: the test tests nothing")
			}
			ev := &Batch{Website: testSite}
			ev.AddEvent([]byte(`{"kind":"view"}`))
			writes := map[string]func() error{
				"Apply":       func() error { _, err := st.Apply(putProduct(t, "P3"), true); return err },
				"AppendGroup": func() error { _, err := st.AppendGroup([]*Batch{ev}, true); return err },
				"PutSnapshot": func() error { return st.PutSnapshot(testSite, []byte("snapshot")) },
				"Sync":        st.Sync,
				"SaveSegment": func() error {
					return st.SaveSegment("products", SegmentStamp{Seq: 1}, func(w *SegmentWriter) error { return w.Set([]byte(w.Prefix()+"k"), []byte("v")) })
				},
				"NewBulkWriter": func() error { _, err := st.NewBulkWriter(testSite); return err },
			}
			for name, write := range writes {
				if err := write(); !errors.Is(err, ErrUnavailable) {
					t.Errorf("%s while the disk refuses writes: %v, want ErrUnavailable", name, err)
				}
			}
			checkAcknowledged(t, st, "while refused", 1, "P1")

			faults.Off()
			waitWrites(t, st)
			checkAcknowledged(t, st, "recovered", 1, "P1")
			if a, err := st.Apply(putProduct(t, "P4"), true); err != nil || a.Seq != 2 {
				t.Fatalf("a write once the disk takes writes again: %+v, %v; want entry 2", a, err)
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			st = openFaulty(t, dir, faults)
			checkAcknowledged(t, st, "reopened", 2, "P1", "P4")
		})
	}
}

// checkAcknowledged checks that st holds exactly the products numbered
// pns and the log ends at entry seq.
func checkAcknowledged(t *testing.T, st *Store, when string, seq uint64, pns ...string) {
	t.Helper()
	if got := st.Seq(); got != seq {
		t.Errorf("%s: Seq %d, want %d", when, got, seq)
	}
	var stored []string
	if err := st.Products(testSite, func(p *catalog.Product) error { stored = append(stored, p.ProductNumber); return nil }); err != nil {
		t.Fatalf("%s: reading the products: %v", when, err)
	}
	if strings.Join(stored, " ") != strings.Join(pns, " ") {
		t.Errorf("%s: products %q, want %q", when, stored, pns)
	}
	var last uint64
	if err := st.Entries(0, func(e *Entry) error { last = e.Seq; return nil }); err != nil {
		t.Fatalf("%s: reading the log: %v", when, err)
	}
	if last != seq {
		t.Errorf("%s: the log ends at entry %d, want %d", when, last, seq)
	}
}

// TestDiskFaultInPebblesGoroutine: a failure pebble reports from its own
// goroutine (a flush's manifest write) neither ends the process nor
// loses a write: the store stops taking writes, reads go on, and it
// takes writes again once the disk does.
func TestDiskFaultInPebblesGoroutine(t *testing.T) {
	dir := t.TempDir()
	manifest := diskfault.Full
	manifest.Path = "MANIFEST"
	faults := diskfault.New(manifest)
	st := openFaulty(t, dir, faults)
	defer func() { st.Close() }()
	if _, err := st.Apply(putProduct(t, "P1"), true); err != nil {
		t.Fatal(err)
	}
	faults.On()
	if _, err := st.pdb().AsyncFlush(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); st.Unavailable() == nil; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the store still takes writes a minute after its flush failed (%d faults injected)", faults.Failed())
		}
	}
	if _, err := st.Apply(putProduct(t, "P2"), true); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("a write after a flush failed: %v, want ErrUnavailable", err)
	}
	checkAcknowledged(t, st, "while refused", 1, "P1")
	faults.Off()
	waitWrites(t, st)
	if _, err := st.Apply(putProduct(t, "P3"), true); err != nil {
		t.Fatal(err)
	}
	checkAcknowledged(t, st, "recovered", 2, "P1", "P3")
}

// TestOpenOnFullDisk: opening a store, new or not, on a disk that
// refuses writes is an error (ErrUnavailable, one line), not a panic,
// and leaves the directory as it was: it opens once the disk takes
// writes.
func TestOpenOnFullDisk(t *testing.T) {
	for _, existing := range []bool{false, true} {
		t.Run(fmt.Sprintf("existing=%v", existing), func(t *testing.T) {
			dir := t.TempDir()
			faults := diskfault.New(diskfault.Full)
			want := []string{}
			if existing {
				st := openFaulty(t, dir, faults)
				if _, err := st.Apply(putProduct(t, "P1"), true); err != nil {
					t.Fatal(err)
				}
				if err := st.Close(); err != nil {
					t.Fatal(err)
				}
				want = []string{"P1"}
			}
			faults.On()
			st, err := OpenWith(dir, Options{FS: diskfault.FS(faults)})
			if err == nil {
				st.Close()
				t.Fatal("opened on a full disk")
			}
			if !errors.Is(err, ErrUnavailable) || strings.Contains(err.Error(), "\n") {
				t.Errorf("open on a full disk: %q, want one line wrapping ErrUnavailable", err)
			}
			faults.Off()
			st = openFaulty(t, dir, faults)
			defer st.Close()
			checkAcknowledged(t, st, "opened once the disk takes writes", uint64(len(want)), want...)
		})
	}
}

// TestDiskFaultAfterUnsyncedWrites: writes appended without a sync (a
// bulk load's) that the disk then refuses leave no write after them to
// meet the failure pebble kept (which it panics over): those are
// answered ErrUnavailable. The unsynced writes are lost, as a crash
// loses them, and the store says so once it reopens.
func TestDiskFaultAfterUnsyncedWrites(t *testing.T) {
	dir := t.TempDir()
	faults := diskfault.New(diskfault.Full)
	st := openFaulty(t, dir, faults)
	defer func() { st.Close() }()
	if _, err := st.Apply(putProduct(t, "P1"), true); err != nil {
		t.Fatal(err)
	}
	faults.On()
	big := &Batch{Website: testSite} // larger than a log block: 32 KB
	for i := range 500 {
		big.AddEvent(fmt.Appendf(nil, `{"kind":"view","websiteUuid":%q,"productNumber":"P%d","trackingUserId":"a-visitor-of-the-shop"}`, testSite, i))
	}
	refused := 0
	for range 20 {
		_, err := st.AppendGroup([]*Batch{big}, false)
		switch {
		case errors.Is(err, ErrUnavailable):
			refused++
		case err != nil:
			t.Fatalf("an unsynced write on a full disk: %v", err)
		}
		time.Sleep(time.Millisecond) // for pebble's log writer to meet the disk
	}
	if _, err := st.Apply(putProduct(t, "P2"), true); !errors.Is(err, ErrUnavailable) || refused == 0 {
		t.Fatalf("after unsynced writes the disk refused, %d of them refused, and a synced write: %v; want ErrUnavailable", refused, err)
	}
	faults.Off()
	waitWrites(t, st)
	checkAcknowledged(t, st, "recovered", 1, "P1")
}
