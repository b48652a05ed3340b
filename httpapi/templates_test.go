package httpapi

import (
	"io"
	"log/slog"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/config"
)

// hostile is a search template that is harmless on most queries and, on
// "boom", writes 16 bytes two billion times (32 GB) and, on "spin",
// loops two billion times writing nothing.
const hostile = `{{if eq .Query "boom"}}{{range $i := 2000000000}}xxxxxxxxxxxxxxxx{{end}}` +
	`{{else if eq .Query "spin"}}{{range $i := 2000000000}}{{end}}{{end}}<p>{{.Total}} products</p>`

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
