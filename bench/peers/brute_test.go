package peers

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
)

// bruteFilters are an Aisle request's filters evaluated in Go over the
// products: the reference every adapter's filtering and facet counts are
// checked against. Values of one field are ORed, fields ANDed.
type bruteFilters map[string][]string // field → values

func parseBrute(filters []string) bruteFilters {
	b := bruteFilters{}
	for _, f := range filters {
		field, v, _ := strings.Cut(f, ":")
		if field == "hierarchies" && !strings.HasSuffix(v, "$") {
			v += "$"
		}
		b[field] = append(b[field], v)
	}
	return b
}

// productPaths are a product's hierarchy filter values: "a$", "a$b$", ….
func productPaths(p *catalog.Product) []string {
	var out []string
	for _, h := range p.Hierarchies {
		acc := ""
		for _, l := range h {
			acc += l + "$"
			if !slices.Contains(out, acc) {
				out = append(out, acc)
			}
		}
	}
	return out
}

// pass reports whether p passes the filters of field. A range is read by
// Aisle's own filter parser, the semantics the adapters reproduce.
func (b bruteFilters) pass(t testing.TB, p *catalog.Product, field string) bool {
	t.Helper()
	vals, ok := b[field]
	if !ok {
		return true
	}
	for _, v := range vals {
		switch field {
		case "brand":
			if p.Brand == v {
				return true
			}
		case "hierarchies":
			if slices.Contains(productPaths(p), v) {
				return true
			}
		case "inStock":
			if strconv.FormatBool(p.InStock) == v {
				return true
			}
		case "price":
			f, err := engine.ParseFilter("price:"+v, func(string) (config.FieldType, bool) { return config.TypeNumber, true })
			if err != nil {
				t.Fatal(err)
			}
			if p.Price >= f.Min && p.Price <= f.Max {
				return true
			}
		default:
			t.Fatalf("brute force does not know %s", field)
		}
	}
	return false
}

// passAll reports whether p passes every field's filters but except's.
func (b bruteFilters) passAll(t testing.TB, p *catalog.Product, except string) bool {
	t.Helper()
	for field := range b {
		if field != except && !b.pass(t, p, field) {
			return false
		}
	}
	return true
}

// bruteCounts are the bench's four facets over a text match set, each
// counted with its own field's filters left out (disjunctive), and the
// total that passes every filter.
type bruteCounts struct {
	Total              int
	Brand, Hierarchies map[string]int
	InStock            map[bool]int
	PriceMin, PriceMax float64
	PriceN             int // products the price range is over
}

func bruteFacets(t testing.TB, products map[string]*catalog.Product, matches map[string]bool, b bruteFilters) bruteCounts {
	t.Helper()
	c := bruteCounts{Brand: map[string]int{}, Hierarchies: map[string]int{}, InStock: map[bool]int{}}
	for pn := range matches {
		p := products[pn]
		if p == nil {
			t.Fatalf("match %q is not in the catalog", pn)
		}
		if b.passAll(t, p, "") {
			c.Total++
		}
		if b.passAll(t, p, "brand") && p.Brand != "" {
			c.Brand[p.Brand]++
		}
		if b.passAll(t, p, "hierarchies") {
			for _, h := range productPaths(p) {
				c.Hierarchies[h]++
			}
		}
		if b.passAll(t, p, "price") {
			if c.PriceN == 0 {
				c.PriceMin, c.PriceMax = p.Price, p.Price
			}
			c.PriceMin, c.PriceMax = min(c.PriceMin, p.Price), max(c.PriceMax, p.Price)
			c.PriceN++
		}
		if b.passAll(t, p, "inStock") {
			c.InStock[p.InStock]++
		}
	}
	return c
}

// searchRequest is an Aisle search request for the adapters' tests.
func searchRequest(q string, count int, filters, sorting []string, facets bool) *engine.SearchRequest {
	return &engine.SearchRequest{Query: &q, Products: &engine.ProductSettings{
		ContentSettings: engine.ContentSettings{PageSettings: engine.PageSettings{Count: &count}, Filters: filters},
		Sorting:         sorting, ReturnFilters: engine.Flag(facets),
	}}
}
