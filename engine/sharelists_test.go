package engine

import (
	"slices"
	"testing"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/config"
)

// TestShareLists: a generation assembled on the same product index
// reads the impact lists of the versions whose ranking it keeps, and
// builds its own for a version whose ranking changed or on another
// index.
func TestShareLists(t *testing.T) {
	g := demoGeneration(t, 300, 42, nil)
	w := g.Website
	// The same configuration but for the first search configuration's
	// live version weighing its first field anew.
	changed := *w
	changed.Search = slices.Clone(w.Search)
	sc := &changed.Search[0]
	sc.Versions = slices.Clone(sc.Versions)
	live := slices.IndexFunc(sc.Versions, func(v config.SearchVersion) bool { return v.Status == config.StatusLive })
	sc.Versions[live].Fields = slices.Clone(sc.Versions[live].Fields)
	sc.Versions[live].Fields[0].Weight += 1

	assemble := func(w *config.Website, prev *Generation, products *Generation) *Generation {
		t.Helper()
		n, err := Assemble(w, analysis.English, products.Products, nil)
		if err != nil {
			t.Fatal(err)
		}
		n.ShareLists(prev)
		return n
	}
	rebuilt := demoGeneration(t, 300, 42, nil)
	for _, tc := range []struct {
		name   string
		n      *Generation
		shared func(key string) bool // whether key's live version reads lists of g's
	}{
		{"same configuration", assemble(w, g, g), func(string) bool { return true }},
		{"a version's ranking changed", assemble(&changed, g, g), func(key string) bool { return key != sc.Key }},
		{"another index", assemble(w, g, rebuilt), func(string) bool { return false }},
	} {
		for key, s := range tc.n.search {
			got := false
			for _, imp := range g.impacts {
				got = got || tc.n.impacts[s.live] == imp
			}
			if got != tc.shared(key) {
				t.Errorf("%s: %s's live version reads lists of the first generation: %t, want %t", tc.name, key, got, tc.shared(key))
			}
		}
	}
}
