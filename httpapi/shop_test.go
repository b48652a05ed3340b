package httpapi

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
)

// A shop is a small hand-written catalog served on loopback, so a test
// can state exactly which products a promise is about.

// shopFields are the indexed fields of every test shop.
var shopFields = []config.IndexedField{
	{Name: "brand", Type: config.TypeKeyword},
	{Name: "hierarchies", Type: config.TypeHierarchy},
	{Name: "price", Type: config.TypeNumber, Sortable: true},
	{Name: "inStock", Type: config.TypeBoolean},
	{Name: "isOnSale", Type: config.TypeBoolean},
	{Name: "created", Type: config.TypeDate, Sortable: true},
	{Name: "title", Type: config.TypeText, Sortable: true},
	{Name: "extraData.size", Type: config.TypeKeyword},
	{Name: "extraDataNumber.rating", Type: config.TypeNumber, Sortable: true},
}

// shopSite is a website serving v under the key "shop". v's id, status
// and searchable fields default to 1, live, and title, brand and product
// number.
func shopSite(v config.SearchVersion) config.Website {
	if v.ID == 0 {
		v.ID = 1
	}
	if v.Status == "" {
		v.Status = config.StatusLive
	}
	if v.Fields == nil {
		v.Fields = []config.SearchField{{Name: "title", Weight: 5}, {Name: "brand", Weight: 3}, {Name: "productNumber", Weight: 1}}
	}
	return config.Website{UUID: shopUUID, Name: "Test shop", IndexedFields: shopFields,
		Search: []config.SearchConfig{{Key: "shop", Versions: []config.SearchVersion{v}}}}
}

// serveShop indexes products and content for w and serves them on a
// loopback port with opt, until the test ends. It returns the base URL.
func serveShop(t *testing.T, w config.Website, products []catalog.Product, content []catalog.Content, opt Options) string {
	t.Helper()
	return listen(t, New(engine.New("admin-key", buildShop(t, w, products, content)), opt))
}

// buildShop indexes products and content for w.
func buildShop(t *testing.T, w config.Website, products []catalog.Product, content []catalog.Content) *engine.Generation {
	t.Helper()
	g, err := engine.Build(&w, analysis.English, engine.Source{
		Products: func(fn func(*catalog.Product) error) error {
			for i := range products {
				p := products[i]
				if err := fn(&p); err != nil {
					return err
				}
			}
			return nil
		},
		Content: func(fn func(*catalog.Content) error) error {
			for i := range content {
				c := content[i]
				if err := fn(&c); err != nil {
					return err
				}
			}
			return nil
		},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// listen serves srv on a loopback port until the test ends and returns
// its base URL.
func listen(t *testing.T, srv *Server) string {
	t.Helper()
	hs := srv.HTTPServer()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(ln) //nolint:errcheck // ends at Shutdown
	t.Cleanup(func() { _ = hs.Shutdown() })
	return "http://" + ln.Addr().String()
}

// day is midnight UTC of an ISO date.
func day(s string) time.Time {
	tm, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return tm
}

// hardware is the shop most tests share: eight products in two
// departments, five brands (one with an accent), a few prices around 25,
// dates around unix second 1,700,000,000, and ratings on some products
// only. Its product numbers are not in title, price or date order.
func hardware() []catalog.Product {
	tools := func(sub, leaf string) [][]string { return [][]string{{"Tools", sub, leaf}} }
	garden := func(sub string) [][]string { return [][]string{{"Garden", sub}} }
	return []catalog.Product{
		{ProductNumber: "P06", Title: "Watering can", Brand: "Zinc & Co", Hierarchies: garden("Watering"), Price: 25.01, InStock: false,
			Created: time.Unix(1_700_000_000, 0).UTC(), ExtraDataNumber: map[string]float64{"rating": 4}, ExtraData: map[string]string{"size": "L"}},
		{ProductNumber: "P01", Title: "Claw hammer", Brand: "Müller", Hierarchies: tools("Hand Tools", "Hammers"), Price: 25, InStock: true,
			Created: day("2023-01-10"), ExtraDataNumber: map[string]float64{"rating": 4.5}, ExtraData: map[string]string{"size": "M", "color": "red"}},
		{ProductNumber: "P02", Title: "Sledge hammer", Brand: "Acme", Hierarchies: tools("Hand Tools", "Hammers"), Price: 49.5, InStock: false,
			Created: day("2023-06-01"), ExtraDataNumber: map[string]float64{"rating": 4}, ExtraData: map[string]string{"size": "L"}},
		{ProductNumber: "P03", Title: "Cordless drill", Brand: "Acme", Hierarchies: tools("Power Tools", "Drills"), Price: 89, PreviousPrice: 99, PriceLowered: true, IsOnSale: true, InStock: true,
			Created: day("2024-02-01"), ExtraDataNumber: map[string]float64{"rating": 4.5}},
		{ProductNumber: "P04", Title: "Hammer drill", Brand: "Bosch", Hierarchies: tools("Power Tools", "Drills"), Price: 120, InStock: true,
			Created: day("2024-03-15")},
		{ProductNumber: "P05", Title: "Garden hose", Brand: "Acme", Hierarchies: garden("Watering"), Price: 24.99, InStock: true,
			Created: day("2022-05-05"), ExtraDataNumber: map[string]float64{"rating": 3.5}},
		{ProductNumber: "P08", Title: "Felco secateurs", Brand: "Felco", Hierarchies: garden("Cutting"), Price: 50, PreviousPrice: 55, PriceLowered: true, IsOnSale: true, InStock: true,
			Created: day("2024-01-01"), ExtraDataNumber: map[string]float64{"rating": 5}},
		{ProductNumber: "P07", Title: "Pruning shears deluxe", Brand: "Bosch", Hierarchies: garden("Cutting"), Price: 10, InStock: true,
			Created: time.Unix(1_699_999_999, 0).UTC()},
	}
}

// hardwareFacets are the facets of the hardware shop's search
// configuration: one of each type.
var hardwareFacets = []config.Facet{
	{Field: "brand", Type: config.FacetList, Title: "Brand"},
	{Field: "hierarchies", Type: config.FacetList, Title: "Category"},
	{Field: "price", Type: config.FacetRange, Title: "Price"},
	{Field: "isOnSale", Type: config.FacetBoolean, Title: "On sale", FilteringText: "Only on sale", NegatedFilteringText: "Everything"},
	{Field: "created", Type: config.FacetRange, Title: "Added"},
}

// hardwareShop serves the hardware catalog with its facets, sorting
// options and a price-sorted initial listing.
func hardwareShop(t *testing.T) string {
	t.Helper()
	return serveShop(t, shopSite(config.SearchVersion{
		Facets:  hardwareFacets,
		Sorting: []config.SortOption{{Field: "price", Title: "Price"}, {Field: "created", Title: "Newest"}},
	}), hardware(), nil, Options{})
}

// productNumbers lists the product numbers of r's products in order,
// failing the test when r has none.
func productNumbers(t *testing.T, r reply) []string {
	t.Helper()
	return resultNumbers(t, r, "results")
}

// resultNumbers lists the product numbers of r's products.<member>.
func resultNumbers(t *testing.T, r reply, member string) []string {
	t.Helper()
	items, ok := r.get("products", member).([]any)
	if !ok {
		t.Fatalf("products.%s is missing: %s", member, r.raw)
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		pn, _ := it.(map[string]any)["productNumber"].(string)
		out = append(out, pn)
	}
	return out
}

// filtered lists the product numbers (up to 10) that the wildcard finds
// with one filter.
func filtered(t *testing.T, url, filter string) []string {
	t.Helper()
	return resultNumbers(t, searchOK(t, url, q("*", fmt.Sprintf(`"count":10,"fields":["productNumber"],"filters":[%q]`, filter))), "results")
}

// filterCase is a filter and the product numbers it finds, in
// product-number order.
type filterCase struct {
	filter string
	want   []string
}

// checkFilters lists the catalog under each case's filter.
func checkFilters(t *testing.T, url string, cases []filterCase) {
	t.Helper()
	for _, tc := range cases {
		if got := filtered(t, url, tc.filter); !slices.Equal(got, tc.want) {
			t.Errorf("%s finds %v, want %v", tc.filter, got, tc.want)
		}
	}
}

// searchOK posts body to url and fails the test unless it answers 200.
func searchOK(t *testing.T, url, body string) reply {
	t.Helper()
	r := post(t, url, "application/json", body)
	if r.status != 200 {
		t.Fatalf("%s: %d %s", body, r.status, r.raw)
	}
	return r
}

// q makes a search body for the key "shop": the query and the products
// settings, given as the inside of a JSON object.
func q(query, products string) string {
	b, _ := stdjson.Marshal(query)
	return fmt.Sprintf(`{"query":%s,"key":"shop","products":{%s}}`, b, products)
}

// member is the raw JSON of r's member at path, in the server's bytes and
// member order.
func member(t *testing.T, raw string, path ...string) stdjson.RawMessage {
	t.Helper()
	v := stdjson.RawMessage(raw)
	for _, p := range path {
		var m map[string]stdjson.RawMessage
		if err := stdjson.Unmarshal(v, &m); err != nil {
			t.Fatalf("%s is not an object: %v", p, err)
		}
		var ok bool
		if v, ok = m[p]; !ok {
			t.Fatalf("no member %s in %s", p, v)
		}
	}
	return v
}

// pretty formats JSON for a golden file: a container that fits on a line
// of about 120 characters stays on one line (one facet value, one error),
// a larger one has a member or element per line. Member order and the
// server's escapes are kept.
func pretty(t *testing.T, raw []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := prettyTo(&buf, raw, ""); err != nil {
		t.Fatalf("pretty: %v\n%s", err, raw)
	}
	buf.WriteByte('\n')
	return buf.Bytes()
}

func prettyTo(buf *bytes.Buffer, raw []byte, indent string) error {
	var compact bytes.Buffer
	if err := stdjson.Compact(&compact, raw); err != nil {
		return err
	}
	c := compact.Bytes()
	if len(indent)+len(c) <= 120 || (c[0] != '{' && c[0] != '[') {
		buf.Write(c)
		return nil
	}
	dec := stdjson.NewDecoder(bytes.NewReader(c))
	open, err := dec.Token()
	if err != nil {
		return err
	}
	obj := open == stdjson.Delim('{')
	closer := byte(']')
	if obj {
		closer = '}'
	}
	buf.WriteByte(c[0])
	inner := indent + "  "
	for n := 0; dec.More(); n++ {
		if n > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString("\n" + inner)
		if obj {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			kb, _ := stdjson.Marshal(k)
			buf.Write(kb)
			buf.WriteString(": ")
		}
		var v stdjson.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		if err := prettyTo(buf, v, inner); err != nil {
			return err
		}
	}
	buf.WriteString("\n" + indent)
	buf.WriteByte(closer)
	return nil
}

// shopUUID is the test shop's website id.
const shopUUID = "00000000-0000-4000-8000-00000000a001"
