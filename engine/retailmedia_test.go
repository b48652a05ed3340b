package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
)

// adNow is the tests' clock.
var adNow = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// adProducts are ten products: P0..P9 in catalog order, P0-P4 Acme
// tools, P5-P9 Bosch garden products.
func adProducts() []catalog.Product {
	var out []catalog.Product
	for i := range 10 {
		p := catalog.Product{ProductNumber: fmt.Sprint("P", i), Title: fmt.Sprintf("thing %d", i), Price: float64(10 + i), InStock: true,
			Brand: "Acme", Hierarchies: [][]string{{"Tools", "Hand"}}}
		if i >= 5 {
			p.Brand, p.Hierarchies = "Bosch", [][]string{{"Garden", "Cutting"}}
		}
		if i%2 == 0 {
			p.Title += " hammer"
		}
		out = append(out, p)
	}
	return out
}

// adGen serves the ad products with campaigns, one search
// configuration ("ads", title searchable, brand facet) and a page
// ("garden") of the Garden department.
func adGen(t *testing.T, campaigns ...config.Campaign) *Generation {
	t.Helper()
	w := &config.Website{UUID: "00000000-0000-4000-8000-0000000000ad", IndexedFields: []config.IndexedField{
		{Name: "brand", Type: config.TypeKeyword}, {Name: "hierarchies", Type: config.TypeHierarchy},
		{Name: "price", Type: config.TypeNumber, Sortable: true}},
		Search: []config.SearchConfig{{Key: "ads", Versions: []config.SearchVersion{{ID: 1, Status: config.StatusLive,
			Fields: []config.SearchField{{Name: "title", Weight: 1}}, Facets: []config.Facet{{Field: "brand", Type: config.FacetList, Title: "Brand"}},
			Boosts: &config.Boosts{}}}}},
		Pages: []config.Page{{Key: "garden", Versions: []config.PageVersion{{ID: 1, Status: config.StatusLive,
			Filters: map[string]any{"hierarchies": "Garden$"}, Boosts: &config.Boosts{}}}}},
		Campaigns: campaigns,
	}
	g, err := Build(w, analysis.English, Source{Products: sliceSource(adProducts())}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// adSearch answers a search on g at adNow and lists its products,
// sponsored ones as "P7*camp".
func adSearch(t *testing.T, g *Generation, body string) (list []string, total int) {
	t.Helper()
	res, err := g.SearchWith(shopRequest(t, body), nil, adNow)
	if err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	p := res.Products
	for i, h := range p.Hits {
		s := g.Products.Key(h.Doc)
		if c := p.campaign(i); c != "" {
			s += "*" + c
		}
		list = append(list, s)
	}
	return list, p.Total
}

func at(d time.Duration) *time.Time { t := adNow.Add(d); return &t }

// TestCampaignStatesDatesAndReview: a campaign is injected when ACTIVE
// (or in REVIEW with includeRetailMediaInReview) and inside its dates;
// otherwise the list is the organic one.
func TestCampaignStatesDatesAndReview(t *testing.T) {
	organic := []string{"P0", "P1", "P2", "P3", "P4", "P5"}
	dates := []struct {
		name       string
		start, end *time.Time
		running    bool
	}{
		{"open", nil, nil, true},
		{"running", at(-time.Hour), at(time.Hour), true},
		{"starting now", at(0), at(time.Hour), true},
		{"not yet", at(time.Hour), at(2 * time.Hour), false},
		{"ending now", at(-time.Hour), at(0), false},
		{"over", at(-2 * time.Hour), at(-time.Hour), false},
	}
	for _, state := range config.CampaignStates {
		for _, d := range dates {
			g := adGen(t, config.Campaign{ID: "c", State: state, Start: d.start, End: d.end, Products: []string{"P7"}, Positions: []int{2}})
			for _, review := range []bool{false, true} {
				list, total := adSearch(t, g, fmt.Sprintf(`{"query":"*","key":"ads","includeRetailMediaInReview":%v,"products":{"count":6}}`, review))
				shown := d.running && (state == config.CampaignActive || review && state == config.CampaignReview)
				want := organic
				if shown {
					want = []string{"P0", "P7*c", "P1", "P2", "P3", "P4"}
				}
				if !slices.Equal(list, want) || total != 10 {
					t.Errorf("%s, %s, review %v: %v (total %d), want %v (total 10)", state, d.name, review, list, total, want)
				}
			}
		}
	}
}

// TestCampaignPlacementAndFilters: an injected product passes the
// request's filters (the next of the campaign's products is tried) and
// the page's base; it moves from where it ranked, never repeated; the
// total and facets stay organic; placements, devices and targets are
// kept to; positions hold across pages of results.
func TestCampaignPlacementAndFilters(t *testing.T) {
	spring := config.Campaign{ID: "spring", State: config.CampaignActive, Products: []string{"P7", "P3", "P9"}, Positions: []int{1, 5}}
	g := adGen(t, spring)
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"the first two products", `{"query":"*","key":"ads","products":{"count":6}}`, []string{"P7*spring", "P0", "P1", "P2", "P3*spring", "P4"}},
		{"moved, not repeated", `{"query":"hammer","key":"ads","products":{"count":5}}`, []string{"P7*spring", "P0", "P2", "P4", "P3*spring"}},
		{"only Acme: P7 and P9 filtered out", `{"query":"*","key":"ads","products":{"count":6,"filters":["brand:Acme"]}}`, []string{"P3*spring", "P0", "P1", "P2", "P4"}},
		{"nothing allowed, nothing injected", `{"query":"*","key":"ads","products":{"count":3,"filters":["price:10,11"]}}`, []string{"P0", "P1"}},
		{"a later window", `{"query":"*","key":"ads","products":{"start":3,"count":4}}`, []string{"P2", "P3*spring", "P4", "P5"}},
		{"position 5 past the total of 4", `{"query":"*","key":"ads","products":{"count":6,"filters":["price:10,13"]}}`, []string{"P3*spring", "P0", "P1", "P2"}},
	} {
		if list, _ := adSearch(t, g, tc.body); !slices.Equal(list, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, list, tc.want)
		}
	}
	// Totals and facets are the organic ones.
	plain := adGen(t)
	for _, body := range []string{`{"query":"*","key":"ads","products":{"count":6,"returnFilters":true}}`, `{"query":"hammer","key":"ads","products":{"count":6,"returnFilters":true}}`} {
		a, err := g.SearchWith(shopRequest(t, body), nil, adNow)
		b, err2 := plain.SearchWith(shopRequest(t, body), nil, adNow)
		fa, _ := json.Marshal(a.Products.Filters)
		fb, _ := json.Marshal(b.Products.Filters)
		if err != nil || err2 != nil || a.Products.Total != b.Products.Total || string(fa) != string(fb) || a.Products.Sponsored == nil {
			t.Errorf("%s: total %d, facets %s; without campaigns %d, %s", body, a.Products.Total, fa, b.Products.Total, fb)
		}
	}
	// Every window of the list holds each product once, the sponsored at
	// their positions.
	var all []string
	for start := 0; start < 10; start += 3 {
		list, _ := adSearch(t, g, fmt.Sprintf(`{"query":"*","key":"ads","products":{"start":%d,"count":3}}`, start))
		all = append(all, list...)
	}
	if want := []string{"P7*spring", "P0", "P1", "P2", "P3*spring", "P4", "P5", "P6", "P8", "P9"}; !slices.Equal(all, want) {
		t.Errorf("windows of 3: %v, want %v", all, want)
	}

	// Placements, devices and targets.
	for _, tc := range []struct {
		name  string
		edit  func(c *config.Campaign)
		body  string
		shown bool
	}{
		{"pages only, in a search", func(c *config.Campaign) { c.Placements = []string{config.PlacePages} }, `{"query":"*","key":"ads","products":{"count":3}}`, false},
		{"search and pages, in a search", func(c *config.Campaign) { c.Placements = []string{config.PlaceSearch, config.PlacePages} }, `{"query":"*","key":"ads","products":{"count":3}}`, true},
		{"MOBILE, on DESKTOP", func(c *config.Campaign) { c.Devices = []string{"MOBILE"} }, `{"query":"*","key":"ads","deviceType":"DESKTOP","products":{"count":3}}`, false},
		{"MOBILE, on MOBILE", func(c *config.Campaign) { c.Devices = []string{"MOBILE"} }, `{"query":"*","key":"ads","deviceType":"MOBILE","products":{"count":3}}`, true},
		{"MOBILE, no device named", func(c *config.Campaign) { c.Devices = []string{"MOBILE"} }, `{"query":"*","key":"ads","products":{"count":3}}`, true},
		{"query hammer, searched", func(c *config.Campaign) { c.Target.Queries = []string{"Hammer"} }, `{"query":"big HAMMER","key":"ads","products":{"count":3}}`, true},
		{"query hammer, another search", func(c *config.Campaign) { c.Target.Queries = []string{"hammer"} }, `{"query":"thing","key":"ads","products":{"count":3}}`, false},
		{"query big hammer, hammer searched", func(c *config.Campaign) { c.Target.Queries = []string{"big hammer"} }, `{"query":"hammer","key":"ads","products":{"count":3}}`, false},
		{"the Garden department, Garden in the results", func(c *config.Campaign) { c.Target.Hierarchies = []string{"Garden"} }, `{"query":"*","key":"ads","products":{"count":3}}`, true},
		{"the Garden department, Tools results", func(c *config.Campaign) { c.Target.Hierarchies = []string{"Garden$"} }, `{"query":"*","key":"ads","products":{"count":3,"filters":["hierarchies:Tools$"]}}`, false},
		{"brand Bosch, Acme results", func(c *config.Campaign) { c.Target.Brands = []string{"bosch"} }, `{"query":"*","key":"ads","products":{"count":3,"filters":["brand:Acme"]}}`, false},
		{"brand Bosch, in the results", func(c *config.Campaign) { c.Target.Brands = []string{"bosch"} }, `{"query":"*","key":"ads","products":{"count":3}}`, true},
	} {
		c := spring
		c.Products, c.Positions = []string{"P7", "P3"}, []int{1}
		tc.edit(&c)
		list, _ := adSearch(t, adGen(t, c), tc.body)
		if shown := len(list) > 0 && strings.Contains(list[0], "*"); shown != tc.shown {
			t.Errorf("%s: %v, want shown %v", tc.name, list, tc.shown)
		}
	}
}

// TestCampaignOnPages: on a page, an injected product lies in the
// page's base (Garden), and campaigns targeting queries stay out.
func TestCampaignOnPages(t *testing.T) {
	g := adGen(t,
		config.Campaign{ID: "q", State: config.CampaignActive, Products: []string{"P8"}, Positions: []int{1}, Target: config.CampaignTarget{Queries: []string{"thing"}}},
		config.Campaign{ID: "tools", State: config.CampaignActive, Products: []string{"P1", "P9"}, Positions: []int{2}, Placements: []string{config.PlacePages}})
	page := func(body string) []string {
		var req PageRequest
		if err := json.Unmarshal([]byte(body), &req); err != nil {
			t.Fatal(err)
		}
		if err := req.Validate(); err != nil {
			t.Fatal(err)
		}
		res, err := g.Page(context.Background(), "garden", &req, nil, adNow)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for i, h := range res.Hits {
			s := g.Products.Key(h.Doc)
			if res.Sponsored != nil && res.Sponsored[i] != "" {
				s += "*" + res.Sponsored[i]
			}
			out = append(out, s)
		}
		if res.Total != 5 {
			t.Errorf("total %d, want the 5 Garden products", res.Total)
		}
		return out
	}
	got := page(`{"url":"u","firstLoad":false,"format":"json","params":{},"products":{"start":0,"count":4}}`)
	if want := []string{"P5", "P9*tools", "P6", "P7"}; !slices.Equal(got, want) {
		t.Errorf("page: %v, want %v (P1 is not in the Garden)", got, want)
	}
	res, _ := adGen(t, config.Campaign{ID: "tools", State: config.CampaignActive, Products: []string{"P9"}, Positions: []int{1}, Placements: []string{config.PlacePages}}).
		SearchWith(shopRequest(t, `{"query":"*","key":"ads","products":{"count":2}}`), nil, adNow)
	if res.Products.Sponsored != nil {
		t.Errorf("a pages campaign placed %v in a search", res.Products.Sponsored)
	}
}

// TestCampaignInBoxes: a managed box places a recoms campaign's product
// at its reserved position; one call never repeats it (the next call's
// box takes the campaign's next product), a context product is not
// placed, and a search-only campaign stays out.
func TestCampaignInBoxes(t *testing.T) {
	camp := config.Campaign{ID: "box-ad", State: config.CampaignActive, Products: []string{"P9", "P8"}, Positions: []int{1}, Placements: []string{config.PlaceRecoms}}
	searchOnly := config.Campaign{ID: "search-ad", State: config.CampaignActive, Products: []string{"P5"}, Positions: []int{2}, Placements: []string{config.PlaceSearch}}
	g := adGen(t, camp, searchOnly)
	g.Website.Boxes = []config.Box{{Key: "alt", Count: 3, Sources: []config.BoxSource{{Type: "ALTERNATIVES"}}}}
	if err := g.compile(); err != nil {
		t.Fatal(err)
	}
	e := New("", g)
	call := func(body string) []string {
		t.Helper()
		var req RecomsRequest
		if err := json.Unmarshal([]byte(body), &req); err != nil {
			t.Fatal(err)
		}
		res, err := e.Recoms(context.Background(), &req, "", NewBehaviours(), adNow)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range res.Responses {
			if !r.Success {
				t.Fatalf("%s: %s %s", body, r.Code, r.Message)
			}
			for i, d := range r.Docs {
				s := g.Products.Key(d)
				if r.Sponsored != nil && r.Sponsored[i] != "" {
					s += "*" + r.Sponsored[i]
				}
				out = append(out, s)
			}
			out = append(out, "|")
		}
		return out
	}
	got := call(`{"requests":[{"key":"alt","context":{"productNumbers":["P0"]}},{"key":"alt","context":{"productNumbers":["P2"]}}]}`)
	if len(got) != 8 || got[0] != "P9*box-ad" || got[4] != "P8*box-ad" || slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, "search-ad") }) {
		t.Errorf("two boxes in one call: %v, want P9 then P8 first, placed by box-ad", got)
	}
	seen := map[string]bool{}
	for _, s := range got {
		pn, _, _ := strings.Cut(s, "*")
		if s != "|" && seen[pn] {
			t.Errorf("%s twice in one call: %v", pn, got)
		}
		seen[pn] = true
	}
	if got := call(`{"requests":[{"key":"alt","context":{"productNumbers":["P9"]}}]}`); got[0] != "P8*box-ad" {
		t.Errorf("context P9: %v, want P8 placed", got)
	}
}
