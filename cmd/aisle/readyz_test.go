package main

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/store"
)

// TestReadyzUntilLoaded: aisle serve listens before it loads; until the
// API opens /healthz answers 200, /readyz 503 with the loading's phase,
// and a search 503 STARTING; once open, /readyz answers 200 and the
// search its products.
func TestReadyzUntilLoaded(t *testing.T) {
	st, err := store.Open(shopDir(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	get := func(addr, method, path, body string) (int, string) {
		t.Helper()
		return request(t, method, "http://"+addr+path, "", "", body)
	}
	search := fmt.Sprintf(`{"query":"*","key":%q,"products":{"count":1}}`, config.DefaultKey)
	type answer struct {
		status int
		body   string
	}
	var loading []answer
	f := serveFlags{addr: "127.0.0.1:0", adminKey: "admin", lang: "en", opening: func(addr string) {
		for _, r := range []struct{ method, path, body string }{{"GET", "/healthz", ""}, {"GET", "/readyz", ""}, {"POST", "/serve/search", search}} {
			status, body := get(addr, r.method, r.path, r.body)
			loading = append(loading, answer{status, body})
		}
	}}
	var logs syncBuffer
	addr, stop := serveWith(t, st, f, slog.New(slog.NewTextHandler(&logs, nil)))
	defer stop()
	want := []answer{
		{200, `{"success":true}`},
		{503, `{"ready":false,"phase":"opening the API","websitesOpened":1,"websites":1}`},
		{503, `{"success":false,"error":{"code":"STARTING","message":"the server is starting: it answers once its websites are loaded (GET /readyz says when)"}}`},
	}
	if fmt.Sprint(loading) != fmt.Sprint(want) {
		t.Errorf("while loading:\n got %v\nwant %v", loading, want)
	}
	if status, body := get(addr, "GET", "/readyz", ""); status != 200 || body != `{"ready":true}` {
		t.Errorf("/readyz once open: %d %s", status, body)
	}
	if status, body := get(addr, "POST", "/serve/search", search); status != 200 || !strings.Contains(body, `"totalCount":3`) {
		t.Errorf("search once open: %d %s", status, body)
	}
	if l := logs.String(); strings.Index(l, "msg=loading") > strings.Index(l, "msg=ready") || strings.Index(l, "msg=ready") > strings.Index(l, "msg=listening") {
		t.Errorf("start lines out of order:\n%s", l)
	}
}
