// Package testshop is the small shop that the engine's and the write
// side's tests share: a website configuration, eight products and a
// few content items, built in code.
package testshop

import (
	"time"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
)

// UUID is the shop's website id.
const UUID = "00000000-0000-4000-8000-00000000a001"

// Source feeds a product slice to a build or an import.
func Source(products []catalog.Product) func(fn func(*catalog.Product) error) error {
	return func(fn func(*catalog.Product) error) error {
		for i := range products {
			if err := fn(&products[i]); err != nil {
				return err
			}
		}
		return nil
	}
}

func date(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// Products are the shop's eight products: drills, garden tools,
// furniture and a lamp whose title needs escaping.
func Products() []catalog.Product {
	return []catalog.Product{
		{
			ProductNumber: "A100", Title: "Cordless Drill 18V", URL: "https://shop.test/a100", ImgURL: "https://shop.test/a100.jpg",
			Currency: "EUR", Price: 99.5, PreviousPrice: 129, PriceLowered: true, PriceFormatted: "€99.50",
			Description: "Compact drill with two batteries", Keywords: "driver screwdriver", InStock: true,
			VariantProductNumbers: []string{"A100-R", "A100-B"}, GroupingKey: "g-drill", Brand: "Makita",
			Hierarchies: [][]string{{"Tools", "Power Tools", "Drills"}}, IsOnSale: true, Created: date("2024-03-01T00:00:00Z"),
			ExtraData: map[string]string{"color": "Red", "size": "M"}, ExtraDataNumber: map[string]float64{"rating": 4.5},
			ExtraDataList: map[string][]string{"tags": {"cordless", "battery"}},
		},
		{
			ProductNumber: "A200", Title: "Hammer Drill", Price: 149, Brand: "Bosch", GroupingKey: "g-drill",
			Hierarchies: [][]string{{"Tools", "Power Tools", "Drills"}, {"Deals"}}, Created: date("2023-11-15T12:00:00Z"),
			ExtraData: map[string]string{"color": "Blue"}, ExtraDataNumber: map[string]float64{"rating": 4},
		},
		{
			ProductNumber: "B100", Title: "Garden Hose 20m", Price: 25, InStock: true, Brand: "Gardena",
			Hierarchies: [][]string{{"Garden", "Watering"}}, Created: date("2024-05-10T08:30:00Z"),
			ExtraData: map[string]string{"color": "Green"},
		},
		{
			ProductNumber: "B200", Title: "Pruning Shears", Price: 19.99, PreviousPrice: 24.99, PriceLowered: true, IsOnSale: true,
			InStock: true, Brand: "Müller", Hierarchies: [][]string{{"Garden", "Tools"}},
			ExtraData: map[string]string{"color": "Red", "organic": "yes"},
		},
		{
			ProductNumber: "C100", Title: "Leather Sofa", Price: 899, Brand: "Nordic", Description: "three seat sofa",
			Hierarchies: [][]string{{"Furniture", "Living Room"}}, ExtraData: map[string]string{"organic": "no"},
		},
		{
			ProductNumber: "C200", Title: "Fabric Couch", Price: 499, IsOnSale: true, Brand: "Nordic",
			Hierarchies: [][]string{{"Furniture", "Living Room"}},
		},
		{ProductNumber: "C300", Title: "Oak Table", Price: 350, InStock: true},
		{
			ProductNumber: "D100", Title: "Desk Lamp \"Nova\" <LED> & USB", Price: 39, Brand: "Lumen", IsOnSale: true,
			ExtraDataList: map[string][]string{"tags": {"led"}},
		},
	}
}

// Content is the shop's content items, one or two of each kind.
func Content() []catalog.Content {
	return []catalog.Content{
		{Kind: catalog.KindCategory, ID: "cat-drills", Title: "Drills", Description: "Every drill we sell", URL: "https://shop.test/c/drills",
			Hierarchy: []string{"Tools", "Power Tools", "Drills"}, Keywords: "boring"},
		{Kind: catalog.KindCategory, ID: "cat-garden", Title: "Garden", URL: "https://shop.test/c/garden", Hierarchy: []string{"Garden"}},
		{Kind: catalog.KindBrand, ID: "b-makita", Title: "Makita", URL: "https://shop.test/b/makita", ImgURL: "https://shop.test/makita.png"},
		{Kind: catalog.KindSitePage, ID: "sp-returns", Title: "Returns and refunds", URL: "https://shop.test/help/returns"},
		{Kind: catalog.KindBlogPost, ID: "bp-drill", Title: "How to choose a drill", Description: "A guide to drills",
			URL: "https://shop.test/blog/drill", Hierarchy: []string{"Guides", "Tools"}, ExtraData: map[string]string{"author": "Ann"}},
		{Kind: catalog.KindBlogPost, ID: "bp-garden", Title: "Drill holes in garden pots", URL: "https://shop.test/blog/pots",
			Hierarchy: []string{"Guides", "Garden"}},
	}
}

// Website is the shop's configuration: indexed fields of every type, a
// search configuration with facets, sorting, synonyms, redirects,
// initial content and devices.
func Website() *config.Website {
	brand := config.Facet{Field: "brand", Type: config.FacetList, Title: "Brand"}
	return &config.Website{
		UUID: UUID,
		IndexedFields: []config.IndexedField{
			{Name: "brand", Type: config.TypeKeyword},
			{Name: "hierarchies", Type: config.TypeHierarchy},
			{Name: "price", Type: config.TypeNumber, Sortable: true},
			{Name: "previousPrice", Type: config.TypeNumber},
			{Name: "inStock", Type: config.TypeBoolean},
			{Name: "isOnSale", Type: config.TypeBoolean},
			{Name: "priceLowered", Type: config.TypeBoolean},
			{Name: "created", Type: config.TypeDate, Sortable: true},
			{Name: "title", Type: config.TypeText, Sortable: true},
			{Name: "extraData.color", Type: config.TypeKeyword},
			{Name: "extraData.organic", Type: config.TypeBoolean},
			{Name: "extraData.size", Type: config.TypeText, Sortable: true},
			{Name: "extraDataNumber.rating", Type: config.TypeNumber, Sortable: true},
			{Name: "extraDataList.tags", Type: config.TypeKeyword},
			{Name: "variantProductNumbers", Type: config.TypeKeyword},
			{Name: "productNumber", Type: config.TypeKeyword},
			{Name: "groupingKey", Type: config.TypeKeyword},
		},
		Search: []config.SearchConfig{
			{Key: "shop", Versions: []config.SearchVersion{
				{
					ID: 1, Status: config.StatusLive,
					Fields: []config.SearchField{{Name: "title", Weight: 5}, {Name: "brand", Weight: 3}, {Name: "hierarchies", Weight: 2},
						{Name: "description", Weight: 1}, {Name: "keywords", Weight: 1}, {Name: "productNumber", Weight: 1}, {Name: "extraData", Weight: 1}},
					Facets: []config.Facet{brand, {Field: "hierarchies", Type: config.FacetList, Title: "Category"},
						{Field: "price", Type: config.FacetRange, Title: "Price"},
						{Field: "inStock", Type: config.FacetBoolean, Title: "Stock", FilteringText: "In stock", NegatedFilteringText: "Sold out"},
						{Field: "created", Type: config.FacetRange, Title: "Added"}},
					Sorting: []config.SortOption{{Field: "price", Title: "Price", AscendingText: "Lowest first", DescendingText: "Highest first"},
						{Field: "title", Title: "Name", AscendingText: "A-Z", DescendingText: "Z-A"}},
					Synonyms: []config.Synonym{{Terms: []string{"sofa", "couch"}}, {From: "settee", Terms: []string{"sofa"}}},
					Redirects: []config.Redirect{
						{Queries: []string{"Returns Policy", "refund"}, Title: "Returns", URL: "https://shop.test/help/returns", TrackingCode: "r-ret"},
						{Queries: []string{"Contact Us"}, URL: "https://shop.test/contact"},
					},
					InitialContent: &config.InitialContent{Filters: []string{"isOnSale:true"}, Sorting: []string{"price asc"}, Count: 3},
					Devices: map[string]config.Device{
						"MOBILE":  {Facets: []config.Facet{brand}, Sorting: []config.SortOption{{Field: "created", Title: "Newest"}}, MaxFacetValues: 1},
						"DESKTOP": {Sorting: []config.SortOption{{Field: "title", Title: "Name"}}},
					},
				},
				{
					ID: 2, Status: config.StatusDraft,
					Fields:         []config.SearchField{{Name: "title", Weight: 1}},
					Facets:         []config.Facet{brand},
					MaxFacetValues: 2,
					Synonyms:       []config.Synonym{{Terms: []string{"sofa", "couch"}}},
					Redirects:      []config.Redirect{{Queries: []string{"refund"}, Title: "Returns", URL: "https://shop.test/help/returns", TrackingCode: "r-ret"}},
					Devices:        map[string]config.Device{"DESKTOP": {Sorting: []config.SortOption{{Field: "title", Title: "Name"}}}},
					InitialContent: &config.InitialContent{ProductNumbers: []string{"c200", "NOPE", "A100-B"}},
					Template: `{{.Query}}|{{.Total}}|{{.Start}}|{{range $i, $p := .Products}}{{index $p "productNumber"}}` +
						`{{if index $.Suggested $i}}*{{end}};{{end}}|{{range .Initial}}{{index . "productNumber"}};{{end}}|` +
						`{{range .Categories}}{{index . "title"}};{{end}}|{{range .Brands}}{{index . "title"}};{{end}}|` +
						`{{range .SitePages}}{{index . "title"}};{{end}}|{{range .BlogPosts}}{{index . "title"}};{{end}}|` +
						`{{range .Redirects}}{{index . "title"}}={{index . "url"}};{{end}}|` +
						`{{range .Filters}}{{.Name}}:{{len .Values}};{{end}}|{{range .Sorting}}{{.Name}};{{end}}|{{.DeviceType}}`,
				},
			}},
			{Key: "plain", Versions: []config.SearchVersion{
				{ID: 7, Status: config.StatusLive, Fields: []config.SearchField{{Name: "title", Weight: 1}},
					InitialContent: &config.InitialContent{Filters: []string{"brand:nobody"}}},
			}},
			{Key: "bare", Versions: []config.SearchVersion{
				{ID: 1, Status: config.StatusLive, Fields: []config.SearchField{{Name: "title", Weight: 1}}},
			}},
		},
	}
}
