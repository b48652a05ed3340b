package engine

import (
	"fmt"
	"slices"
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

// TestAlternativesContextBounded: alternatives are to the context's
// first altMaxContext products, and the requests of one call that ask
// for one context's alternatives share them: the same products as one
// request alone, less those the earlier ones took.
func TestAlternativesContextBounded(t *testing.T) {
	var products []catalog.Product
	for i := range 40 {
		products = append(products, catalog.Product{ProductNumber: fmt.Sprintf("P%02d", i), Title: fmt.Sprintf("Widget %c%c", 'a'+i%7, 'a'+i%5),
			Brand: fmt.Sprintf("B%d", i%4), Price: float64(10 + i), InStock: true, Hierarchies: [][]string{{"Things", fmt.Sprintf("Kind %d", i%6)}}})
	}
	eng := New("", boostShop(t, nil, products))
	bhv := NewBehaviours()
	ask := func(n, count int, context []string) []string {
		t.Helper()
		ctx := `"` + strings.Join(context, `","`) + `"`
		req := `{"trackingKey":"t","count":` + fmt.Sprint(count) + `,"context":{"productNumbers":[` + ctx + `]},"sources":[{"type":"ALTERNATIVES"}]}`
		got, err := recoms(t, eng, bhv, boostNow, `{"websiteUuid":"`+shopUUID+`","requests":[`+strings.TrimSuffix(strings.Repeat(req+",", n), ",")+`]}`)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	var ctx []string
	for i := range 25 {
		ctx = append(ctx, fmt.Sprintf("P%02d", i))
	}
	// The context's own products are never answered: all 25 left out.
	var want []string
	for _, pn := range strings.Fields(ask(1, 40, ctx[:10])[0]) {
		if !slices.Contains(ctx, pn) {
			want = append(want, pn)
		}
	}
	if got := strings.Fields(ask(1, 40, ctx)[0]); !slices.Equal(got, want) || len(got) == 0 {
		t.Errorf("alternatives to 25: %q, to the first 10 less the other 15: %q", got, want)
	}
	one := strings.Fields(strings.Join(ask(1, 5, ctx[:1]), " "))
	three := ask(3, 5, ctx[:1])
	if len(three) != 3 || three[0] != strings.Join(one, " ") || strings.Contains(three[1], one[0]) {
		t.Errorf("three requests of one context: %q; one alone %q", three, one)
	}
}
