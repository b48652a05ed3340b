package catalog

import (
	"math"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	ok := func() *Product { return &Product{ProductNumber: "1", Title: "t", Price: 1} }
	for _, tc := range []struct {
		name   string
		change func(p *Product)
		want   string // "" for valid
	}{
		{"minimal", func(*Product) {}, ""},
		{"free", func(p *Product) { p.Price = 0 }, ""},
		{"full", func(p *Product) {
			p.Hierarchies = [][]string{{"A", "B"}, {"C"}}
			p.ExtraData = map[string]string{"k": "v"}
			p.ExtraDataNumber = map[string]float64{"n": 1}
			p.ExtraDataList = map[string][]string{"l": {"x"}}
		}, ""},
		{"no number", func(p *Product) { p.ProductNumber = "" }, `field "productNumber": is required`},
		{"no title", func(p *Product) { p.Title = "" }, `field "title": is required`},
		{"longest title", func(p *Product) { p.Title = strings.Repeat("é", MaxTitleBytes/2) }, ""},
		{"long title", func(p *Product) { p.Title = strings.Repeat("a", MaxTitleBytes+1) }, `field "title": is 4097 bytes long: at most 4096`},
		{"highest price", func(p *Product) { p.Price, p.PreviousPrice = MaxPrice, MaxPrice }, ""},
		{"negative price", func(p *Product) { p.Price = -1 }, `field "price": must be a number from 0 to 1e+13, got -1`},
		{"infinite price", func(p *Product) { p.Price = math.Inf(1) }, `field "price"`},
		{"NaN price", func(p *Product) { p.Price = math.NaN() }, `field "price"`},
		{"price past the limit", func(p *Product) { p.Price = math.Nextafter(MaxPrice, math.Inf(1)) }, `field "price": must be a number from 0 to 1e+13`},
		{"largest float price", func(p *Product) { p.Price = math.MaxFloat64 }, `field "price": must be a number from 0 to 1e+13, got 1.7976931348623157e+308`},
		{"negative previous", func(p *Product) { p.PreviousPrice = -2 }, `field "previousPrice"`},
		{"previous past the limit", func(p *Product) { p.PreviousPrice = 1.7e308 }, `field "previousPrice": must be a number from 0 to 1e+13`},
		{"NaN previous", func(p *Product) { p.PreviousPrice = math.NaN() }, `field "previousPrice"`},
		{"empty path", func(p *Product) { p.Hierarchies = [][]string{{"A"}, {}} }, `field "hierarchies[1]": is an empty path`},
		{"empty level", func(p *Product) { p.Hierarchies = [][]string{{"A", " "}} }, `field "hierarchies[0][1]": is empty`},
		{"dollar level", func(p *Product) { p.Hierarchies = [][]string{{"A$B"}} }, `field "hierarchies[0][0]": must not contain $`},
		{"dotted key", func(p *Product) { p.ExtraData = map[string]string{"a.b": "x"} }, `field "extraData": key "a.b" must be non-empty and without '.'`},
		{"empty key", func(p *Product) { p.ExtraDataList = map[string][]string{"": nil} }, `field "extraDataList": key ""`},
		{"dotted number key", func(p *Product) { p.ExtraDataNumber = map[string]float64{"a.b": 1} }, `field "extraDataNumber"`},
		{"NaN number", func(p *Product) { p.ExtraDataNumber = map[string]float64{"n": math.NaN()} }, `field "extraDataNumber.n": must be a finite number`},
	} {
		p := ok()
		tc.change(p)
		err := p.Validate()
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: Validate() = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestNormalize(t *testing.T) {
	for _, tc := range []struct {
		in              Product
		lowered, onSale bool
		formatted       string
	}{
		{Product{Price: 379, PreviousPrice: 999, Currency: "INR"}, true, true, "₹379.00"},
		{Product{Price: 10, PreviousPrice: 10, Currency: "USD"}, false, false, "$10.00"},
		{Product{Price: 10, Currency: "EUR", IsOnSale: true}, false, true, "10,00 €"},     // the feed's isOnSale stays
		{Product{Price: 10, PreviousPrice: 5, PriceLowered: true}, false, false, "10.00"}, // recomputed
		{Product{Price: 1299, PriceFormatted: "kr 1299,-"}, false, false, "kr 1299,-"},    // kept when given
	} {
		p := tc.in
		p.Normalize()
		if p.PriceLowered != tc.lowered || p.IsOnSale != tc.onSale || p.PriceFormatted != tc.formatted {
			t.Errorf("Normalize(%+v) = lowered %v, onSale %v, %q; want %v, %v, %q", tc.in, p.PriceLowered, p.IsOnSale, p.PriceFormatted, tc.lowered, tc.onSale, tc.formatted)
		}
	}
}

func TestFormatPrice(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		cur  string
		want string
	}{
		{1299, "USD", "$1,299.00"}, {1299, "usd", "$1,299.00"}, {1299, "EUR", "1.299,00 €"}, {1299.5, "DKK", "1.299,50 kr."},
		{1299, "NOK", "1.299,00 kr."}, {1299, "SEK", "1.299,00 kr."}, {1299, "INR", "₹1,299.00"},
		{1234567.891, "INR", "₹1,234,567.89"}, {5, "", "5.00"}, {1299, "CHF", "1,299.00 CHF"}, {100, "GBP", "£100.00"},
		{0, "USD", "$0.00"}, {999.999, "USD", "$1,000.00"}, {-1234.5, "USD", "$-1,234.50"}, {123456, "EUR", "123.456,00 €"},
	} {
		if got := FormatPrice(tc.v, tc.cur); got != tc.want {
			t.Errorf("FormatPrice(%v, %q) = %q, want %q", tc.v, tc.cur, got, tc.want)
		}
	}
}

// TestChecked: the import's rules as one wrapper: products reach fn
// normalized, and the first invalid one stops the feed with its position
// and number.
func TestChecked(t *testing.T) {
	var got []Product
	fn := Checked(func(p *Product) error { got = append(got, *p); return nil })
	if err := fn(&Product{ProductNumber: " A ", Title: "a", Price: 5, PreviousPrice: 9}); err != nil {
		t.Fatal(err)
	}
	err := fn(&Product{ProductNumber: "B"})
	if err == nil || !strings.HasPrefix(err.Error(), `product 2 (B): field "title"`) {
		t.Errorf("the second product, without a title: %v", err)
	}
	if len(got) != 1 || got[0].ProductNumber != "A" || !got[0].PriceLowered || !got[0].IsOnSale || got[0].PriceFormatted == "" {
		t.Errorf("fn saw %+v, want A normalized and B not at all", got)
	}
}
