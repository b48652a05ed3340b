package demo

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
)

func hashProducts(t *testing.T, ps []catalog.Product) [32]byte {
	t.Helper()
	h := sha256.New()
	enc := json.NewEncoder(h)
	for i := range ps {
		if err := enc.Encode(&ps[i]); err != nil {
			t.Fatal(err)
		}
	}
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	return sum
}

func TestDeterministic(t *testing.T) {
	a := hashProducts(t, Catalog(2000, 42))
	b := hashProducts(t, Catalog(2000, 42))
	if a != b {
		t.Fatal("two runs with the same seed differ")
	}
	if c := hashProducts(t, Catalog(2000, 43)); c == a {
		t.Fatal("a different seed gives the same catalog")
	}

	want := Catalog(2000, 42)
	var got []catalog.Product
	err := Each(2000, 42, func(p *catalog.Product) error {
		got = append(got, *p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatal("Each yields different products from Catalog")
	}
	if hashProducts(t, got) != a {
		t.Fatal("Each's JSON differs from Catalog's")
	}
}

func TestEachStopsAtError(t *testing.T) {
	stop := errors.New("stop")
	calls := 0
	err := Each(100, 1, func(*catalog.Product) error {
		calls++
		if calls == 7 {
			return stop
		}
		return nil
	})
	if err != stop || calls != 7 {
		t.Fatalf("err %v after %d calls, want stop after 7", err, calls)
	}
	if Catalog(0, 1) == nil || len(Catalog(-3, 1)) != 0 {
		t.Fatal("empty catalogs should be empty, non-nil slices")
	}
}

func TestDistribution(t *testing.T) {
	const n = 20000
	ps := Catalog(n, 7)
	if len(ps) != n {
		t.Fatalf("%d products, want %d", len(ps), n)
	}
	from := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)
	to := time.Date(2026, 10, 31, 23, 59, 59, 0, time.UTC)

	numbers := map[string]int{}
	depts := map[string]bool{}
	leaves := map[string]bool{}
	brands := map[string]int{}
	sale, inStock, twoPaths, variants := 0, 0, 0, 0
	for i := range ps {
		p := &ps[i]
		if j, dup := numbers[p.ProductNumber]; dup {
			t.Fatalf("product %d repeats %s of product %d", i, p.ProductNumber, j)
		}
		numbers[p.ProductNumber] = i
		if p.Title == "" || p.URL == "" || p.ImgURL == "" || p.Description == "" || p.Keywords == "" {
			t.Fatalf("%s lacks text: %+v", p.ProductNumber, p)
		}
		if !strings.HasPrefix(p.URL, "https://demo.aisle.shop/p/") ||
			!strings.HasSuffix(p.URL, "-"+strings.ToLower(p.ProductNumber)) {
			t.Fatalf("%s: bad url %q", p.ProductNumber, p.URL)
		}
		if p.ImgURL != "https://demo.aisle.shop/img/"+p.ProductNumber+".jpg" {
			t.Fatalf("%s: bad imgUrl %q", p.ProductNumber, p.ImgURL)
		}
		if p.Price <= 0 || p.Currency != "USD" || !strings.HasPrefix(p.PriceFormatted, "$") {
			t.Fatalf("%s: bad price %v %q %q", p.ProductNumber, p.Price, p.Currency, p.PriceFormatted)
		}
		if p.Price != float64(int64(p.Price*100+0.5))/100 {
			t.Fatalf("%s: price %v has more than two decimals", p.ProductNumber, p.Price)
		}
		if p.Created.Before(from) || p.Created.After(to) || p.Created.Location() != time.UTC {
			t.Fatalf("%s: created %v out of range", p.ProductNumber, p.Created)
		}
		if p.ExtraData["color"] == "" || p.ExtraData["material"] == "" {
			t.Fatalf("%s: no color or material: %v", p.ProductNumber, p.ExtraData)
		}
		if r := p.ExtraDataNumber["rating"]; r < 1 || r > 5 {
			t.Fatalf("%s: rating %v", p.ProductNumber, r)
		}
		if p.ExtraDataNumber["reviews"] < 1 || p.ExtraDataNumber["weight"] <= 0 {
			t.Fatalf("%s: bad numbers %v", p.ProductNumber, p.ExtraDataNumber)
		}
		if len(p.ExtraDataList["features"]) < 2 {
			t.Fatalf("%s: features %v", p.ProductNumber, p.ExtraDataList)
		}
		if p.IsOnSale {
			sale++
			if !p.PriceLowered || p.PreviousPrice <= p.Price {
				t.Fatalf("%s: on sale but previous %v, price %v", p.ProductNumber, p.PreviousPrice, p.Price)
			}
		} else if p.PriceLowered || p.PreviousPrice != 0 {
			t.Fatalf("%s: not on sale but lowered", p.ProductNumber)
		}
		if p.InStock {
			inStock++
		}
		if len(p.Hierarchies) < 1 || len(p.Hierarchies) > 2 {
			t.Fatalf("%s: %d hierarchies", p.ProductNumber, len(p.Hierarchies))
		}
		if len(p.Hierarchies) == 2 {
			twoPaths++
		}
		for _, h := range p.Hierarchies {
			if len(h) != 3 {
				t.Fatalf("%s: hierarchy %v is not three levels", p.ProductNumber, h)
			}
			depts[h[0]] = true
			leaves[strings.Join(h, "/")] = true
		}
		if p.GroupingKey != "" {
			variants++
		}
		brands[p.Brand]++
	}

	frac := func(k int) float64 { return float64(k) / n }
	if len(depts) < 8 {
		t.Errorf("%d departments, want ≥ 8", len(depts))
	}
	if len(leaves) < 150 {
		t.Errorf("%d leaves, want ≥ 150", len(leaves))
	}
	if f := frac(sale); f < 0.15 || f > 0.25 {
		t.Errorf("sale fraction %.3f, want 0.15-0.25", f)
	}
	if f := frac(inStock); f < 0.80 || f > 0.90 {
		t.Errorf("in-stock fraction %.3f, want 0.80-0.90", f)
	}
	if f := frac(twoPaths); f < 0.07 || f > 0.13 {
		t.Errorf("two-hierarchy fraction %.3f, want ~0.10", f)
	}
	if f := frac(variants); f < 0.10 || f > 0.20 {
		t.Errorf("variant fraction %.3f, want ~0.15", f)
	}

	if len(brands) < 180 || len(brands) > 220 {
		t.Errorf("%d brands, want ~200", len(brands))
	}
	counts := make([]int, 0, len(brands))
	for _, c := range brands {
		counts = append(counts, c)
	}
	slices.Sort(counts)
	top, median := counts[len(counts)-1], counts[len(counts)/2]
	if top < 20*median {
		t.Errorf("top brand has %d products, median %d: want ≥ 20×", top, median)
	}
	t.Logf("departments %d, leaves %d, brands %d (top %d, median %d), sale %.3f, in stock %.3f, two paths %.3f, variants %.3f",
		len(depts), len(leaves), len(brands), top, median, frac(sale), frac(inStock), frac(twoPaths), frac(variants))
}

func TestVariants(t *testing.T) {
	ps := Catalog(20000, 3)
	byNumber := map[string]*catalog.Product{}
	for i := range ps {
		byNumber[ps[i].ProductNumber] = &ps[i]
	}
	for i := range ps {
		p := &ps[i]
		if p.GroupingKey == "" {
			if len(p.VariantProductNumbers) != 0 {
				t.Fatalf("%s lists variants without a grouping key", p.ProductNumber)
			}
			continue
		}
		if len(p.VariantProductNumbers) == 0 {
			t.Fatalf("%s has a grouping key but no siblings", p.ProductNumber)
		}
		for _, sib := range p.VariantProductNumbers {
			q := byNumber[sib]
			if q == nil || sib == p.ProductNumber {
				t.Fatalf("%s lists sibling %s", p.ProductNumber, sib)
			}
			if q.GroupingKey != p.GroupingKey || q.Brand != p.Brand || !reflect.DeepEqual(q.Hierarchies, p.Hierarchies) ||
				len(q.VariantProductNumbers) != len(p.VariantProductNumbers) {
				t.Fatalf("%s and its sibling %s disagree", p.ProductNumber, sib)
			}
			if q.ExtraData["color"] == p.ExtraData["color"] && q.ExtraData["size"] == p.ExtraData["size"] {
				t.Fatalf("%s and its sibling %s have the same colour and size", p.ProductNumber, sib)
			}
		}
	}
}

func TestProductNumbersAndMoney(t *testing.T) {
	for n, want := range map[int]string{1: "AI-000001", 123: "AI-000123", 999999: "AI-999999", 1000000: "AI-1000000"} {
		if got := string(appendProductNumber(nil, n)); got != want {
			t.Errorf("product number %d = %q, want %q", n, got, want)
		}
	}
	for cents, want := range map[int64]string{99: "$0.99", 129900: "$1,299.00", 1234567: "$12,345.67", 100000000: "$1,000,000.00", 5: "$0.05"} {
		if got := string(appendMoney(nil, cents)); got != want {
			t.Errorf("money %d = %q, want %q", cents, got, want)
		}
	}
	if got := slugify("Søstrene Vik Bouclé Sofa & Chair, 2-Pack"); got != "sostrene-vik-boucle-sofa-and-chair-2-pack" {
		t.Errorf("slug %q", got)
	}
}

func TestContent(t *testing.T) {
	cs := Content(1)
	if !reflect.DeepEqual(cs, Content(1)) {
		t.Fatal("Content is not deterministic")
	}
	kinds := map[catalog.ContentKind]int{}
	ids := map[string]bool{}
	for _, c := range cs {
		kinds[c.Kind]++
		if ids[c.ID] {
			t.Fatalf("duplicate content id %q", c.ID)
		}
		ids[c.ID] = true
		if c.Title == "" || c.Description == "" || c.Keywords == "" || !strings.HasPrefix(c.URL, "https://demo.aisle.shop/") {
			t.Fatalf("incomplete content %+v", c)
		}
		if c.Kind == catalog.KindCategory && (len(c.Hierarchy) < 1 || len(c.Hierarchy) > 3 || c.Hierarchy[len(c.Hierarchy)-1] != c.Title) {
			t.Fatalf("category %q has hierarchy %v", c.Title, c.Hierarchy)
		}
	}

	// One category per hierarchy node that products use.
	nodes := map[string]bool{}
	for _, p := range Catalog(20000, 1) {
		for _, h := range p.Hierarchies {
			for k := 1; k <= len(h); k++ {
				nodes[strings.Join(h[:k], "/")] = true
			}
		}
	}
	for _, c := range cs {
		if c.Kind == catalog.KindCategory {
			delete(nodes, strings.Join(c.Hierarchy, "/"))
		}
	}
	if len(nodes) > 0 {
		t.Errorf("hierarchy nodes without a category: %v", nodes)
	}
	if kinds[catalog.KindBrand] != len(shop.brands) {
		t.Errorf("%d brand entries for %d brands", kinds[catalog.KindBrand], len(shop.brands))
	}
	if k := kinds[catalog.KindSitePage]; k < 35 || k > 45 {
		t.Errorf("%d site pages, want ~40", k)
	}
	if k := kinds[catalog.KindBlogPost]; k < 55 || k > 65 {
		t.Errorf("%d blog posts, want ~60", k)
	}
	t.Logf("content: %v", kinds)
}

func TestConfig(t *testing.T) {
	f := Config()
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(f.Websites) != 2 || f.Websites[1].UUID != DanishUUID || f.Websites[1].Language != "da" {
		t.Fatalf("%d websites, want the English then the Danish", len(f.Websites))
	}
	w := f.Websites[0]
	if w.UUID != config.DemoUUID || w.Name != "Aisle Demo Shop" || w.RequireAPIKey {
		t.Fatalf("website %q %q requireApiKey %v", w.UUID, w.Name, w.RequireAPIKey)
	}
	indexed := map[string]config.IndexedField{}
	for _, f := range w.IndexedFields {
		indexed[f.Name] = f
	}
	if len(w.Search) != 1 || w.Search[0].Key != "demo" {
		t.Fatalf("search configs %+v", w.Search)
	}
	vs := w.Search[0].Versions
	if len(vs) != 2 || vs[0].ID != 1 || vs[0].Status != config.StatusLive || vs[1].ID != 2 || vs[1].Status != config.StatusDraft {
		t.Fatalf("versions: want 1 live and 2 draft")
	}
	for _, v := range vs {
		facets := slices.Clone(v.Facets)
		sorting := slices.Clone(v.Sorting)
		for _, d := range v.Devices {
			facets = append(facets, d.Facets...)
			sorting = append(sorting, d.Sorting...)
		}
		for _, fc := range facets {
			if _, ok := indexed[fc.Field]; !ok {
				t.Errorf("version %d: facet %q is not indexed", v.ID, fc.Field)
			}
		}
		for _, s := range sorting {
			if f, ok := indexed[s.Field]; !ok || !f.Sortable {
				t.Errorf("version %d: sorting %q is not an indexed sortable field", v.ID, s.Field)
			}
		}
		for _, s := range v.InitialContent.Sorting {
			if _, ok := indexed[strings.Fields(s)[0]]; !ok {
				t.Errorf("version %d: initial content sorts by unindexed %q", v.ID, s)
			}
		}
		for _, fl := range v.InitialContent.Filters {
			if _, ok := indexed[strings.SplitN(fl, ":", 2)[0]]; !ok {
				t.Errorf("version %d: initial content filters on unindexed %q", v.ID, fl)
			}
		}
	}
	if reflect.DeepEqual(vs[0].Facets, vs[1].Facets) || reflect.DeepEqual(vs[0].Fields, vs[1].Fields) {
		t.Error("the draft should differ visibly from the live version")
	}
	vs[1].Facets[0].Title = "changed"
	if vs[0].Facets[0].Title == "changed" {
		t.Error("versions share facet slices")
	}
	if _, err := json.Marshal(f); err != nil {
		t.Fatal(err)
	}
}

func TestQueries(t *testing.T) {
	qs := Queries(5000, 9)
	if !slices.Equal(qs, Queries(5000, 9)) {
		t.Fatal("Queries is not deterministic")
	}
	vocab := map[string]bool{}
	for _, l := range shop.leaves {
		for _, w := range strings.Fields(l.keywords + " " + l.labelLower) {
			vocab[strings.Trim(w, ",")] = true
		}
	}
	brandNames := map[string]bool{}
	for _, b := range shop.brands {
		brandNames[strings.ToLower(b.name)] = true
	}
	withBrand, unknown := 0, 0
	for _, q := range qs {
		words := strings.Fields(q)
		if len(words) < 1 || len(words) > 3 || q != strings.Join(words, " ") || !utf8.ValidString(q) {
			t.Fatalf("query %q is not 1-3 words", q)
		}
		for b := range brandNames {
			if strings.HasPrefix(q, b) {
				withBrand++
				break
			}
		}
		for _, w := range words {
			if !vocab[w] {
				unknown++
				break
			}
		}
	}
	if withBrand < 500 || withBrand > 1500 {
		t.Errorf("%d of 5000 queries name a brand, want ~1000", withBrand)
	}
	// Unknown words: brands, colours, materials, adjectives and typos.
	if unknown < 1000 || unknown > 3500 {
		t.Errorf("%d of 5000 queries have a word outside the product nouns", unknown)
	}
}

func BenchmarkEach(b *testing.B) {
	benchmarkEach(b, 100_000)
}

// BenchmarkEachMillion is the benchmarks' largest catalog; run it with
// -bench EachMillion -benchtime 1x.
func BenchmarkEachMillion(b *testing.B) {
	benchmarkEach(b, 1_000_000)
}

func benchmarkEach(b *testing.B, n int) {
	b.ReportAllocs()
	for b.Loop() {
		count := 0
		err := Each(n, 1, func(p *catalog.Product) error {
			count++
			return nil
		})
		if err != nil || count != n {
			b.Fatal(err, count)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/product")
}

func BenchmarkCatalog(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if len(Catalog(100_000, 1)) != 100_000 {
			b.Fatal("short catalog")
		}
	}
}

// TestDanish: the Danish shop is deterministic, valid by the import's
// rules, written in Danish (singular and plural forms of its product
// types, kroner), and its content lists its categories and brands.
func TestDanish(t *testing.T) {
	var a, b []catalog.Product
	EachDanish(300, 7, func(p *catalog.Product) error { a = append(a, *p); return nil })
	EachDanish(300, 7, func(p *catalog.Product) error { b = append(b, *p); return nil })
	if hashProducts(t, a) != hashProducts(t, b) {
		t.Fatal("two runs with one seed differ")
	}
	seen := map[string]bool{}
	for i := range a {
		p := &a[i]
		if err := p.Check(); err != nil {
			t.Fatalf("%s: %v", p.ProductNumber, err)
		}
		if seen[p.ProductNumber] || p.Currency != "DKK" || !strings.HasSuffix(p.PriceFormatted, " kr.") {
			t.Fatalf("%+v", p)
		}
		seen[p.ProductNumber] = true
	}
	if !strings.Contains(a[0].Title, " i ") {
		t.Errorf("title %q is not Danish", a[0].Title)
	}
	kinds := map[catalog.ContentKind]int{}
	for _, c := range DanishContent() {
		if err := c.Validate(); err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		kinds[c.Kind]++
	}
	if kinds[catalog.KindBrand] != len(danishBrands) || kinds[catalog.KindCategory] < 10 {
		t.Errorf("content %v", kinds)
	}
}
