package demo

import "github.com/aisle-search/aisle/config"

// demoKey is the search configuration key the demo website serves.
const demoKey = "demo"

// Config returns the demo's configuration: the English demo shop first
// (config.DemoUUID), then the Danish one (DanishConfig).
func Config() config.File {
	return config.File{Websites: []config.Website{EnglishConfig(), DanishConfig()}}
}

// EnglishConfig is the demo shop's website, so `aisle demo` starts with
// indexed fields, facets, sorting, synonyms and redirects that fit the
// generated catalog: one search configuration, "demo", with a live version
// (id 1) and a draft (id 2) that adds a material facet and reweights fields.
func EnglishConfig() config.Website {
	return config.Website{
		UUID:          config.DemoUUID,
		Name:          "Aisle Demo Shop",
		Language:      "en",
		RequireAPIKey: false,
		IndexedFields: []config.IndexedField{
			{Name: "brand", Type: config.TypeKeyword},
			{Name: "hierarchies", Type: config.TypeHierarchy},
			{Name: "price", Type: config.TypeNumber, Sortable: true},
			{Name: "inStock", Type: config.TypeBoolean},
			{Name: "isOnSale", Type: config.TypeBoolean},
			{Name: "created", Type: config.TypeDate, Sortable: true},
			{Name: "extraData.color", Type: config.TypeKeyword},
			{Name: "extraData.size", Type: config.TypeKeyword},
			{Name: "extraData.material", Type: config.TypeKeyword},
			{Name: "title", Type: config.TypeText, Sortable: true},
			{Name: "extraDataNumber.rating", Type: config.TypeNumber, Sortable: true},
		},
		Search: []config.SearchConfig{{Key: demoKey, Versions: []config.SearchVersion{liveVersion(), draftVersion()}, Personalization: Personalization()}},
		Boxes:  Boxes(),
		Pages:  Pages(),
	}
}

// Personalization is the demo search configuration's: a visitor's
// brands and categories lift theirs a little, their budget and the
// products beside theirs less (docs/decisions.md, Personalization).
func Personalization() []config.PersonalizationField {
	return []config.PersonalizationField{{Field: config.FieldBrandAffinity, BoostValue: 5}, {Field: config.FieldCategoryAffinity, BoostValue: 5},
		{Field: config.FieldBudgetZone, BoostValue: 3}, {Field: config.FieldProductCluster, BoostValue: 3}}
}

// Pages are the demo shop's managed pages (README.md): "demo", the
// Garden department ordered by popularity and personalized by the demo
// search configuration, with brand, category, price
// and stock facets (four on a phone) and the search's sorting options;
// its draft (id 2) shows only what is in stock, cheapest first.
func Pages() []config.Page {
	v := liveVersion()
	live := config.PageVersion{ID: 1, Status: config.StatusLive,
		Filters:      map[string]any{"hierarchies": "Garden$"},
		Facets:       v.Facets[:4],
		SortOptions:  v.Sorting,
		Devices:      map[string]config.Device{"MOBILE": {Facets: v.Facets[:4], MaxFacetValues: 10}},
		Boosts:       &config.Boosts{Popularity: 0.1, Listing: config.ListingPopularity},
		SearchConfig: demoKey,
	}
	draft := live
	draft.ID, draft.Status = 2, config.StatusDraft
	draft.Filters = map[string]any{"hierarchies": "Garden$", "inStock": true}
	draft.Sorting = []string{"price asc"}
	return []config.Page{{Key: "demo", Name: "Garden", Versions: []config.PageVersion{live, draft}}}
}

// Boxes are the demo shop's managed recommendation boxes, json by
// default (README.md): its best sellers, alternatives to the products
// in the context (co-viewed, then the same category, topped up with the
// best sellers), and what was bought with them, topped up with the most
// bought.
func Boxes() []config.Box {
	fields := []string{"productNumber", "title", "brand", "price", "priceFormatted", "url", "imgUrl"}
	return []config.Box{
		{Key: "demo-top", Name: "Popular right now", Count: 8, Fields: fields, Sources: []config.BoxSource{{Type: "TOP"}}},
		{Key: "demo-alternatives", Name: "You may also like", Count: 8, Fields: fields,
			Sources: []config.BoxSource{{Type: "ALTERNATIVES"}, {Type: "TOP"}}},
		{Key: "demo-bought-together", Name: "Bought together", Count: 4, Fields: fields,
			Sources: []config.BoxSource{{Type: "BOUGHT_TOGETHER"}, {Type: "MOST_BOUGHT"}}},
	}
}

// draftVersion is the live version with a material facet and reweighted
// fields, so the console has a visible draft to compare and publish.
func draftVersion() config.SearchVersion {
	v := liveVersion()
	v.ID = 2
	v.Status = config.StatusDraft
	v.Fields = []config.SearchField{
		{Name: "title", Weight: 6},
		{Name: "brand", Weight: 4},
		{Name: "keywords", Weight: 3},
		{Name: "hierarchies", Weight: 1.5},
		{Name: "description", Weight: 0.5},
		{Name: "productNumber", Weight: 1},
		{Name: "extraData", Weight: 0.5},
	}
	n := len(v.Facets)
	v.Facets = append(v.Facets[:n-1:n-1],
		config.Facet{Field: "extraData.material", Type: config.FacetList, Title: "Material"},
		v.Facets[n-1])
	return v
}

// liveVersion builds the published version; every call returns fresh
// slices, so the two versions share nothing.
func liveVersion() config.SearchVersion {
	inStock := config.Facet{Field: "inStock", Type: config.FacetBoolean, Title: "In stock",
		FilteringText: "Only in stock", NegatedFilteringText: "Include out of stock"}
	facets := []config.Facet{
		{Field: "brand", Type: config.FacetList, Title: "Brand"},
		{Field: "hierarchies", Type: config.FacetList, Title: "Category"},
		{Field: "price", Type: config.FacetRange, Title: "Price"},
		inStock,
		{Field: "isOnSale", Type: config.FacetBoolean, Title: "On sale", FilteringText: "Only on sale"},
		{Field: "extraData.color", Type: config.FacetList, Title: "Colour"},
		{Field: "extraData.size", Type: config.FacetList, Title: "Size"},
		{Field: "created", Type: config.FacetRange, Title: "Added"},
	}
	sorting := []config.SortOption{
		{Field: "price", Title: "Price", AscendingText: "Lowest first", DescendingText: "Highest first"},
		{Field: "created", Title: "Newest", AscendingText: "Oldest first", DescendingText: "Newest first"},
		{Field: "title", Title: "Name", AscendingText: "A–Z", DescendingText: "Z–A"},
		{Field: "extraDataNumber.rating", Title: "Rating", AscendingText: "Lowest rated", DescendingText: "Highest rated"},
	}
	synonyms := []config.Synonym{
		{Terms: []string{"sofa", "couch", "settee"}},
		{From: "tv", Terms: []string{"television"}},
		{Terms: []string{"bbq", "barbecue", "grill"}},
		{Terms: []string{"sweater", "jumper", "pullover"}},
		{Terms: []string{"sneakers", "trainers"}},
		{Terms: []string{"faucet", "tap"}},
		{From: "wc", Terms: []string{"toilet"}},
		{Terms: []string{"pruning shears", "secateurs"}},
		{From: "fairy lights", Terms: []string{"string lights"}},
		{From: "mtb", Terms: []string{"mountain bike"}},
		{Terms: []string{"backpack", "rucksack"}},
		{Terms: []string{"laptop", "notebook"}},
		{Terms: []string{"wrench", "spanner"}},
		{From: "weed eater", Terms: []string{"string trimmer"}},
		{From: "hoodie", Terms: []string{"sweater"}},
	}
	redirects := []config.Redirect{
		{Queries: []string{"returns", "return policy"}, Title: "Returns & Refunds",
			URL: siteURL + "/help/returns", TrackingCode: "redirect-returns"},
		{Queries: []string{"gift card", "gift cards", "gift voucher"}, Title: "Gift Cards",
			URL: siteURL + "/gift-cards", TrackingCode: "redirect-gift-cards"},
		{Queries: []string{"shipping", "delivery"}, Title: "Shipping & Delivery",
			URL: siteURL + "/help/shipping", TrackingCode: "redirect-shipping"},
		{Queries: []string{"store locator", "stores near me"}, Title: "Store Locator",
			URL: siteURL + "/stores", TrackingCode: "redirect-stores"},
		{Queries: []string{"size guide", "size chart"}, Title: "Size Guide",
			URL: siteURL + "/help/size-guide", TrackingCode: "redirect-size-guide"},
	}
	initial := &config.InitialContent{
		Filters: []string{"isOnSale:true"},
		Sorting: []string{"extraDataNumber.rating desc"},
		Count:   12,
	}
	mobile := map[string]config.Device{
		"MOBILE": {
			Facets:         []config.Facet{facets[0], facets[1], facets[2], inStock},
			MaxFacetValues: 10,
		},
	}

	return config.SearchVersion{
		ID:     1,
		Status: config.StatusLive,
		Fields: []config.SearchField{
			{Name: "title", Weight: 5},
			{Name: "brand", Weight: 3},
			{Name: "hierarchies", Weight: 2},
			{Name: "keywords", Weight: 2},
			{Name: "description", Weight: 1},
			{Name: "productNumber", Weight: 1},
			{Name: "extraData", Weight: 0.5}, // colours, materials, features
		},
		Facets:         facets,
		Sorting:        sorting,
		Synonyms:       synonyms,
		Redirects:      redirects,
		InitialContent: initial,
		Devices:        mobile,
		MaxFacetValues: 100,
	}
}
