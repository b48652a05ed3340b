package live

import (
	"flag"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/events"
)

// The flood of TestCollectFloodStaysInBudget: a million new visitors
// (11 to 20 s on 2 cores; a tenth of them with -short or the race
// detector) against a budget of a tenth of them. The default budget's figure:
// go test ./engine -run TestCollectFlood -v -flood.visitors=1500000
// -flood.budget=1000000.
var (
	floodVisitors = flag.Int("flood.visitors", 1_000_000, "TestCollectFloodStaysInBudget: new visitors sent, each with an email and an unknown product")
	floodBudget   = flag.Int("flood.budget", 0, "TestCollectFloodStaysInBudget: the visitor budget (0: a tenth of the visitors sent)")
)

// floodBytesPerVisitor is the heap the behaviour may hold for each
// visitor of its budget in the test's bound: a visitor's record, table
// slot and one-product history, and the budget's two links a visitor,
// hold 86 to 106 bytes.
const floodBytesPerVisitor = 200

// TestCollectFloodStaysInBudget: a hostile client's flood through the
// collector into a real store, each visitor new, with an email of their
// own, viewing a 256-byte product number no catalog holds and a product
// of the catalog, leaves the website's behaviour within its budget (a
// tenth of the visitors sent): never more visitors or links than the
// budget allows, no product but the catalog's, and the model holding at
// most the budget's visitors' worth of the live heap
// (floodBytesPerVisitor each, measured with and without it once the
// store's background work settled; the store's memory, in the Go heap
// when cgo is off, is left out).
func TestCollectFloodStaysInBudget(t *testing.T) {
	n := *floodVisitors
	if raceEnabled || testing.Short() {
		n /= 10 // the race detector runs it ten times slower
	}
	budget := behaviour.BudgetFor(n / 10)
	if *floodBudget > 0 {
		budget = behaviour.BudgetFor(*floodBudget)
	}
	st, eng, _, _ := liveShop(t)
	bhv := engine.NewBehaviours()
	bhv.UseCatalog(eng)
	bhv.UseBudget(budget)
	c := NewCollector(st, eng, bhv)
	defer c.Close()
	m := bhv.Model(shopUUID)

	numbers := current(t, eng).Products.Len()
	const batch = maxGroup / 2 // visitors a commit, two events each
	evs := make([]events.Event, 2*batch)
	ptrs := make([]*events.Event, 2*batch)
	pad := strings.Repeat("x", 256-20)
	send := func(from int) {
		t.Helper()
		k := min(batch, n-from)
		for j := range k {
			i := from + j
			user, email := fmt.Sprint("flood-", i), fmt.Sprint(i, "@flood.test")
			evs[2*j] = events.Event{Kind: events.View, Website: shopUUID, User: user, Email: email, ProductNumber: fmt.Sprintf("%s-%019d", pad, i)}
			evs[2*j+1] = events.Event{Kind: events.View, Website: shopUUID, User: user, ProductNumber: current(t, eng).Products.Key(uint32(i % numbers))}
			ptrs[2*j], ptrs[2*j+1] = &evs[2*j], &evs[2*j+1]
		}
		if _, err := c.CollectAll(ptrs[:2*k], ""); err != nil {
			t.Fatal(err)
		}
		s := m.Size()
		if s.Visitors > budget.Visitors || s.Links > budget.Links || s.Products > numbers {
			t.Fatalf("after %d visitors: %d visitors (budget %d), %d links (budget %d), %d products (the catalog's %d)",
				from+k, s.Visitors, budget.Visitors, s.Links, budget.Links, s.Products, numbers)
		}
	}
	send(0) // the store, the collector and the model warmed up
	before := liveHeap()
	start := time.Now()
	for from := batch; from < n; from += batch {
		send(from)
	}
	took := time.Since(start)
	size := m.Size()
	with := settledHeap()
	bhv.Forget(shopUUID)
	m = nil // send holds m: the model is weighed by dropping it
	without := liveHeap()
	held, bound := with-without, int64(floodBytesPerVisitor*budget.Visitors)
	t.Logf("%d visitors in %v; the model holds %.1f MB of the heap (bound %.1f MB), the heap grew %.1f MB in all; the model: %+v",
		n, took.Round(time.Millisecond), float64(held)/1e6, float64(bound)/1e6, float64(with-before)/1e6, size)
	if held > bound {
		t.Errorf("the model holds %d bytes of the heap after the flood, want at most %d", held, bound)
	}
	if size.Visitors < budget.Visitors/2 {
		t.Errorf("%d visitors kept of a budget of %d: the flood did not fill it", size.Visitors, budget.Visitors)
	}
}

// settledHeap is liveHeap once two readings 100 ms apart differ by less
// than 64 KiB (within 10 s): the store's compactions and flushes free
// memory for a while after a burst of writes.
func settledHeap() int64 {
	h := liveHeap()
	for range 100 {
		time.Sleep(100 * time.Millisecond)
		next := liveHeap()
		if next-h < 64<<10 && h-next < 64<<10 {
			return next
		}
		h = next
	}
	return h
}

// liveHeap is the heap's live bytes after a collection.
func liveHeap() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
