package engine

import (
	"slices"
	"testing"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
)

// TestProximityReranks: with the proximity weight a title holding the
// query's words side by side, in order, passes a shorter title that has
// them reversed or apart; at 0 text order stands; a one-word query and
// a sorted one are untouched.
func TestProximityReranks(t *testing.T) {
	products := []catalog.Product{
		{ProductNumber: "B", Title: "Slot Mail"},
		{ProductNumber: "C", Title: "Mail Box Slot"},
		{ProductNumber: "A", Title: "Wide Brass Mail Slot Cover Plate"},
		{ProductNumber: "D", Title: "Bolt", Price: 1},
	}
	gen := func(weight float64) *Generation {
		return versionGen(t, config.SearchVersion{Fields: []config.SearchField{{Name: "title", Weight: 1}}, Proximity: &weight}, products...)
	}
	order := func(g *Generation, body string) []string { t.Helper(); return searchKeys(t, g, body) }
	off, on := gen(0), gen(1)
	q := `{"query":"mail slot","key":"s","products":{"count":5}}`
	if got := order(off, q); got[0] == "A" {
		t.Fatalf("without proximity %v: A should not lead, or the test shows nothing", got)
	}
	if got := order(on, q); got[0] != "A" {
		t.Errorf("with proximity %v: want A, its words side by side, first", got)
	}
	for _, body := range []string{`{"query":"mail","key":"s","products":{"count":5}}`, `{"query":"mail slot","key":"s","products":{"count":5,"sorting":["price asc"]}}`} {
		if a, b := order(off, body), order(on, body); !slices.Equal(a, b) {
			t.Errorf("%s: %v with proximity, %v without: want the same", body, b, a)
		}
	}
}
