package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/events"
)

// hostileBench is the English demo shop of 100,000 products
// (AISLE_BENCH_MILLION=1: 1,000,000) with the behaviour of 25,000
// visitors, built once: what hostile page and recommendation bodies are
// measured against.
var hostileBench struct {
	once   sync.Once
	n      int
	eng    *Engine
	bhv    *Behaviours
	uuid   string
	sample []string // product numbers, one in 50
}

func setupHostileBench(b *testing.B) {
	h := &hostileBench
	h.once.Do(func() {
		h.n = 100000
		if os.Getenv("AISLE_BENCH_MILLION") != "" {
			h.n = 1000000
		}
		g := demoGeneration(b, h.n, 42, nil)
		h.eng, h.uuid = New("", g), g.Website.UUID
		h.bhv = NewBehaviours()
		m := h.bhv.Model(h.uuid)
		each := func(fn func(*catalog.Product) error) error { return demo.Each(h.n, 42, fn) }
		if err := demo.Events(h.uuid, each, 25000, 1, func(e *events.Event) error {
			m.Fold(e)
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		for kind, w := range []behaviour.Weights{topWeights, boughtWeights, viewedWeights} {
			// Computed once, as a server's first call does, and resolved to
			// the generation's docs, as its first deep read does (one
			// lookup a product a generation: BenchmarkHostileRanked).
			s := m.Ranked(w, behaviour.Long, demo.EventsEnd)
			budget := maxRankedReads
			g.eachRanked(kind, m, s, nil, &budget, func(uint32) bool { return true })
		}
		i := 0
		if err := each(func(p *catalog.Product) error {
			if i%50 == 0 {
				h.sample = append(h.sample, p.ProductNumber)
			}
			i++
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	})
	b.Logf("%d products", h.n)
}

// decodeStrict decodes a body as the server does: unknown members
// refused.
func decodeStrict(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// repeatJoined is n copies of item joined by commas.
func repeatJoined(item string, n int) string {
	return strings.TrimSuffix(strings.Repeat(item+",", n), ",")
}

// emptyGroups is a base filter of groups $or of ten empty objects and
// then extra empty objects under one $and: 2 + 12 × groups + extra
// nodes, about 40 × groups bytes.
func emptyGroups(groups, extra int) string {
	return `{"$and":[` + repeatJoined(`{"$or":[`+repeatJoined("{}", 10)+`]}`, groups) + strings.Repeat(`,{}`, extra) + `]}`
}

// BenchmarkHostilePages: the demo page's first load, json, with base
// filters that name much and allow everything (empty objects under
// groups: 482 to 497 nodes, and 300 KB and 1 MiB of them), a 1 MiB list
// of one value, and the most values a filter holds as open ranges (100),
// beside no filter; each body decoded as the server decodes it and
// answered or refused. ns/op is one body's CPU.
func BenchmarkHostilePages(b *testing.B) {
	setupHostileBench(b)
	h := &hostileBench
	// Each call's filter differs from the last (i), as a hostile client's
	// would, so the generation's cache of request filters does not
	// answer it.
	for _, tc := range []struct {
		name    string
		filters func(i int) string
	}{
		{"no-filter", func(int) string { return `{}` }},
		{"empty-groups-under-bound", func(i int) string { return emptyGroups(40, i) }},
		{"empty-groups-300KB", func(i int) string { return emptyGroups(300<<10/40, i) }},
		{"empty-groups-1MiB", func(i int) string { return emptyGroups((1<<20-200)/40-16, i) }},
		{"value-list-1MiB", func(i int) string { return `{"brand":[` + repeatJoined(`"x"`, (1<<20-200)/4-i) + `]}` }},
		{"ranges-100", func(i int) string {
			var s []string
			for k := range 100 {
				s = append(s, fmt.Sprintf(`{"price":{"$gte":%d.%03d}}`, k, i+1))
			}
			return `{"$or":[` + strings.Join(s, ",") + `]}`
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			bodies := make([][]byte, 17)
			for i := range bodies {
				bodies[i] = []byte(`{"url":"https://shop.example/garden","format":"json","firstLoad":true,"params":{"filters":` + tc.filters(i) +
					`},"products":{"start":0,"count":24}}`)
			}
			page := func(body []byte) string {
				var req PageRequest
				err := decodeStrict(body, &req)
				if err == nil {
					_, err = h.eng.Page(context.Background(), "demo", &req, "", time.Now())
				}
				if err != nil {
					return "refused: " + err.Error()
				}
				return "answered"
			}
			page(bodies[16]) // what a first call computes once (the page's base)
			b.ReportAllocs()
			b.ReportMetric(float64(len(bodies[0])), "body-bytes")
			var status string
			i := 0
			for b.Loop() {
				status = page(bodies[i%16])
				i++
			}
			b.Log(trimmed(status, 200))
		})
	}
}

// BenchmarkHostileRecoms: recommendation calls that ask for much: 2,000
// requests of a billion products each, one request of 1,000, ten
// requests of 100 products (of the best sellers; of alternatives to one
// product and to 50, bought with them, then best sellers; of the best
// sellers under a price no product has), one request whose context
// names one product in 50, one of 10 and of 1,000 sources of
// alternatives under a price no product has, and one
// whose filter has 100 values and one value a product in 50 (product
// numbers as brands: no product has them); each decoded as the server
// decodes it and answered or refused. ns/op is one call's CPU.
func BenchmarkHostileRecoms(b *testing.B) {
	setupHostileBench(b)
	h := &hostileBench
	now := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	call := func(requests, count int, context []string, filters map[string]any) []byte {
		reqs := make([]map[string]any, requests)
		for i := range reqs {
			reqs[i] = map[string]any{"trackingKey": fmt.Sprint("r", i), "count": count, "fields": []string{"productNumber"},
				"sources": []map[string]any{{"type": "TOP", "filters": filters}}}
			if context != nil {
				reqs[i]["context"] = map[string]any{"productNumbers": context}
				reqs[i]["sources"] = []map[string]any{{"type": "ALTERNATIVES"}, {"type": "BOUGHT_TOGETHER"}, {"type": "TOP"}}
			}
		}
		body, _ := json.Marshal(map[string]any{"websiteUuid": h.uuid, "requests": reqs})
		return body
	}
	// sources is one request of 100 products from n sources of alternatives
	// to one product under a price none has: each computed in full, and
	// none fills the request.
	sources := func(n int) []byte {
		srcs := make([]map[string]any, n)
		for i := range srcs {
			srcs[i] = map[string]any{"type": "ALTERNATIVES", "filters": map[string]any{"price": "0,0.5"}}
		}
		body, _ := json.Marshal(map[string]any{"websiteUuid": h.uuid, "requests": []map[string]any{{"trackingKey": "t", "count": 100,
			"context": map[string]any{"productNumbers": h.sample[:1]}, "sources": srcs}}})
		return body
	}
	for _, tc := range []struct {
		name string
		body []byte
	}{
		{"2000x1e9", call(2000, 1000000000, nil, nil)},
		{"1x1000", call(1, 1000, nil, nil)},
		{"10x100", call(10, 100, nil, nil)},
		{"10x100-context-1", call(10, 100, h.sample[:1], nil)},
		{"10x100-context-50", call(10, 100, h.sample[:50], nil)},
		{"context-all", call(1, 100, h.sample, nil)},
		{"sources-10", sources(10)},
		{"sources-1000", sources(1000)},
		{"values-100", call(1, 100, nil, map[string]any{"brand": map[string]any{"$in": h.sample[:100]}})},
		{"values-all", call(1, 100, nil, map[string]any{"brand": map[string]any{"$in": h.sample}})},
		{"10x100-filtered-out", call(10, 100, nil, map[string]any{"price": "0,0.5"})},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.ReportMetric(float64(len(tc.body)), "body-bytes")
			var status string
			for b.Loop() {
				var req RecomsRequest
				var err error
				var res *RecomsResult
				if err = decodeStrict(tc.body, &req); err == nil {
					res, err = h.eng.Recoms(context.Background(), &req, "", h.bhv, now)
				}
				switch {
				case err != nil:
					status = "refused: " + err.Error()
				default:
					n, failed := 0, ""
					for _, r := range res.Responses {
						n += len(r.Docs)
						if !r.Success && failed == "" {
							failed = r.Code + " " + r.Message
						}
					}
					status = fmt.Sprintf("answered %d products; first failure %q", n, failed)
				}
			}
			b.Log(trimmed(status, 200))
		})
	}
}

// trimmed is s cut to n bytes.
func trimmed(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// BenchmarkHostileRanked: reading the best sellers to their end, as a
// source that a filter empties does, once the behaviour recomputed them
// (a new ranking every second while events come: "recomputed") and on a
// generation no deep read resolved yet, as after a product write
// ("first-in-generation"). ns/op is one read's CPU.
func BenchmarkHostileRanked(b *testing.B) {
	setupHostileBench(b)
	h := &hostileBench
	g, _ := h.eng.Website(h.uuid)
	m := h.bhv.Model(h.uuid)
	top := m.Ranked(topWeights, behaviour.Long, demo.EventsEnd)
	all := func(uint32) bool { return true }
	b.Run("recomputed", func(b *testing.B) {
		b.ReportAllocs()
		b.ReportMetric(float64(len(top)), "entries")
		for b.Loop() {
			b.StopTimer()
			s := slices.Clone(top)
			b.StartTimer()
			budget := len(s)
			g.eachRanked(rankedTop, m, s, nil, &budget, all)
		}
	})
	b.Run("first-in-generation", func(b *testing.B) {
		b.ReportAllocs()
		b.ReportMetric(float64(len(top)), "entries")
		for b.Loop() {
			b.StopTimer()
			n := *g
			n.ranked = &rankedCaches{}
			b.StartTimer()
			budget := len(top)
			n.eachRanked(rankedTop, m, top, nil, &budget, all)
		}
	})
}
