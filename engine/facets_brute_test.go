package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/internal/expect"
)

// The facet-correctness check: for random queries and filter
// combinations, the facets the engine returns equal a brute-force
// computation over the catalog. The text matches come from the reference
// matcher (reference_match_test.go), not from the engine; counts are
// disjunctive (a field's own filter is left out of its base) unless the
// request names the field in excludeSiblingFilters; every configured facet
// of the version, or of its device override, is present in order.

// bruteMatch evaluates one filter on a product the slow way: a range on
// its number, any other (folded) value against its folded values (a
// hierarchy's are every path prefix, so a node finds everything below it).
func (bc *bruteCase) bruteMatch(i int, f Filter) bool {
	if f.IsRange {
		v, ok := bruteNumber(&bc.products[i], f.Field)
		return ok && v >= f.Min && v <= f.Max
	}
	return slices.Contains(bc.folded[f.Field][i], f.Value)
}

// bruteNumber is a product's value of a number or date field (dates as
// unix seconds).
func bruteNumber(p *catalog.Product, field string) (float64, bool) {
	switch field {
	case "price":
		return p.Price, true
	case "previousPrice":
		return p.PreviousPrice, p.PreviousPrice != 0
	case "created":
		return float64(p.Created.Unix()), !p.Created.IsZero()
	}
	if k, ok := strings.CutPrefix(field, "extraDataNumber."); ok {
		v, has := p.ExtraDataNumber[k]
		return v, has
	}
	panic("brute force does not know " + field)
}

// bruteValues lists a product's facet values for a field; a hierarchy's
// are every prefix of every path ("a$", "a$b$").
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
		if v, has := p.ExtraData[k]; has && v != "" {
			return []string{v}
		}
		return nil
	}
	panic("brute force does not know " + field)
}

// bruteFormat is a RANGE bound as docs/decisions.md promises it: numbers
// in shortest form, dates in RFC 3339 UTC.
func bruteFormat(v float64, date bool) string {
	if date {
		return time.Unix(int64(v), 0).UTC().Format(time.RFC3339)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

type bruteCase struct {
	name     string
	key      string
	products []catalog.Product
	gen      *Generation
	version  *config.SearchVersion
	fields   map[string]config.IndexedField
	ref      *refMatcher
	queries  *refQueryGen
	// values are the filter values to draw from, per LIST or BOOLEAN
	// facet field, in the catalog's first spelling.
	values map[string][]string
	// display is, per field, a folded value's display form: its first
	// spelling in feed order.
	display map[string]map[string]string
	// folded is, per field and product, the product's folded values.
	folded map[string][][]string
	// numbers are the values of each RANGE facet field, sorted.
	numbers map[string][]float64
	// counters make sure every kind of check ran.
	counters map[string]*expect.Counter
}

func newBruteCase(t *testing.T, name string, w *config.Website, key string, products []catalog.Product) *bruteCase {
	t.Helper()
	g, err := Build(w, analysis.English, Source{Products: sliceSource(products)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	v := g.search[key].live.cfg
	bc := &bruteCase{name: name, key: key, products: products, gen: g, version: v, fields: map[string]config.IndexedField{},
		ref:     newRefMatcher(products, v, analysis.English, searchedFields(v)),
		queries: newRefQueryGen(7, products, v),
		values:  map[string][]string{}, display: map[string]map[string]string{}, folded: map[string][][]string{}, numbers: map[string][]float64{},
		counters: map[string]*expect.Counter{}}
	for _, f := range w.IndexedFields {
		bc.fields[f.Name] = f
	}
	facets := slices.Clone(v.Facets)
	for _, d := range v.Devices {
		facets = append(facets, d.Facets...)
	}
	for _, f := range facets {
		if f.Type == config.FacetRange {
			if bc.numbers[f.Field] != nil {
				continue
			}
			bc.numbers[f.Field] = []float64{}
			for i := range products {
				if x, ok := bruteNumber(&products[i], f.Field); ok {
					bc.numbers[f.Field] = append(bc.numbers[f.Field], x)
				}
			}
			slices.Sort(bc.numbers[f.Field])
			continue
		}
		if bc.display[f.Field] != nil {
			continue
		}
		bc.display[f.Field] = map[string]string{}
		bc.folded[f.Field] = make([][]string, len(products))
		for i := range products {
			for _, v := range bruteValues(&products[i], f.Field) {
				fv := analysis.FoldString(v)
				bc.folded[f.Field][i] = append(bc.folded[f.Field][i], fv)
				if _, seen := bc.display[f.Field][fv]; !seen {
					bc.display[f.Field][fv] = v
					bc.values[f.Field] = append(bc.values[f.Field], v)
				}
			}
		}
		slices.Sort(bc.values[f.Field])
	}
	return bc
}

// count notes one more run of a named check; min is how many runs the
// case needs for the check to count as exercised.
func (bc *bruteCase) count(what string, min int) {
	c := bc.counters[what]
	if c == nil {
		c = &expect.Counter{What: bc.name + ": " + what, Min: min}
		bc.counters[what] = c
	}
	c.N++
}

// rangeFilter draws a range filter on a number or date field: both ends,
// one end, or one value, from the catalog's own values, dates written as
// a date, a time or unix seconds.
func (bc *bruteCase) rangeFilter(r *rand.Rand, field string) string {
	nums := bc.numbers[field]
	if len(nums) == 0 {
		return field + ":0,1"
	}
	date := bc.fields[field].Type == config.TypeDate
	bound := func(x float64) string {
		if !date {
			return strconv.FormatFloat(x, 'f', -1, 64)
		}
		tm := time.Unix(int64(x), 0).UTC()
		switch r.IntN(3) {
		case 0:
			return tm.Format("2006-01-02") // midnight UTC of that day
		case 1:
			return tm.Format(time.RFC3339)
		}
		return strconv.FormatInt(int64(x), 10)
	}
	lo, hi := nums[r.IntN(len(nums))], nums[r.IntN(len(nums))]
	if lo > hi {
		lo, hi = hi, lo
	}
	switch r.IntN(5) {
	case 0:
		return field + ":" + bound(lo) + ","
	case 1:
		return field + ":," + bound(hi)
	case 2:
		if !date {
			return field + ":" + bound(lo)
		}
	}
	return field + ":" + bound(lo) + "," + bound(hi)
}

// bruteChecks are the checks every brute-force case must have run.
var bruteChecks = []string{"facets checked", "LIST values checked", "BOOLEAN values checked", "RANGE bounds present",
	"RANGE bounds absent (empty base)", "selected range bounds", "hierarchy children listed", "facets capped at maxFacetValues",
	"selected values past the cap", "selected values with no products"}

// run checks combos random queries and filter combinations; required
// names the checks, beyond bruteChecks, the case must have run.
func (bc *bruteCase) run(t *testing.T, combos int, seed uint64, required ...string) {
	r := rand.New(rand.NewPCG(seed, seed))
	v := bc.version
	for c := range combos {
		var filters []string
		for _, f := range v.Facets {
			if r.IntN(3) != 0 {
				continue
			}
			if f.Type == config.FacetRange {
				filters = append(filters, bc.rangeFilter(r, f.Field))
				if r.IntN(4) == 0 {
					filters = append(filters, bc.rangeFilter(r, f.Field))
				}
				continue
			}
			vals := bc.values[f.Field]
			for range 1 + r.IntN(2) {
				if r.IntN(20) == 0 && f.Type == config.FacetList {
					// An unknown value matches nothing.
					filters = append(filters, f.Field+":no such value")
					continue
				}
				filters = append(filters, f.Field+":"+vals[r.IntN(len(vals))])
			}
		}
		var exclude []string
		if r.IntN(4) == 0 && len(filters) > 0 {
			exclude = []string{strings.SplitN(filters[0], ":", 2)[0]}
		}
		device := ""
		if r.IntN(3) == 0 {
			device = "MOBILE"
		}
		var query string
		switch r.IntN(8) {
		case 0, 1, 2:
			query = "*"
		case 3:
			query = "zzqxj" // matches nothing: no min or max
		default:
			query, _ = bc.queries.query()
		}
		bc.check(t, c, query, device, filters, exclude)
	}
	for _, c := range bc.counters {
		c.Check(t)
	}
	for _, what := range append(slices.Clone(bruteChecks), required...) {
		if bc.counters[what] == nil {
			t.Errorf("%s: no %s", bc.name, what)
		}
	}
}

// device is the version's facets and maxFacetValues for a device type:
// its override where it sets them, 100 values when nothing does.
func (bc *bruteCase) device(device string) ([]config.Facet, int) {
	fs, maxValues := bc.version.Facets, bc.version.MaxFacetValues
	if d, ok := bc.version.Devices[device]; ok {
		if d.Facets != nil {
			fs = d.Facets
		}
		if d.MaxFacetValues > 0 {
			maxValues = d.MaxFacetValues
		}
	}
	if maxValues <= 0 {
		maxValues = 100
	}
	return fs, maxValues
}

func (bc *bruteCase) check(t *testing.T, combo int, query, device string, filters, exclude []string) {
	t.Helper()
	g := bc.gen
	zero := 0
	req := &SearchRequest{Query: &query, Key: &bc.key, DeviceType: device, Products: &ProductSettings{
		ContentSettings:       ContentSettings{PageSettings: PageSettings{Count: &zero}, Filters: filters},
		ReturnFilters:         true,
		ExcludeSiblingFilters: exclude,
	}}
	res, err := g.Search(req)
	if err != nil {
		t.Fatalf("combo %d %v: %v", combo, filters, err)
	}
	where := fmt.Sprintf("%s combo %d q=%q device=%q filters=%v exclude=%v", bc.name, combo, query, device, filters, exclude)
	matched := bc.ref.match(query).all
	typeOf := func(n string) (config.FieldType, bool) { f, ok := bc.fields[n]; return f.Type, ok }
	parsed := map[string][]Filter{}
	var filtered []string // the fields filtered on, in first-seen order
	for _, s := range filters {
		f, err := ParseFilter(s, typeOf)
		if err != nil {
			t.Fatal(err)
		}
		if !f.IsRange {
			f.Value = analysis.FoldString(f.Value)
		}
		if parsed[f.Field] == nil {
			filtered = append(filtered, f.Field)
		}
		parsed[f.Field] = append(parsed[f.Field], f)
	}
	// fails[i] has bit j set when product i passes none of the filters of
	// field filtered[j] (a field's filters are ORed, fields ANDed).
	fails := make([]uint64, len(bc.products))
	total := 0
	for i := range bc.products {
		for j, field := range filtered {
			if !slices.ContainsFunc(parsed[field], func(f Filter) bool { return bc.bruteMatch(i, f) }) {
				fails[i] |= 1 << j
			}
		}
		if matched.has(i) && fails[i] == 0 {
			total++
		}
	}
	if total != res.Products.Total {
		t.Fatalf("%s: total %d, brute force %d", where, res.Products.Total, total)
	}

	facets, maxValues := bc.device(device)
	got := res.Products.Filters
	if len(got) != len(facets) {
		t.Fatalf("%s: %d facets, the configuration has %d", where, len(got), len(facets))
	}
	if device == "MOBILE" && bc.version.Devices["MOBILE"].Facets != nil {
		bc.count("MOBILE facet lists", 1)
	}
	for i, fc := range expect.Some(t, where+": configured facets", facets) {
		fo := got[i]
		want := FacetSettingOut{Name: fc.Field, Type: string(fc.Type), Title: fc.Title}
		if fc.Type == config.FacetBoolean {
			want.FilteringText, want.NegatedFilteringText = fc.FilteringText, fc.NegatedFilteringText
		}
		if fo.Name != fc.Field || fo.Settings != want {
			t.Fatalf("%s: facet %d is %q %+v, configured %+v", where, i, fo.Name, fo.Settings, want)
		}
		bc.count("facets checked", len(facets))
		// The base leaves the facet's own filters out, unless the request
		// excludes sibling filters for it.
		var skip uint64
		if j := slices.Index(filtered, fc.Field); j >= 0 && !slices.Contains(exclude, fc.Field) {
			skip = 1 << j
		}
		var base []int
		for i := range bc.products {
			if matched.has(i) && fails[i]&^skip == 0 {
				base = append(base, i)
			}
		}
		if fc.Type == config.FacetRange {
			bc.checkRange(t, where, fo, base, parsed[fc.Field])
		} else {
			bc.checkValues(t, where, fc, fo, base, parsed[fc.Field], maxValues)
		}
	}
}

// checkRange: docs/decisions.md "RANGE facets answer min/max as strings
// (numbers in shortest form, dates in RFC 3339 UTC)", absent when no
// product of the base has a value; selectedMin/selectedMax are the active
// filter's bounds, an open end shown as the facet's own bound.
func (bc *bruteCase) checkRange(t *testing.T, where string, fo FacetOut, base []int, own []Filter) {
	t.Helper()
	date := bc.fields[fo.Name].Type == config.TypeDate
	var wantMin, wantMax *string
	lo, hi, any := math.Inf(1), math.Inf(-1), false
	for _, i := range base {
		if x, ok := bruteNumber(&bc.products[i], fo.Name); ok {
			lo, hi, any = min(lo, x), max(hi, x), true
		}
	}
	if any {
		l, h := bruteFormat(lo, date), bruteFormat(hi, date)
		wantMin, wantMax = &l, &h
		bc.count("RANGE bounds present", 5)
		bc.count("RANGE bounds present: "+fo.Name, 1)
	} else if len(base) == 0 {
		bc.count("RANGE bounds absent (empty base)", 1)
	} else {
		bc.count("RANGE bounds absent (no values): "+fo.Name, 1)
	}
	if fo.Values != nil {
		t.Fatalf("%s: RANGE facet %s has values", where, fo.Name)
	}
	if deref(fo.Min) != deref(wantMin) || deref(fo.Max) != deref(wantMax) {
		t.Fatalf("%s: %s range %s..%s, brute force %s..%s", where, fo.Name, deref(fo.Min), deref(fo.Max), deref(wantMin), deref(wantMax))
	}
	var selMin, selMax *string
	if len(own) > 0 {
		f := own[len(own)-1]
		selMin, selMax = wantMin, wantMax
		if !math.IsInf(f.Min, -1) {
			s := bruteFormat(f.Min, date)
			selMin = &s
		}
		if !math.IsInf(f.Max, 1) {
			s := bruteFormat(f.Max, date)
			selMax = &s
		}
		bc.count("selected range bounds", 3)
	}
	if deref(fo.SelectedMin) != deref(selMin) || deref(fo.SelectedMax) != deref(selMax) {
		t.Fatalf("%s: %s selected %s..%s, want %s..%s", where, fo.Name, deref(fo.SelectedMin), deref(fo.SelectedMax), deref(selMin), deref(selMax))
	}
}

// checkValues: counts over the base; docs/decisions.md "Facet values of
// LIST facets are ordered by count, then title; BOOLEAN ones true first.
// Values with no products are left out unless selected. At most
// maxFacetValues ... are returned per facet; selected values always are",
// and "Hierarchy facets return the top level always, plus the children of
// every selected node and of its ancestors ... a value's title is the
// node's own name and query the full path".
func (bc *bruteCase) checkValues(t *testing.T, where string, fc config.Facet, fo FacetOut, base []int, own []Filter, maxValues int) {
	t.Helper()
	if fo.Values == nil || fo.Min != nil || fo.Max != nil || fo.SelectedMin != nil || fo.SelectedMax != nil {
		t.Fatalf("%s: %s facet %s: values %v, bounds %s..%s", where, fc.Type, fc.Field, fo.Values, deref(fo.Min), deref(fo.Max))
	}
	display := bc.display[fc.Field]
	counts := map[string]int{}
	for _, i := range base {
		for _, v := range bc.folded[fc.Field][i] {
			counts[v]++
		}
	}
	selected := map[string]bool{}
	for _, f := range own {
		if _, known := display[analysis.FoldString(f.Value)]; known {
			selected[analysis.FoldString(f.Value)] = true
		}
	}
	hier := bc.fields[fc.Field].Type == config.TypeHierarchy
	// open: the selected nodes and their ancestors, whose children show.
	open := map[string]bool{}
	for s := range selected {
		for p := s; p != ""; p = parentPath(p) {
			open[p] = true
		}
	}
	var want []FacetValueOut
	for folded, d := range display {
		n := counts[folded]
		if n == 0 && !selected[folded] {
			continue
		}
		title := d
		if hier {
			levels := strings.Split(strings.TrimSuffix(d, "$"), "$")
			title = levels[len(levels)-1]
			if len(levels) > 1 && !selected[folded] && !open[parentPath(folded)] {
				continue
			}
			if len(levels) > 1 {
				bc.count("hierarchy children listed", 1)
			}
		}
		want = append(want, FacetValueOut{Title: title, Count: n, Query: fc.Field + ":" + d, Selected: selected[folded]})
		if n == 0 {
			bc.count("selected values with no products", 1)
		}
	}
	slices.SortFunc(want, func(a, b FacetValueOut) int {
		if fc.Type == config.FacetBoolean {
			return -strings.Compare(a.Title, b.Title) // true first
		}
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		if c := strings.Compare(a.Title, b.Title); c != 0 {
			return c
		}
		return strings.Compare(a.Query, b.Query)
	})
	if len(want) > maxValues {
		bc.count("facets capped at maxFacetValues", 1)
	}
	kept := want[:0]
	for i, v := range want {
		if i < maxValues || v.Selected {
			kept = append(kept, v)
		}
		if i >= maxValues && v.Selected {
			bc.count("selected values past the cap", 1)
		}
	}
	want = kept
	gotValues := *fo.Values
	for i := range max(len(want), len(gotValues)) {
		var g, w FacetValueOut
		if i < len(gotValues) {
			g = gotValues[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Fatalf("%s: %s value %d of %d is %+v, brute force %+v (of %d)", where, fc.Field, i, len(gotValues), g, w, len(want))
		}
		bc.count(string(fc.Type)+" values checked", 10)
	}
}

// parentPath is a folded hierarchy value's parent ("a$b$" for "a$b$c$"),
// or "" at the top.
func parentPath(v string) string {
	t := strings.TrimSuffix(v, "$")
	i := strings.LastIndexByte(t, '$')
	if i < 0 {
		return ""
	}
	return t[:i+1]
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// TestFacetCountsBruteForceDemo: docs/decisions.md "Hierarchy facets",
// "Facet values", "RANGE facets answer min/max", over random queries and
// filters on the demo catalog, desktop and MOBILE.
func TestFacetCountsBruteForceDemo(t *testing.T) {
	cfg := demo.Config()
	bc := newBruteCase(t, "demo", &cfg.Websites[0], "demo", demo.Catalog(8000, 3))
	bc.run(t, 300, 1, "MOBILE facet lists", "RANGE bounds present: price", "RANGE bounds present: created")
}

// TestFacetCountsBruteForceFlipkart is TestFacetCountsBruteForceDemo over
// the Flipkart catalog.
func TestFacetCountsBruteForceFlipkart(t *testing.T) {
	w, products := flipkartCatalog(t)
	bc := newBruteCase(t, "flipkart", w, config.DefaultKey, products)
	bc.run(t, 200, 2, "RANGE bounds present: price", "RANGE bounds absent (no values): created")
}
