package engine

import (
	"math"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/config"
)

func typeOf(name string) (config.FieldType, bool) {
	t, ok := map[string]config.FieldType{
		"brand": config.TypeKeyword, "price": config.TypeNumber, "inStock": config.TypeBoolean,
		"created": config.TypeDate, "hierarchies": config.TypeHierarchy, "title": config.TypeText,
		"extraData.color": config.TypeKeyword,
	}[name]
	return t, ok
}

func TestParseFilter(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		in   string
		want Filter
		err  string
	}{
		{in: "brand:Makita", want: Filter{Field: "brand", Value: "Makita"}},
		{in: "brand:Lingerie, Sleep & Swimwear", want: Filter{Field: "brand", Value: "Lingerie, Sleep & Swimwear"}},
		{in: "brand:a:b", want: Filter{Field: "brand", Value: "a:b"}},
		{in: "extraData.color:Red", want: Filter{Field: "extraData.color", Value: "Red"}},
		{in: "price:10,50", want: Filter{Field: "price", Value: "10,50", IsRange: true, Min: 10, Max: 50}},
		{in: "price:10,", want: Filter{Field: "price", Value: "10,", IsRange: true, Min: 10, Max: inf}},
		{in: "price:,50.5", want: Filter{Field: "price", Value: ",50.5", IsRange: true, Min: math.Inf(-1), Max: 50.5}},
		{in: "price:25", want: Filter{Field: "price", Value: "25", IsRange: true, Min: 25, Max: 25}},
		{in: "created:2024-01-01,2024-12-31", want: Filter{Field: "created", Value: "2024-01-01,2024-12-31", IsRange: true, Min: 1704067200, Max: 1735603200}},
		{in: "created:2024-01-01T12:00:00Z,", want: Filter{Field: "created", Value: "2024-01-01T12:00:00Z,", IsRange: true, Min: 1704110400, Max: inf}},
		{in: "inStock:TRUE", want: Filter{Field: "inStock", Value: "true"}},
		{in: "hierarchies:Tools$Power Tools", want: Filter{Field: "hierarchies", Value: "Tools$Power Tools$"}},
		{in: "hierarchies:Tools$", want: Filter{Field: "hierarchies", Value: "Tools$"}},
		{in: "color:Red", err: `field "color" is not an indexed field`},
		{in: "noseparator", err: "is not of the form field:value"},
		{in: ":x", err: "is not of the form field:value"},
		{in: "price:cheap", err: `"cheap" is not a number`},
		{in: "price:50,10", err: "minimum is above its maximum"},
		{in: "price:,", err: "needs a minimum, a maximum or both"},
		{in: "price:NaN", err: "is not a number"},
		{in: "price:1,Inf", err: "is not a number"},
		{in: "created:NaN", err: "is not ISO 8601"},
		{in: "created:yesterday", err: "is not ISO 8601"},
		{in: "inStock:maybe", err: "must be true or false"},
		{in: "hierarchies:", err: "empty hierarchy value"},
		{in: "title:Drill", err: "text field and cannot be filtered"},
	} {
		got, err := ParseFilter(tc.in, typeOf)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseFilter(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseFilter(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestParseSorting(t *testing.T) {
	for _, tc := range []struct {
		in    string
		field string
		desc  bool
		err   bool
	}{
		{"price asc", "price", false, false},
		{"price DESC", "price", true, false},
		{"  price   desc ", "price", true, false},
		{"price", "price", false, false},
		{"price up", "", false, true},
		{"", "", false, true},
		{"a b c", "", false, true},
	} {
		f, d, err := ParseSorting(tc.in)
		if (err != nil) != tc.err || f != tc.field || d != tc.desc {
			t.Errorf("ParseSorting(%q) = %q %v %v", tc.in, f, d, err)
		}
	}
}

func TestValidate(t *testing.T) {
	s := func(v string) *string { return &v }
	n := func(v int) *int { return &v }
	for _, tc := range []struct {
		req   SearchRequest
		field string
	}{
		{SearchRequest{Key: s("k")}, "query"},
		{SearchRequest{Query: s("q")}, "key"},
		{SearchRequest{Query: s("q"), Key: s("k"), Products: &ProductSettings{}}, "products.count"},
		{SearchRequest{Query: s("q"), Key: s("k"), Products: &ProductSettings{ContentSettings: ContentSettings{PageSettings: PageSettings{Count: n(5), Start: n(-1)}}}}, "products.start"},
		{SearchRequest{Query: s("q"), Key: s("k"), Products: &ProductSettings{ContentSettings: ContentSettings{PageSettings: PageSettings{Count: n(MaxCount + 1)}}}}, "products.count"},
		{SearchRequest{Query: s("q"), Key: s("k"), Brands: &ContentSettings{}}, "brands.count"},
		{SearchRequest{Query: s("q"), Key: s("k"), Redirects: &PageSettings{Count: n(-2)}}, "redirects.count"},
		{SearchRequest{Query: s("q"), Key: s("k"), Format: "xml"}, "format"},
		{SearchRequest{Query: s("q"), Key: s("k"), DeviceType: "TV"}, "deviceType"},
		{SearchRequest{Query: s(strings.Repeat("a", MaxQuery+1)), Key: s("k")}, "query"},
	} {
		err := tc.req.Validate()
		e, ok := err.(*Error)
		if !ok || e.Field != tc.field || e.Kind != KindInvalid {
			t.Errorf("Validate(%+v) = %v, want an invalid-request error on %s", tc.req, err, tc.field)
		}
	}
}
