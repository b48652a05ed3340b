package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goccy/go-json"
)

// hostileBench is the English demo shop of 100,000 products
// (AISLE_BENCH_MILLION=1: 1,000,000), built once: what hostile bodies
// are measured against.
var hostileBench struct {
	once sync.Once
	n    int
	eng  *Engine
}

func setupHostileBench(b *testing.B) {
	h := &hostileBench
	h.once.Do(func() {
		h.n = 100000
		if os.Getenv("AISLE_BENCH_MILLION") != "" {
			h.n = 1000000
		}
		h.eng = New("", demoGeneration(b, h.n, 42, nil))
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

// trimmed is s cut to n bytes.
func trimmed(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
