package catalog

import (
	"strings"
	"testing"

	"github.com/goccy/go-json"
)

// TestPatch: a partial product changes only the members it gives, each
// replaced whole; derived members follow the new prices; a patch is
// checked as a feed row is, and the result is validated.
func TestPatch(t *testing.T) {
	stored := Product{ProductNumber: "A1", Title: "Drill", Brand: "Bosch", Price: 50, PreviousPrice: 60, Currency: "EUR",
		InStock: true, ExtraData: map[string]string{"color": "green", "size": "m"}}
	stored.Normalize()
	raw, err := json.Marshal(stored)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, patch string
		check       func(p *Product) bool
		err         string
	}{
		{"price and stock only", `{"productNumber":"A1","price":40,"inStock":false}`, func(p *Product) bool {
			return p.Price == 40 && !p.InStock && p.Title == "Drill" && p.Brand == "Bosch" && p.PreviousPrice == 60 &&
				p.PriceLowered && p.PriceFormatted == FormatPrice(40, "EUR") && p.ExtraData["size"] == "m"
		}, ""},
		{"a price above the previous one ends priceLowered, not isOnSale", `{"productNumber":"A1","price":70}`, func(p *Product) bool {
			return !p.PriceLowered && p.IsOnSale && p.PriceFormatted == FormatPrice(70, "EUR")
		}, ""},
		{"isOnSale given", `{"productNumber":"A1","price":70,"isOnSale":false}`, func(p *Product) bool { return !p.IsOnSale }, ""},
		{"priceFormatted given is kept", `{"productNumber":"A1","price":40,"priceFormatted":"40 euros"}`, func(p *Product) bool { return p.PriceFormatted == "40 euros" }, ""},
		{"a map is replaced whole", `{"productNumber":"A1","extraData":{"color":"red"}}`, func(p *Product) bool {
			return len(p.ExtraData) == 1 && p.ExtraData["color"] == "red"
		}, ""},
		{"a member set empty", `{"productNumber":"A1","brand":""}`, func(p *Product) bool { return p.Brand == "" && p.Title == "Drill" }, ""},
		{"unknown member", `{"productNumber":"A1","prise":40}`, nil, `unknown field "prise" (did you mean "price"?)`},
		{"wrong type", `{"productNumber":"A1","price":"cheap"}`, nil, `field "price": expected number`},
		{"not an object", `[1]`, nil, "expected"},
		{"the result must validate", `{"productNumber":"A1","title":"  "}`, nil, `field "title"`},
	} {
		p, err := Patch(raw, []byte(tc.patch))
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err == "" && !tc.check(p):
			t.Errorf("%s: %+v", tc.name, p)
		}
		samePatch(t, raw, []byte(tc.patch))
	}
}

// TestPatchMemberNamesAnyCase: the decoder takes a member's name in any
// case (Unicode simple folding: "EXTRADATA", "inſtock"), and such a
// member replaces the stored one whole and recomputes what derives from
// it, as its exact name does, leaving the base as it was; a row refused
// after such a member changes nothing either.
func TestPatchMemberNamesAnyCase(t *testing.T) {
	stored := Product{ProductNumber: "A1", Title: "Drill", Price: 50, Currency: "EUR",
		ExtraData: map[string]string{"color": "green"}, Hierarchies: [][]string{{"Tools", "Drills"}}}
	stored.Normalize()
	raw, err := json.Marshal(stored)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		patch string
		check func(p *Product) bool
	}{
		{`{"EXTRADATA":{"size":"m"}}`, func(p *Product) bool { return len(p.ExtraData) == 1 && p.ExtraData["size"] == "m" }},
		{`{"Hierarchies":[["Garden"]]}`, func(p *Product) bool { return len(p.Hierarchies) == 1 && p.Hierarchies[0][0] == "Garden" }},
		{`{"PRICE":40}`, func(p *Product) bool { return p.Price == 40 && p.PriceFormatted == FormatPrice(40, "EUR") }},
		{`{"inſtock":true}`, func(p *Product) bool { return p.InStock }},
	} {
		var base Product
		if err := json.Unmarshal(raw, &base); err != nil {
			t.Fatal(err)
		}
		p, err := PatchProduct(&base, []byte(tc.patch))
		if err != nil || !tc.check(p) {
			t.Errorf("%s: %+v, %v", tc.patch, p, err)
		}
		if after, _ := json.Marshal(&base); string(after) != string(raw) {
			t.Errorf("%s: PatchProduct changed its base:\n%s\nwas\n%s", tc.patch, after, raw)
		}
	}
	// A refused row after an applied one: the applied result is kept as it was.
	var base Product
	if err := json.Unmarshal(raw, &base); err != nil {
		t.Fatal(err)
	}
	first, err := PatchProduct(&base, []byte(`{"extraData":{"size":"m"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PatchProduct(first, []byte(`{"ExtraData":{"size":"xl"},"title":" "}`)); err == nil {
		t.Fatal("a blank title was accepted")
	}
	if len(first.ExtraData) != 1 || first.ExtraData["size"] != "m" {
		t.Errorf("a refused patch changed the product it was given: %v", first.ExtraData)
	}
}

// samePatch checks that PatchProduct on the decoded product gives what
// Patch gives, and leaves the product it was given as it was.
func samePatch(t *testing.T, stored, patch []byte) {
	t.Helper()
	var base Product
	if err := json.Unmarshal(stored, &base); err != nil {
		t.Fatal(err)
	}
	want, wantErr := Patch(stored, patch)
	got, err := PatchProduct(&base, patch)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("%s: PatchProduct: %v, Patch: %v", patch, err, wantErr)
	}
	if err == nil {
		w, _ := json.Marshal(want)
		g, _ := json.Marshal(got)
		if string(g) != string(w) {
			t.Errorf("%s: PatchProduct gave %s, Patch %s", patch, g, w)
		}
	}
	if after, _ := json.Marshal(&base); string(after) != string(stored) {
		t.Errorf("%s: PatchProduct changed its base:\n%s\nwas\n%s", patch, after, stored)
	}
}

// FuzzPatch: any patch is refused or gives a product that validates, and
// never panics.
func FuzzPatch(f *testing.F) {
	stored, _ := json.Marshal(Product{ProductNumber: "A1", Title: "Drill", Price: 5, ExtraData: map[string]string{"c": "d"}})
	f.Add([]byte(`{"productNumber":"A1","price":4,"inStock":true}`))
	f.Add([]byte(`{"extraData":{"c":null}}`))
	f.Add([]byte(`{"hierarchies":[["a",""]]}`))
	f.Fuzz(func(t *testing.T, patch []byte) {
		samePatch(t, stored, patch)
		p, err := Patch(stored, patch)
		if err == nil {
			if verr := p.Validate(); verr != nil {
				t.Fatalf("%s gave a product that does not validate: %v", patch, verr)
			}
		}
	})
}

// TestDecodeProduct: one row with a feed's checks, without the import's
// rules (Checked applies those).
func TestDecodeProduct(t *testing.T) {
	p, err := DecodeProduct([]byte(`{"productNumber":" A1 ","price":3}`))
	if err != nil || p.ProductNumber != " A1 " || p.Price != 3 {
		t.Errorf("a row without a title: %+v %v (it is Checked that requires one)", p, err)
	}
	for raw, want := range map[string]string{
		`{"productNumber":"A1","prices":3}`:  `unknown field "prices" (did you mean "price"?)`,
		`{"productNumber":"A1","price":"3"}`: `field "price": expected number`,
		`[1]`:                                "expected",
	} {
		if _, err := DecodeProduct([]byte(raw)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", raw, err, want)
		}
	}
}
