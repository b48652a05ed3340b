package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/events"
)

var boostNow = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)

// boostShop is a website with search configuration "b" using boosts b
// (nil: the default), over products.
func boostShop(t testing.TB, b *config.Boosts, products []catalog.Product) *Generation {
	t.Helper()
	off := 0.0 // no title re-ranking: its best 20 differ with the boosts, and the oracles compare text scores
	w := &config.Website{
		UUID:          shopUUID,
		IndexedFields: shopWebsite().IndexedFields,
		Search: []config.SearchConfig{{Key: "b", Versions: []config.SearchVersion{{ID: 1, Status: config.StatusLive,
			Fields: []config.SearchField{{Name: "title", Weight: 5}, {Name: "brand", Weight: 2}}, Boosts: b, Proximity: &off, ExactForms: &off}}}},
	}
	if err := (&config.File{Websites: []config.Website{*w}}).Validate(); err != nil {
		t.Fatal(err)
	}
	g, err := Build(w, analysis.English, Source{Products: sliceSource(products)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// boostSearch is the product numbers body finds on g with model m.
func boostSearch(t testing.TB, g *Generation, m *behaviour.Model, body string) []string {
	t.Helper()
	res, err := g.SearchWith(shopRequest(t, body), m, boostNow)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range res.Products.Hits {
		out = append(out, g.Products.Key(h.Doc))
	}
	return out
}

// views folds n views of each product into m, just before boostNow.
func views(m *behaviour.Model, counts map[string]int) {
	user := 0
	for _, pn := range slices.Sorted(func(yield func(string) bool) {
		for pn := range counts {
			if !yield(pn) {
				return
			}
		}
	}) {
		for range counts[pn] {
			user++
			m.Fold(&events.Event{Kind: events.View, Website: shopUUID, User: fmt.Sprint("u", user), ProductNumber: pn,
				Time: boostNow.Add(-time.Hour).UnixMilli()})
		}
	}
}

// hammers are five products whose titles tie for "hammer" and one that
// matches it less well.
func hammers() []catalog.Product {
	return []catalog.Product{
		{ProductNumber: "h1", Title: "Claw Hammer", Price: 10},
		{ProductNumber: "h2", Title: "Claw Hammer", Price: 10},
		{ProductNumber: "h3", Title: "Claw Hammer", Price: 10},
		{ProductNumber: "h4", Title: "Claw Hammer", Price: 10},
		{ProductNumber: "h5", Title: "Claw Hammer", Price: 10},
		{ProductNumber: "s1", Title: "Steel Nails for a Claw Hammer, Box of Two Hundred Pieces", Price: 3},
		{ProductNumber: "x1", Title: "Garden Hose", Price: 20},
	}
}

// TestPopularityReordersSearch: the same query orders differently after
// events under the default boosts (popular near ties first), not at all
// with the weights at 0, and a poor match stays below good ones however
// popular it is.
func TestPopularityReordersSearch(t *testing.T) {
	const q = `{"query":"hammer","key":"b","products":{"count":10}}`
	def := boostShop(t, nil, hammers())
	off := boostShop(t, &config.Boosts{}, hammers())
	m := behaviour.New()
	m.MaxStale = 0 // every search sees the events before it
	before := boostSearch(t, def, m, q)
	if want := "h1 h2 h3 h4 h5 s1"; strings.Join(before, " ") != want {
		t.Fatalf("before events: %v, want %s", before, want)
	}
	views(m, map[string]int{"h4": 50, "h2": 10, "s1": 1000})
	after := boostSearch(t, def, m, q)
	if want := "h4 h2 h1 h3 h5 s1"; strings.Join(after, " ") != want {
		t.Errorf("after events, default boosts: %v, want %s", after, want)
	}
	if got := boostSearch(t, off, m, q); !slices.Equal(got, before) {
		t.Errorf("after events, weights 0: %v, want the order before events %v", got, before)
	}
	if got := boostSearch(t, def, nil, q); !slices.Equal(got, before) {
		t.Errorf("no behaviour model: %v, want %v", got, before)
	}
	// A user sorting leads; popularity only breaks its ties.
	if got := boostSearch(t, def, m, `{"query":"hammer","key":"b","products":{"count":10,"sorting":["price asc"]}}`); strings.Join(got, " ") != "s1 h4 h2 h1 h3 h5" {
		t.Errorf("sorted by price: %v, want s1 h4 h2 h1 h3 h5", got)
	}
}

// TestPopularityListing: a search with no text orders by the boost when
// the version asks for the popularity listing, in catalog order
// otherwise, and a user sorting still leads.
func TestPopularityListing(t *testing.T) {
	pop := boostShop(t, &config.Boosts{Popularity: 0.1, Listing: config.ListingPopularity}, hammers())
	cat := boostShop(t, nil, hammers())
	m := behaviour.New()
	m.MaxStale = 0
	views(m, map[string]int{"x1": 30, "h3": 5, "s1": 60})
	for _, tc := range []struct {
		g    *Generation
		m    *behaviour.Model
		body string
		want string
	}{
		{pop, m, `{"query":"*","key":"b","products":{"count":10}}`, "s1 x1 h3 h1 h2 h4 h5"},
		{pop, m, `{"query":"","key":"b","products":{"count":3}}`, "s1 x1 h3"},
		{pop, m, `{"query":"*","key":"b","products":{"count":10,"filters":["price:5,15"]}}`, "h3 h1 h2 h4 h5"},
		{pop, m, `{"query":"*","key":"b","products":{"count":3,"sorting":["price desc"]}}`, "x1 h3 h1"},
		{pop, nil, `{"query":"*","key":"b","products":{"count":10}}`, "h1 h2 h3 h4 h5 s1 x1"},
		{cat, m, `{"query":"*","key":"b","products":{"count":10}}`, "h1 h2 h3 h4 h5 s1 x1"},
	} {
		if got := strings.Join(boostSearch(t, tc.g, tc.m, tc.body), " "); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.body, got, tc.want)
		}
	}
}

// TestBoostFactorsMatchABruteForceOracle scores random queries over a
// random catalog and behaviour with random weights, and checks every
// hit's score against text × (1 + B) with B computed here from the
// products and the model's counts, and that no hit precedes one whose
// text score is more than 1+ΣW times its own.
func TestBoostFactorsMatchABruteForceOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 11))
	words := []string{"steel", "hammer", "drill", "oak", "table", "lamp", "red", "garden", "hose", "saw", "blade", "cordless"}
	var products []catalog.Product
	byPN := map[string]*catalog.Product{}
	for i := range 300 {
		p := catalog.Product{ProductNumber: fmt.Sprint("p", i), Price: float64(1 + r.IntN(100))}
		n := 1 + r.IntN(5)
		var title []string
		for range n {
			title = append(title, words[r.IntN(len(words))])
		}
		p.Title = strings.Join(title, " ")
		p.InStock = r.IntN(2) == 0
		p.IsOnSale = r.IntN(5) == 0
		if r.IntN(3) == 0 {
			p.PreviousPrice = p.Price + float64(r.IntN(3)-1)
		}
		if r.IntN(4) != 0 {
			p.Created = boostNow.Add(-time.Duration(r.IntN(200*24)) * time.Hour)
		}
		products = append(products, p)
	}
	for i := range products {
		byPN[products[i].ProductNumber] = &products[i]
	}
	m := behaviour.New()
	for range 3000 {
		pn := fmt.Sprint("p", int(300*math.Pow(r.Float64(), 3)))
		kind := []events.Kind{events.View, events.View, events.View, events.Cart, events.Purchase}[r.IntN(5)]
		e := events.Event{Kind: kind, Website: shopUUID, User: fmt.Sprint("u", r.IntN(200)), Time: boostNow.Add(-time.Duration(r.IntN(30*24)) * time.Hour).UnixMilli()}
		switch kind {
		case events.View:
			e.ProductNumber = pn
		case events.Cart:
			e.ProductNumbers = []string{pn}
		default:
			e.OrderNumber, e.ProductNumbers = fmt.Sprint("o", r.Int()), []string{pn}
		}
		m.Fold(&e)
	}
	popularity := func(pn string) float64 {
		v := 0.0
		for k, w := range popularityWeights {
			v += w * m.Count(pn, behaviour.Kind(k), popularityWindow, boostNow)
		}
		return v
	}
	top := 0.0
	for pn := range byPN {
		top = max(top, popularity(pn))
	}
	text := boostShop(t, &config.Boosts{}, products)
	for round := range 40 {
		b := config.Boosts{Popularity: r.Float64(), InStock: r.Float64() * float64(r.IntN(2)), OnSale: r.Float64() * float64(r.IntN(2)),
			Newness: r.Float64() * float64(r.IntN(2)), NewnessHalfLifeDays: float64(r.IntN(60))}
		oracle := func(pn string) float64 {
			p := byPN[pn]
			v := b.Popularity * math.Log1p(popularity(pn)) / math.Log1p(top)
			if p.InStock {
				v += b.InStock
			}
			if p.IsOnSale || p.PreviousPrice > p.Price {
				v += b.OnSale
			}
			if !p.Created.IsZero() {
				half := b.NewnessHalfLifeDays
				if half == 0 {
					half = config.DefaultNewnessHalfLifeDays
				}
				v += b.Newness * math.Exp2(-boostNow.Sub(p.Created).Hours()/24/half)
			}
			return v
		}
		sum := b.Popularity + b.InStock + b.OnSale + b.Newness
		boosted := boostShop(t, &b, products)
		q := words[r.IntN(len(words))]
		if round%2 == 1 {
			q += " " + words[r.IntN(len(words))]
		}
		body := fmt.Sprintf(`{"query":%q,"key":"b","products":{"count":300}}`, q)
		plain, err := text.SearchWith(shopRequest(t, body), m, boostNow)
		if err != nil {
			t.Fatal(err)
		}
		textScore := map[string]float64{}
		for _, h := range plain.Products.Hits {
			textScore[text.Products.Key(h.Doc)] = float64(h.Score)
		}
		res, err := boosted.SearchWith(shopRequest(t, body), m, boostNow)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Products.Hits) != len(plain.Products.Hits) {
			t.Fatalf("%q: %d hits boosted, %d without", q, len(res.Products.Hits), len(plain.Products.Hits))
		}
		var seen []string
		for _, h := range res.Products.Hits {
			pn := boosted.Products.Key(h.Doc)
			want := textScore[pn] * (1 + oracle(pn))
			if math.Abs(float64(h.Score)-want) > 1e-4*want {
				t.Fatalf("round %d %q, boosts %+v: %s scores %v, want text %v × (1 + %v) = %v", round, q, b, pn, h.Score, textScore[pn], oracle(pn), want)
			}
			for _, before := range seen {
				if textScore[pn] > (1+sum)*textScore[before]*(1+1e-5) {
					t.Fatalf("round %d %q: %s (text %v) follows %s (text %v) with ΣW %v", round, q, pn, textScore[pn], before, textScore[before], sum)
				}
			}
			seen = append(seen, pn)
		}
	}
}

// TestBoostRebuiltInTheBackground: past boostSyncWork a stale vector is
// rebuilt in the background while searches use the one before, and a
// write's generation starts from its predecessor's vector rather than
// none.
func TestBoostRebuiltInTheBackground(t *testing.T) {
	const q = `{"query":"hammer","key":"b","products":{"count":10}}`
	g := boostShop(t, nil, hammers())
	g.tune.backgroundBoosts = true
	m := behaviour.New()
	m.MaxStale = 0
	if got := strings.Join(boostSearch(t, g, m, q), " "); got != "h1 h2 h3 h4 h5 s1" {
		t.Fatalf("before events: %s", got)
	}
	views(m, map[string]int{"h4": 50})
	// The first search after the events starts the rebuild and answers
	// with the vector before; later ones see the new one.
	if got := strings.Join(boostSearch(t, g, m, q), " "); got != "h1 h2 h3 h4 h5 s1" {
		t.Errorf("during the rebuild: %s, want the order before", got)
	}
	deadline := time.Now().Add(10 * time.Second)
	for strings.Join(boostSearch(t, g, m, q), " ") != "h4 h1 h2 h3 h5 s1" {
		if time.Now().After(deadline) {
			t.Fatal("the background rebuild never served")
		}
		time.Sleep(time.Millisecond)
	}
	// A write's generation (the same doc ids) starts from the vector
	// before, to rebuild, so no search builds one on its time.
	v := g.search["b"].live
	n := g.WithProducts(g.Products, g.Seq+1, g.ProductSeq+1, true)
	if seeded := n.boosts[v].cur.Load(); seeded == nil || !seeded.seeded || len(seeded.vec) == 0 {
		t.Fatalf("the write's generation starts with %+v, want the vector before, seeded", seeded)
	}
	if got := strings.Join(boostSearch(t, n, m, q), " "); got != "h4 h1 h2 h3 h5 s1" {
		t.Errorf("the write's generation: %s, want the popular order carried over", got)
	}
	// A compaction's (doc ids renumbered) starts afresh: built at once.
	c := g.WithProducts(g.Products, g.Seq+1, g.ProductSeq+1, false)
	if c.boosts[v].cur.Load() != nil {
		t.Error("a compaction's generation carried a vector over")
	}
}
