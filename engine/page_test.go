package engine

import (
	"slices"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/demo"
)

// TestPageConfigIsChecked: a page whose base filters, default sorting or
// template the engine cannot serve is refused when the configuration is
// checked (before it is stored), naming the page and the problem.
func TestPageConfigIsChecked(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(v *config.PageVersion)
		want string
	}{
		{"the demo's page", func(v *config.PageVersion) {}, ""},
		{"an unindexed field", func(v *config.PageVersion) { v.Filters = map[string]any{"colour": "red"} }, `page demo: filters.colour: field "colour" is not an indexed field`},
		{"a bad range", func(v *config.PageVersion) { v.Filters = map[string]any{"price": map[string]any{"$gte": "cheap"}} }, `page demo: filters.price: "price:cheap,": "cheap" is not a number`},
		{"an unknown group", func(v *config.PageVersion) { v.Filters = map[string]any{"$nor": []any{}} }, `page demo: filters.$nor: unknown operator $nor`},
		{"too many nodes", func(v *config.PageVersion) {
			v.Filters = map[string]any{"$or": slices.Repeat([]any{map[string]any{}}, maxFilterNodes)}
		}, `page demo: filters: a base filter holds at most 500 nodes`},
		{"the most nodes", func(v *config.PageVersion) {
			v.Filters = map[string]any{"$or": slices.Repeat([]any{map[string]any{}}, maxFilterNodes-2)}
		}, ""},
		{"an unsortable sorting", func(v *config.PageVersion) { v.Sorting = []string{"brand asc"} }, `page demo: `},
		{"a template that does not parse", func(v *config.PageVersion) { v.Template = "{{range .Products}}" }, `page demo: template page demo:`},
	} {
		w := demo.EnglishConfig()
		tc.edit(&w.Pages[0].Versions[0])
		err := CheckWebsite(&w, analysis.English)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want it to say %q", tc.name, err, tc.want)
		}
	}
}

// TestEmptyBaseFilterGroupsCostNothing: a base filter that names nothing,
// however its empty objects are grouped, is the catalog's own set of all
// products, found without allocating; empty objects beside a condition
// cost what the condition alone costs.
func TestEmptyBaseFilterGroupsCostNothing(t *testing.T) {
	g := demoGeneration(t, 3000, 7, nil)
	brand := g.Products.Keyword("brand").Values[0]
	parse := func(s string) baseFilter {
		t.Helper()
		var obj map[string]any
		if err := json.Unmarshal([]byte(s), &obj); err != nil {
			t.Fatal(err)
		}
		f, err := parseBaseFilter(obj, g.fields, "params.filters")
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	docs := func(f *baseFilter) *roaring.Bitmap {
		bm, err := g.baseDocs(f)
		if err != nil {
			t.Fatal(err)
		}
		return bm
	}
	for _, s := range []string{`{}`, `{"$and":[{}]}`, `{"$or":[{},{}]}`, `{"$and":[{"$or":[{},{},{}]},{"$and":[{},{}]}]}`,
		`{"$or":[{"brand":"` + brand + `"},{}]}`} {
		f := parse(s)
		if got := docs(&f); got != g.Products.All() {
			t.Errorf("%s: %d products, not the catalog's own set of all", s, got.GetCardinality())
		}
		if n := testing.AllocsPerRun(20, func() { docs(&f) }); n != 0 {
			t.Errorf("%s: %.0f allocations, want none", s, n)
		}
	}
	alone := parse(`{"brand":"` + brand + `"}`)
	grouped := parse(`{"$and":[{"brand":"` + brand + `"},{},{"$or":[{},{}]}]}`)
	want := testing.AllocsPerRun(20, func() { docs(&alone) })
	if n := testing.AllocsPerRun(20, func() { docs(&grouped) }); n != want {
		t.Errorf("a condition among empty groups: %.0f allocations, the condition alone %.0f", n, want)
	}
	if !docs(&grouped).Equals(docs(&alone)) || docs(&alone).IsEmpty() {
		t.Errorf("a condition among empty groups allows %d products, alone %d",
			docs(&grouped).GetCardinality(), docs(&alone).GetCardinality())
	}
}
