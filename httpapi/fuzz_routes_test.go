package httpapi

import (
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/store"
)

// Fuzzing through the real handlers: each target runs its route's
// bodies through Server.Handle on a live demo website (a store on disk,
// writes, events, behaviour) and holds every answer to the invariants a
// stranger's input must keep: never a 5xx, valid JSON, an answer within
// fuzzAnswerBound, and nothing changed after a 4xx (the log holds no new
// entry but the page views and impressions the server records itself).
// The seeds here are ordinary bodies; the hostile ones found against the
// server (a base filter of 2,000 empty groups, 2,000 recommendation
// requests of a billion products, case-colliding numbers, a template
// ranging over 2e9, …) are in testdata/fuzz/<target>/, where crashers
// found later go too.

// fuzzAnswerBound is how long any answer may take on the fuzz targets'
// 500-product website, the race detector on.
const fuzzAnswerBound = 2 * time.Second

// fuzzSite is a live demo website of 500 products with a day of its
// visitors' events, served by a Server with every route on.
type fuzzSite struct {
	srv *Server
	st  *store.Store
}

func newFuzzSite(tb testing.TB) *fuzzSite {
	tb.Helper()
	st, err := store.Open(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg := demo.Config()
	w := &cfg.Websites[0]
	var b store.Batch
	b.SetConfig(&config.File{Websites: []config.Website{*w}})
	if _, err := st.Append(&b, true); err != nil {
		tb.Fatal(err)
	}
	products := func(fn func(*catalog.Product) error) error { return demo.Each(500, 1, fn) }
	g, _, err := live.Import(st, w, analysis.English, products, quiet, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := live.ImportEvents(st, &cfg, func(fn func(*events.Event, []byte) error) error {
		return demo.Events(w.UUID, products, 50, 1, func(e *events.Event) error { return fn(e, nil) })
	}); err != nil {
		tb.Fatal(err)
	}
	eng := engine.New("admin-key", g)
	bhv := engine.NewBehaviours()
	bhv.UseCatalog(eng)
	if _, _, err := live.NewBehaviourStore(st, bhv).Replay(); err != nil {
		tb.Fatal(err)
	}
	eng.UseBehaviours(bhv)
	writer := live.New(st, eng, analysis.English, quiet)
	collector := live.NewCollector(st, eng, bhv)
	tb.Cleanup(writer.Close)
	tb.Cleanup(collector.Close)
	return &fuzzSite{srv: New(eng, Options{Logger: quiet, Live: writer, Collector: collector, Behaviours: bhv}), st: st}
}

// check sends one request and holds its answer to the invariants.
func (s *fuzzSite) check(t *testing.T, method, uri, contentType string, body []byte) {
	t.Helper()
	var ctx fasthttp.RequestCtx
	ctx.Request.SetRequestURI(uri)
	ctx.Request.Header.SetMethod(method)
	ctx.Request.Header.SetContentType(contentType)
	ctx.Request.Header.Set("Authorization", "Bearer admin-key")
	ctx.Request.SetBody(body)
	seq := s.st.Seq()
	start := time.Now()
	s.srv.Handle(&ctx)
	took := time.Since(start)
	code, out := ctx.Response.StatusCode(), ctx.Response.Body()
	show := string(body)
	if len(show) > 300 {
		show = show[:300] + "…"
	}
	switch {
	case code >= 500:
		t.Fatalf("%s %s %q: status %d: %s", method, uri, show, code, out)
	case !json.Valid(out):
		t.Fatalf("%s %s %q: invalid JSON: %.300s", method, uri, show, out)
	case took > fuzzAnswerBound:
		t.Fatalf("%s %s %q: answered in %v, past %v", method, uri, show, took, fuzzAnswerBound)
	case code >= 400 && !s.onlyRecorded(t, seq):
		t.Fatalf("%s %s %q: status %d, and the log moved %d → %d", method, uri, show, code, seq, s.st.Seq())
	}
}

// onlyRecorded reports whether every log entry after seq holds only
// events the server records of requests it answers (page views and
// impressions, queued without waiting: an earlier request's may land
// during a later one).
func (s *fuzzSite) onlyRecorded(t *testing.T, seq uint64) bool {
	t.Helper()
	ok := true
	err := s.st.Entries(seq, func(e *store.Entry) error {
		if len(e.Products)+len(e.Deletes)+len(e.Content)+len(e.ContentDeletes) > 0 || e.Config != nil {
			ok = false
			return nil
		}
		evs, err := s.st.EntryEvents(e)
		if err != nil {
			return err
		}
		for _, raw := range evs {
			var ev events.Event
			if err := json.Unmarshal(raw, &ev); err != nil {
				return err
			}
			if ev.Kind != events.Pageview && ev.Kind != events.Impression {
				ok = false
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func FuzzPagesBody(f *testing.F) {
	for _, s := range []string{
		`{"url":"https://shop.example/garden","firstLoad":true,"format":"json","params":{"filters":{"price":{"$lte":50}}},"products":{"start":0,"count":12}}`,
		`{"url":"/","format":"html","params":{"filters":{"$or":[{"brand":"Nordlys"},{"inStock":true}]}}}`,
		`{"params":{"filters":[1,2]}}`, `{"products":{"count":1000000000,"start":-1}}`, `{"params":{"filters":{"$and":[]}}}`,
	} {
		f.Add([]byte(s))
	}
	s := newFuzzSite(f)
	f.Fuzz(func(t *testing.T, body []byte) { s.check(t, "POST", "/serve/pages/demo", "application/json", body) })
}

func FuzzRecomsBody(f *testing.F) {
	site := `"websiteUuid":"` + config.DemoUUID + `"`
	for _, s := range []string{
		`{` + site + `,"requests":[{"key":"demo-top"},{"key":"demo-alternatives","context":{"productNumbers":["AI-000001"]}}]}`,
		`{` + site + `,"trackingUserId":"demo-visitor-0001","requests":[{"trackingKey":"t","count":5,"sources":[{"type":"RETARGETED"},{"type":"TOP"}]}]}`,
		`{` + site + `,"email":"alice@example.com","requests":[{"trackingKey":"t","count":5,"sources":[{"type":"RECENTLY_BOUGHT"}]}]}`,
		`{` + site + `,"requests":[{"trackingKey":"t","count":1000000000,"sources":[{"type":"TOP"}]}]}`,
		`{"requests":[]}`, `{"requests":[{"key":"demo-top","trackingKey":"x"}]}`,
	} {
		f.Add([]byte(s))
	}
	s := newFuzzSite(f)
	f.Fuzz(func(t *testing.T, body []byte) { s.check(t, "POST", "/serve/recoms", "text/plain", body) })
}

func FuzzCollectBody(f *testing.F) {
	site := `"websiteUuid":"` + config.DemoUUID + `"`
	for _, tc := range []struct{ kind, body string }{
		{"view", `{` + site + `,"productNumber":"AI-000001","trackingUserId":"u1","email":"alice@example.com"}`},
		{"purchase", `{` + site + `,"orderNumber":"O1","lines":[{"productNumber":"AI-000002","quantity":2,"price":9.5}],"customerId":"c-1"}`},
		{"view", `{` + site + `,"productNumber":"` + strings.Repeat("X", 256) + `"}`},
		{"view", `{` + site + `,"productNumber":"P","emailHash":1,"relink":true}`},
		{"cart", `{` + site + `,"productNumbers":[]}`},
		{"impression", `{` + site + `,"productNumber":"P"}`},
		{"", `{"events":[{"kind":"view",` + site + `,"productNumber":"AI-000001"},{"kind":"search",` + site + `,"query":"x","results":0}]}`},
	} {
		f.Add(tc.kind, []byte(tc.body))
	}
	s := newFuzzSite(f)
	f.Fuzz(func(t *testing.T, kind string, body []byte) {
		path := "/serve/collect"
		if kind != "" {
			path += "/" + kind
		}
		s.check(t, "POST", path, "text/plain", body)
	})
}

func FuzzAdminProducts(f *testing.F) {
	for _, tc := range []struct{ query, ct, body string }{
		{"", "application/x-ndjson", `{"productNumber":"SEC-Ä","title":"a"}` + "\n" + `{"productNumber":"sec-a","title":"a"}`},
		{"?partial=true", "application/x-ndjson", `{"productNumber":"AI-000001","price":1.7e308}`},
		{"?allowErrors=true", "application/json", `[{"productNumber":"N1","title":"t"},{"productNumber":"N2"}]`},
		{"", "application/json", `[{"productNumber":"N3","title":"` + strings.Repeat("t", 5000) + `"}]`},
		{"?mapping=flipkart", "text/csv", "a,b\n1,2\n"},
		{"", "application/x-ndjson", `{"productNumber":"N4","title":"t","price":"ten"}`},
	} {
		f.Add(tc.query, tc.ct, []byte(tc.body))
	}
	s := newFuzzSite(f)
	f.Fuzz(func(t *testing.T, query, ct string, body []byte) {
		if strings.ContainsAny(query, " #") || !strings.HasPrefix(query, "?") && query != "" {
			return // not a query string fasthttp would parse as one
		}
		s.check(t, "POST", "/admin/v1/websites/"+config.DemoUUID+"/products"+query, ct, body)
	})
}

func FuzzAdminConfig(f *testing.F) {
	cfg := demo.Config()
	good, err := json.Marshal(config.File{Websites: cfg.Websites[:1]})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	for _, s := range []string{
		`{"websites":[]}`, `{}`, `[]`, `{"websites":[{"uuid":"x"}]}`,
		strings.Replace(string(good), `"searchConfigs":[`, `"searchConfigs":[{"key":"t","versions":[{"id":1,"status":"live","template":"{{index nil 3}}"}]},`, 1),
		strings.Replace(string(good), `"allowedOrigins"`, `"allowedOrigins":["*"],"x"`, 1),
	} {
		f.Add([]byte(s))
	}
	s := newFuzzSite(f)
	f.Fuzz(func(t *testing.T, body []byte) { s.check(t, "PUT", "/admin/v1/config", "application/json", body) })
}
