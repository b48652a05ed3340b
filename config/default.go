package config

// DefaultKey is the search configuration served for an imported catalog
// that came without a configuration file.
const DefaultKey = "default"

// Default is the configuration for a catalog imported without one, for
// the website uuid (NewUUID makes one): every text field searchable with
// title highest, and the common fields filterable, facetable and sortable.
func Default(uuid string) *File {
	return &File{Websites: []Website{{
		UUID: uuid,
		Name: "Aisle",
		IndexedFields: []IndexedField{
			{Name: "brand", Type: TypeKeyword},
			{Name: "hierarchies", Type: TypeHierarchy},
			{Name: "price", Type: TypeNumber, Sortable: true},
			{Name: "inStock", Type: TypeBoolean},
			{Name: "isOnSale", Type: TypeBoolean},
			{Name: "created", Type: TypeDate, Sortable: true},
			{Name: "title", Type: TypeText, Sortable: true},
		},
		Search: []SearchConfig{{
			Key: DefaultKey,
			Versions: []SearchVersion{{
				ID:     1,
				Status: StatusLive,
				Fields: []SearchField{
					{Name: "title", Weight: 5}, {Name: "brand", Weight: 3}, {Name: "hierarchies", Weight: 2},
					{Name: "keywords", Weight: 2}, {Name: "description", Weight: 1}, {Name: "productNumber", Weight: 1},
					{Name: "extraData", Weight: 0.5},
				},
				Facets: []Facet{
					{Field: "brand", Type: FacetList, Title: "Brand"},
					{Field: "hierarchies", Type: FacetList, Title: "Category"},
					{Field: "price", Type: FacetRange, Title: "Price"},
					{Field: "inStock", Type: FacetBoolean, Title: "In stock", FilteringText: "Only in stock", NegatedFilteringText: "Include out of stock"},
					{Field: "isOnSale", Type: FacetBoolean, Title: "On sale", FilteringText: "Only on sale", NegatedFilteringText: "All prices"},
				},
				Sorting: []SortOption{
					{Field: "price", Title: "Price", AscendingText: "Lowest first", DescendingText: "Highest first"},
					{Field: "created", Title: "Newest", AscendingText: "Oldest first", DescendingText: "Newest first"},
					{Field: "title", Title: "Name", AscendingText: "A to Z", DescendingText: "Z to A"},
				},
				MaxFacetValues: 100,
			}},
		}},
	}}}
}
