package engine

import (
	"strings"
	"testing"

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
