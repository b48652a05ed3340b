// Package catalog holds the shop's data as Aisle receives it: products and
// content items in the spec's field names, and the readers that turn feed
// files (JSONL, JSON arrays, CSV) into them.
package catalog

import "time"

// Product is one sellable item in the spec's field names, so a feed, the
// stored document and a search result share one shape.
type Product struct {
	ProductNumber         string              `json:"productNumber"`
	Title                 string              `json:"title"`
	URL                   string              `json:"url,omitempty"`
	ImgURL                string              `json:"imgUrl,omitempty"`
	Currency              string              `json:"currency,omitempty"`
	Price                 float64             `json:"price"`
	PreviousPrice         float64             `json:"previousPrice,omitempty"`
	PriceLowered          bool                `json:"priceLowered"`
	PriceFormatted        string              `json:"priceFormatted,omitempty"`
	Description           string              `json:"description,omitempty"`
	Keywords              string              `json:"keywords,omitempty"`
	InStock               bool                `json:"inStock"`
	VariantProductNumbers []string            `json:"variantProductNumbers,omitempty"`
	GroupingKey           string              `json:"groupingKey,omitempty"`
	Brand                 string              `json:"brand,omitempty"`
	Hierarchies           [][]string          `json:"hierarchies,omitempty"`
	IsOnSale              bool                `json:"isOnSale"`
	Created               time.Time           `json:"created,omitzero"`
	ExtraData             map[string]string   `json:"extraData,omitempty"`
	ExtraDataNumber       map[string]float64  `json:"extraDataNumber,omitempty"`
	ExtraDataList         map[string][]string `json:"extraDataList,omitempty"`
}

// ContentKind names the non-product types a search can return, so one
// index and one store serve all four.
type ContentKind string

// The content kinds, named as the search request's members.
const (
	KindCategory ContentKind = "categories"
	KindBrand    ContentKind = "brands"
	KindSitePage ContentKind = "sitePages"
	KindBlogPost ContentKind = "blogPosts"
)

// ContentKinds lists every kind in the order responses present them.
var ContentKinds = []ContentKind{KindCategory, KindBrand, KindSitePage, KindBlogPost}

// Content is a category, brand, site page or blog post: searchable by
// title, description and keywords, returned with the requested fields.
type Content struct {
	Kind        ContentKind       `json:"kind"`
	ID          string            `json:"id"`
	Title       string            `json:"title"`
	Description string            `json:"description,omitempty"`
	URL         string            `json:"url,omitempty"`
	Keywords    string            `json:"keywords,omitempty"`
	Hierarchy   []string          `json:"hierarchy,omitempty"`
	ImgURL      string            `json:"imgUrl,omitempty"`
	ExtraData   map[string]string `json:"extraData,omitempty"`
}
