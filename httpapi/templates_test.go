package httpapi

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/render"
)

// hostile is a search template that is harmless on most queries and, on
// "boom", writes 16 bytes two billion times (32 GB), on "spin", loops two
// billion times writing nothing, and on "slow" loops for some 50 ms.
const hostile = `{{if eq .Query "boom"}}{{range $i := 2000000000}}xxxxxxxxxxxxxxxx{{end}}` +
	`{{else if eq .Query "spin"}}{{range $i := 2000000000}}{{end}}` +
	`{{else if eq .Query "slow"}}{{range $i := 300000}}{{end}}{{end}}<p>{{.Total}} products</p>`

// postWithin posts a search body and reads the answer, failing the test
// when it takes longer than d.
func postWithin(t *testing.T, url, body string, d time.Duration) reply {
	t.Helper()
	c := http.Client{Timeout: d}
	resp, err := c.Post(url+"/serve/search", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := reply{status: resp.StatusCode, header: resp.Header, raw: string(raw)}
	if err := json.Unmarshal(raw, &r.body); err != nil {
		t.Fatalf("%s: body is not JSON: %v\n%s", body, err, raw)
	}
	return r
}

// TestTemplateBoundsAtServeTime: a configured template that, on a
// shopper's query, writes without end or loops without writing is
// stopped by the render's bounds: the answer is a 500 TEMPLATE_ERROR
// naming the bound, with no page, within seconds, and the server
// allocates a few times the output bound, not what the template would
// have written. The template answers other queries as before.
func TestTemplateBoundsAtServeTime(t *testing.T) {
	url := serveShop(t, shopSite(config.SearchVersion{Template: hostile}), hardware(), nil, Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	for _, tc := range []struct {
		query string
		want  []string // one of
	}{
		// Written at some 250 ns an iteration, 8 MiB take about 130 ms: a
		// loaded machine may stop it on time first.
		{"boom", []string{"output too large: more than 8388608 bytes written", "took too long: more than 1s"}},
		{"spin", []string{"took too long: more than 1s"}},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r := postWithin(t, url, `{"query":"`+tc.query+`","key":"shop","format":"html","products":{"count":5}}`, 20*time.Second)
		runtime.ReadMemStats(&after)
		msg, _ := r.get("error", "message").(string)
		named := slices.ContainsFunc(tc.want, func(w string) bool { return strings.Contains(msg, w) })
		if r.status != 500 || r.get("error", "code") != "TEMPLATE_ERROR" || !named || strings.Contains(r.raw, "xxxx") {
			t.Errorf("%s: %d %.300s", tc.query, r.status, r.raw)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 512<<20 {
			t.Errorf("%s: the server allocated %d MiB", tc.query, n>>20)
		}
	}
	html, _ := searchOK(t, url, `{"query":"hammer","key":"shop","format":"html","products":{"count":5}}`).get("html").(string)
	if !strings.HasSuffix(html, " products</p>") {
		t.Errorf("hammer: %s", html)
	}
}

// TestConfigRefusesTemplatesThatFail: a configuration holding a template
// that fails when rendered with sample data, or passes a render bound on
// it, is refused whole with a 400 naming the website, where the template
// is and why, and nothing changes: the served configuration answers as
// before.
func TestConfigRefusesTemplatesThatFail(t *testing.T) {
	url := serveLive(t)
	for _, tc := range []struct {
		name string
		edit func(w *config.Website)
		says []string
	}{
		{"a search version's template failing at run time", func(w *config.Website) { w.Search[0].Versions[0].Template = `<p>{{index nil 3}}</p>` },
			[]string{"websites[0]: search config shop version 1: template search fails on sample products", "index of untyped nil"}},
		{"a search version's template writing 32 GB", func(w *config.Website) {
			w.Search[0].Versions[0].Template = `{{range $i := 2000000000}}xxxxxxxxxxxxxxxx{{end}}`
		}, []string{"websites[0]: search config shop version 1: template search fails on sample products"}},
		{"a box's template looping without end", func(w *config.Website) {
			w.Boxes = []config.Box{{Key: "top", Count: 2, Format: "html", Sources: []config.BoxSource{{Type: "TOP"}}, Template: `{{range $i := 2000000000}}{{end}}`}}
		}, []string{"websites[0]: box top: template box top fails on sample products", "took too long: more than 1s"}},
		{"a page's template failing on an empty page", func(w *config.Website) {
			w.Pages = []config.Page{{Key: "all", Versions: []config.PageVersion{{ID: 1, Status: config.StatusLive, Template: `{{(index .Products 0).title}}`}}}}
		}, []string{"websites[0]: page all: template page all fails on an empty result", "index out of range"}},
	} {
		w := shopSite(config.SearchVersion{})
		tc.edit(&w)
		body, err := json.Marshal(config.File{Websites: []config.Website{w}})
		if err != nil {
			t.Fatal(err)
		}
		status, r := adminSend(t, "PUT", url+"/admin/v1/config", "application/json", string(body))
		e, _ := r["error"].(map[string]any)
		msg, _ := e["message"].(string)
		if status != 400 || e["code"] != "INVALID_REQUEST" || !strings.HasSuffix(msg, "; nothing changed") {
			t.Errorf("%s: %d %v, want 400 and nothing changed", tc.name, status, r)
		}
		for _, s := range tc.says {
			if !strings.Contains(msg, s) {
				t.Errorf("%s: %q does not say %q", tc.name, msg, s)
			}
		}
		html, _ := searchOK(t, url, `{"query":"hammer","key":"shop","format":"html","products":{"count":2}}`).get("html").(string)
		if !strings.Contains(html, `class="aisle-search"`) {
			t.Errorf("%s: the served template changed: %.200s", tc.name, html)
		}
	}
}

// failures is a slog handler keeping the errors of "request failed".
type failures struct {
	mu   sync.Mutex
	errs []error
}

func (f *failures) Enabled(context.Context, slog.Level) bool { return true }
func (f *failures) WithAttrs([]slog.Attr) slog.Handler       { return f }
func (f *failures) WithGroup(string) slog.Handler            { return f }
func (f *failures) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if err, ok := a.Value.Any().(error); ok && a.Key == "err" {
			f.mu.Lock()
			f.errs = append(f.errs, err)
			f.mu.Unlock()
		}
		return true
	})
	return nil
}

func (f *failures) first() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.errs) == 0 {
		return nil
	}
	return f.errs[0]
}

// TestClientLeavingStopsTheRender: a client that closes its connection
// while its answer renders stops the render, with render.ErrCanceled
// and the cause errClientLeft, well before its time bound would; the
// server serves on.
func TestClientLeavingStopsTheRender(t *testing.T) {
	logged := &failures{}
	url := serveShop(t, shopSite(config.SearchVersion{Template: hostile}), hardware(), nil, Options{Logger: slog.New(logged)})
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	body := `{"query":"spin","key":"shop","format":"html","products":{"count":5}}`
	fmt.Fprintf(conn, "POST /serve/search HTTP/1.1\r\nHost: aisle\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	time.Sleep(50 * time.Millisecond) // the render has begun
	conn.Close()
	deadline := time.Now().Add(10 * time.Second)
	for logged.first() == nil && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if err := logged.first(); !errors.Is(err, render.ErrCanceled) || !errors.Is(err, errClientLeft) {
		t.Fatalf("the render ended with %v, want %v (%v)", err, render.ErrCanceled, errClientLeft)
	}
	if html, _ := searchOK(t, url, `{"query":"hammer","key":"shop","format":"html","products":{"count":5}}`).get("html").(string); !strings.HasSuffix(html, " products</p>") {
		t.Errorf("after the client left: %s", html)
	}
}

// TestWatchedConnectionServesOn: a connection watched while its answer
// renders serves the requests that follow on it: sent after the answer,
// pipelined, or arriving while it renders (the watch sees them without
// taking them).
func TestWatchedConnectionServesOn(t *testing.T) {
	url := serveShop(t, shopSite(config.SearchVersion{Template: hostile}), hardware(), nil, Options{})
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(30 * time.Second)); err != nil {
		t.Fatal(err)
	}
	request := func(query string) string {
		body := `{"query":"` + query + `","key":"shop","format":"html","products":{"count":5}}`
		return fmt.Sprintf("POST /serve/search HTTP/1.1\r\nHost: aisle\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	}
	br := bufio.NewReader(conn)
	for _, sends := range [][]string{
		{request("hammer")},
		{request("slow") + request("hammer") + request("slow")},
		{request("slow"), request("hammer")}, // the second while the first renders
		{request("hammer")},
	} {
		for i, s := range sends {
			if i > 0 {
				time.Sleep(10 * time.Millisecond)
			}
			if _, err := io.WriteString(conn, s); err != nil {
				t.Fatal(err)
			}
		}
		for range strings.Count(strings.Join(sends, ""), "POST ") {
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(raw), ` products\u003c/p\u003e`) {
				t.Fatalf("%d %s", resp.StatusCode, raw)
			}
		}
	}
}
