package engine

import (
	"strings"
	"testing"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/events"
)

// TestAlternativesByContent: a product nobody viewed gets alternatives
// like it: its category's products first, those sharing its rarer title
// words, its brand and its price band ahead; other categories' products
// only through shared title words; co-viewed products lead once there
// are views.
func TestAlternativesByContent(t *testing.T) {
	drills := []string{"Tools", "Power Tools", "Drills"}
	saws := []string{"Tools", "Power Tools", "Saws"}
	products := []catalog.Product{
		{ProductNumber: "ctx", Title: "Cordless Drill 18V Brushless", Brand: "Makita", Price: 100, InStock: true, Hierarchies: [][]string{drills}},
		{ProductNumber: "twin", Title: "Cordless Drill 18V Brushless Kit", Brand: "Makita", Price: 110, InStock: true, Hierarchies: [][]string{drills}},
		{ProductNumber: "rival", Title: "Cordless Drill 18V Brushless", Brand: "Bosch", Price: 105, InStock: true, Hierarchies: [][]string{drills}},
		{ProductNumber: "dear", Title: "Cordless Drill 18V Brushless", Brand: "Bosch", Price: 400, InStock: true, Hierarchies: [][]string{drills}},
		{ProductNumber: "plain", Title: "Hammer Drill", Brand: "Acme", Price: 100, InStock: true, Hierarchies: [][]string{drills}},
		{ProductNumber: "saw", Title: "Cordless Circular Saw 18V Brushless", Brand: "Makita", Price: 120, InStock: true, Hierarchies: [][]string{saws}},
		{ProductNumber: "hose", Title: "Garden Hose", Brand: "Gardena", Price: 100, InStock: true, Hierarchies: [][]string{{"Garden", "Watering"}}},
	}
	g := boostShop(t, nil, products)
	eng := New("", g)
	bhv := NewBehaviours()
	ask := func() string {
		t.Helper()
		got, err := recoms(t, eng, bhv, boostNow, `{"websiteUuid":"`+shopUUID+`","requests":[{"trackingKey":"t","count":10,"context":{"productNumbers":["ctx"]},"sources":[{"type":"ALTERNATIVES"}]}]}`)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(got, " | ")
	}
	// twin: every title word, brand, price near; rival: the words and
	// price, not the brand; dear: the words, priced 4×; plain: one word
	// and the category; saw: most words and the brand, another category
	// (its parent holds both); hose: nothing in common.
	if got, want := ask(), "twin rival dear saw plain"; got != want {
		t.Errorf("alternatives of an unviewed product: %q, want %q", got, want)
	}
	m := bhv.Model(shopUUID)
	m.MaxStale = 0
	for _, u := range []string{"u1", "u2"} {
		for _, pn := range []string{"ctx", "hose"} {
			m.Fold(&events.Event{Kind: events.View, Website: shopUUID, User: u, ProductNumber: pn, Time: boostNow.UnixMilli()})
		}
	}
	if got, want := ask(), "hose twin rival dear saw plain"; got != want {
		t.Errorf("after two visitors viewed it with the hose: %q, want %q", got, want)
	}
}
