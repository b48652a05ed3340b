package catalog

import (
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/goccy/go-json"
)

// Patch applies a partial product to a stored one and returns the product
// as an import would store it, normalized and validated. patch is a JSON
// object in a feed's shape holding only the members to change (a price
// and stock feed sends productNumber, price and inStock); its members and
// types are checked as a feed's are. A member given replaces the stored
// one whole, a list or a map too; members left out keep their stored
// values, except the derived ones: priceLowered is always recomputed, and
// priceFormatted is recomputed when the patch changes price,
// previousPrice or currency without giving it. isOnSale is kept unless
// given (or the new price is lowered): send it with a price that ends a
// sale.
func Patch(stored, patch []byte) (*Product, error) {
	var base Product
	if err := json.Unmarshal(stored, &base); err != nil {
		return nil, fmt.Errorf("the stored product does not decode: %w", err)
	}
	return PatchProduct(&base, patch)
}

// PatchProduct is Patch of a product decoded already; base is left as it
// was. The result shares with base the members the patch leaves out, so
// neither may be changed in place afterwards.
func PatchProduct(base *Product, patch []byte) (*Product, error) {
	if err := json.UnmarshalWithOption(patch, new(Product), strict); err != nil {
		return nil, describeJSON(err, productFields, false)
	}
	var present map[string]json.RawMessage
	if err := json.Unmarshal(patch, &present); err != nil {
		return nil, describeJSON(err, productFields, false)
	}
	given := givenMembers(present)
	p := *base
	clearMembers(&p, given) // so decoding allocates what it sets, never writing into base's
	if err := json.Unmarshal(patch, &p); err != nil {
		return nil, describeJSON(err, productFields, false)
	}
	if !given["priceFormatted"] && (given["price"] || given["previousPrice"] || given["currency"]) {
		p.PriceFormatted = ""
	}
	p.Normalize()
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &p, nil
}

// givenMembers is the product members a patch's object members give,
// by their JSON names. The decoder takes a member's name in any case
// (Unicode simple folding, as strings.EqualFold compares), so
// "EXTRADATA" gives extraData.
func givenMembers(present map[string]json.RawMessage) map[string]bool {
	given := make(map[string]bool, len(present))
	for key := range present {
		for _, name := range productJSONNames() {
			if strings.EqualFold(key, name) {
				given[name] = true
			}
		}
	}
	return given
}

// clearMembers zeroes p's fields whose JSON names are given, so that
// decoding the patch replaces them whole instead of merging maps or
// writing into the slices p shares.
func clearMembers(p *Product, given map[string]bool) {
	v := reflect.ValueOf(p).Elem()
	for i, name := range productJSONNames() {
		if given[name] {
			v.Field(i).SetZero()
		}
	}
}

// productJSONNames are Product's JSON member names, by field index.
var productJSONNames = sync.OnceValue(func() []string {
	t := reflect.TypeFor[Product]()
	names := make([]string, t.NumField())
	for i := range names {
		names[i], _, _ = strings.Cut(t.Field(i).Tag.Get("json"), ",")
	}
	return names
})

// DecodeProduct reads one product, a JSON object in a feed's shape,
// checked as a feed row is (unknown members with suggestions, types);
// the import's rules (Checked) are the caller's to apply.
func DecodeProduct(raw []byte) (*Product, error) {
	p := new(Product)
	if err := json.UnmarshalWithOption(raw, p, strict); err != nil {
		return nil, describeJSON(err, productFields, false)
	}
	return p, nil
}
