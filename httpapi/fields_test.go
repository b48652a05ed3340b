package httpapi

import (
	"slices"
	"testing"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
)

// TestWordsMatchOnlyInListedFields: docs/configuration.md, `fields` are
// the "searchable text fields" (docs/decisions.md "Searchable fields"): a
// word in a field the version does not list finds nothing, while a listed
// field matches at any weight, 0 included.
func TestWordsMatchOnlyInListedFields(t *testing.T) {
	products := []catalog.Product{
		{ProductNumber: "M-1", Title: "Exercise Mat", Description: "thick and grippy", ExtraData: map[string]string{"color": "Grey"}},
		{ProductNumber: "M-2", Title: "Grey Exercise Mat"},
		{ProductNumber: "M-3", Title: "Yoga Block", Keywords: "grippy"},
	}
	for _, tc := range []struct {
		name   string
		fields []config.SearchField
		query  string
		want   []string
	}{
		{"extraData not listed", nil, "grey", []string{"M-2"}},
		{"description not listed", nil, "thick", []string{}},
		{"keywords not listed", nil, "grippy", []string{}},
		{"extraData listed", []config.SearchField{{Name: "title", Weight: 5}, {Name: "extraData.color", Weight: 1}}, "grey", []string{"M-2", "M-1"}},
		{"weight 0 still matches", []config.SearchField{{Name: "title", Weight: 5}, {Name: "description", Weight: 0}, {Name: "keywords", Weight: 0}}, "grippy", []string{"M-1", "M-3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := serveShop(t, shopSite(config.SearchVersion{Fields: tc.fields}), products, nil, Options{})
			r := searchOK(t, url, q(tc.query, `"count":10,"fields":["productNumber"]`))
			got := productNumbers(t, r)
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.want))
			if !slices.Equal(got, want) {
				t.Fatalf("%q found %v, want %v", tc.query, got, want)
			}
		})
	}
}
