package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/events"
)

// TestFoldCountsOnlyCatalogProducts: with the catalog, a view, cart or
// purchase counts for the products the website holds, under their
// stored numbers (another spelling folds to it; a variant's number or
// one the catalog does not hold counts for nothing, and the model keeps
// no such number); a view of an unknown number with a page's address
// counts for the page's product. A product deleted later keeps its
// counts. Without the catalog, events count as logged.
func TestFoldCountsOnlyCatalogProducts(t *testing.T) {
	st, eng, live, _ := liveShop(t)
	bhv := NewBehaviours()
	bhv.UseCatalog(eng)
	c := NewCollector(st, eng, bhv)
	defer c.Close()
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	c.now = func() time.Time { return t0 }
	for _, e := range []events.Event{
		{Kind: events.View, ProductNumber: "a100", User: "u1"},
		{Kind: events.View, ProductNumber: "NOPE-1", User: "u1"},
		{Kind: events.View, ProductNumber: "A100-R", User: "u1"}, // a variant of A100
		{Kind: events.View, ProductNumber: "NOPE-2", URL: "https://shop.test/a100", User: "u2"},
		{Kind: events.Cart, ProductNumbers: []string{"NOPE-3", "b100", "C100"}, User: "u1"},
		{Kind: events.Purchase, OrderNumber: "O1", Lines: []events.Line{{ProductNumber: "c100"}, {ProductNumber: "NOPE-4"}}, User: "u1"},
		{Kind: events.Purchase, OrderNumber: "O2", ProductNumbers: []string{"NOPE-5"}, User: "u3"},
	} {
		e.Website = shopUUID
		if _, err := c.Collect(&e, ""); err != nil {
			t.Fatal(err)
		}
	}
	m := bhv.Model(shopUUID)
	now := t0.Add(time.Hour)
	describe := func(m *behaviour.Model) string {
		v, _ := m.Visitor("u1")
		return fmt.Sprintf("products %d; A100 viewed %.0f; B100 carted %.0f; C100 carted %.0f bought %.0f; u1 viewed %v cart %v bought %v",
			m.Size().Products, m.Count("A100", behaviour.Views, behaviour.Long, now), m.Count("B100", behaviour.Carts, behaviour.Long, now),
			m.Count("C100", behaviour.Carts, behaviour.Long, now), m.Count("C100", behaviour.Buys, behaviour.Long, now), v.Viewed, v.Cart, v.Bought)
	}
	want := "products 3; A100 viewed 2; B100 carted 1; C100 carted 1 bought 1; u1 viewed [A100] cart [] bought [C100]"
	if got := describe(m); got != want {
		t.Errorf("with the catalog:\n%s\nwant\n%s", got, want)
	}
	for _, pn := range []string{"NOPE-1", "NOPE-2", "NOPE-3", "NOPE-4", "NOPE-5", "A100-R", "a100"} {
		for _, k := range []behaviour.Kind{behaviour.Views, behaviour.Carts, behaviour.Buys} {
			if n := m.Count(pn, k, behaviour.Long, now); n != 0 {
				t.Errorf("%s counted %.0f of kind %d", pn, n, k)
			}
		}
	}
	if _, ok := m.Visitor("u3"); !ok {
		t.Error("a purchase of nothing the catalog holds did not count its visitor")
	}

	// Deleted, C100 keeps its counts in the model that folded them.
	if _, err := live.DeleteProduct(shopUUID, "C100"); err != nil {
		t.Fatal(err)
	}
	if got := describe(m); got != want {
		t.Errorf("after C100 was deleted:\n%s\nwant\n%s", got, want)
	}

	blind := NewBehaviours()
	if _, _, err := blind.Replay(st); err != nil {
		t.Fatal(err)
	}
	bm := blind.Model(shopUUID)
	if n := bm.Count("NOPE-1", behaviour.Views, behaviour.Long, now); n < 0.99 || bm.Size().Products != 10 {
		t.Errorf("without the catalog NOPE-1 has %.2f views, and %d products are kept; want 1 and 10", n, bm.Size().Products)
	}
}
