package live

import (
	"slices"
	"testing"
	"time"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/store"
)

// TestSaveWait: saves are saveEvery apart, and nine times as long as
// the last took once that is longer, so they take at most a tenth of
// the time.
func TestSaveWait(t *testing.T) {
	for _, tc := range []struct{ took, want time.Duration }{
		{0, saveEvery},
		{time.Second, saveEvery},
		{saveEvery / saveQuiet, saveEvery},
		{4 * time.Second, 36 * time.Second},
		{10 * time.Second, 90 * time.Second},
	} {
		if got := saveWait(tc.took); got != tc.want {
			t.Errorf("after a save of %v: wait %v, want %v", tc.took, got, tc.want)
		}
	}
}

// TestFirstSaveWaits: the index a Writer starts with counts as saved, so
// its first write is saved saveEvery later, not at once; Close saves it.
func TestFirstSaveWaits(t *testing.T) {
	_, _, live, logs := liveShop(t)
	logs.take()
	b := store.Batch{Website: shopUUID}
	b.PutProduct(&catalog.Product{ProductNumber: "E100", Title: "Cordless Screwdriver", Price: 59})
	if _, err := live.Apply(shopUUID, &b); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // a save of this shop takes milliseconds
	if got := logs.take(); slices.Contains(got, "index saved") {
		t.Errorf("the first write was saved at once: %q", got)
	}
	live.Close()
	if got := logs.take(); !slices.Contains(got, "index saved") {
		t.Errorf("Close did not save the first write: %q", got)
	}
}
