package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
)

// TestBackupDuringWrites backs up a store while writers append products
// and events, then opens the backup and checks it holds exactly the
// acknowledged entries up to the position Backup returned: every
// product and event written at or before it, none after.
func TestBackupDuringWrites(t *testing.T) {
	dir := t.TempDir()
	st, err := Open(filepath.Join(dir, "data"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var b Batch
	b.Website = testSite
	b.SetConfig(config.Default(testSite))
	if _, err := st.Append(&b, true); err != nil {
		t.Fatal(err)
	}

	// acked maps each acknowledged entry to what it wrote.
	type write struct{ product, event string }
	var mu sync.Mutex
	acked := map[uint64]write{}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				b := Batch{Website: testSite}
				pn := fmt.Sprintf("W%d-%05d", w, i)
				if err := b.PutProduct(&catalog.Product{ProductNumber: pn, Title: "t", Price: float64(i)}); err != nil {
					t.Error(err)
					return
				}
				ev := fmt.Sprintf(`{"kind":"view","websiteUuid":%q,"productNumber":%q}`, testSite, pn)
				b.AddEvent([]byte(ev))
				seq, err := st.Append(&b, i%7 == 0)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				acked[seq] = write{pn, ev}
				mu.Unlock()
			}
		})
	}
	var positions []uint64
	for i := range 3 {
		for { // each backup with writes before and after it
			mu.Lock()
			n := len(acked)
			mu.Unlock()
			if n >= (i+1)*150 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		pos, err := st.Backup(filepath.Join(dir, fmt.Sprintf("backup-%d", i)))
		if err != nil {
			t.Fatal(err)
		}
		positions = append(positions, pos)
	}
	time.Sleep(20 * time.Millisecond) // writes after the last backup too
	close(stop)
	wg.Wait()
	if _, err := st.Backup(filepath.Join(dir, "backup-0")); !errors.Is(err, ErrBackupExists) {
		t.Errorf("a backup over an existing one: %v, want ErrBackupExists", err)
	}

	for i, pos := range positions {
		bst, err := Open(filepath.Join(dir, fmt.Sprintf("backup-%d", i)))
		if err != nil {
			t.Fatal(err)
		}
		if got := bst.Seq(); got != pos {
			t.Errorf("backup %d: position %d, Backup said %d", i, got, pos)
		}
		products := map[string]bool{}
		if err := bst.Products(testSite, func(p *catalog.Product) error { products[p.ProductNumber] = true; return nil }); err != nil {
			t.Fatal(err)
		}
		events := map[string]bool{}
		if err := bst.Events(func(_ string, _ uint64, evs []json.RawMessage) error {
			for _, e := range evs {
				events[string(e)] = true
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		want := 0
		for seq, w := range acked {
			if seq <= pos {
				want++
				if !products[w.product] || !events[w.event] {
					t.Fatalf("backup %d at %d lacks entry %d: product %v, event %v", i, pos, seq, products[w.product], events[w.event])
				}
			} else if products[w.product] || events[w.event] {
				t.Fatalf("backup %d at %d holds entry %d, written after it", i, pos, seq)
			}
		}
		if len(products) != want {
			t.Errorf("backup %d: %d products, want the %d acknowledged up to %d", i, len(products), want, pos)
		}
		t.Logf("backup %d: position %d, %d products", i, pos, len(products))
		bst.Close()
	}
}
