package bench

import (
	"fmt"
	"strings"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/engine"
)

// Suite is a named benchmark catalog with the website that indexes it and
// the phrases shoppers search it with, so every engine and every command
// measures the same thing.
type Suite struct {
	Name      string
	Products  Products
	Website   *config.Website
	Key       string    // the search configuration to query
	Judgments Judgments // nil without human judgments
	// Classes are the query classes the catalog can express: Home Depot's
	// products have titles only (no brand, category or price), so its
	// filter, facet and category classes would measure empty filters.
	Classes []Class
	queries []string
}

// Suites names the catalogs LoadSuite knows.
var Suites = []string{"demo", "flipkart", "homedepot"}

// FacetFields are the four facets class 3 asks for, on every engine: a
// LIST of brands, a LIST of category paths, a RANGE of prices and a
// BOOLEAN of stock.
var FacetFields = []string{"brand", "hierarchies", "price", "inStock"}

// LoadSuite prepares catalog name: "demo" is n generated products (seed
// 42); "flipkart" and "homedepot" are the real catalogs under sharedData
// (found beside the checkout when empty).
func LoadSuite(name string, n int, sharedData string) (*Suite, error) {
	s := &Suite{Name: name, Classes: Classes}
	switch name {
	case "demo":
		cfg := demo.Config()
		s.Website, s.Key, s.Products, s.queries = &cfg.Websites[0], "demo", Generated(n, 42), demo.Queries(2000, 7)
	case "flipkart", "homedepot":
		if sharedData == "" {
			var err error
			if sharedData, err = FindSharedData(); err != nil {
				return nil, err
			}
		}
		var err error
		if s.Products, err = CSVCatalog(sharedData, name); err != nil {
			return nil, err
		}
		cfg := config.Default(WebsiteUUID)
		s.Website, s.Key = &cfg.Websites[0], config.DefaultKey
		if name == "homedepot" {
			if s.Judgments, err = LoadJudgments(HomeDepotJudgments(sharedData)); err != nil {
				return nil, err
			}
			s.queries = s.Judgments.Terms()
			s.Classes = []Class{ClassWords, ClassTypo}
		}
	default:
		return nil, fmt.Errorf("unknown catalog %q (%s)", name, strings.Join(Suites, ", "))
	}
	keepFacets(s.Website, FacetFields)
	return s, nil
}

// Queries is the suite's search phrases: the generator's for the demo,
// the judged terms for Home Depot, and words of the indexed titles for
// Flipkart, which has no query log.
func (s *Suite) Queries(g *engine.Generation) []string {
	if s.queries == nil {
		s.queries = TitleQueries(g, 2000)
	}
	return s.queries
}

// keepFacets narrows every search version's facets to fields, in order.
func keepFacets(w *config.Website, fields []string) {
	for i := range w.Search {
		for j := range w.Search[i].Versions {
			v := &w.Search[i].Versions[j]
			var kept []config.Facet
			for _, f := range fields {
				for _, fc := range v.Facets {
					if fc.Field == f {
						kept = append(kept, fc)
					}
				}
			}
			v.Facets = kept
			v.Devices = nil
		}
	}
}

// TitleQueries draws one- and two-word queries from the catalog's titles.
func TitleQueries(g *engine.Generation, n int) []string {
	out := make([]string, 0, n)
	for d := 0; d < g.Products.Len() && len(out) < n; d += 7 {
		var p struct{ Title string }
		if json.Unmarshal(g.Products.Stored(uint32(d)), &p) != nil {
			continue
		}
		words := strings.FieldsFunc(p.Title, func(r rune) bool { return r == ' ' || r == ',' || r == '(' || r == ')' })
		words = slicesDeleteShort(words)
		if len(words) == 0 {
			continue
		}
		q := words[len(words)/2]
		if len(words) > 1 && d%2 == 0 {
			q = words[0] + " " + words[len(words)-1]
		}
		out = append(out, q)
	}
	return out
}

func slicesDeleteShort(words []string) []string {
	out := words[:0]
	for _, w := range words {
		if len([]rune(w)) > 2 {
			out = append(out, w)
		}
	}
	return out
}

// WebsiteUUID is the website id of the Flipkart and Home Depot suites'
// configuration (config.Default's): fixed, so a benchmark's data
// directory is the same from run to run.
const WebsiteUUID = "00000000-0000-4000-8000-00000000bec0"
