package catalog

import (
	"errors"
	"fmt"
)

// feedProduct is a product as a feed writes it: Product's members, and
// the names the product feeds of the service the spec describes use
// where they differ from the spec's (docs/decisions.md, "Real clients'
// requests"). Each has one meaning in Product:
//
//	oldPrice       previousPrice (the price before the sale)
//	ean            extraData.ean
//	priceExVat     extraDataNumber.priceExVat
//	oldPriceExVat  extraDataNumber.oldPriceExVat
//
// A feed that gives both a name and its alias with different values is
// refused, naming the alias: either would silently change the other.
type feedProduct struct {
	Product
	OldPrice      *float64 `json:"oldPrice"`
	EAN           *string  `json:"ean"`
	PriceExVat    *float64 `json:"priceExVat"`
	OldPriceExVat *float64 `json:"oldPriceExVat"`
}

// errAliasConflict is returned when a product gives a member under both
// its own name and a feed alias, with different values.
var errAliasConflict = errors.New("a member given under two names")

// product moves f's aliases into its Product and returns it.
func (f *feedProduct) product() (*Product, error) {
	p := &f.Product
	if f.OldPrice != nil {
		if p.PreviousPrice != 0 && p.PreviousPrice != *f.OldPrice {
			return nil, fmt.Errorf("oldPrice %v: %w: previousPrice is %v", *f.OldPrice, errAliasConflict, p.PreviousPrice)
		}
		p.PreviousPrice = *f.OldPrice
	}
	if f.EAN != nil {
		if err := setAlias(&p.ExtraData, "ean", *f.EAN); err != nil {
			return nil, err
		}
	}
	for _, n := range []struct {
		name string
		v    *float64
	}{{"priceExVat", f.PriceExVat}, {"oldPriceExVat", f.OldPriceExVat}} {
		if n.v != nil {
			if err := setAlias(&p.ExtraDataNumber, n.name, *n.v); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}

// setAlias sets (*m)[key] to v, refusing another value already there.
func setAlias[V comparable](m *map[string]V, key string, v V) error {
	if old, ok := (*m)[key]; ok && old != v {
		return fmt.Errorf("%s %v: %w: %s.%s is %v", key, v, errAliasConflict, extraName(v), key, old)
	}
	if *m == nil {
		*m = make(map[string]V, 1)
	}
	(*m)[key] = v
	return nil
}

// extraName is the Product member an alias of v's type lands in.
func extraName(v any) string {
	if _, ok := v.(string); ok {
		return "extraData"
	}
	return "extraDataNumber"
}
