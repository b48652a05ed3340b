package engine

import (
	"testing"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
)

// TestLengthNormalizationPerField: a searched field's
// lengthNormalization is its BM25 b: at 0 a long title scores as a short
// one (equal scores: catalog order), at 1 the short one leads.
func TestLengthNormalizationPerField(t *testing.T) {
	products := []catalog.Product{
		{ProductNumber: "A", Title: "Lamp with a long title of many other words"},
		{ProductNumber: "B", Title: "Lamp"},
	}
	first := func(b float64) string {
		w := &config.Website{UUID: "00000000-0000-4000-8000-0000000000cd",
			Search: []config.SearchConfig{{Key: "s", Versions: []config.SearchVersion{{ID: 1, Status: config.StatusLive,
				Fields: []config.SearchField{{Name: "title", Weight: 1, LengthNormalization: &b}}, Boosts: &config.Boosts{}}}}}}
		g, err := Build(w, analysis.English, Source{Products: sliceSource(products)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := g.Search(shopRequest(t, `{"query":"lamp","key":"s","products":{"count":2}}`))
		if err != nil {
			t.Fatal(err)
		}
		return g.Products.Key(res.Products.Hits[0].Doc)
	}
	if a, b := first(0), first(1); a != "A" || b != "B" {
		t.Errorf("first at b 0: %s, at b 1: %s; want A (catalog order on a tie), then B (the short title)", a, b)
	}
}
