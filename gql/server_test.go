package gql_test

import (
	"bytes"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/gql"
	"github.com/aisle-search/aisle/httpapi"
	"github.com/aisle-search/aisle/internal/testshop"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/store"
)

// The test server: two websites of two companies (A of acme, B of
// globex), served for real over HTTP with the operator's key
// "operator".
const (
	siteA    = testshop.UUID
	siteB    = "00000000-0000-4000-8000-0000000000b2"
	operator = "operator"
)

// shop is a running server and what it serves from.
type shop struct {
	url    string
	st     *store.Store
	writer *live.Writer
	eng    *engine.Engine
	bhv    *engine.Behaviours
}

// twoShops configures website A (testshop's, company acme, with page
// page-a, box box-a and campaign c-a) and website B (a copy under
// another UUID, search key and company, without them) and serves them.
func twoShops(t *testing.T) *shop {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	a := testshop.Website()
	a.Name, a.CompanyID = "Shop A", "acme"
	a.Pages = []config.Page{{Key: "page-a", Versions: []config.PageVersion{{ID: 1, Status: config.StatusLive}}}}
	a.Boxes = []config.Box{{Key: "box-a", Count: 2, Sources: []config.BoxSource{{Type: "TOP"}}}}
	a.Campaigns = []config.Campaign{{ID: "c-a", State: "ACTIVE", Products: []string{"P01"}, Positions: []int{1}}}
	b := testshop.Website()
	b.UUID, b.Name, b.CompanyID = siteB, "Shop B", "globex"
	for i := range b.Search {
		b.Search[i].Key += "-b"
	}
	b.Pages, b.Boxes, b.Campaigns = nil, nil, nil
	f := &config.File{Websites: []config.Website{*a, *b}}
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	var batch store.Batch
	batch.SetConfig(f)
	if _, err := st.Apply(&batch, true); err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	gens, failed := live.OpenEach(st, f, analysis.English, quiet, nil)
	if len(failed) > 0 {
		t.Fatal(failed[0].Err)
	}
	eng := engine.New(operator, gens...)
	w := live.New(st, eng, analysis.English, quiet)
	t.Cleanup(w.Close)
	for _, uuid := range []string{siteA, siteB} {
		var rows bytes.Buffer
		for _, p := range testshop.Products() {
			line, _ := json.Marshal(p)
			rows.Write(append(line, '\n'))
		}
		if _, err := w.PutProducts(uuid, live.Body{Format: catalog.FormatJSONL, Data: &rows}); err != nil {
			t.Fatal(err)
		}
	}
	bhv := engine.NewBehaviours()
	bhv.UseCatalog(eng)
	eng.UseBehaviours(bhv)
	collector := live.NewCollector(st, eng, bhv)
	t.Cleanup(collector.Close)
	g, err := gql.New(gql.Options{Engine: eng, Live: w, Behaviours: bhv, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	hs := httpapi.New(eng, httpapi.Options{Logger: quiet, Live: w, Collector: collector, Behaviours: bhv, GraphQL: g.Serve}).HTTPServer()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(ln) //nolint:errcheck // ends at Shutdown
	t.Cleanup(func() { _ = hs.Shutdown() })
	return &shop{url: "http://" + ln.Addr().String(), st: st, writer: w, eng: eng, bhv: bhv}
}

// answer is a GraphQL answer, decoded.
type answer struct {
	Status int
	Data   map[string]any `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Path       []any          `json:"path"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
	Raw string
}

// code is the answer's first error's extensions.code, or "".
func (a answer) code() string {
	if len(a.Errors) == 0 {
		return ""
	}
	c, _ := a.Errors[0].Extensions["code"].(string)
	return c
}

// do POSTs a GraphQL request with key (as ?apiKey=) and decodes the
// answer.
func (s *shop) do(t *testing.T, key, query string, vars map[string]any) answer {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	return s.post(t, key, "application/json", string(body))
}

// post sends a raw body.
func (s *shop) post(t *testing.T, key, contentType, body string) answer {
	t.Helper()
	u := s.url + "/graphql"
	if key != "" {
		u += "?apiKey=" + url.QueryEscape(key)
	}
	resp, err := http.Post(u, contentType, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return decodeAnswer(t, resp)
}

func decodeAnswer(t *testing.T, resp *http.Response) answer {
	t.Helper()
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	a := answer{Status: resp.StatusCode, Raw: string(raw)}
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatalf("answer %d is not JSON: %s", resp.StatusCode, raw)
	}
	return a
}

// ok fails the test unless a has data and no errors.
func (a answer) ok(t *testing.T) map[string]any {
	t.Helper()
	if a.Status != 200 || len(a.Errors) > 0 || a.Data == nil {
		t.Fatalf("answer %d: %s", a.Status, a.Raw)
	}
	return a.Data
}
