package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/bench"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/demo"
)

// soakShares is the soak's mix: how many of every 20 requests each kind
// is, as a shop's traffic might be: searches of every class, a managed
// page, a recommendation call of the demo's three boxes, and tracking
// events, one view at a time or a batch of five.
var soakShares = []struct {
	kind  string
	count int
}{
	{"search: words", 5},
	{"search: filtered", 2},
	{"search: faceted", 2},
	{"search: listing", 2},
	{"pages", 2},
	{"recoms", 3},
	{"collect", 4},
}

// soakPool is how many different bodies each kind of the mix sends in
// turn.
const soakPool = 200

// soakCatalog is what the mix and the writes need of the demo catalog
// of a soak: every product number, and a sample of products whose
// brands, categories and prices make filters that find something.
type soakCatalog struct {
	numbers []string
	sample  []*catalog.Product
	garden  []*catalog.Product // sampled products in the demo page's department
}

// loadSoakCatalog generates the English demo website's n products (as
// seedDemo does) and keeps what the soak needs of them.
func loadSoakCatalog(n int) (*soakCatalog, error) {
	c := &soakCatalog{numbers: make([]string, 0, n)}
	every := max(1, n/(4*soakPool))
	err := demo.Each(n, demoSeed, func(p *catalog.Product) error {
		c.numbers = append(c.numbers, p.ProductNumber)
		if len(c.numbers)%every == 0 && len(p.Hierarchies) > 0 && len(p.Hierarchies[0]) >= 2 {
			c.sample = append(c.sample, p)
			if p.Hierarchies[0][0] == "Garden" {
				c.garden = append(c.garden, p)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(c.sample) == 0 {
		return nil, fmt.Errorf("soak: the demo catalog of %d products has no product in a category to filter by", n)
	}
	if len(c.garden) == 0 {
		c.garden = c.sample
	}
	return c, nil
}

// soakSchedule is the soak's requests in the order they are sent, every
// 20 a shuffle of the mix's shares, with the mix as the report states
// it.
func soakSchedule(c *soakCatalog) ([]bench.SoakRequest, []bench.SoakShare, int) {
	site := config.DemoUUID
	r := rand.New(rand.NewPCG(demoSeed, 36))
	pools := map[string][]bench.SoakRequest{}
	paths := map[string]string{}
	add := func(kind, path string, body any) {
		b, _ := json.Marshal(body)
		pools[kind] = append(pools[kind], bench.SoakRequest{Kind: kind, Path: path, Body: b})
		if _, ok := paths[kind]; !ok {
			paths[kind] = path
		}
	}
	queries := demo.Queries(soakPool, 7)
	visitor := func() string { return fmt.Sprintf("soak-visitor-%04d", r.IntN(5000)) }
	for i := range soakPool {
		add("search: words", "/serve/search", map[string]any{"query": queries[i], "key": "demo", "products": map[string]any{"count": 20}})
		p := c.sample[r.IntN(len(c.sample))]
		q, _, _ := strings.Cut(p.Keywords, ",")
		if q == "" {
			q = p.Title
		}
		filters := []string{"brand:" + p.Brand, fmt.Sprintf("price:%g,%g", math.Floor(p.Price*0.5), math.Ceil(p.Price*2))}
		add("search: filtered", "/serve/search", map[string]any{"query": q, "key": "demo", "products": map[string]any{"count": 20, "filters": filters}})
		add("search: faceted", "/serve/search", map[string]any{"query": q, "key": "demo",
			"products": map[string]any{"count": 20, "filters": filters, "returnFilters": true}})
		h := p.Hierarchies[0]
		add("search: listing", "/serve/search", map[string]any{"query": "*", "key": "demo",
			"products": map[string]any{"count": 20, "filters": []string{"hierarchies:" + h[0] + "$" + h[1]}, "sorting": []string{"price asc"}}})
		g := c.garden[r.IntN(len(c.garden))]
		products := map[string]any{"start": 12 * r.IntN(3), "count": 12}
		if i%2 == 1 {
			products["filters"] = []string{"brand:" + g.Brand}
		}
		add("pages", "/serve/pages/demo", map[string]any{"url": "https://demo.aisle.shop/garden", "format": "json", "firstLoad": i%3 == 0,
			"params": map[string]any{"filters": map[string]any{}}, "trackingUserId": visitor(), "products": products})
		pn := []string{c.numbers[r.IntN(len(c.numbers))]}
		add("recoms", "/serve/recoms", map[string]any{"websiteUuid": site, "trackingUserId": visitor(), "requests": []map[string]any{
			{"key": "demo-top"}, {"key": "demo-alternatives", "context": map[string]any{"productNumbers": pn}},
			{"key": "demo-bought-together", "context": map[string]any{"productNumbers": pn}}}})
	}
	// Tracking: single views and batches of five events of several kinds,
	// from 10,000 visitors (bench.EventBodies).
	views, batches := bench.EventBodies(site, c.numbers, 0, soakPool/2, 1), bench.EventBodies(site, c.numbers, 5, soakPool/2, 2)
	for i := range views {
		pools["collect"] = append(pools["collect"], bench.SoakRequest{Kind: "collect", Path: "/serve/collect/view", Body: views[i]},
			bench.SoakRequest{Kind: "collect", Path: "/serve/collect", Body: batches[i]})
	}
	paths["collect"] = "/serve/collect, /serve/collect/view"

	var slots []string
	var shares []bench.SoakShare
	of := 0
	for _, s := range soakShares {
		for range s.count {
			slots = append(slots, s.kind)
		}
		shares = append(shares, bench.SoakShare{Kind: s.kind, Path: paths[s.kind], Count: s.count})
		of += s.count
	}
	var schedule []bench.SoakRequest
	next := map[string]int{}
	for range soakPool {
		r.Shuffle(len(slots), func(i, j int) { slots[i], slots[j] = slots[j], slots[i] })
		for _, k := range slots {
			pool := pools[k]
			schedule = append(schedule, pool[next[k]%len(pool)])
			next[k]++
		}
	}
	return schedule, shares, of
}
