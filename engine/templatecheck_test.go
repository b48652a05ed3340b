package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/render"
)

// TestTemplatesDryRendered: a search version's, a box's and a page's
// template are rendered with sample data when the configuration is
// checked; one that fails on it (on sample products, on an empty result,
// for one device type) or passes a render bound is refused, naming where
// it is and why.
func TestTemplatesDryRendered(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		says      string // "": accepted
		bound     []error
	}{
		{"the built-in one", "", "", nil},
		{"one using every member", `{{.Query}}{{range $i, $p := .Products}}{{index $p "title"}}{{money (index $p "price") (index $p "currency")}}` +
			`{{range index $p "hierarchies"}}{{index . 0}}{{end}}{{index $p "extraData" "color"}}{{end}}`, "", nil},
		{"failing on products", `{{range .Products}}{{index nil 3}}{{end}}`, "fails on sample products", nil},
		{"failing on no products", `{{(index .Products 0).title}}`, "fails on an empty result", nil},
		{"failing for one device", `{{if eq .DeviceType "MOBILE"}}{{index nil 3}}{{end}}`, "(deviceType MOBILE)", nil},
		{"writing without end", `{{range $i := 2000000000}}xxxxxxxxxxxxxxxx{{end}}`, "fails on", []error{render.ErrTooLarge, render.ErrTimeout}},
		{"looping without end", `{{range $i := 2000000000}}{{end}}`, "fails on", []error{render.ErrTimeout}},
	} {
		for _, kind := range []string{"search", "box", "page"} {
			w := demo.EnglishConfig()
			var where string
			switch kind {
			case "search":
				w.Search[0].Versions[0].Template, where = tc.src, "search config demo version 1: template search"
			case "box":
				w.Boxes[0].Template, where = tc.src, "box demo-top: template box demo-top"
			case "page":
				w.Pages[0].Versions[0].Template, where = tc.src, "page demo: template page demo"
			}
			if kind != "search" && strings.Contains(tc.src, ".Query") || kind == "box" && strings.Contains(tc.src, ".DeviceType") {
				continue // a member only the others' views have
			}
			err := CheckWebsite(&w, analysis.English)
			switch {
			case tc.says == "" && err != nil:
				t.Errorf("%s, %s: %v", tc.name, kind, err)
			case tc.says != "" && (err == nil || !strings.HasPrefix(err.Error(), where) || !strings.Contains(err.Error(), tc.says)):
				t.Errorf("%s, %s: %v, want %q ... %q", tc.name, kind, err, where, tc.says)
			case tc.bound != nil && !boundBy(err, tc.bound):
				t.Errorf("%s, %s: %v, want one of %v", tc.name, kind, err, tc.bound)
			}
		}
	}
}

func boundBy(err error, bounds []error) bool {
	for _, b := range bounds {
		if errors.Is(err, b) {
			return true
		}
	}
	return false
}

// TestTemplateSampleFacets: the samples' facets and sorting options are
// the version's, as an answer lists them, for each device type.
func TestTemplateSampleFacets(t *testing.T) {
	v := &config.SearchVersion{
		Facets:  []config.Facet{{Field: "brand", Type: config.FacetList, Title: "Brand"}, {Field: "price", Type: config.FacetRange, Title: "Price"}},
		Sorting: []config.SortOption{{Field: "price", Title: "Price"}},
		Devices: map[string]config.Device{"MOBILE": {Facets: []config.Facet{{Field: "inStock", Type: config.FacetBoolean, Title: "Stock"}}}},
	}
	got := map[string]string{}
	for _, s := range sampleSearch(v) {
		view := s.view.(*render.SearchView)
		var b strings.Builder
		for _, f := range view.Filters.([]FacetOut) {
			b.WriteString(f.Name + ":" + f.Settings.Type)
			if f.Values != nil {
				b.WriteString("=" + (*f.Values)[0].Query)
			}
			if f.Min != nil {
				b.WriteString("=" + *f.Min + "-" + *f.Max)
			}
			b.WriteString(";")
		}
		for _, so := range view.Sorting.([]SortOut) {
			b.WriteString(so.Ascending.Query + ";")
		}
		got[s.what] = b.String()
	}
	want := map[string]string{
		"sample products":                      "brand:LIST=brand:Sample value;price:RANGE=1-2500;price asc;",
		"sample products (deviceType DESKTOP)": "brand:LIST=brand:Sample value;price:RANGE=1-2500;price asc;",
		"sample products (deviceType MOBILE)":  "inStock:BOOLEAN=inStock:true;price asc;",
		"an empty result":                      "",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %q, want %q", k, got[k], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("samples %v", got)
	}
}
