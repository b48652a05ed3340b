package events

import (
	"reflect"
	"strings"
	"testing"
)

// TestWireTolerances: what real clients of the service the spec
// describes send decodes to the event its canonical form does
// (docs/decisions.md, "Real clients' requests"), and what has another
// meaning stays refused, naming the member.
func TestWireTolerances(t *testing.T) {
	for _, tc := range []struct{ name, loose, canonical, err string }{
		{"view product number as a number",
			`{"kind":"view","websiteUuid":"w","productNumber":123456}`,
			`{"kind":"view","websiteUuid":"w","productNumber":"123456"}`, ""},
		{"cart product numbers as numbers",
			`{"kind":"cart","websiteUuid":"w","productNumbers":[1,"B2",30]}`,
			`{"kind":"cart","websiteUuid":"w","productNumbers":["1","B2","30"]}`, ""},
		{"purchase lines' product numbers as numbers",
			`{"kind":"purchase","websiteUuid":"w","orderNumber":"o1","lines":[{"productNumber":7,"quantity":2,"price":9.5}]}`,
			`{"kind":"purchase","websiteUuid":"w","orderNumber":"o1","lines":[{"productNumber":"7","quantity":2,"price":9.5}]}`, ""},
		{"a page view's referrer",
			`{"kind":"pageview","websiteUuid":"w","url":"https://shop.test/a","referrer":"https://www.google.com/"}`,
			`{"kind":"pageview","websiteUuid":"w","url":"https://shop.test/a"}`, ""},
		{"a fraction is no product number",
			`{"kind":"view","websiteUuid":"w","productNumber":12.5}`, "", "productNumber: expected a string, got number 12.5"},
		{"an exponent is no product number",
			`{"kind":"cart","websiteUuid":"w","productNumbers":[1e3]}`, "", "expected a string, got number 1e3"},
		{"a misspelt member stays refused",
			`{"kind":"view","websiteUuid":"w","productNumbr":"P1"}`, "", `productNumbr: unknown member "productNumbr"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode([]byte(tc.loose))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Decode(%s) = %v, want an error with %q", tc.loose, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Decode(%s): %v", tc.loose, err)
			}
			want, err := Decode([]byte(tc.canonical))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Decode(%s)\n = %+v\nwant %+v", tc.loose, got, want)
			}
			if err := Check(&got); err != nil {
				t.Errorf("Check: %v", err)
			}
		})
	}
}
