package engine

import (
	"sync"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/events"
)

// recomsBench is a demo shop of 100,000 products with the behaviour of
// 25,000 visitors (about a million events), built once.
var recomsBench struct {
	once  sync.Once
	eng   *Engine
	bhv   *Behaviours
	body  []byte
	users int
}

func setupRecomsBench(b *testing.B) {
	r := &recomsBench
	r.once.Do(func() {
		cfg := demo.Config()
		w := &cfg.Websites[0]
		products := demo.Catalog(100000, 42)
		g, err := Build(w, analysis.English, Source{Products: sliceSource(products)}, nil)
		if err != nil {
			b.Fatal(err)
		}
		r.eng = New("", g)
		r.bhv = NewBehaviours()
		m := r.bhv.Model(w.UUID)
		each := func(fn func(*catalog.Product) error) error {
			for i := range products {
				if err := fn(&products[i]); err != nil {
					return err
				}
			}
			return nil
		}
		var context string
		n := 0
		if err := demo.Events(w.UUID, each, 25000, 1, func(e *events.Event) error {
			m.Fold(e)
			n++
			if context == "" && e.Kind == events.Purchase {
				context = e.ProductNumbers[0]
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		body, _ := json.Marshal(map[string]any{"websiteUuid": w.UUID, "trackingUserId": "demo-visitor-0001",
			"requests": []map[string]any{
				{"trackingKey": "top", "count": 10, "fields": []string{"productNumber", "title", "price"},
					"sources": []map[string]any{{"type": "TOP", "filters": map[string]any{"price": "0,200"}}}},
				{"trackingKey": "alt", "count": 10, "context": map[string]any{"productNumbers": []string{context}},
					"sources": []map[string]any{{"type": "ALTERNATIVES"}}},
				{"trackingKey": "together", "count": 5, "context": map[string]any{"productNumbers": []string{context}},
					"sources": []map[string]any{{"type": "BOUGHT_TOGETHER"}, {"type": "MOST_BOUGHT"}}},
				{"trackingKey": "seen", "count": 5, "sources": []map[string]any{{"type": "RETARGETED"}, {"type": "MOST_VIEWED"}}},
			}})
		r.body = body
		b.Logf("100,000 products, %d events", n)
	})
}

// BenchmarkRecoms: a call of four requests with filters and context, as
// issue 10 times it (100,000 products; about a million events here).
func BenchmarkRecoms(b *testing.B) {
	setupRecomsBench(b)
	r := &recomsBench
	now := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	var req RecomsRequest
	b.ReportAllocs()
	var out []byte
	for b.Loop() {
		req = RecomsRequest{}
		if err := json.Unmarshal(r.body, &req); err != nil {
			b.Fatal(err)
		}
		res, err := r.eng.Recoms(&req, r.bhv, now)
		if err != nil {
			b.Fatal(err)
		}
		out = res.AppendJSON(out[:0])
	}
}
