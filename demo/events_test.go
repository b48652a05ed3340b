package demo

import (
	"crypto/sha256"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/events"
)

const testSite = "00000000-0000-4000-8000-000000000001"

func demoEvents(t *testing.T, products []catalog.Product, users int, seed uint64) []*events.Event {
	t.Helper()
	var out []*events.Event
	each := func(fn func(*catalog.Product) error) error {
		for i := range products {
			if err := fn(&products[i]); err != nil {
				return err
			}
		}
		return nil
	}
	if err := Events(testSite, each, users, seed, func(e *events.Event) error {
		out = append(out, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestEvents: the demo's behaviour log is deterministic, in time order,
// every event valid and of an in-stock catalog product; popularity is
// skewed, sessions stay in a category, and orders are counted once.
func TestEvents(t *testing.T) {
	products := Catalog(5000, 42)
	evs := demoEvents(t, products, EventUsers(len(products)), 7)
	hash := func(evs []*events.Event) [32]byte {
		h := sha256.New()
		for _, e := range evs {
			b, _ := json.Marshal(e)
			h.Write(b)
		}
		return [32]byte(h.Sum(nil))
	}
	if hash(evs) != hash(demoEvents(t, products, EventUsers(len(products)), 7)) {
		t.Fatal("two runs with one seed differ")
	}
	if hash(evs) == hash(demoEvents(t, products, EventUsers(len(products)), 8)) {
		t.Fatal("another seed gives the same log")
	}
	inStock := map[string]string{} // product → its first category path
	for _, p := range products {
		if p.InStock && len(p.Hierarchies) > 0 {
			inStock[p.ProductNumber] = strings.Join(p.Hierarchies[0], "/")
		}
	}
	kinds := map[events.Kind]int{}
	views := map[string]int{}
	orders := map[string]bool{}
	related, baskets := 0, 0
	for i, e := range evs {
		if err := events.Check(e); err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		if i > 0 && e.Time < evs[i-1].Time {
			t.Fatalf("event %d is earlier than the one before", i)
		}
		for _, pn := range e.Products() {
			if _, ok := inStock[pn]; !ok {
				t.Fatalf("event %d names %s, not an in-stock product of the catalog", i, pn)
			}
		}
		kinds[e.Kind]++
		switch e.Kind {
		case events.View:
			views[e.ProductNumber]++
		case events.Purchase:
			if orders[e.OrderNumber] {
				t.Fatalf("order %s twice", e.OrderNumber)
			}
			orders[e.OrderNumber] = true
			if len(e.ProductNumbers) == 2 {
				baskets++
				a, _, _ := strings.Cut(inStock[e.ProductNumbers[0]], "/")
				b, _, _ := strings.Cut(inStock[e.ProductNumbers[1]], "/")
				if a == b {
					related++
				}
			}
		}
	}
	t.Logf("%d events: %v; %d products viewed; %d two-product baskets", len(evs), kinds, len(views), baskets)
	if kinds[events.View] < 20*EventUsers(len(products)) || kinds[events.Purchase] < EventUsers(len(products)) || kinds[events.Cart] != kinds[events.Purchase] {
		t.Errorf("kinds %v: want about 40 views and 2 orders (each after a cart) per visitor", kinds)
	}
	counts := make([]int, 0, len(views))
	total := 0
	for _, n := range views {
		counts = append(counts, n)
		total += n
	}
	slices.Sort(counts)
	slices.Reverse(counts)
	top := 0
	for _, n := range counts[:len(counts)/20] {
		top += n
	}
	if share := float64(top) / float64(total); share < 0.3 {
		t.Errorf("the most viewed 5%% of products have %.0f%% of the views: want a power law (30%% or more)", 100*share)
	}
	if baskets == 0 || float64(related)/float64(baskets) < 0.9 {
		t.Errorf("%d of %d two-product baskets share a top category: want related products", related, baskets)
	}
}

// TestEventsOfASmallCatalog: a catalog with no in-stock product has no
// events; a small one gets its own few visitors.
func TestEventsOfASmallCatalog(t *testing.T) {
	if evs := demoEvents(t, nil, 10, 1); len(evs) != 0 {
		t.Errorf("no catalog: %d events", len(evs))
	}
	if n := EventUsers(100); n != 50 {
		t.Errorf("EventUsers(100) = %d, want 50", n)
	}
	if n := EventUsers(1_000_000); n != 3000 {
		t.Errorf("EventUsers(1M) = %d, want 3,000", n)
	}
}
