package engine

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/events"
)

// The steps of ALTERNATIVES (recoms_similar.go and its signals), each
// on a small shop; TestAlternativesByContent holds their sum to the
// answer.

// altSignalsShop: three drills, a saw beside them, a fan and a lamp in
// the garden, a product without a category, a gift card and a refund
// of a negative price. Doc ids follow the product numbers: bare ctx fan
// lamp misc plain refund saw twin.
// Doc counts: cordless 6 (plain's in its brand), brushless 5, drill 4,
// compact 2 (the lamp's in its brand), kit 1.
func altSignalsShop(t *testing.T) *Generation {
	drills := []string{"Tools", "Power Tools", "Drills"}
	saws := []string{"Tools", "Power Tools", "Saws"}
	return boostShop(t, nil, []catalog.Product{
		{ProductNumber: "ctx", Title: "Cordless Drill Brushless", Brand: "Makita", Price: 100, InStock: true, Hierarchies: [][]string{drills}},
		{ProductNumber: "twin", Title: "Cordless Drill Brushless Kit", Brand: "Makita", Price: 110, InStock: true, Hierarchies: [][]string{drills}},
		{ProductNumber: "plain", Title: "Hammer Drill", Brand: "Cordless Co", Price: 400, InStock: true, Hierarchies: [][]string{drills}},
		{ProductNumber: "saw", Title: "Cordless Saw Brushless", Brand: "Makita", Price: 50, InStock: true, Hierarchies: [][]string{saws}},
		{ProductNumber: "fan", Title: "Brushless Fan", Brand: "Acme", Price: 100, InStock: true, Hierarchies: [][]string{{"Garden", "Cooling"}}},
		{ProductNumber: "lamp", Title: "Cordless Lamp", Brand: "Compact Lights", Price: 30, InStock: true, Hierarchies: [][]string{{"Garden", "Lighting"}}},
		{ProductNumber: "bare", Title: "Cordless Drill Brushless Compact", Brand: "Bosch", InStock: true},
		{ProductNumber: "misc", Title: "Gift Card", Price: 25, InStock: true, Hierarchies: [][]string{{"Misc"}}},
		{ProductNumber: "refund", Title: "Store Credit", Price: -5, InStock: true},
	})
}

// altCall is a recommendations call on g with a fresh behaviour model.
func altCall(g *Generation) *recomCall {
	return &recomCall{ctx: context.Background(), g: g, m: NewBehaviours().Model(g.Website.UUID), now: boostNow, used: roaring.New()}
}

// docsOf is the docs of product numbers.
func docsOf(t *testing.T, g *Generation, pns ...string) []uint32 {
	t.Helper()
	var out []uint32
	for _, pn := range pns {
		d, ok := g.Doc(pn)
		if !ok {
			t.Fatalf("no product %q", pn)
		}
		out = append(out, d)
	}
	return out
}

// numbersOf is the product numbers of bm's docs, "" for nil.
func numbersOf(g *Generation, bm *roaring.Bitmap) []string {
	if bm == nil {
		return nil
	}
	var out []string
	for _, d := range bm.ToArray() {
		out = append(out, g.Products.Key(d))
	}
	slices.Sort(out)
	return out
}

// scoresByNumber is scores by product number.
func scoresByNumber(g *Generation, scores map[uint32]float64) map[string]float64 {
	out := map[string]float64{}
	for d, s := range scores {
		out[g.Products.Key(d)] = s
	}
	return out
}

// sameScores reports whether got and want hold the same products and
// scores within rounding.
func sameScores(got, want map[string]float64) bool {
	return maps.EqualFunc(got, want, func(a, b float64) bool { return math.Abs(a-b) < 1e-12 })
}

// TestPriceCloseness: 1 at a context price, 0 at half or twice it and
// beyond, the nearest context price counting; context products without
// a price are left out.
func TestPriceCloseness(t *testing.T) {
	priced := func(prices ...float64) []contextProduct {
		var out []contextProduct
		for _, p := range prices {
			out = append(out, contextProduct{Price: p})
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		price float64
		ctx   []contextProduct
		want  float64
	}{
		{"at the context price", 100, priced(100), 1},
		{"at twice it", 200, priced(100), 0},
		{"at half", 50, priced(100), 0},
		{"beyond twice: not below 0", 400, priced(100), 0},
		{"halfway, by ratio", 100 * math.Sqrt2, priced(100), 0.5},
		{"below, by ratio", 100 / math.Sqrt2, priced(100), 0.5},
		{"the nearest context price", 110, priced(400, 100, 25), 1 - math.Log2(1.1)},
		{"a context product without a price left out", 100, priced(0, 200), 0},
		{"no context price", 100, priced(0), 0},
		{"no context", 100, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := priceCloseness(tc.price, tc.ctx); math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("%v: %v, want %v", tc.price, got, tc.want)
			}
		})
	}
}

// TestCategoryPaths: each context product's first hierarchy gives its
// deepest category and that one's parent, as hierarchy values, each
// once.
func TestCategoryPaths(t *testing.T) {
	in := func(hs ...[]string) contextProduct { return contextProduct{Hierarchies: hs} }
	drills := []string{"Tools", "Power Tools", "Drills"}
	for _, tc := range []struct {
		name            string
		ctx             []contextProduct
		leaves, parents []string
	}{
		{"no context", nil, nil, nil},
		{"no category", []contextProduct{in()}, nil, nil},
		{"an empty first path", []contextProduct{in(nil, drills)}, nil, nil},
		{"a path of one", []contextProduct{in([]string{"Misc"})}, []string{"Misc$"}, nil},
		{"a deep path", []contextProduct{in(drills)}, []string{"Tools$Power Tools$Drills$"}, []string{"Tools$Power Tools$"}},
		{"the first path only", []contextProduct{in(drills, []string{"Sale", "Drills"})}, []string{"Tools$Power Tools$Drills$"}, []string{"Tools$Power Tools$"}},
		{"each once", []contextProduct{in(drills), in([]string{"Tools", "Power Tools", "Saws"}), in(drills)},
			[]string{"Tools$Power Tools$Drills$", "Tools$Power Tools$Saws$"}, []string{"Tools$Power Tools$"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			leaves, parents := categoryPaths(tc.ctx)
			if !slices.Equal(leaves, tc.leaves) || !slices.Equal(parents, tc.parents) {
				t.Errorf("leaves %q, parents %q; want %q, %q", leaves, parents, tc.leaves, tc.parents)
			}
		})
	}
}

// TestContextCategories: the products of the context's deepest
// categories, and of their parents (where title words find candidates;
// the deepest ones' when none has a parent).
func TestContextCategories(t *testing.T) {
	g := altSignalsShop(t)
	c := altCall(g)
	in := func(hs ...[]string) contextProduct { return contextProduct{Hierarchies: hs} }
	drills := in([]string{"Tools", "Power Tools", "Drills"})
	for _, tc := range []struct {
		name        string
		ctx         []contextProduct
		leaf, scope []string
	}{
		{"none", []contextProduct{in()}, nil, nil},
		{"drills: the power tools", []contextProduct{drills}, []string{"ctx", "plain", "twin"}, []string{"ctx", "plain", "saw", "twin"}},
		{"a category without a parent", []contextProduct{in([]string{"Misc"})}, []string{"misc"}, []string{"misc"}},
		{"two", []contextProduct{drills, in([]string{"Garden", "Cooling"})}, []string{"ctx", "fan", "plain", "twin"}, []string{"ctx", "fan", "lamp", "plain", "saw", "twin"}},
		{"a parent for one of two", []contextProduct{in([]string{"Misc"}), drills}, []string{"ctx", "misc", "plain", "twin"}, []string{"ctx", "plain", "saw", "twin"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			leaf, scope := c.contextCategories(tc.ctx)
			if got, got2 := numbersOf(g, leaf), numbersOf(g, scope); !slices.Equal(got, tc.leaf) || !slices.Equal(got2, tc.scope) {
				t.Errorf("leaf %q, scope %q; want %q, %q", got, got2, tc.leaf, tc.scope)
			}
		})
	}
}

// TestTitleWords: the context titles' terms some product has in its
// title, each once, rarest first, weighed by IDF; their IDFs' sum.
func TestTitleWords(t *testing.T) {
	g := altSignalsShop(t)
	c := altCall(g)
	titled := func(titles ...string) []contextProduct {
		var out []contextProduct
		for _, s := range titles {
			out = append(out, contextProduct{Title: s})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		ctx  []contextProduct
		want []string
	}{
		{"rarest first", titled("Cordless Drill Brushless"), []string{"drill", "brushless", "cordless"}},
		{"stemmed, folded", titled("CORDLESS drills"), []string{"drill", "cordless"}},
		{"each once", titled("Cordless Drill Brushless", "Cordless Drill Brushless Kit"), []string{"kit", "drill", "brushless", "cordless"}},
		{"not a word no title has", titled("Makita Drill Unobtainium"), []string{"drill"}},
		{"none", titled("Makita"), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			words := c.titleWords(tc.ctx)
			var got []string
			sum := 0.0
			for _, w := range words.list {
				got = append(got, g.Products.TermString(w.term))
				df := float64(g.Products.DocFreq(w.term))
				n := float64(g.Products.Len())
				if want := math.Log(1 + (n-df+0.5)/(df+0.5)); w.idf != want {
					t.Errorf("%s: IDF %v, want %v", g.Products.TermString(w.term), w.idf, want)
				}
				sum += w.idf
			}
			if !slices.Equal(got, tc.want) || math.Abs(words.total-sum) > 1e-12 {
				t.Errorf("words %q (total %v); want %q (total %v)", got, words.total, tc.want, sum)
			}
		})
	}
}

// TestContentCandidates: the context's deepest categories' products and
// those with one of the three rarest context title words in their
// title, in the parent categories when the context has them.
func TestContentCandidates(t *testing.T) {
	g := altSignalsShop(t)
	c := altCall(g)
	for _, tc := range []struct {
		name string
		ctx  string
		want []string
	}{
		// drill, brushless, cordless: in the power tools, so not the fan,
		// the lamp or bare; plain by its category and its title's drill.
		{"in the parent categories", "ctx", []string{"ctx", "plain", "saw", "twin"}},
		// compact, drill, brushless in titles anywhere; cordless, the
		// fourth, not (the lamp has only it, and compact in its brand).
		{"without a category: the three rarest words anywhere", "bare", []string{"bare", "ctx", "fan", "plain", "saw", "twin"}},
		// gift and card: only the card itself.
		{"a category of one", "misc", []string{"misc"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := c.contextProducts(docsOf(t, g, tc.ctx))
			leaf, scope := c.contextCategories(ctx)
			if got := numbersOf(g, c.contentCandidates(leaf, scope, c.titleWords(ctx))); !slices.Equal(got, tc.want) {
				t.Errorf("candidates %q, want %q", got, tc.want)
			}
		})
	}
}

// TestScoreTitleWords: a candidate scores altTitle × the IDF of the
// context's words it has, in any text field, over theirs; a product
// that is no candidate, nothing.
func TestScoreTitleWords(t *testing.T) {
	g := altSignalsShop(t)
	c := altCall(g)
	ctx := c.contextProducts(docsOf(t, g, "ctx"))
	words := c.titleWords(ctx)
	idf := map[string]float64{}
	for _, w := range words.list {
		idf[g.Products.TermString(w.term)] = w.idf
	}
	of := func(terms ...string) float64 {
		sum := 0.0
		for _, term := range terms {
			sum += idf[term]
		}
		return altTitle * sum / (idf["drill"] + idf["brushless"] + idf["cordless"])
	}
	for _, tc := range []struct {
		name string
		cand []string
		want map[string]float64
	}{
		{"every word, some, one in the brand", []string{"ctx", "twin", "plain", "saw"}, map[string]float64{
			"ctx": of("drill", "brushless", "cordless"), "twin": of("drill", "brushless", "cordless"),
			"plain": of("drill", "cordless"), "saw": of("brushless", "cordless"),
		}},
		{"candidates only", []string{"fan", "misc"}, map[string]float64{"fan": of("brushless")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scores := map[uint32]float64{}
			c.scoreTitleWords(words, roaring.BitmapOf(docsOf(t, g, tc.cand...)...), scores)
			if got := scoresByNumber(g, scores); !sameScores(got, tc.want) {
				t.Errorf("scores %v, want %v", got, tc.want)
			}
		})
	}
}

// TestContentScorer: altCategory in a context product's deepest
// category, altBrand with one of its brands, altPrice × the price's
// closeness to the nearest context price; the score their sum.
func TestContentScorer(t *testing.T) {
	g := altSignalsShop(t)
	c := altCall(g)
	near := func(p, to float64) float64 { return altPrice * max(0, 1-math.Abs(math.Log2(p/to))) }
	for _, tc := range []struct {
		name string
		ctx  []string
		want map[string][3]float64 // category, brand, price
	}{
		{"a drill", []string{"ctx"}, map[string][3]float64{
			"ctx":    {altCategory, altBrand, altPrice},
			"twin":   {altCategory, altBrand, near(110, 100)},
			"plain":  {altCategory, 0, 0},
			"saw":    {0, altBrand, 0},
			"fan":    {0, 0, altPrice},
			"lamp":   {0, 0, 0},
			"bare":   {0, 0, 0},
			"misc":   {0, 0, near(25, 100)},
			"refund": {0, 0, 0},
		}},
		{"a drill and the card (no brand)", []string{"ctx", "misc"}, map[string][3]float64{
			"ctx":   {altCategory, altBrand, altPrice},
			"twin":  {altCategory, altBrand, near(110, 100)},
			"plain": {altCategory, 0, 0},
			"saw":   {0, altBrand, near(50, 25)},
			"fan":   {0, 0, altPrice},
			"lamp":  {0, 0, near(30, 25)},
			"bare":  {0, 0, 0},
			"misc":  {altCategory, 0, altPrice},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := c.contextProducts(docsOf(t, g, tc.ctx...))
			leaf, _ := c.contextCategories(ctx)
			cs := c.newContentScorer(ctx, leaf)
			for _, pn := range slices.Sorted(maps.Keys(tc.want)) {
				d := docsOf(t, g, pn)[0]
				want := tc.want[pn]
				got := [3]float64{cs.category(d), cs.brand(d), cs.priceScore(d)}
				if math.Abs(got[0]-want[0])+math.Abs(got[1]-want[1])+math.Abs(got[2]-want[2]) > 1e-12 {
					t.Errorf("%s: category, brand, price %v, want %v", pn, got, want)
				}
				if s := cs.score(d); s != got[0]+got[1]+got[2] {
					t.Errorf("%s: score %v, not the sum of %v", pn, s, got)
				}
			}
		})
	}
}

// TestScoreCoViewed: a product viewed with the context scores
// altCoViewed × its co-views over the most co-viewed product's, that
// one in the catalog or not; one not in the catalog scores nothing.
func TestScoreCoViewed(t *testing.T) {
	g := altSignalsShop(t)
	for _, tc := range []struct {
		name     string
		sessions [][]string // each a visitor's views
		want     map[string]float64
	}{
		{"no views", nil, map[string]float64{}},
		{"the most co-viewed scores altCoViewed", [][]string{{"ctx", "twin", "saw"}, {"ctx", "twin"}},
			map[string]float64{"twin": altCoViewed, "saw": altCoViewed / 2}},
		{"one not in the catalog: left out, and still the highest", [][]string{{"ctx", "twin", "saw", "gone"}, {"ctx", "twin", "gone"}, {"ctx", "gone"}},
			map[string]float64{"twin": altCoViewed * 2 / 3, "saw": altCoViewed / 3}},
		{"not viewed with the context", [][]string{{"twin", "saw"}, {"ctx"}}, map[string]float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := altCall(g)
			c.m.MaxStale = 0
			for i, views := range tc.sessions {
				for _, pn := range views {
					c.m.Fold(&events.Event{Kind: events.View, Website: shopUUID, User: fmt.Sprint("u", i), ProductNumber: pn, Time: boostNow.UnixMilli()})
				}
			}
			scores := map[uint32]float64{}
			c.scoreCoViewed(docsOf(t, g, "ctx"), scores)
			if got := scoresByNumber(g, scores); !sameScores(got, tc.want) {
				t.Errorf("scores %v, want %v", got, tc.want)
			}
		})
	}
}

// TestSplitBest: the docs scoring at least the n-th best score (ties
// at the cut with them) and the others, each in the order given.
func TestSplitBest(t *testing.T) {
	ranked := func(scores ...float64) []scored {
		out := make([]scored, len(scores))
		for i, s := range scores {
			out[i] = scored{uint32(i), s}
		}
		return out
	}
	docs := func(ss []scored) []uint32 {
		var out []uint32
		for _, s := range ss {
			out = append(out, s.doc)
		}
		return out
	}
	for _, tc := range []struct {
		name       string
		ranked     []scored
		n          int
		head, tail []uint32
	}{
		{"the best two", ranked(1, 5, 3, 4, 2), 2, []uint32{1, 3}, []uint32{0, 2, 4}},
		{"ties at the cut go with the best", ranked(1, 5, 4, 4, 2), 2, []uint32{1, 2, 3}, []uint32{0, 4}},
		{"all tied", ranked(2, 2, 2), 1, []uint32{0, 1, 2}, nil},
		{"all but the worst", ranked(3, 1, 2), 2, []uint32{0, 2}, []uint32{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head, tail := splitBest(tc.ranked, tc.n)
			if !slices.Equal(docs(head), tc.head) || !slices.Equal(docs(tail), tc.tail) {
				t.Errorf("head %v, tail %v; want %v, %v", docs(head), docs(tail), tc.head, tc.tail)
			}
		})
	}
}

// TestYieldBest: the docs of positive score, best first, equal scores
// by popularity then index order, past altSorted as within it; and no
// doc after yield says stop.
func TestYieldBest(t *testing.T) {
	var products []catalog.Product
	for i := range altSorted + 72 {
		products = append(products, catalog.Product{ProductNumber: fmt.Sprintf("P%03d", i), Title: "Widget", InStock: true})
	}
	g := boostShop(t, nil, products)
	many := map[uint32]float64{} // many ties
	for d := range uint32(len(products)) {
		many[d] = float64(d*37%50 + 1)
	}
	manyOrder := slices.SortedFunc(maps.Keys(many), func(a, b uint32) int {
		if many[a] != many[b] {
			return cmp.Compare(many[b], many[a])
		}
		return cmp.Compare(a, b)
	})
	for _, tc := range []struct {
		name   string
		scores map[uint32]float64
		views  map[string]int
		stop   int // yield says stop at this doc (0: never)
		want   []uint32
	}{
		{name: "positive scores, best first", scores: map[uint32]float64{0: 1, 1: 3, 2: 0, 3: 2, 4: -1}, want: []uint32{1, 3, 0}},
		{name: "equal scores: the more viewed first, then index order", scores: map[uint32]float64{0: 1, 1: 1, 2: 1, 3: 2},
			views: map[string]int{"P002": 3, "P001": 1}, want: []uint32{3, 2, 1, 0}},
		{name: "past altSorted as within", scores: many, want: manyOrder},
		{name: "stopped within the best altSorted", scores: many, stop: 5, want: manyOrder[:5]},
		{name: "stopped past them", scores: many, stop: altSorted + 20, want: manyOrder[:altSorted+20]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := altCall(g)
			c.m.MaxStale = 0
			views(c.m, tc.views)
			var got []uint32
			c.yieldBest(tc.scores, func(d uint32) bool {
				got = append(got, d)
				return len(got) != tc.stop
			})
			if !slices.Equal(got, tc.want) {
				t.Errorf("yielded %v, want %v", got, tc.want)
			}
		})
	}
}
