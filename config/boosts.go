package config

import (
	"fmt"
	"math"
)

// Boosts lift products in a search configuration version's ranking by
// what shoppers do and by the products' state. Each factor of a product
// is between 0 and 1:
//
//   - popularity: its decayed views, carts and buys (the short window,
//     views + 3 carts + 5 buys), log-scaled so the most popular product
//     of the website is 1;
//   - in stock: 1 when the indexed boolean field inStock is true;
//   - on sale: 1 when the indexed boolean field isOnSale is true, or
//     when the indexed numbers previousPrice is above price;
//   - newness: 2^(-age/NewnessHalfLifeDays) by the indexed date created.
//
// The boost B is the sum of each weight times its factor, and a text
// match's score is multiplied by 1+B (docs/decisions.md, "Popularity in
// search"): text relevance leads, and a boost only reorders products
// whose text scores are within a factor 1+ΣW of each other.
type Boosts struct {
	// Popularity, InStock, OnSale and Newness are the factors' weights,
	// each between 0 and 1; 0 turns a factor off.
	Popularity float64 `json:"popularity"`
	InStock    float64 `json:"inStock"`
	OnSale     float64 `json:"onSale"`
	Newness    float64 `json:"newness"`
	// NewnessHalfLifeDays is how many days after created a product's
	// newness is half; default 30.
	NewnessHalfLifeDays float64 `json:"newnessHalfLifeDays,omitempty"`
	// Listing orders a search with no text (the wildcard "*" and empty
	// queries, which category listings are): "catalog" (the default) in
	// catalog order, "popularity" by B, then catalog order. A request's
	// sorting leads either way; B, like a text score, breaks its ties.
	Listing string `json:"listing,omitempty"`
}

// The listing orders.
const (
	ListingCatalog    = "catalog"
	ListingPopularity = "popularity"
)

// DefaultBoosts are a version's boosts when it gives none: a small
// popularity weight, which reorders near ties by what sells, and catalog
// order for listings.
var DefaultBoosts = Boosts{Popularity: 0.1}

// DefaultNewnessHalfLifeDays is the newness half-life when a version
// gives none.
const DefaultNewnessHalfLifeDays = 30

// BoostsOrDefault is v's boosts, DefaultBoosts when it gives none.
func (v *SearchVersion) BoostsOrDefault() Boosts {
	if v.Boosts == nil {
		return DefaultBoosts
	}
	return *v.Boosts
}

// validateBoosts checks each weight and that the fields a weighted
// factor reads are indexed with their types.
func (w *Website) validateBoosts(b *Boosts) error {
	for _, c := range []struct {
		name string
		v    float64
	}{{"popularity", b.Popularity}, {"inStock", b.InStock}, {"onSale", b.OnSale}, {"newness", b.Newness}} {
		if !(c.v >= 0 && c.v <= 1) {
			return fmt.Errorf("boosts.%s: want a weight between 0 and 1, got %v", c.name, c.v)
		}
	}
	if d := b.NewnessHalfLifeDays; d < 0 || math.IsNaN(d) || math.IsInf(d, 0) {
		return fmt.Errorf("boosts.newnessHalfLifeDays: want days above 0 (0: the default, %d), got %v", DefaultNewnessHalfLifeDays, d)
	}
	switch b.Listing {
	case "", ListingCatalog, ListingPopularity:
	default:
		return fmt.Errorf("boosts.listing: want %q or %q, got %q", ListingCatalog, ListingPopularity, b.Listing)
	}
	if b.InStock > 0 && !w.hasField("inStock", TypeBoolean) {
		return fmt.Errorf("boosts.inStock: needs inStock indexed as a boolean field")
	}
	if b.OnSale > 0 && !w.hasField("isOnSale", TypeBoolean) && !(w.hasField("price", TypeNumber) && w.hasField("previousPrice", TypeNumber)) {
		return fmt.Errorf("boosts.onSale: needs isOnSale indexed as a boolean field, or price and previousPrice as number fields")
	}
	if b.Newness > 0 && !w.hasField("created", TypeDate) {
		return fmt.Errorf("boosts.newness: needs created indexed as a date field")
	}
	return nil
}

// hasField reports that name is indexed with type t.
func (w *Website) hasField(name string, t FieldType) bool {
	f, ok := w.Field(name)
	return ok && f.Type == t
}
