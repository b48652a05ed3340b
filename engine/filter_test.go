package engine

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
)

// gridN is the size of the grid catalog: large enough that a set under
// 1/8 of it (12 docs) is a real set.
const gridN = 96

var gridBrands = []string{"Acme", "Bosch", "Müller", "Zoë", "Dewalt", "Fiskars", "Gardena", "Hilti", "Ikea", "Jula", "Kärcher", "Lumen"}

var gridStart = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// gridProducts is a generated catalog whose values follow i, so a filter's
// expected products are a plain predicate over i.
func gridProducts() []catalog.Product {
	depts := []string{"Tools", "Garden", "Home", "Deals"}
	colors := []string{"Red", "Blue", "Green", "Black", "White"}
	out := make([]catalog.Product, gridN)
	for i := range out {
		p := &out[i]
		p.ProductNumber = fmt.Sprintf("P%03d", i)
		p.Title = fmt.Sprintf("Item %d", i)
		p.Price = float64(i)
		p.Brand = gridBrands[i%len(gridBrands)]
		p.Created = gridStart.AddDate(0, 0, i)
		p.InStock = i%3 == 0
		p.Hierarchies = [][]string{{depts[i%4], fmt.Sprintf("Sub%d", i%2)}}
		p.ExtraData = map[string]string{"color": colors[i%5]}
		if i%2 == 0 {
			p.ExtraDataNumber = map[string]float64{"rating": float64(i%10) / 2}
		}
	}
	return out
}

func gridWebsite() *config.Website {
	return &config.Website{UUID: "grid", IndexedFields: []config.IndexedField{
		{Name: "brand", Type: config.TypeKeyword},
		{Name: "hierarchies", Type: config.TypeHierarchy},
		{Name: "price", Type: config.TypeNumber, Sortable: true},
		{Name: "created", Type: config.TypeDate, Sortable: true},
		{Name: "inStock", Type: config.TypeBoolean},
		{Name: "extraData.color", Type: config.TypeKeyword},
		{Name: "extraData.none", Type: config.TypeKeyword},
		{Name: "extraDataNumber.rating", Type: config.TypeNumber, Sortable: true},
		{Name: "extraDataNumber.none", Type: config.TypeNumber},
		{Name: "title", Type: config.TypeText, Sortable: true},
	}, Search: []config.SearchConfig{{Key: "grid", Versions: []config.SearchVersion{{ID: 1, Status: config.StatusLive,
		Fields: []config.SearchField{{Name: "title", Weight: 1}}}}}}}
}

func gridGen(t testing.TB) *Generation {
	t.Helper()
	g, err := Build(gridWebsite(), analysis.English, Source{Products: sliceSource(gridProducts())}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// filtered applies filter strings to the whole grid catalog and returns
// the product indexes (the grid's doc ids follow its product numbers).
func filtered(t *testing.T, g *Generation, strs []string) []int {
	t.Helper()
	ffs, err := compileFilters(g.Products, g.fields, strs)
	if err != nil {
		t.Fatalf("%q: %v", strs, err)
	}
	set := g.Products.All().Clone()
	applyFilters(set, ffs, -1, g.Products.Len())
	out := []int{}
	for _, d := range set.ToArray() {
		var i int
		fmt.Sscanf(g.Products.Key(d), "P%03d", &i)
		out = append(out, i)
	}
	return out
}

// TestFiltersCombine: "Filters: one bitmap per field (values ORed), ANDed"
// (docs/architecture.md); ranges inclusive with either end empty and a
// single value exact; dates as ISO 8601 or unix seconds; keyword values
// folded ("brand:muller finds Müller"); "An unknown value matches
// nothing" (docs/decisions.md). Each case is checked against a plain
// predicate over the grid.
func TestFiltersCombine(t *testing.T) {
	g := gridGen(t)
	day := func(i int) string { return gridStart.AddDate(0, 0, i).Format("2006-01-02") }
	unix := func(i int) string { return fmt.Sprint(gridStart.AddDate(0, 0, i).Unix()) }
	for _, tc := range []struct {
		filters []string
		want    func(i int) bool
	}{
		{nil, func(int) bool { return true }},
		{[]string{"price:10,20"}, func(i int) bool { return i >= 10 && i <= 20 }},
		{[]string{"price:90,"}, func(i int) bool { return i >= 90 }},
		{[]string{"price:,3"}, func(i int) bool { return i <= 3 }},
		{[]string{"price:7"}, func(i int) bool { return i == 7 }},
		{[]string{"price:7.5"}, func(int) bool { return false }},
		{[]string{"price:-10,-1"}, func(int) bool { return false }},
		{[]string{"price:1,2", "price:50,51", "price:94,"}, func(i int) bool { return i == 1 || i == 2 || i == 50 || i == 51 || i >= 94 }},
		{[]string{"created:" + day(3) + "," + day(5)}, func(i int) bool { return i >= 3 && i <= 5 }},
		{[]string{"created:" + unix(3) + "," + unix(5)}, func(i int) bool { return i >= 3 && i <= 5 }},
		{[]string{"created:" + day(94) + "T00:00:01Z,"}, func(i int) bool { return i >= 95 }},
		{[]string{"created:," + unix(1)}, func(i int) bool { return i <= 1 }},
		{[]string{"brand:Bosch"}, func(i int) bool { return i%12 == 1 }},
		{[]string{"brand:MULLER"}, func(i int) bool { return i%12 == 2 }},
		{[]string{"brand:zoe", "brand:bosch"}, func(i int) bool { return i%12 == 3 || i%12 == 1 }},
		{[]string{"brand:Bosch", "brand:Nobody"}, func(i int) bool { return i%12 == 1 }},
		{[]string{"brand:Nobody"}, func(int) bool { return false }},
		{[]string{"extraData.none:x"}, func(int) bool { return false }},
		{[]string{"extraDataNumber.none:1,"}, func(int) bool { return false }},
		{[]string{"inStock:true"}, func(i int) bool { return i%3 == 0 }},
		{[]string{"inStock:FALSE"}, func(i int) bool { return i%3 != 0 }},
		{[]string{"inStock:true", "inStock:false"}, func(int) bool { return true }},
		{[]string{"hierarchies:Garden"}, func(i int) bool { return i%4 == 1 }},
		{[]string{"hierarchies:garden$sub1$"}, func(i int) bool { return i%4 == 1 }},
		{[]string{"hierarchies:Garden$Sub0"}, func(int) bool { return false }},
		{[]string{"hierarchies:Tools$Sub0", "hierarchies:Home$"}, func(i int) bool { return i%4 == 0 || i%4 == 2 }},
		{[]string{"extraDataNumber.rating:2,3"}, func(i int) bool { return i%2 == 0 && i%10 >= 4 && i%10 <= 6 }},
		// Fields AND: a keyword set under 1/8 of the catalog meets ranges
		// checked doc by doc, a larger one the ranges' bitmaps.
		{[]string{"price:20,60", "brand:Bosch"}, func(i int) bool { return i%12 == 1 && i >= 20 && i <= 60 }},
		{[]string{"brand:Bosch", "price:20,60", "price:80,90", "created:," + day(85)}, func(i int) bool {
			return i%12 == 1 && (i >= 20 && i <= 60 || i >= 80 && i <= 90) && i <= 85
		}},
		{[]string{"brand:Bosch", "brand:Acme", "extraDataNumber.rating:1,"}, func(i int) bool {
			return (i%12 == 1 || i%12 == 0) && i%2 == 0 && i%10 >= 2
		}},
		{[]string{"inStock:true", "price:,50", "extraData.color:red"}, func(i int) bool { return i%3 == 0 && i <= 50 && i%5 == 0 }},
		{[]string{"inStock:false", "price:30,40"}, func(i int) bool { return i%3 != 0 && i >= 30 && i <= 40 }},
	} {
		want := []int{}
		for i := range gridN {
			if tc.want(i) {
				want = append(want, i)
			}
		}
		if got := filtered(t, g, tc.filters); !slices.Equal(got, want) {
			t.Errorf("filters %q: products %v, want %v", tc.filters, got, want)
		}
	}
}

// TestRangeFilterStaysLazy: "on a set under 1/8 of the catalog each doc is
// checked against the 2-byte column" instead of building the range's
// bitmap (docs/architecture.md, engine/filter.go lazyRangeShare); from
// 1/8 up the bitmap is built. Both give the same docs.
func TestRangeFilterStaysLazy(t *testing.T) {
	g := gridGen(t)
	seg := g.Products
	for _, size := range []int{0, 1, gridN/lazyRangeShare - 1, gridN / lazyRangeShare, gridN/lazyRangeShare + 1, gridN} {
		ffs, err := compileFilters(seg, g.fields, []string{"price:5,40", "price:60,70"})
		if err != nil {
			t.Fatal(err)
		}
		set := roaring.New()
		for d := range uint32(size) {
			set.Add(d * gridN / uint32(max(size, 1)))
		}
		in := set.ToArray()
		ffs[0].restrict(set, seg.Len())
		lazy := ffs[0].bm == nil
		if wantLazy := size < gridN/lazyRangeShare; lazy != wantLazy {
			t.Errorf("a set of %d of %d docs: lazy %v, want %v", size, gridN, lazy, wantLazy)
		}
		want := []uint32{}
		for _, d := range in {
			if d >= 5 && d <= 40 || d >= 60 && d <= 70 {
				want = append(want, d)
			}
		}
		if got := set.ToArray(); !slices.Equal(got, want) {
			t.Errorf("a set of %d: kept %v, want %v", size, got, want)
		}
	}
}

// TestApplyFiltersSkips: facets count a field "as if the filter on that
// field were not applied" (spec, excludeSiblingFilters): applyFilters
// leaves out the skipped field only.
func TestApplyFiltersSkips(t *testing.T) {
	g := gridGen(t)
	ffs, err := compileFilters(g.Products, g.fields, []string{"brand:Bosch", "price:,50", "inStock:true", "brand:Acme"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ffs) != 3 || ffs[0].field != "brand" || len(ffs[0].filters) != 2 || ffs[1].field != "price" || ffs[2].field != "inStock" {
		t.Fatalf("grouped %+v, want brand (2 values), price, inStock", ffs)
	}
	count := func(skip int) int {
		set := g.Products.All().Clone()
		applyFilters(set, ffs, skip, g.Products.Len())
		return int(set.GetCardinality())
	}
	want := func(pred func(i int) bool) int {
		n := 0
		for i := range gridN {
			if pred(i) {
				n++
			}
		}
		return n
	}
	brand := func(i int) bool { return i%12 == 1 || i%12 == 0 }
	price := func(i int) bool { return i <= 50 }
	stock := func(i int) bool { return i%3 == 0 }
	for skip, pred := range map[int]func(int) bool{
		-1: func(i int) bool { return brand(i) && price(i) && stock(i) },
		0:  func(i int) bool { return price(i) && stock(i) },
		1:  func(i int) bool { return brand(i) && stock(i) },
		2:  func(i int) bool { return brand(i) && price(i) },
	} {
		if got, w := count(skip), want(pred); got != w {
			t.Errorf("skip %d: %d products, want %d", skip, got, w)
		}
	}
}

// TestParseFilterBounds: range bounds at their edges (docs/configuration.md
// "price:10,50, price:10, , price:,50, price:25 (inclusive)"; "ISO 8601 or
// unix seconds"), and every parse error names the member "filters"
// (docs/decisions.md "field is the dotted request member at fault").
func TestParseFilterBounds(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		in       string
		min, max float64
		value    string
	}{
		{in: "price:5,5", min: 5, max: 5},
		{in: "price: 10 , 20 ", min: 10, max: 20},
		{in: "price:-5,-1", min: -5, max: -1},
		{in: "price:1e3", min: 1000, max: 1000},
		{in: "price:0,", min: 0, max: inf},
		{in: "created:1700000000", min: 1700000000, max: 1700000000},
		{in: "created:-86400,0", min: -86400, max: 0},
		{in: "created:2024-01-01T10:00:00", min: 1704103200, max: 1704103200},
		{in: "created:2024-01-01T10:00:00+02:00,", min: 1704096000, max: inf},
		{in: "created:,2024-01-01T10:00:00.75Z", min: math.Inf(-1), max: 1704103200},
		{in: "created:2024-02-29", min: 1709164800, max: 1709164800},
	} {
		f, err := ParseFilter(tc.in, typeOf)
		if err != nil || !f.IsRange || f.Min != tc.min || f.Max != tc.max {
			t.Errorf("ParseFilter(%q) = %+v, %v; want range %v..%v", tc.in, f, err, tc.min, tc.max)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"inStock:False", "false"},
		{"hierarchies:$", "$"},
		{"hierarchies:a$b", "a$b$"},
		{"brand:", ""},
		{"brand: Makita ", " Makita "},
	} {
		f, err := ParseFilter(tc.in, typeOf)
		if err != nil || f.IsRange || f.Value != tc.want {
			t.Errorf("ParseFilter(%q) = %+v, %v; want value %q", tc.in, f, err, tc.want)
		}
	}
	for _, in := range []string{
		"price:Inf", "price:-Inf,", "price:,+Inf", "price:1e400", "price:0x", "price:5,4.999",
		"created:Inf", "created:-inf,", "created:1e400", "created:2024-13-01", "created:2024-01-01T25:00:00Z",
		"created:2024-01-02,2024-01-01", "created: , ", "inStock:", "inStock:yes", "hierarchies:",
		"title:x", "nope:x", "price", ":", "",
	} {
		_, err := ParseFilter(in, typeOf)
		var e *Error
		if !as(err, &e) || e.Kind != KindInvalid || e.Code != "INVALID_REQUEST" || e.Field != "filters" {
			t.Errorf("ParseFilter(%q) error %#v, want an invalid request about filters", in, err)
		}
	}
}

// TestCompileSortingErrors: sorting "Filtering and sorting work on indexed
// fields only" (spec), sortable ones (docs/configuration.md); errors name
// "sorting".
func TestCompileSortingErrors(t *testing.T) {
	fields := gridWebsite().IndexedFields
	byName := map[string]config.IndexedField{}
	for _, f := range fields {
		byName[f.Name] = f
	}
	got, err := compileSorting(byName, []string{"price desc", "title", "created ASC"})
	if err != nil || !slices.Equal(got, []sortSpec{{"price", true}, {"title", false}, {"created", false}}) {
		t.Fatalf("compileSorting = %+v, %v", got, err)
	}
	for _, s := range []string{"brand", "nope asc", "price sideways", ""} {
		_, err := compileSorting(byName, []string{"price", s})
		var e *Error
		if !as(err, &e) || e.Field != "sorting" || e.Kind != KindInvalid {
			t.Errorf("compileSorting(%q) error %v, want an invalid request about sorting", s, err)
		}
	}
	if got, err := compileSorting(byName, nil); err != nil || len(got) != 0 {
		t.Errorf("no sorting: %v, %v", got, err)
	}
}

// TestRangesMerge: a field's overlapping ranges are one interval, and a
// group of any holding conditions of one field is one condition, so
// ninety-nine ranges cost what their union does; the products allowed are
// those any of the ranges allows.
func TestRangesMerge(t *testing.T) {
	ff := fieldFilter{filters: []Filter{
		{IsRange: true, Min: 5, Max: 9}, {IsRange: true, Min: 1, Max: 3}, {IsRange: true, Min: 2, Max: 4},
		{IsRange: true, Min: 9, Max: 12}, {IsRange: true, Min: 20, Max: 20}, {IsRange: true, Min: 8, Max: 7},
	}}
	if got := fmt.Sprint(ff.intervals()); got != "[[1 4] [5 12] [20 20]]" {
		t.Errorf("intervals %s, want [[1 4] [5 12] [20 20]]", got)
	}
	fields := map[string]config.IndexedField{"price": {Name: "price", Type: config.TypeNumber}, "brand": {Name: "brand", Type: config.TypeKeyword}}
	var or []any
	for k := range 98 {
		or = append(or, map[string]any{"price": map[string]any{"$gte": float64(k)}})
	}
	or = append(or, map[string]any{"brand": "Acme"}, map[string]any{"price": 3.0})
	f, err := parseBaseFilter(map[string]any{"$or": or}, fields, "params.filters")
	if err != nil {
		t.Fatal(err)
	}
	if !f.any || len(f.kids) != 2 || len(f.kids[0].strs) != 99 || f.kids[0].field != "price" || f.kids[1].field != "brand" {
		t.Errorf("the group: any %v, %d kids, the first of %d strings on %q", f.any, len(f.kids), len(f.kids[0].strs), f.kids[0].field)
	}
}
