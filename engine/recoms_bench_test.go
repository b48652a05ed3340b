package engine

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/events"
)

// recomsBench is a demo shop of 100,000 products with the behaviour of
// 25,000 visitors (about a million events), built once.
var recomsBench struct {
	once     sync.Once
	eng      *Engine
	bhv      *Behaviours
	body     []byte
	users    int
	words    []string // title words of the catalog, for search benchmarks
	contexts []string // products bought, as contexts
	uuid     string
}

func setupRecomsBench(b *testing.B) {
	r := &recomsBench
	r.once.Do(func() {
		cfg := demo.Config()
		w := &cfg.Websites[0]
		// BenchmarkSearchPopularity's versions: boosts off, and the
		// popularity listing.
		live := w.Search[0].Versions[0]
		off, listing := live, live
		off.Boosts, listing.Boosts = &config.Boosts{}, &config.Boosts{Popularity: 0.1, Listing: config.ListingPopularity}
		// BenchmarkSearchPersonalization's: the live version and the
		// listing with every personalization field at 10.
		var every []config.PersonalizationField
		for _, f := range config.PersonalizationNames {
			every = append(every, config.PersonalizationField{Field: f, BoostValue: config.MaxBoostValue})
		}
		w.Search = append(w.Search, config.SearchConfig{Key: "bench-off", Versions: []config.SearchVersion{off}},
			config.SearchConfig{Key: "bench-listing", Versions: []config.SearchVersion{listing}},
			config.SearchConfig{Key: "bench-personal", Versions: []config.SearchVersion{live}, Personalization: every},
			config.SearchConfig{Key: "bench-listing-personal", Versions: []config.SearchVersion{listing}, Personalization: every})
		products := demo.Catalog(100000, 42)
		g, err := Build(w, analysis.English, Source{Products: sliceSource(products)}, nil)
		if err != nil {
			b.Fatal(err)
		}
		r.eng = New("", g)
		for i := 0; i < len(products); i += 997 {
			r.words = append(r.words, strings.Fields(products[i].Title)[0])
		}
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
		visitors := 25000 // about a million events; AISLE_BENCH_VISITORS=230000 for ten million
		if v, err := strconv.Atoi(os.Getenv("AISLE_BENCH_VISITORS")); err == nil && v > 0 {
			visitors = v
		}
		if err := demo.Events(w.UUID, each, visitors, 1, func(e *events.Event) error {
			m.Fold(e)
			n++
			if e.Kind == events.Purchase {
				if context == "" {
					context = e.ProductNumbers[0]
				}
				if len(r.contexts) < 1000 && n%7 == 0 {
					r.contexts = append(r.contexts, e.ProductNumbers[0])
				}
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
		r.uuid = w.UUID
		b.Logf("100,000 products, %d events", n)
	})
}

// BenchmarkRecoms: a call of four requests with filters and context
// (100,000 products; about a million events here).
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
		res, err := r.eng.Recoms(context.Background(), &req, "", r.bhv, now)
		if err != nil {
			b.Fatal(err)
		}
		out = res.AppendJSON(out[:0])
	}
}

// BenchmarkSearchPopularity: a words search and a listing on the
// recommendations shop, with the boosts off, by default (popularity 0.1)
// and, for the listing, ordered by popularity: what the boost costs a
// search beside a million events.
func BenchmarkSearchPopularity(b *testing.B) {
	setupRecomsBench(b)
	r := &recomsBench
	r.eng.UseBehaviours(r.bhv)
	defer r.eng.UseBehaviours(nil)
	for _, tc := range []struct{ name, key, query string }{
		{"words/off", "bench-off", ""}, {"words/default", "demo", ""},
		{"listing/catalog", "bench-off", "*"}, {"listing/popularity", "bench-listing", "*"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			reqs := make([]*SearchRequest, 64)
			for i := range reqs {
				q := tc.query
				if q == "" {
					q = r.words[i%len(r.words)]
				}
				reqs[i] = shopRequest(b, fmt.Sprintf(`{"query":%q,"key":%q,"products":{"count":20,"fields":["productNumber"]}}`, q, tc.key))
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := r.eng.Search(context.Background(), reqs[i%len(reqs)], ""); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkSearchPersonalization: words searches and popularity
// listings of 20 products by 1,000 visitors with histories (the
// recommendations shop, about a million events), personalization off
// and with every field at 10, interleaved request by request so both
// see the same machine (each query off and on, in turn first); reports each one's p50 and p99 and their p99
// ratio (target: at most 1.10).
func BenchmarkSearchPersonalization(b *testing.B) {
	setupRecomsBench(b)
	r := &recomsBench
	r.eng.UseBehaviours(r.bhv)
	defer r.eng.UseBehaviours(nil)
	for _, tc := range []struct{ name, off, on, query string }{
		{"words", "demo", "bench-personal", ""}, {"listing", "bench-listing", "bench-listing-personal", "*"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var reqs [2][]*SearchRequest
			for i := range 1000 {
				q := tc.query
				if q == "" {
					q = r.words[i%len(r.words)]
				}
				for j, key := range []string{tc.off, tc.on} {
					reqs[j] = append(reqs[j], shopRequest(b, fmt.Sprintf(`{"query":%q,"key":%q,"trackingUserId":"demo-visitor-%04d","products":{"count":20,"fields":["productNumber"]}}`, q, key, i)))
				}
			}
			b.ReportAllocs()
			var lats [2][]time.Duration
			i := 0
			for b.Loop() {
				// Each pair runs one query off and on, in turn first: the
				// second of a pair finds the query's postings in cache.
				j := i%2 ^ (i/2)%2
				t0 := time.Now()
				if _, err := r.eng.Search(context.Background(), reqs[j][(i/2)%len(reqs[j])], ""); err != nil {
					b.Fatal(err)
				}
				lats[j] = append(lats[j], time.Since(t0))
				i++
			}
			if len(lats[1]) < 100 {
				return
			}
			var p99 [2]float64
			for j, name := range []string{"off", "on"} {
				slices.Sort(lats[j])
				p99[j] = float64(lats[j][len(lats[j])*99/100].Nanoseconds()) / 1e3
				b.ReportMetric(float64(lats[j][len(lats[j])/2].Nanoseconds())/1e3, "p50-µs-"+name)
				b.ReportMetric(p99[j], "p99-µs-"+name)
			}
			b.ReportMetric(p99[1]/p99[0], "p99-on/off")
		})
	}
}

// BenchmarkRecomsLatency: the four-request call of BenchmarkRecoms with
// a different context product and visitor each time, reporting p50 and
// p99 of the calls (target: p99 under 2 ms at 100,000
// products and ten million events; AISLE_BENCH_VISITORS=230000).
func BenchmarkRecomsLatency(b *testing.B) {
	setupRecomsBench(b)
	r := &recomsBench
	now := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	bodies := make([][]byte, len(r.contexts))
	for i, ctx := range r.contexts {
		bodies[i], _ = json.Marshal(map[string]any{"websiteUuid": r.uuid, "trackingUserId": fmt.Sprintf("demo-visitor-%04d", i%1000),
			"requests": []map[string]any{
				{"trackingKey": "top", "count": 10, "fields": []string{"productNumber", "title", "price"},
					"sources": []map[string]any{{"type": "TOP", "filters": map[string]any{"price": "0,200"}}}},
				{"trackingKey": "alt", "count": 10, "context": map[string]any{"productNumbers": []string{ctx}},
					"sources": []map[string]any{{"type": "ALTERNATIVES"}}},
				{"trackingKey": "together", "count": 5, "context": map[string]any{"productNumbers": []string{ctx}},
					"sources": []map[string]any{{"type": "BOUGHT_TOGETHER"}, {"type": "MOST_BOUGHT"}}},
				{"trackingKey": "seen", "count": 5, "sources": []map[string]any{{"type": "RETARGETED"}, {"type": "MOST_VIEWED"}}},
			}})
	}
	b.ReportAllocs()
	var lats []time.Duration
	var out []byte
	i := 0
	for b.Loop() {
		var req RecomsRequest
		if err := json.Unmarshal(bodies[i%len(bodies)], &req); err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		res, err := r.eng.Recoms(context.Background(), &req, "", r.bhv, now)
		if err != nil {
			b.Fatal(err)
		}
		out = res.AppendJSON(out[:0])
		lats = append(lats, time.Since(t0))
		i++
	}
	reportLatencies(b, lats)
}

// BenchmarkAlternatives: ALTERNATIVES computed for 32 context products
// (each alone, as a call's first request for it asks), the first 10
// taken: what scoring the candidates costs on the recommendations shop.
func BenchmarkAlternatives(b *testing.B) {
	setupRecomsBench(b)
	r := &recomsBench
	now := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	g, ok := r.eng.Website(r.uuid)
	if !ok {
		b.Fatal("no website")
	}
	m := r.bhv.Model(r.uuid)
	var ctx []uint32
	for _, pn := range r.contexts {
		if d, ok := g.Doc(pn); ok && len(ctx) < 32 {
			ctx = append(ctx, d)
		}
	}
	if len(ctx) < 32 {
		b.Fatalf("%d context products", len(ctx))
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range ctx {
			c := &recomCall{ctx: context.Background(), g: g, m: m, now: now, used: roaring.New()}
			n := 0
			c.alternatives([]uint32{d}, func(uint32) bool { n++; return n < 10 })
		}
	}
}
