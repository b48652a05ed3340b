package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/datasets"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/internal/expect"
)

// refQueryKinds name the query shapes refQueryGen.query draws, for the failure
// messages and the per-kind counters.
var refQueryKinds = []string{"word", "prefix", "typo", "digits", "phrase", "two products", "synonym", "product number"}

// refQueryGen draws queries from a catalog's own text.
type refQueryGen struct {
	r        *rand.Rand
	products []catalog.Product
	synonyms []string // every synonym term and source of the version
}

func newRefQueryGen(seed uint64, products []catalog.Product, v *config.SearchVersion) *refQueryGen {
	g := &refQueryGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), products: products}
	for _, s := range v.Synonyms {
		if s.From != "" {
			g.synonyms = append(g.synonyms, s.From)
		}
		g.synonyms = append(g.synonyms, s.Terms...)
	}
	return g
}

// words is the space-separated words of a random product's title, brand
// or category level, as typed there (case, accents, punctuation).
func (g *refQueryGen) words() []string {
	for {
		p := &g.products[g.r.IntN(len(g.products))]
		var text string
		switch g.r.IntN(4) {
		case 0:
			text = p.Brand
		case 1:
			if len(p.Hierarchies) > 0 {
				h := p.Hierarchies[g.r.IntN(len(p.Hierarchies))]
				text = h[g.r.IntN(len(h))]
			}
		default:
			text = p.Title
		}
		if ws := strings.Fields(text); len(ws) > 0 {
			return ws
		}
	}
}

func (g *refQueryGen) word() string {
	ws := g.words()
	return ws[g.r.IntN(len(ws))]
}

// longWord is a word of at least n letters, with its punctuation trimmed.
func (g *refQueryGen) longWord(n int) string {
	for {
		w := strings.TrimFunc(g.word(), func(r rune) bool { return !unicode.IsLetter(r) })
		if utf8.RuneCountInString(w) >= n && !strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) {
			return w
		}
	}
}

// edit applies one random edit (substitution, insertion, deletion or
// transposition of neighbours) to w.
func (g *refQueryGen) edit(w string) string {
	rs := []rune(strings.ToLower(w))
	i := g.r.IntN(len(rs))
	letter := rune('a' + g.r.IntN(26))
	switch g.r.IntN(4) {
	case 0:
		rs[i] = letter
	case 1:
		rs = slices.Insert(rs, i, letter)
	case 2:
		rs = slices.Delete(rs, i, i+1)
	default:
		if i == len(rs)-1 {
			i--
		}
		rs[i], rs[i+1] = rs[i+1], rs[i]
	}
	return string(rs)
}

// query draws one query and names its kind.
func (g *refQueryGen) query() (string, string) {
	kind := refQueryKinds[g.r.IntN(len(refQueryKinds))]
	var q string
	switch kind {
	case "word":
		q = g.word()
	case "prefix":
		rs := []rune(g.longWord(2))
		q = string(rs[:1+g.r.IntN(len(rs))])
		if g.r.IntN(2) == 0 {
			q = g.word() + " " + q
		}
	case "typo":
		// One edit from 5 letters, sometimes two from 9.
		if g.r.IntN(2) == 0 {
			w := g.longWord(9)
			q = g.edit(g.edit(w))
		} else {
			q = g.edit(g.longWord(5))
		}
		if g.r.IntN(3) == 0 {
			q = g.word() + " " + q
		}
	case "digits":
		for !strings.ContainsAny(q, "0123456789") {
			switch g.r.IntN(4) {
			case 0:
				pn := g.products[g.r.IntN(len(g.products))].ProductNumber
				q = pn[:1+g.r.IntN(len(pn))]
			case 1:
				q = fmt.Sprint(g.r.IntN(1000))
			case 2:
				// A word one digit away from a word: never typo-corrected.
				rs := []rune(strings.ToLower(g.longWord(5)))
				d := rune('0' + g.r.IntN(10))
				if i := g.r.IntN(len(rs) + 1); i < len(rs) && g.r.IntN(2) == 0 {
					rs[i] = d
				} else {
					rs = slices.Insert(rs, i, d)
				}
				q = string(rs)
			default:
				q = g.word() // a title word with a digit, if it has one
			}
		}
	case "phrase":
		ws := g.words()
		i := g.r.IntN(len(ws))
		q = strings.Join(ws[i:min(len(ws), i+2+g.r.IntN(3))], " ")
	case "two products":
		q = g.word() + " " + g.word()
		if g.r.IntN(2) == 0 {
			q += " " + g.word()
		}
	case "synonym":
		q = g.synonyms[g.r.IntN(len(g.synonyms))]
		switch g.r.IntN(3) {
		case 0:
			q = g.word() + " " + q
		case 1:
			q += " " + g.word()
		}
	case "product number":
		p := &g.products[g.r.IntN(len(g.products))]
		q = p.ProductNumber
		if len(p.VariantProductNumbers) > 0 && g.r.IntN(2) == 0 {
			q = p.VariantProductNumbers[g.r.IntN(len(p.VariantProductNumbers))]
		}
	}
	switch g.r.IntN(6) {
	case 0:
		q = strings.ToUpper(q)
	case 1:
		q += " " // as-you-type ends: no prefix for the last word
	}
	return q, kind
}

// engineMatches pages through a query's products: the product numbers
// found, and for each whether it is a suggested result.
func engineMatches(t *testing.T, g *Generation, key, query string) (int, map[string]bool) {
	t.Helper()
	got := map[string]bool{}
	total := 0
	for start := 0; ; start += MaxCount {
		st, count := start, MaxCount
		res, err := g.Search(&SearchRequest{Query: &query, Key: &key, Products: &ProductSettings{
			ContentSettings: ContentSettings{PageSettings: PageSettings{Start: &st, Count: &count}}}})
		if err != nil {
			t.Fatalf("q=%q: %v", query, err)
		}
		total = res.Products.Total
		for i, h := range res.Products.Hits {
			got[g.Products.Key(h.Doc)] = res.Products.Suggested[i]
		}
		if start+count >= total {
			return total, got
		}
	}
}

// refCatalog is a catalog built twice: by the engine and by the reference.
type refCatalog struct {
	name     string
	products []catalog.Product
	key      string
	version  *config.SearchVersion
	gen      *Generation
	ref      *refMatcher
}

func newRefCatalog(t *testing.T, name string, w *config.Website, key string, products []catalog.Product) *refCatalog {
	t.Helper()
	g, err := Build(w, analysis.English, Source{Products: sliceSource(products)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	v := g.search[key].live.cfg
	return &refCatalog{name: name, products: products, key: key, version: v, gen: g,
		ref: newRefMatcher(products, v, analysis.English, searchedFields(v))}
}

// compare requires the engine's match set for query, with suggested
// flags, to equal the reference's, and returns the reference's.
func (rc *refCatalog) compare(t *testing.T, query, kind string) refMatch {
	t.Helper()
	want := rc.ref.match(query)
	total, got := engineMatches(t, rc.gen, rc.key, query)
	members := want.all.members()
	var diffs []string
	for _, i := range members {
		pn := rc.products[i].ProductNumber
		sug, ok := got[pn]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s missing (%q)", pn, rc.products[i].Title))
		case sug != !want.direct.has(i):
			diffs = append(diffs, fmt.Sprintf("%s suggestedResult %v, reference %v (%q)", pn, sug, !want.direct.has(i), rc.products[i].Title))
		}
		delete(got, pn)
	}
	for pn := range got {
		diffs = append(diffs, fmt.Sprintf("%s found, reference does not match it", pn))
	}
	if len(diffs) > 0 || total != len(members) {
		slices.Sort(diffs)
		t.Fatalf("%s %s q=%q: engine total %d, reference %d; %d differences:\n%s",
			rc.name, kind, query, total, len(members), len(diffs), strings.Join(diffs[:min(len(diffs), 10)], "\n"))
	}
	return want
}

// run compares the fixed queries, then n random ones; counters make sure
// every kind and every route was exercised and matched something.
func (rc *refCatalog) run(t *testing.T, seed uint64, n int, fixed ...string) {
	gen := newRefQueryGen(seed, rc.products, rc.version)
	ran := expect.Counter{What: rc.name + " queries", Min: n}
	found := expect.Counter{What: rc.name + " queries matching a product", Min: n / 2}
	none := expect.Counter{What: rc.name + " queries matching nothing", Min: 1}
	suggested := expect.Counter{What: rc.name + " queries with suggested results", Min: 3}
	routes := map[string]*expect.Counter{}
	for _, r := range []string{"prefix", "typo", "synonym", "relaxed"} {
		routes[r] = &expect.Counter{What: rc.name + " queries widened by the " + r + " route", Min: 3}
	}
	kinds := map[string]*expect.Counter{}
	for _, k := range refQueryKinds {
		kinds[k] = &expect.Counter{What: rc.name + " " + k + " queries matching a product", Min: 2}
	}
	// The wildcard (every product) once per spelling: paging through the
	// whole catalog is the slowest comparison.
	for _, q := range []string{"*", "", "   ", " * "} {
		if m := rc.compare(t, q, "wildcard"); m.all.count() != len(rc.products) {
			t.Fatalf("%s: wildcard %q matches %d of %d products", rc.name, q, m.all.count(), len(rc.products))
		}
	}
	for _, q := range fixed {
		if rc.compare(t, q, "fixed").all.count() == 0 {
			t.Fatalf("%s: fixed query %q matches nothing", rc.name, q)
		}
	}
	for range n {
		q, kind := gen.query()
		m := rc.compare(t, q, kind)
		ran.N++
		c := m.all.count()
		if c == 0 {
			none.N++
			continue
		}
		found.N++
		kinds[kind].N++
		if c != m.direct.count() {
			suggested.N++
		}
		for r, on := range map[string]bool{"prefix": m.routes.prefix, "typo": m.routes.typo, "synonym": m.routes.synonym, "relaxed": m.routes.relaxed} {
			if on {
				routes[r].N++
			}
		}
	}
	t.Logf("%s: %d queries, %d matched a product, %d none, %d with suggested results", rc.name, ran.N, found.N, none.N, suggested.N)
	for _, c := range []*expect.Counter{&ran, &found, &none, &suggested} {
		c.Check(t)
	}
	for _, r := range []string{"prefix", "typo", "synonym", "relaxed"} {
		routes[r].Check(t)
	}
	for _, k := range refQueryKinds {
		kinds[k].Check(t)
	}
}

// TestMatchSetEqualsReferenceDemo: docs/decisions.md "Every query word must
// match (through its exact term, stem, prefix, typo or synonym route)",
// with as-you-type, typos, exact product numbers and relaxing, and
// docs/configuration.md "Products found only through a synonym are
// suggestedResult: true", on random queries over the demo catalog.
func TestMatchSetEqualsReferenceDemo(t *testing.T) {
	cfg := demo.Config()
	rc := newRefCatalog(t, "demo", &cfg.Websites[0], "demo", demo.Catalog(3000, 11))
	// Synonyms two-way and one-way (tv finds television, television does
	// not find tv), phrases on either side, with and without a trailing
	// space.
	rc.run(t, 1, 600, "sofa", "couch ", "tv", "television", "pruning shears", "secateurs", "fairy lights", "string lights ",
		"weed eater", "hoodie", "sweater", "mtb", "wc ", "laptop bag", "backpack black")
}

// TestMatchSetEqualsReferenceFlipkart is TestMatchSetEqualsReferenceDemo
// over the Flipkart catalog under the default configuration.
func TestMatchSetEqualsReferenceFlipkart(t *testing.T) {
	w, products := flipkartCatalog(t)
	rc := newRefCatalog(t, "flipkart", w, config.DefaultKey, products)
	rc.run(t, 2, 300, "bed", "bed ", "bedsheet", "mobile cover", "phone case", "back cover", "specs", "kurti", "t-shirt", "tee ", "watch")
}

// flipkartCatalog is the Flipkart products under the default
// configuration, with the FK Advantage flag as a keyword facet, an
// "Added" date facet (no Flipkart product has a date: its bounds are
// always absent) and a few synonyms that fit the catalog (one-way,
// two-way, phrases).
func flipkartCatalog(t *testing.T) (*config.Website, []catalog.Product) {
	t.Helper()
	path := datasets.SkipOrFile(t, "flipkart/products.csv")
	m, err := catalog.BuiltinMapping("flipkart")
	if err != nil {
		t.Fatal(err)
	}
	var products []catalog.Product
	err = catalog.ReadFile(path, m, nil, func(p *catalog.Product) error {
		p.Normalize()
		products = append(products, *p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default(config.DemoUUID)
	w := &cfg.Websites[0]
	w.IndexedFields = append(w.IndexedFields, config.IndexedField{Name: "extraData.fkAdvantage", Type: config.TypeKeyword})
	v := &w.Search[0].Versions[0]
	v.Facets = append(v.Facets,
		config.Facet{Field: "extraData.fkAdvantage", Type: config.FacetList, Title: "FK Advantage"},
		config.Facet{Field: "created", Type: config.FacetRange, Title: "Added"})
	v.Synonyms = []config.Synonym{
		{Terms: []string{"t-shirt", "tee"}},
		{Terms: []string{"mobile cover", "phone case", "back cover"}},
		{From: "kurti", Terms: []string{"kurta"}},
		{Terms: []string{"sneakers", "sports shoes"}},
		{From: "specs", Terms: []string{"spectacle frames", "sunglasses"}},
		{Terms: []string{"watch", "wristwatch"}},
		// "bed" reaches bedsheet as a prefix too: those stay direct.
		{Terms: []string{"bed", "bedsheet"}},
	}
	return w, expect.Some(t, "flipkart products", products)
}
