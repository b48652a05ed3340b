package catalog

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestFeedAliases: a product written with the feed names of the service
// the spec describes reads as the product in the spec's names, in both
// JSON formats; a name and its alias that disagree are refused.
func TestFeedAliases(t *testing.T) {
	for _, tc := range []struct {
		name, loose, canonical string
		err                    error
	}{
		{"oldPrice is previousPrice",
			`{"productNumber":"P1","title":"t","price":80,"oldPrice":100}`,
			`{"productNumber":"P1","title":"t","price":80,"previousPrice":100}`, nil},
		{"ean and prices without VAT are extra data",
			`{"productNumber":"P1","title":"t","price":100,"ean":"5701234567890","priceExVat":80,"oldPriceExVat":104,"extraData":{"color":"red"}}`,
			`{"productNumber":"P1","title":"t","price":100,"extraData":{"color":"red","ean":"5701234567890"},"extraDataNumber":{"priceExVat":80,"oldPriceExVat":104}}`, nil},
		{"both names, one value",
			`{"productNumber":"P1","title":"t","price":80,"oldPrice":100,"previousPrice":100}`,
			`{"productNumber":"P1","title":"t","price":80,"previousPrice":100}`, nil},
		{"both names, two values", `{"productNumber":"P1","title":"t","price":80,"oldPrice":100,"previousPrice":90}`, "", errAliasConflict},
		{"ean and extraData.ean differ", `{"productNumber":"P1","title":"t","price":1,"ean":"1","extraData":{"ean":"2"}}`, "", errAliasConflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, f := range []struct {
				format Format
				wrap   func(string) string
			}{{FormatJSONL, func(s string) string { return s + "\n" }}, {FormatJSON, func(s string) string { return "[" + s + "]" }}} {
				got, err := readFeedOne(f.format, f.wrap(tc.loose))
				if tc.err != nil {
					if !errors.Is(err, tc.err) {
						t.Fatalf("%s: err = %v, want %v", f.format, err, tc.err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", f.format, err)
				}
				want, err := readFeedOne(f.format, f.wrap(tc.canonical))
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: got %+v\nwant %+v", f.format, got, want)
				}
			}
		})
	}
}

// readFeedOne reads a feed of one product.
func readFeedOne(format Format, feed string) (*Product, error) {
	var got *Product
	err := Read(strings.NewReader(feed), ReadOptions{Format: format}, func(p *Product) error {
		got = p
		return nil
	})
	return got, err
}
