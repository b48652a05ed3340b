package live

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/store"
)

// TestWriteQueue: Waiting counts the writes that arrived and are not yet
// answered, those waiting for their turn included; the write timer gets
// each acknowledged write's time from its arrival to its answer, wait
// included, and nothing of a refused one.
func TestWriteQueue(t *testing.T) {
	_, _, live, _ := liveShop(t)
	var mu sync.Mutex
	var took []time.Duration
	live.UseWriteTimer(func(d time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		took = append(took, d)
	})
	if n := live.Waiting(); n != 0 {
		t.Fatalf("%d writes waiting before any arrived", n)
	}
	const hold = 20 * time.Millisecond
	live.mu.Lock() // a write being applied: the others wait their turn
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range 3 {
		wg.Go(func() {
			var b store.Batch
			b.PutProduct(&catalog.Product{ProductNumber: fmt.Sprint("Q", i), Title: "Queued drill"})
			_, errs[i] = live.Apply(shopUUID, &b)
		})
	}
	wg.Go(func() { _, errs[3] = live.DeleteProduct(shopUUID, "no-such-product") }) // refused: not timed
	deadline := time.Now().Add(10 * time.Second)
	for live.Waiting() != 4 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := live.Waiting(); n != 4 {
		t.Fatalf("%d writes waiting, want the 4 that arrived", n)
	}
	time.Sleep(hold)
	live.mu.Unlock()
	wg.Wait()
	for i, err := range errs[:3] {
		if err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	if errs[3] == nil {
		t.Fatal("deleting a product that is not there succeeded")
	}
	if n := live.Waiting(); n != 0 {
		t.Errorf("%d writes waiting once all were answered, want 0", n)
	}
	if len(took) != 3 {
		t.Fatalf("%d writes timed, want the 3 acknowledged", len(took))
	}
	for i, d := range took {
		if d < hold {
			t.Errorf("write %d took %v, want at least the %v it waited", i, d, hold)
		}
	}
	// Every kind of write takes its turn: a configuration change too.
	took = nil
	if _, err := live.SetConfig(&config.File{Websites: []config.Website{*shopWebsite()}}); err != nil {
		t.Fatal(err)
	}
	if len(took) != 1 || live.Waiting() != 0 {
		t.Errorf("a configuration change: %d timed, %d waiting, want 1 and 0", len(took), live.Waiting())
	}
}
