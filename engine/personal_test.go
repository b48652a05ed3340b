package engine

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/events"
)

// personalShop is a website whose search configuration "p" has
// personalization fields (nil: none) and whose page "listing" names it,
// over chairs of equal titles in two brands, colours, price bands and
// categories, and a few other products.
func personalShop(t testing.TB, fields []config.PersonalizationField) *Generation {
	t.Helper()
	off := 0.0
	w := &config.Website{
		UUID: shopUUID,
		IndexedFields: []config.IndexedField{{Name: "brand", Type: config.TypeKeyword}, {Name: "hierarchies", Type: config.TypeHierarchy},
			{Name: "price", Type: config.TypeNumber}, {Name: "extraData.color", Type: config.TypeKeyword}, {Name: "extraData.size", Type: config.TypeKeyword}},
		Search: []config.SearchConfig{{Key: "p", Personalization: fields, Versions: []config.SearchVersion{{ID: 1, Status: config.StatusLive,
			Fields: []config.SearchField{{Name: "title", Weight: 5}}, Boosts: &config.Boosts{}, Proximity: &off, ExactForms: &off}}}},
		Pages: []config.Page{{Key: "listing", Versions: []config.PageVersion{{ID: 1, Status: config.StatusLive, SearchConfig: "p", Boosts: &config.Boosts{}}}}},
	}
	if err := (&config.File{Websites: []config.Website{*w}}).Validate(); err != nil {
		t.Fatal(err)
	}
	g, err := Build(w, analysis.English, Source{Products: sliceSource(personalProducts())}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// personalProducts: c01…c16 "Office Chair", Oakline (red, cheap, Home >
// Chairs) and Brightseat (blue, dear, Office > Seating) alternating, and
// lamps of both brands.
func personalProducts() []catalog.Product {
	var out []catalog.Product
	for i := range 16 {
		p := catalog.Product{ProductNumber: fmt.Sprintf("c%02d", i+1), Title: "Office Chair", Brand: "Oakline", Price: 40 + float64(i),
			Hierarchies: [][]string{{"Home", "Chairs"}}, ExtraData: map[string]string{"color": "red", "size": "S"}}
		if i%2 == 1 {
			p.Brand, p.Price, p.Hierarchies = "Brightseat", 400+float64(i), [][]string{{"Office", "Seating"}}
			p.ExtraData = map[string]string{"color": "blue", "size": "L"}
		}
		out = append(out, p)
	}
	out = append(out,
		catalog.Product{ProductNumber: "l1", Title: "Desk Lamp", Brand: "Oakline", Price: 30, Hierarchies: [][]string{{"Home", "Lamps"}}},
		catalog.Product{ProductNumber: "l2", Title: "Desk Lamp", Brand: "Brightseat", Price: 300, Hierarchies: [][]string{{"Office", "Lamps"}}})
	return out
}

var allPersonal = func() []config.PersonalizationField {
	var out []config.PersonalizationField
	for _, f := range config.PersonalizationNames {
		out = append(out, config.PersonalizationField{Field: f, BoostValue: 10})
	}
	return out
}()

// personalModel is a model where visitor "ann" viewed Oakline lamps and
// bought a red chair, and "ben" viewed and bought Brightseat.
func personalModel() *behaviour.Model {
	m := behaviour.New()
	at := boostNow.Add(-time.Hour).UnixMilli()
	fold := func(e events.Event) {
		e.Website, e.Time = shopUUID, at
		at += 1000
		m.Fold(&e)
	}
	fold(events.Event{Kind: events.View, User: "ann", ProductNumber: "l1"})
	fold(events.Event{Kind: events.View, User: "ann", ProductNumber: "c03"})
	fold(events.Event{Kind: events.Purchase, User: "ann", OrderNumber: "o1", ProductNumbers: []string{"c03"}})
	fold(events.Event{Kind: events.View, User: "ben", ProductNumber: "l2"})
	fold(events.Event{Kind: events.View, User: "ben", ProductNumber: "c06"})
	fold(events.Event{Kind: events.Purchase, User: "ben", OrderNumber: "o2", ProductNumbers: []string{"c06"}})
	return m
}

func searchAs(t *testing.T, g *Generation, m *behaviour.Model, user string) []string {
	t.Helper()
	return boostSearch(t, g, m, fmt.Sprintf(`{"key": "p", "query": "chair", "trackingUserId": %q, "products": {"count": 8}}`, user))
}

func pageAs(t *testing.T, g *Generation, m *behaviour.Model, user string) []string {
	t.Helper()
	url, first, start, count := "https://shop.test/", Flag(false), 0, 8
	req := &PageRequest{URL: &url, FirstLoad: &first, Format: "json", TrackingUserID: user, Params: &PageParams{},
		Products: &PageProducts{ContentSettings: ContentSettings{PageSettings: PageSettings{Start: &start, Count: &count}}}}
	if err := req.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := g.Page(t.Context(), "listing", req, m, boostNow)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range res.Hits {
		out = append(out, g.Products.Key(h.Doc))
	}
	return out
}

// brands is each product's brand initial.
func brands(g *Generation, pns []string) string {
	out := ""
	for _, pn := range pns {
		d, _ := g.Products.DocByKey(pn)
		out += g.Products.Keyword("brand").Values[g.Products.Keyword("brand").DocValues(d)[0]][:1]
	}
	return out
}

func TestPersonalizationOrdersEachVisitorsResults(t *testing.T) {
	m := personalModel()
	on, off := personalShop(t, allPersonal), personalShop(t, nil)
	for _, c := range []struct {
		name string
		get  func(*testing.T, *Generation, *behaviour.Model, string) []string
	}{{"search", searchAs}, {"page", pageAs}} {
		t.Run(c.name, func(t *testing.T) {
			anon := c.get(t, on, m, "")
			ann, ben := c.get(t, on, m, "ann"), c.get(t, on, m, "ben")
			if brands(on, ann) != "OOOOOOOO" || brands(on, ben) != "BBBBBBBB" {
				t.Errorf("ann's first eight are %v (%s), ben's %v (%s): want all Oakline, all Brightseat", ann, brands(on, ann), ben, brands(on, ben))
			}
			if c.name == "search" && slices.Equal(ann, anon) {
				t.Errorf("ann's order is the anonymous one: %v", ann)
			}
			for _, user := range []string{"", "ann", "ben", "nobody"} {
				if got := c.get(t, off, m, user); !slices.Equal(got, anon) {
					t.Errorf("without personalization %q sees %v, want the anonymous order %v", user, got, anon)
				}
			}
		})
	}
}

// Each field alone lifts what it reads: ann (Oakline, red, S, cheap,
// Home) against ben.
func TestPersonalizationEachField(t *testing.T) {
	m := personalModel()
	for _, f := range config.PersonalizationNames {
		if f == config.FieldProductCluster {
			continue // below
		}
		t.Run(f, func(t *testing.T) {
			g := personalShop(t, []config.PersonalizationField{{Field: f, BoostValue: 5}})
			if got := brands(g, searchAs(t, g, m, "ann")); got[:4] != "OOOO" {
				t.Errorf("ann: %s, want Oakline first", got)
			}
			if got := brands(g, searchAs(t, g, m, "ben")); got[:4] != "BBBB" {
				t.Errorf("ben: %s, want Brightseat first", got)
			}
		})
	}
}

// The product cluster lifts what others viewed beside the visitor's
// products: c09 and c16 were viewed in sessions with c03.
func TestPersonalizationProductCluster(t *testing.T) {
	m := personalModel()
	at := boostNow.Add(-2 * time.Hour).UnixMilli()
	for i, pn := range []string{"c03", "c09", "c03", "c16"} {
		m.Fold(&events.Event{Kind: events.View, Website: shopUUID, User: fmt.Sprint("s", i/2), ProductNumber: pn, Time: at + int64(i)})
	}
	g := personalShop(t, []config.PersonalizationField{{Field: config.FieldProductCluster, BoostValue: 10}})
	got := searchAs(t, g, m, "ann")
	if !slices.Contains(got[:2], "c09") || !slices.Contains(got[:2], "c16") {
		t.Errorf("ann's first two are %v, want c09 and c16 (viewed beside c03)", got[:2])
	}
}

// Pages past the personalized depth keep the base order, and pages
// inside it are a permutation of the base order's: a visitor paging
// through a listing sees every product once.
func TestPersonalizationPagesThroughEveryProductOnce(t *testing.T) {
	m := personalModel()
	g := personalShop(t, allPersonal)
	var seen []string
	for start := 0; start < 18; start += 4 {
		res, err := g.SearchWith(shopRequest(t, fmt.Sprintf(`{"key": "p", "query": "*", "trackingUserId": "ann", "products": {"start": %d, "count": 4}}`, start)), m, boostNow)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Products.Hits {
			seen = append(seen, g.Products.Key(h.Doc))
		}
	}
	slices.Sort(seen)
	if len(seen) != 18 || len(slices.Compact(seen)) != 18 {
		t.Errorf("paging saw %d products (%v), want the 18 once each", len(seen), seen)
	}
}

// personalFactor against the documented formula, computed directly.
func TestPersonalFactorMatchesTheFormula(t *testing.T) {
	m := personalModel()
	g := personalShop(t, allPersonal)
	w := weightsOf(allPersonal)
	p := g.profileOf(m, "ann", &w)
	if p == nil {
		t.Fatal("no profile for ann")
	}
	// ann: viewed l1 (30, Home > Lamps) and c03 (42), bought c03 (×3).
	logPrice := (math.Log2(30) + 4*math.Log2(42)) / 5
	// Affinities: brand Oakline 1 (1 + 4 of 5); category Home > Chairs 1,
	// Home (0.5 × 1 + 0.5 × 4) / 4, Lamps 1/4; colour red 1, size S 1;
	// no cluster: l1 and c03, viewed in one session, are ann's own.
	for _, c := range []struct {
		pn                             string
		brand, cat, color, size, clust float64
	}{
		{"c01", 1, 1, 1, 1, 0},
		{"c02", 0, 0, 0, 0, 0},
		{"c03", 1, 1, 1, 1, 0},
		{"l1", 1, 2.5 / 4, 0, 0, 0},
		{"l2", 0, 0, 0, 0, 0},
	} {
		d, _ := g.Products.DocByKey(c.pn)
		price, _ := g.personal.price.ValueAt(d)
		budget := max(0, 1-math.Abs(math.Log2(price)-logPrice))
		want := 0.2 * (budget + c.brand + c.cat + c.color + c.size + c.clust)
		if got := g.personalFactor(p, &w, d); math.Abs(float64(got)-want) > 1e-5 {
			t.Errorf("%s: factor %v, want %v", c.pn, got, want)
		}
	}
}

func TestAllowedPersonalization(t *testing.T) {
	g := personalShop(t, nil)
	if got := g.AllowedPersonalization(); !slices.Equal(got, config.PersonalizationNames) {
		t.Errorf("allowed %v, want every field", got)
	}
	w := *g.Website
	w.IndexedFields = slices.DeleteFunc(slices.Clone(w.IndexedFields), func(f config.IndexedField) bool {
		return f.Name == "extraData.size" || f.Name == "price"
	})
	g2, err := Assemble(&w, analysis.English, g.Products, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{config.FieldProductCluster, config.FieldBrandAffinity, config.FieldCategoryAffinity, config.FieldColorAffinity}
	if got := g2.AllowedPersonalization(); !slices.Equal(got, want) {
		t.Errorf("without size and price: allowed %v, want %v", got, want)
	}
}

// A visitor's profile is kept between searches (one profile for a
// search as you type) but follows their next event at once.
func TestPersonalProfileFollowsTheVisitorsEvents(t *testing.T) {
	m := personalModel()
	g := personalShop(t, []config.PersonalizationField{{Field: config.FieldBrandAffinity, BoostValue: 10}})
	if got := brands(g, searchAs(t, g, m, "ann")); got[:4] != "OOOO" {
		t.Fatalf("ann: %s, want Oakline first", got)
	}
	first := g.profile(m, "ann", &g.search["p"].live.personal, boostNow)
	if again := g.profile(m, "ann", &g.search["p"].live.personal, boostNow.Add(time.Second)); again != first {
		t.Error("ann's profile was made again with no event between")
	}
	at := boostNow.Add(-time.Minute).UnixMilli()
	for i, pn := range []string{"c02", "c04", "c06", "l2"} {
		m.Fold(&events.Event{Kind: events.Purchase, Website: shopUUID, User: "ann", OrderNumber: fmt.Sprint("ann-", i), ProductNumbers: []string{pn}, Time: at})
	}
	if got := brands(g, searchAs(t, g, m, "ann")); got[:4] != "BBBB" {
		t.Errorf("ann after buying Brightseat four times: %s, want Brightseat first", got)
	}
}

// The packed column answers what the columns themselves do: every
// doc's factor and each visitor's profile, both ways.
func TestPersonalPackedColumnMatchesTheColumns(t *testing.T) {
	m := personalModel()
	g := personalShop(t, allPersonal)
	w := weightsOf(allPersonal)
	direct := *g
	direct.personalCol = nil // reads the columns
	for _, user := range []string{"ann", "ben"} {
		pp, pd := g.profileOf(m, user, &w), direct.profileOf(m, user, &w)
		if pp == nil || pd == nil || math.Abs(pp.logPrice-pd.logPrice) > 1e-5 || fmt.Sprint(pp.values) != fmt.Sprint(pd.values) {
			t.Fatalf("%s: packed profile %+v, columns %+v", user, pp, pd)
		}
		for d := range uint32(g.Products.Slots()) {
			if a, b := g.personalFactor(pp, &w, d), direct.personalFactor(pd, &w, d); math.Abs(float64(a-b)) > 1e-5 {
				t.Errorf("%s doc %d: packed %v, columns %v", user, d, a, b)
			}
		}
	}
	if g.personalDocs() == nil {
		t.Error("a small catalog's packed column was not built at once")
	}
}
