package engine

import (
	"testing"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
)

// versionGen serves products under one search configuration, key "s",
// with version v (live, id 1, no boosts) and a sortable price field.
func versionGen(t *testing.T, v config.SearchVersion, products ...catalog.Product) *Generation {
	t.Helper()
	v.ID, v.Status, v.Boosts = 1, config.StatusLive, &config.Boosts{}
	w := &config.Website{UUID: "00000000-0000-4000-8000-0000000000cc", IndexedFields: []config.IndexedField{{Name: "price", Type: config.TypeNumber, Sortable: true}},
		Search: []config.SearchConfig{{Key: "s", Versions: []config.SearchVersion{v}}}}
	g, err := Build(w, analysis.English, Source{Products: sliceSource(products)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// searchKeys is the product numbers body finds on g, in order.
func searchKeys(t *testing.T, g *Generation, body string) []string {
	t.Helper()
	res, err := g.Search(shopRequest(t, body))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range res.Products.Hits {
		out = append(out, g.Products.Key(h.Doc))
	}
	return out
}

// TestLengthNormalizationPerField: a searched field's
// lengthNormalization is its BM25 b: at 0 a long title scores as a short
// one (equal scores: catalog order), at 1 the short one leads.
func TestLengthNormalizationPerField(t *testing.T) {
	products := []catalog.Product{
		{ProductNumber: "A", Title: "Lamp with a long title of many other words"},
		{ProductNumber: "B", Title: "Lamp"},
	}
	first := func(b float64) string {
		g := versionGen(t, config.SearchVersion{Fields: []config.SearchField{{Name: "title", Weight: 1, LengthNormalization: &b}}}, products...)
		return searchKeys(t, g, `{"query":"lamp","key":"s","products":{"count":2}}`)[0]
	}
	if a, b := first(0), first(1); a != "A" || b != "B" {
		t.Errorf("first at b 0: %s, at b 1: %s; want A (catalog order on a tie), then B (the short title)", a, b)
	}
}

// TestK1Saturates: a version's k1 is BM25's saturation. Low, a word's
// repeats add little, and a product holding both words twice beats one
// holding one word four times; high, repeats count and the order flips.
func TestK1Saturates(t *testing.T) {
	products := []catalog.Product{
		{ProductNumber: "A", Title: "lamp lamp lamp lamp shade"},
		{ProductNumber: "B", Title: "lamp lamp shade shade"},
	}
	first := func(k1 float64) string {
		b := 0.0
		g := versionGen(t, config.SearchVersion{K1: &k1, Fields: []config.SearchField{{Name: "title", Weight: 1, LengthNormalization: &b}}}, products...)
		return searchKeys(t, g, `{"query":"lamp shade ","key":"s","products":{"count":2}}`)[0]
	}
	if low, high := first(0.1), first(10); low != "B" || high != "A" {
		t.Errorf("first at k1 0.1: %s, at k1 10: %s; want B, then A", low, high)
	}
}
