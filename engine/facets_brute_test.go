package engine

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/datasets"
	"github.com/aisle-search/aisle/demo"
)

// The facet-correctness check: for random filter combinations, every facet
// count the engine returns equals a count over the catalog by brute force,
// with disjunctive semantics and excludeSiblingFilters.

// bruteFilter evaluates one filter string on a product the slow way.
func bruteMatch(p *catalog.Product, f Filter) bool {
	switch f.Field {
	case "brand":
		return analysis.FoldString(p.Brand) == analysis.FoldString(f.Value) && p.Brand != ""
	case "inStock":
		return strconv.FormatBool(p.InStock) == f.Value
	case "isOnSale":
		return strconv.FormatBool(p.IsOnSale) == f.Value
	case "price":
		return p.Price >= f.Min && p.Price <= f.Max
	case "created":
		u := float64(p.Created.Unix())
		return !p.Created.IsZero() && u >= f.Min && u <= f.Max
	case "hierarchies":
		for _, h := range p.Hierarchies {
			if strings.HasPrefix(strings.Join(h, "$")+"$", f.Value) && prefixAtLevel(h, f.Value) {
				return true
			}
		}
		return false
	}
	if k, ok := strings.CutPrefix(f.Field, "extraData."); ok {
		v, has := p.ExtraData[k]
		return has && analysis.FoldString(v) == analysis.FoldString(f.Value)
	}
	panic("brute force does not know " + f.Field)
}

// prefixAtLevel: "a$b$" is a prefix of the path a,b,c at a level boundary.
func prefixAtLevel(h []string, v string) bool {
	acc := ""
	for _, l := range h {
		acc += l + "$"
		if acc == v {
			return true
		}
	}
	return false
}

// bruteValues lists a product's facet values for a field.
func bruteValues(p *catalog.Product, field string) []string {
	switch field {
	case "brand":
		if p.Brand == "" {
			return nil
		}
		return []string{p.Brand}
	case "inStock":
		return []string{strconv.FormatBool(p.InStock)}
	case "isOnSale":
		return []string{strconv.FormatBool(p.IsOnSale)}
	case "hierarchies":
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
	if k, ok := strings.CutPrefix(field, "extraData."); ok {
		if v, has := p.ExtraData[k]; has {
			return []string{v}
		}
	}
	return nil
}

type bruteCase struct {
	name     string
	w        *config.Website
	key      string
	products []catalog.Product
	gen      *Generation
	// candidate filter values per field
	values map[string][]string
}

func newBruteCase(t *testing.T, name string, w *config.Website, key string, products []catalog.Product) *bruteCase {
	g, err := Build(w, analysis.English, Source{Products: sliceSource(products)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	bc := &bruteCase{name: name, w: w, key: key, products: products, gen: g, values: map[string][]string{}}
	for _, f := range g.search[key].live.cfg.Facets {
		if f.Type == config.FacetRange {
			continue
		}
		seen := map[string]bool{}
		for i := range products {
			for _, v := range bruteValues(&products[i], f.Field) {
				if !seen[v] {
					seen[v] = true
					bc.values[f.Field] = append(bc.values[f.Field], v)
				}
			}
		}
		slices.Sort(bc.values[f.Field])
	}
	return bc
}

func (bc *bruteCase) run(t *testing.T, combos int, seed uint64, queries []string) {
	r := rand.New(rand.NewPCG(seed, seed))
	v := bc.gen.search[bc.key].live
	for c := range combos {
		var filters []string
		for _, f := range v.cfg.Facets {
			if r.IntN(3) != 0 {
				continue
			}
			if f.Type == config.FacetRange {
				if f.Field == "price" {
					lo := r.IntN(300)
					filters = append(filters, fmt.Sprintf("price:%d,%d", lo, lo+r.IntN(2000)))
				}
				continue
			}
			vals := bc.values[f.Field]
			for range 1 + r.IntN(2) {
				filters = append(filters, f.Field+":"+vals[r.IntN(len(vals))])
			}
		}
		var exclude []string
		if r.IntN(4) == 0 && len(filters) > 0 {
			exclude = []string{strings.SplitN(filters[0], ":", 2)[0]}
		}
		query := queries[r.IntN(len(queries))]
		bc.check(t, c, query, filters, exclude)
	}
}

func (bc *bruteCase) check(t *testing.T, combo int, query string, filters, exclude []string) {
	t.Helper()
	g := bc.gen
	count, zero := MaxCount, 0
	req := &SearchRequest{Query: &query, Key: &bc.key, Products: &ProductSettings{
		ContentSettings:       ContentSettings{PageSettings: PageSettings{Count: &zero}, Filters: filters},
		ReturnFilters:         true,
		ExcludeSiblingFilters: exclude,
	}}
	res, err := g.Search(req)
	if err != nil {
		t.Fatalf("combo %d %v: %v", combo, filters, err)
	}
	// The text match set: page through the unfiltered query.
	matched := map[string]bool{}
	for start := 0; ; start += count {
		st := start
		page, err := g.Search(&SearchRequest{Query: &query, Key: &bc.key, Products: &ProductSettings{ContentSettings: ContentSettings{PageSettings: PageSettings{Start: &st, Count: &count}}}})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range page.Products.Hits {
			matched[g.Products.Key(h.Doc)] = true
		}
		if start+count >= page.Products.Total || start+count >= MaxWindow {
			break
		}
	}
	typeOf := func(n string) (config.FieldType, bool) { f, ok := g.fields[n]; return f.Type, ok }
	parsed := map[string][]Filter{}
	for _, s := range filters {
		f, err := ParseFilter(s, typeOf)
		if err != nil {
			t.Fatal(err)
		}
		parsed[f.Field] = append(parsed[f.Field], f)
	}
	passes := func(p *catalog.Product, skip string) bool {
		for field, fs := range parsed {
			if field == skip {
				continue
			}
			ok := false
			for _, f := range fs {
				ok = ok || bruteMatch(p, f)
			}
			if !ok {
				return false
			}
		}
		return true
	}
	total := 0
	for i := range bc.products {
		if matched[bc.products[i].ProductNumber] && passes(&bc.products[i], "") {
			total++
		}
	}
	if total != res.Products.Total {
		t.Fatalf("%s combo %d q=%q %v: total %d, brute force %d", bc.name, combo, query, filters, res.Products.Total, total)
	}
	for _, fo := range res.Products.Filters {
		skip := fo.Name
		if slices.Contains(exclude, fo.Name) {
			skip = ""
		}
		want := map[string]int{}
		lo, hi, any := 0.0, 0.0, false
		for i := range bc.products {
			p := &bc.products[i]
			if !matched[p.ProductNumber] || !passes(p, skip) {
				continue
			}
			if fo.Settings.Type == string(config.FacetRange) {
				if fo.Name == "price" {
					if !any {
						lo, hi, any = p.Price, p.Price, true
					}
					lo, hi = min(lo, p.Price), max(hi, p.Price)
				}
				continue
			}
			for _, v := range bruteValues(p, fo.Name) {
				want[analysis.FoldString(v)]++
			}
		}
		if fo.Settings.Type == string(config.FacetRange) {
			if fo.Name == "price" && any && (fo.Min == nil || *fo.Min != strconv.FormatFloat(lo, 'f', -1, 64) || *fo.Max != strconv.FormatFloat(hi, 'f', -1, 64)) {
				t.Fatalf("%s combo %d %v: price range %v..%v, brute force %v..%v", bc.name, combo, filters, deref(fo.Min), deref(fo.Max), lo, hi)
			}
			continue
		}
		for _, val := range *fo.Values {
			value := strings.TrimPrefix(val.Query, fo.Name+":")
			if w := want[analysis.FoldString(value)]; w != val.Count {
				t.Fatalf("%s combo %d q=%q %v exclude %v: %s count %d, brute force %d", bc.name, combo, query, filters, exclude, val.Query, val.Count, w)
			}
		}
		// Every top-level value with products is listed (up to the cap).
		listed := 0
		for v, n := range want {
			if n > 0 && (fo.Name != "hierarchies" || strings.Count(v, "$") == 1) {
				listed++
			}
		}
		top := 0
		for _, val := range *fo.Values {
			if val.Count == 0 && !val.Selected {
				t.Fatalf("%s: unselected value %s with no products listed", fo.Name, val.Query)
			}
			if val.Count > 0 && (fo.Name != "hierarchies" || strings.Count(val.Query, "$") == 1) {
				top++
			}
		}
		capped := len(*fo.Values) >= 100 // drill-down children share the cap
		if top != min(listed, 100) && !capped {
			t.Fatalf("%s combo %d %v: %s lists %d values, brute force has %d", bc.name, combo, filters, fo.Name, top, listed)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func TestFacetCountsBruteForceDemo(t *testing.T) {
	cfg := demo.Config()
	bc := newBruteCase(t, "demo", &cfg.Websites[0], "demo", demo.Catalog(8000, 3))
	bc.run(t, 220, 1, []string{"*", "*", "*", "lamp", "drill", "black", "garden", "steel chair"})
}

func TestFacetCountsBruteForceFlipkart(t *testing.T) {
	data := datasets.SkipOrDir(t)
	m, err := catalog.BuiltinMapping("flipkart")
	if err != nil {
		t.Fatal(err)
	}
	var products []catalog.Product
	err = catalog.ReadFile(filepath.Join(data, "flipkart", "products.csv"), m, nil, func(p *catalog.Product) error {
		p.Normalize()
		products = append(products, *p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	w := &cfg.Websites[0]
	w.IndexedFields = append(w.IndexedFields, config.IndexedField{Name: "extraData.fkAdvantage", Type: config.TypeKeyword})
	v := &w.Search[0].Versions[0]
	v.Facets = append(v.Facets, config.Facet{Field: "extraData.fkAdvantage", Type: config.FacetList, Title: "FK Advantage"})
	bc := newBruteCase(t, "flipkart", w, config.DefaultKey, products)
	bc.run(t, 200, 2, []string{"*", "*", "shirt", "women", "ring", "mobile cover"})
}
