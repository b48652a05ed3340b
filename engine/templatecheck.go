package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/render"
)

// A configured template is rendered, when it compiles, with sample data
// shaped as a request's: a full answer (products with every field set,
// one of them sponsored, content items, redirects, and the facets and
// sorting options the version configures, for each device type) and an
// empty one. A template that fails on one, or passes a render bound on
// one (render.MaxBytes, MaxDuration), refuses its configuration, instead
// of failing every answer.

// sample is one view a template is checked with, and what it stands for.
type sample struct {
	what string
	view any
}

// checkTemplate renders t with each sample, bounded as a request's
// render is.
func checkTemplate(t *render.Template, samples []sample) error {
	for _, s := range samples {
		if _, err := t.Execute(context.Background(), s.view); err != nil {
			return fmt.Errorf("template %s fails on %s: %w", t.Name(), s.what, err)
		}
	}
	return nil
}

const (
	sampleFull  = "sample products"
	sampleEmpty = "an empty result"
)

// sampleSearch are search version v's template's samples.
func sampleSearch(v *config.SearchVersion) []sample {
	var out []sample
	for _, d := range sampleDevices(v.Facets, v.Sorting, v.Devices) {
		out = append(out, sample{sampleFull + d.what, &render.SearchView{Query: "sample query", Products: sampleProducts(), Total: 1234,
			Suggested: []bool{false, false, true}, Initial: sampleProducts()[:1],
			Categories: sampleContent(catalog.KindCategory), Brands: sampleContent(catalog.KindBrand),
			SitePages: sampleContent(catalog.KindSitePage), BlogPosts: sampleContent(catalog.KindBlogPost),
			Redirects: []render.Item{{"title": "Sample redirect", "url": "https://shop.example/redirect"}},
			Filters:   d.filters, Sorting: d.sorting, DeviceType: d.name}})
	}
	return append(out, sample{sampleEmpty, &render.SearchView{Query: "", Filters: []FacetOut{}, Sorting: []SortOut{}}})
}

// samplePage are page p's version pv's template's samples: a first load
// and a later one with no products.
func samplePage(p *config.Page, pv *config.PageVersion) []sample {
	var out []sample
	for _, d := range sampleDevices(pv.Facets, pv.SortOptions, pv.Devices) {
		products := sampleProducts()
		out = append(out, sample{sampleFull + d.what, &render.PageView{Key: p.Key, Name: p.Name, URL: "https://shop.example/" + p.Key + "?page=2",
			Products: products, Start: 20, Count: len(products), Total: 1234, FirstLoad: true, DeviceType: d.name, Filters: d.filters, Sorting: d.sorting}})
	}
	return append(out, sample{sampleEmpty, &render.PageView{Key: p.Key, Name: p.Name, URL: "https://shop.example/" + p.Key}})
}

// sampleRecoms are box b's template's samples.
func sampleRecoms(b *config.Box) []sample {
	return []sample{
		{sampleFull, render.RecomsView{Key: b.Key, Name: b.Name, Products: sampleProducts()}},
		{sampleEmpty, render.RecomsView{Key: b.Key, Name: b.Name, Products: []render.Item{}}},
	}
}

// sampleDevice is what a request from one device sees: its facets and
// sorting options, as products.filters and products.sorting.
type sampleDevice struct {
	name, what string
	filters    []FacetOut
	sorting    []SortOut
}

// sampleDevices are what a request naming no device, DESKTOP and MOBILE
// see: the version's facets and sorting options, or a device's own.
func sampleDevices(facets []config.Facet, sorting []config.SortOption, devices map[string]config.Device) []sampleDevice {
	var out []sampleDevice
	for _, name := range []string{"", "DESKTOP", "MOBILE"} {
		f, s := facets, sorting
		if d, ok := devices[name]; ok && d.Facets != nil {
			f = d.Facets
		}
		if d, ok := devices[name]; ok && d.Sorting != nil {
			s = d.Sorting
		}
		what := ""
		if name != "" {
			what = " (deviceType " + name + ")"
		}
		out = append(out, sampleDevice{name: name, what: what, filters: sampleFacets(f), sorting: sampleSorting(s)})
	}
	return out
}

// sampleProducts are three products with every field set, decoded from
// their stored JSON as a request's are; the last one is sponsored.
func sampleProducts() []render.Item {
	created := time.Date(2024, 5, 17, 9, 30, 0, 0, time.UTC)
	out := make([]render.Item, 3)
	for i := range out {
		n := fmt.Sprintf("SAMPLE-%d", i+1)
		p := catalog.Product{ProductNumber: n, Title: "Sample product " + n, URL: "https://shop.example/p/" + n,
			ImgURL: "https://shop.example/img/" + n + ".jpg", Currency: "USD", Price: 1234.5 + float64(i), PreviousPrice: 1500,
			PriceLowered: true, PriceFormatted: "$1,234.50", Description: "A sample product's description.", Keywords: "sample keywords",
			InStock: true, VariantProductNumbers: []string{n + "-S", n + "-M"}, GroupingKey: "sample-group", Brand: "Sample brand",
			Hierarchies: [][]string{{"Sample", "Category"}, {"Other"}}, IsOnSale: true, Created: created,
			ExtraData:       map[string]string{"color": "red", "size": "M"},
			ExtraDataNumber: map[string]float64{"rating": 4.5, "weight": 1.2},
			ExtraDataList:   map[string][]string{"tags": {"new", "eco"}}}
		raw, err := json.Marshal(&p)
		if err == nil {
			err = json.Unmarshal(raw, &out[i])
		}
		if err != nil {
			panic(err) // a catalog.Product always round trips
		}
	}
	markSponsored(out, []string{"", "", "sample-campaign"})
	return out
}

// sampleContent is one content item of kind with every field set.
func sampleContent(kind catalog.ContentKind) []render.Item {
	c := catalog.Content{Kind: kind, ID: "sample-" + string(kind), Title: "Sample " + string(kind), Description: "A sample item.",
		URL: "https://shop.example/" + string(kind), Keywords: "sample", Hierarchy: []string{"Sample", "Item"},
		ImgURL: "https://shop.example/img/" + string(kind) + ".jpg", ExtraData: map[string]string{"note": "sample"}}
	var it render.Item
	raw, err := json.Marshal(&c)
	if err == nil {
		err = json.Unmarshal(raw, &it)
	}
	if err != nil {
		panic(err) // a catalog.Content always round trips
	}
	return []render.Item{it}
}

// sampleFacets are facets as a search or page answer has them: a LIST
// facet with two values, one selected, a BOOLEAN one with both, a RANGE
// one with its bounds and a selected range.
func sampleFacets(facets []config.Facet) []FacetOut {
	str := func(s string) *string { return &s }
	out := make([]FacetOut, 0, len(facets))
	for _, fc := range facets {
		fo := FacetOut{Name: fc.Field, Settings: FacetSettingOut{Name: fc.Field, Type: string(fc.Type), Title: fc.Title}}
		switch fc.Type {
		case config.FacetRange:
			fo.Min, fo.Max, fo.SelectedMin, fo.SelectedMax = str("1"), str("2500"), str("10"), str("100")
		case config.FacetBoolean:
			fo.Settings.FilteringText, fo.Settings.NegatedFilteringText = fc.FilteringText, fc.NegatedFilteringText
			fo.Values = &[]FacetValueOut{{Title: "true", Count: 10, Query: fc.Field + ":true", Selected: true}, {Title: "false", Count: 5, Query: fc.Field + ":false"}}
		default:
			fo.Values = &[]FacetValueOut{{Title: "Sample value", Count: 12, Query: fc.Field + ":Sample value", Selected: true}, {Title: "Other", Count: 3, Query: fc.Field + ":Other"}}
		}
		out = append(out, fo)
	}
	return out
}

// sampleSorting are sorting options as an answer has them, the first
// one selected ascending.
func sampleSorting(opts []config.SortOption) []SortOut {
	out := make([]SortOut, 0, len(opts))
	for i, o := range opts {
		out = append(out, SortOut{Name: o.Field, Settings: SortSettingOut{Name: o.Field, Title: o.Title, AscendingText: o.AscendingText, DescendingText: o.DescendingText},
			Ascending: SortChoiceOut{Query: o.Field + " asc", Selected: i == 0}, Descending: SortChoiceOut{Query: o.Field + " desc"}})
	}
	return out
}
