// Package config is the console's model: a website, its indexed fields,
// its versioned search configurations and pages, and its recommendation
// boxes; everything here is plain data, validated once when loaded.
package config

// FieldType decides how an indexed field is stored and which filter syntax
// it accepts.
type FieldType string

// The indexed field types.
const (
	TypeKeyword   FieldType = "keyword"   // exact values; LIST facets
	TypeNumber    FieldType = "number"    // ranges; RANGE facets; sorting
	TypeBoolean   FieldType = "boolean"   // true/false; BOOLEAN facets
	TypeDate      FieldType = "date"      // ISO 8601 ranges; sorting
	TypeHierarchy FieldType = "hierarchy" // a$b$c$ paths; prefix filters
	TypeText      FieldType = "text"      // sortable by its folded value only
)

// FacetType is the spec's filter type.
type FacetType string

// The facet types of the spec.
const (
	FacetBoolean FacetType = "BOOLEAN" // a boolean field's true or false
	FacetList    FacetType = "LIST"    // a keyword or hierarchy field's values, each with its count
	FacetRange   FacetType = "RANGE"   // a number or date field's lowest and highest value
)

// File is the JSON document `--config` loads.
type File struct {
	// Websites are the shops the server serves, each with its own
	// catalog; at least one. Their uuids, and their search
	// configuration, box and page keys, are unique across the file.
	Websites []Website `json:"websites"`
}

// Website is one shop: its catalog's indexed fields, API keys and search
// configurations.
type Website struct {
	// UUID is the website's id, the spec's websiteUuid: 32 lowercase
	// hexadecimal digits as 8-4-4-4-12; required, unique in the file.
	UUID string `json:"uuid"`
	// Name is the website's display name.
	Name string `json:"name"`
	// CompanyID is the company that owns the website: a key of that
	// company covers it (package access). Empty: DefaultCompany.
	CompanyID string `json:"companyId,omitempty"`
	// Language is the stemming language of the website's catalog and
	// queries: en, da, no, sv, de or none. Empty means the server's
	// --lang (default en).
	Language string `json:"language,omitempty"`
	// RequireAPIKey makes the website's search, pages and
	// recommendations requests need Authorization: Bearer with one of
	// APIKeys or the admin key.
	RequireAPIKey bool `json:"requireApiKey,omitempty"`
	// APIKeys are the website's API keys: RequireAPIKey asks for one,
	// and looking a visitor up by email or customer id needs one.
	APIKeys []string `json:"apiKeys,omitempty"`
	// AllowedOrigins are the web origins ("https://shop.example", a
	// scheme, a host and a port when not the scheme's) whose pages may
	// call the server with the visitor's cookies and read the answers
	// (credentialed CORS): the shop's own. Other origins may call the
	// /serve endpoints without credentials. Empty: none.
	AllowedOrigins []string `json:"allowedOrigins,omitempty"`
	// IndexedFields are the product fields that can be filtered,
	// faceted or sorted on; nothing else can.
	IndexedFields []IndexedField `json:"indexedFields"`
	// Search are the website's search configurations, by key.
	Search []SearchConfig `json:"searchConfigs"`
	// Boxes are the website's managed recommendation boxes.
	Boxes []Box `json:"boxes,omitempty"`
	// Pages are the website's managed listings (POST /serve/pages/{key}).
	Pages []Page `json:"pages,omitempty"`
	// Campaigns are the website's retail media campaigns.
	Campaigns []Campaign `json:"campaigns,omitempty"`
}

// IndexedField makes a product field filterable, facetable or sortable.
// Only indexed fields may appear in filter and sorting strings.
type IndexedField struct {
	// Name is the product field indexed: brand, price, extraData.color,
	// ... (docs/configuration.md, Indexed fields); unique in the website.
	Name string `json:"name"`
	// Type decides the field's filter syntax, its facet type and
	// whether it may be sortable.
	Type FieldType `json:"type"`
	// Sortable lets requests and sort options sort by the field: number,
	// date and text fields only.
	Sortable bool `json:"sortable,omitempty"`
}

// SearchConfig is one search configuration key with its versions.
type SearchConfig struct {
	// Key names the configuration in search requests; unique across the
	// server.
	Key string `json:"key"`
	// Versions are the configuration's versions: exactly one live, the
	// others drafts a request reaches by id.
	Versions []SearchVersion `json:"versions"`
	// Personalization boosts products that match a known visitor's
	// profile (PersonalizationField), in every version's searches and in
	// the pages that name the configuration; empty: none. Kept beside
	// the versions, not in one: the console sets it with
	// updateSearchAlgorithmPersonalization.
	Personalization []PersonalizationField `json:"personalization,omitempty"`
}

// Version statuses.
const (
	StatusLive  = "live"
	StatusDraft = "draft"
)

// SearchVersion is the settings of one version of a search configuration.
type SearchVersion struct {
	// ID names the version within its configuration: a request's id
	// selects it.
	ID int `json:"id"`
	// Status is "live", the version a request without an id gets
	// (exactly one is), or "draft".
	Status string `json:"status"`
	// Fields are the searchable text fields, where query words match,
	// with their weights; at least one.
	Fields []SearchField `json:"fields"`
	// Facets are the filters a search returns with returnFilters, in
	// order.
	Facets []Facet `json:"facets,omitempty"`
	// Sorting are the sort options a search answer offers, in order.
	Sorting []SortOption `json:"sorting,omitempty"`
	// Synonyms expand query terms.
	Synonyms []Synonym `json:"synonyms,omitempty"`
	// Redirects send queries straight to URLs.
	Redirects []Redirect `json:"redirects,omitempty"`
	// InitialContent is what a search returns when it finds no
	// products, or on returnInitialContent; nil: nothing.
	InitialContent *InitialContent `json:"initialContent,omitempty"`
	// Devices override Facets, Sorting and MaxFacetValues for DESKTOP
	// or MOBILE requests, keyed by the device.
	Devices map[string]Device `json:"devices,omitempty"`
	// MaxFacetValues bounds the values a LIST facet returns (its
	// selected values are always returned); 0: 100.
	MaxFacetValues int `json:"maxFacetValues,omitempty"`
	// Template is an html/template for format html; empty: the built-in
	// one (render.DefaultSearch).
	Template string `json:"template,omitempty"`
	// Style and JavaScript go around the rendered html of format html
	// (render.Wrap), the spec's search answer having only html.
	Style      string `json:"style,omitempty"`
	JavaScript string `json:"javascript,omitempty"`
	// Boosts weigh popularity, stock, sale and newness into the ranking;
	// nil: DefaultBoosts.
	Boosts *Boosts `json:"boosts,omitempty"`
	// Proximity weighs titles that hold a query's words side by side, in
	// the order typed: the best ProximityDepth products of a query of two
	// words or more gain Proximity × (the pairs of consecutive words
	// found adjacent / the pairs) of their score. Between 0 (off) and 1;
	// nil: DefaultProximity.
	Proximity *float64 `json:"proximity,omitempty"`
	// ExactForms weighs titles that hold a query's words as typed, a
	// plural ending aside (analysis.Analyzer.Form): the best
	// ProximityDepth products gain ExactForms × (the query's words found
	// so / its words, function words aside) of their score, so
	// "lighting" prefers "Lighting Kit" to "Light Fixture", which its
	// stem also matches. Between 0 (off) and 1; nil: DefaultExactForms.
	ExactForms *float64 `json:"exactForms,omitempty"`
	// K1 is BM25's term frequency saturation: how soon a word's repeats
	// in a product stop adding to its score. Above 0, at most 10; nil:
	// DefaultK1. aisle tune fits it with the field weights.
	K1 *float64 `json:"k1,omitempty"`
	// TypedTypos matches typos of a word as typed as well as of its stem
	// (ranking.Options.TypedTypos): "celing" finds "ceiling". nil: true,
	// which lifted the Home Depot NDCG@10 by 0.0022 (docs/benchmarks.md,
	// Relevance levers).
	TypedTypos *bool `json:"typedTypos,omitempty"`
	// CompoundWords matches words written apart or together
	// (ranking.Options.CompoundWords): "lawn mower" finds "Lawnmower",
	// "doorknob" finds "Door Knob". nil: true, which lifted the Home
	// Depot NDCG@10 by 0.0062.
	CompoundWords *bool `json:"compoundWords,omitempty"`
	// RareWordTypos lets a word that exists as typed but is rare beside a
	// word one typo away also match that word, as a misspelling of it
	// (ranking.Options.RareWordTypos): "toiled" finds "toilet". It needs
	// TypedTypos. nil: true, which lifted the Home Depot NDCG@10 by
	// 0.0013.
	RareWordTypos *bool `json:"rareWordTypos,omitempty"`
	// OptionalStopWords lets a query's function words (the website
	// language's "with", "and", ...) go unmatched when fewer than 10
	// products match every word and partial matches follow
	// (ranking.Options.OptionalStopWords). nil: true, which lifted the
	// Home Depot NDCG@10 by 0.0028.
	OptionalStopWords *bool `json:"optionalStopWords,omitempty"`
}

// DefaultProximity is the proximity weight of a version that sets none:
// on the Home Depot judgments it lifts NDCG@10 from 0.4090 to 0.4134
// (docs/benchmarks.md, Relevance levers), the same from 0.02 to 0.05; a
// larger weight lets a product with its words side by side pass a
// better text match, and loses NDCG.
const DefaultProximity = 0.05

// DefaultExactForms is the exact forms' weight of a version that sets
// none: on the Home Depot judgments it lifts NDCG@10 from 0.4337 to
// 0.4385 (docs/benchmarks.md, Relevance levers); the prototype moved
// within 0.0002 between 0.1 and 1.
const DefaultExactForms = 0.2

// ExactFormsOrDefault is v's exact forms' weight, DefaultExactForms
// when it sets none.
func (v *SearchVersion) ExactFormsOrDefault() float64 {
	return orDefault(v.ExactForms, DefaultExactForms)
}

// ProximityDepth is how many of a query's best products proximity and
// exact forms re-rank: a page of 20. Re-ranking the best 50 gained
// 0.0016 more NDCG@10 for a words search 25% slower, the best 100
// 0.0019 (docs/benchmarks.md, Relevance levers).
const ProximityDepth = 20

// DefaultK1 is BM25's k1 of a version that sets none.
const DefaultK1 = 1.2

// K1OrDefault is v's k1, DefaultK1 when it sets none.
func (v *SearchVersion) K1OrDefault() float64 { return orDefault(v.K1, DefaultK1) }

// ProximityOrDefault is v's proximity weight, DefaultProximity when it
// sets none.
func (v *SearchVersion) ProximityOrDefault() float64 {
	return orDefault(v.Proximity, DefaultProximity)
}

// orDefault is *set, or def when set is nil (a setting left out).
func orDefault(set *float64, def float64) float64 {
	if set == nil {
		return def
	}
	return *set
}

// SearchField is a searchable text field and its BM25F weight.
type SearchField struct {
	// Name is the text field: title, brand, hierarchies, keywords,
	// description, productNumber, variantProductNumbers, extraData
	// (every extraData and extraDataList value), extraData.X or
	// extraDataList.X.
	Name string `json:"name"`
	// Weight is the field's BM25F weight, 0 to 100; a field weighted 0
	// matches without adding to the score.
	Weight float64 `json:"weight"`
	// LengthNormalization is BM25's b for the field, 0 (a long field
	// scores as a short one) to 1 (fully normalised by length); nil: the
	// field's default (ranking.DefaultParams: title 0.6, brand 0.2,
	// categories and keywords 0.3, description 0.75, product number 0,
	// extraData 0.5). Setting the title's to 1.0 moved the Home Depot
	// NDCG@10 by +0.0004 (docs/benchmarks.md, Relevance levers): the
	// defaults stay.
	LengthNormalization *float64 `json:"lengthNormalization,omitempty"`
}

// Facet is a filter the search returns with returnFilters.
type Facet struct {
	// Field is the indexed field the facet filters.
	Field string `json:"field"`
	// Type must fit the field's type: LIST for a keyword or hierarchy
	// field, BOOLEAN for a boolean one, RANGE for a number or a date.
	Type FacetType `json:"type"`
	// Title is the facet's heading, shown to shoppers.
	Title string `json:"title"`
	// FilteringText and NegatedFilteringText label a BOOLEAN facet's
	// two choices ("Only in stock", "Include out of stock").
	FilteringText        string `json:"filteringText,omitempty"`
	NegatedFilteringText string `json:"negatedFilteringText,omitempty"`
}

// SortOption is a sorting the response offers.
type SortOption struct {
	// Field is the indexed sortable field it sorts by.
	Field string `json:"field"`
	// Title is the option's label, shown to shoppers.
	Title string `json:"title"`
	// AscendingText and DescendingText label its two directions
	// ("Lowest first", "Highest first").
	AscendingText  string `json:"ascendingText,omitempty"`
	DescendingText string `json:"descendingText,omitempty"`
}

// Synonym expands a query term. Two-way when From is empty: every term in
// Terms finds the others. One-way otherwise: From finds Terms.
type Synonym struct {
	// From is the term of a one-way synonym, which finds Terms; empty:
	// two-way.
	From string `json:"from,omitempty"`
	// Terms are the terms found: words, or phrases whose every word
	// must be in the product.
	Terms []string `json:"terms"`
}

// Redirect sends a query straight to a URL.
type Redirect struct {
	// Queries are the queries redirected, compared folded with their
	// spaces collapsed; at least one.
	Queries []string `json:"queries"`
	// Title is the redirect's title in a search answer; empty: its
	// first query.
	Title string `json:"title,omitempty"`
	// URL is where the shopper is sent; required.
	URL string `json:"url"`
	// TrackingCode is appended to the URL as #aisle-redirect=CODE.
	TrackingCode string `json:"trackingCode,omitempty"`
}

// InitialContent is returned when products give zero results, or on
// returnInitialContent: fixed products, or a filtered and sorted listing.
type InitialContent struct {
	// ProductNumbers are fixed products, shown in order; when given,
	// Filters, Sorting and Count are not used.
	ProductNumbers []string `json:"productNumbers,omitempty"`
	// Filters, Sorting and Count make a listing instead: the products
	// that pass the filter strings, in the order of the sorting
	// strings, as a search request's, Count of them (0: 10).
	Filters []string `json:"filters,omitempty"`
	Sorting []string `json:"sorting,omitempty"`
	Count   int      `json:"count,omitempty"`
}

// Device overrides parts of a version for DESKTOP or MOBILE requests.
type Device struct {
	// Facets replace the version's facets; nil: the version's.
	Facets []Facet `json:"facets,omitempty"`
	// Sorting replace the version's sort options; nil: the version's.
	Sorting []SortOption `json:"sorting,omitempty"`
	// MaxFacetValues replaces the version's; 0: the version's.
	MaxFacetValues int `json:"maxFacetValues,omitempty"`
}
