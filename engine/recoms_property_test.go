package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/events"
)

// TestRecomsProperties: random calls on a demo shop with its generated
// behaviour, each request one source with random filters, checked
// against the stored products: no product twice in a call, none of the
// context, at most count a response, one per groupingKey, and every
// product matching its source's filters (brands, a price range, stock;
// in stock unless a filter names inStock).
func TestRecomsProperties(t *testing.T) {
	cfg := demo.Config()
	w := &cfg.Websites[0]
	products := demo.Catalog(3000, 11)
	g, err := Build(w, analysis.English, Source{Products: sliceSource(products)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	eng := New("", g)
	bhv := NewBehaviours()
	m := bhv.Model(w.UUID)
	each := func(fn func(*catalog.Product) error) error {
		for i := range products {
			if err := fn(&products[i]); err != nil {
				return err
			}
		}
		return nil
	}
	if err := demo.Events(w.UUID, each, 300, 5, func(e *events.Event) error { m.Fold(e); return nil }); err != nil {
		t.Fatal(err)
	}
	byNumber := map[string]*catalog.Product{}
	var brands []string
	for i := range products {
		p := &products[i]
		byNumber[p.ProductNumber] = p
		if p.Brand != "" && len(brands) < 40 {
			brands = append(brands, p.Brand)
		}
	}
	r := rand.New(rand.NewPCG(17, 18))
	now := demo.EventsEnd
	calls := 300
	if testing.Short() {
		calls = 60
	}
	answered, filtered := 0, 0
	defer func() {
		t.Logf("%d calls: %d products answered, %d of them under a filter", calls, answered, filtered)
		if answered < 10*calls/6 || filtered < calls/6 {
			t.Errorf("%d products answered, %d under a filter: too few to test anything", answered, filtered)
		}
	}()
	for call := range calls {
		req := RecomsRequest{WebsiteUUID: w.UUID, TrackingUserID: fmt.Sprintf("demo-visitor-%04d", r.IntN(320))}
		type want struct {
			brands  []string
			lo, hi  float64
			stock   *bool
			context string
			count   int
		}
		var wants []want
		for k := range 1 + r.IntN(4) {
			src := RecomSource{Type: []string{SourceTop, SourceMostBought, SourceMostViewed, SourceAlternatives, SourceBoughtTogether, SourceRetargeted, SourceRecentlyBought}[r.IntN(7)], Filters: map[string]any{}}
			wt := want{lo: 0, hi: 1e18, count: 1 + r.IntN(12)}
			if r.IntN(3) == 0 {
				n := 1 + r.IntN(3)
				var in []any
				for range n {
					b := brands[r.IntN(len(brands))]
					in = append(in, b)
					wt.brands = append(wt.brands, b)
				}
				src.Filters["brand"] = map[string]any{"$in": in}
			}
			if r.IntN(3) == 0 {
				wt.lo, wt.hi = float64(r.IntN(100)), float64(100+r.IntN(400))
				src.Filters["price"] = fmt.Sprintf("%g,%g", wt.lo, wt.hi)
			}
			if r.IntN(4) == 0 {
				b := r.IntN(2) == 0
				wt.stock = &b
				src.Filters["inStock"] = b
			}
			rr := RecomRequest{TrackingKey: fmt.Sprint("k", k), Count: wt.count, Sources: []RecomSource{src}}
			if r.IntN(2) == 0 || src.Type == SourceAlternatives || src.Type == SourceBoughtTogether {
				wt.context = products[r.IntN(len(products))].ProductNumber
				rr.Context = map[string]any{"productNumbers": []any{wt.context}}
			}
			req.Requests = append(req.Requests, rr)
			wants = append(wants, wt)
		}
		res, err := eng.Recoms(context.Background(), &req, "", bhv, now)
		if err != nil {
			t.Fatalf("call %d: %v", call, err)
		}
		seen := map[uint32]bool{}
		for i, resp := range res.Responses {
			wt := wants[i]
			if !resp.Success {
				if resp.Code != codeBadRequest || !strings.Contains(resp.Message, "needs the visitor") {
					t.Fatalf("call %d request %d failed: %s %s", call, i, resp.Code, resp.Message)
				}
				continue
			}
			if len(resp.Docs) > wt.count {
				t.Fatalf("call %d request %d: %d products for a count of %d", call, i, len(resp.Docs), wt.count)
			}
			groups := map[string]bool{}
			if wt.context != "" && byNumber[wt.context].GroupingKey != "" {
				groups[byNumber[wt.context].GroupingKey] = true // the context's variants are hidden too
			}
			for _, d := range resp.Docs {
				if seen[d] {
					t.Fatalf("call %d: %s answered twice", call, g.Products.Key(d))
				}
				seen[d] = true
				answered++
				if len(req.Requests[i].Sources[0].Filters) > 0 {
					filtered++
				}
				var p catalog.Product
				if err := json.Unmarshal(g.Products.Stored(d), &p); err != nil {
					t.Fatal(err)
				}
				ok := p.ProductNumber != wt.context && p.Price >= wt.lo && p.Price <= wt.hi &&
					(wt.stock == nil && p.InStock || wt.stock != nil && p.InStock == *wt.stock)
				if len(wt.brands) > 0 {
					in := false
					for _, b := range wt.brands {
						in = in || strings.EqualFold(b, p.Brand)
					}
					ok = ok && in
				}
				if p.GroupingKey != "" {
					ok = ok && !groups[p.GroupingKey]
					groups[p.GroupingKey] = true
				}
				if !ok {
					t.Fatalf("call %d request %d (%+v): %s (brand %q, price %g, in stock %v, group %q) does not hold", call, i, req.Requests[i].Sources[0], p.ProductNumber, p.Brand, p.Price, p.InStock, p.GroupingKey)
				}
			}
		}
	}
}
