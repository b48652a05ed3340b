package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/store"
)

// syncBuffer is a log sink safe for the server goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serveOnce serves the store until the returned stop is called.
func serveOnce(t *testing.T, st *store.Store, logs io.Writer) (addr string, stop func()) {
	t.Helper()
	return serveWith(t, st, serveFlags{addr: "127.0.0.1:0", adminKey: "admin", lang: "en"}, slog.New(slog.NewTextHandler(logs, nil)))
}

// serveWith serves the store with the flags f until the returned stop is
// called. The test process keeps its GOMAXPROCS unless f sets procs:
// serve's default doubles it.
func serveWith(t *testing.T, st *store.Store, f serveFlags, log *slog.Logger) (addr string, stop func()) {
	t.Helper()
	if f.procs == "" {
		f.procs = strconv.Itoa(runtime.GOMAXPROCS(0))
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serveStore(ctx, st, f, io.Discard, log, func(s served) { ready <- s.addr })
	}()
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("server stopped: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("server did not start")
	}
	return addr, func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("shutdown: %v", err)
		}
	}
}

// searchTotal is totalOf, failing t on an error.
func searchTotal(t *testing.T, addr, body string) int {
	t.Helper()
	n, err := totalOf(addr, body)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// totalOf is the totalCount of the search body sent to the server at
// addr; an error when it does not answer 200 with success.
func totalOf(addr, body string) (int, error) {
	resp, err := http.Post("http://"+addr+"/serve/search", "text/plain", strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var out struct {
		Success  bool
		Products struct{ TotalCount int }
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 || !out.Success {
		return 0, fmt.Errorf("search %s: status %d, %v", body, resp.StatusCode, err)
	}
	return out.Products.TotalCount, nil
}

// TestRestartServesSameCatalogWithoutImport: README.md, "Restarting serve
// on the same directory serves the same catalog without importing again"
// (the saved index is loaded, not rebuilt).
func TestRestartServesSameCatalogWithoutImport(t *testing.T) {
	dir := t.TempDir()
	feed := filepath.Join(dir, "feed.jsonl")
	lines := `{"productNumber":"A1","title":"Cordless Drill","price":99,"brand":"Voltmax","hierarchies":[["Tools","Drills"]]}
{"productNumber":"A2","title":"Table Lamp","price":25,"inStock":true}

{"productNumber":"A3","title":"Hammer Drill","price":149,"previousPrice":199}
`
	if err := os.WriteFile(feed, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "shop")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"import", "--data", data, "--quiet", feed}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "imported 3 products") {
		t.Fatalf("import said %q", out.String())
	}
	if !strings.Contains(out.String(), "3 in its index") {
		t.Fatalf("import said %q", out.String())
	}
	for start := 1; start <= 2; start++ {
		s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k")
		if n := s.total(t, "default", "drill"); n != 2 {
			t.Errorf("start %d: drill found %d, want 2", start, n)
		}
		status, res := s.search(t, "", `{"query":"*","key":"default","products":{"count":5,"filters":["isOnSale:true"],"fields":["productNumber"]}}`)
		if status != 200 || res.Products.TotalCount != 1 || len(res.Products.Results) != 1 || res.Products.Results[0]["productNumber"] != "A3" {
			t.Errorf("start %d: on sale: status %d, %+v; want A3 alone (derived from previousPrice)", start, status, res.Products)
		}
		s.shutdown(t)
		if logs := s.stderr.String(); !strings.Contains(logs, `msg="index loaded" website=`) || !strings.Contains(logs, `products=3`) || strings.Contains(logs, "index built") {
			t.Errorf("start %d: the saved index was not loaded as it is:\n%s", start, logs)
		}
	}
}

// TestImportAgain: README.md, "importing again updates products by
// productNumber" (the index is rebuilt from the whole store; products the
// second feed lacks stay, and within one feed the last line wins), and a
// failing import changes nothing.
func TestImportAgain(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "shop")
	write := func(name, lines string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	first := write("first.jsonl", `{"productNumber":"A1","title":"Cordless Drill","price":99}
{"productNumber":"A2","title":"Table Lamp","price":25}
`)
	second := write("second.jsonl", `{"productNumber":"A2","title":"Floor Lamp","price":45}
{"productNumber":"A3","title":"Desk Lamp","price":15}
{"productNumber":"A3","title":"Desk Lamp, brass","price":19}
`)
	bad := write("bad.jsonl", `{"productNumber":"A4","title":"Reading Lamp","price":35}
{"productNumber":"A5","title":"x","price":"cheap"}
`)
	for _, tc := range []struct {
		feed, want string
	}{
		{first, "2 in its index"},
		{second, "3 in its index"},
		{bad, "price"},
	} {
		var out bytes.Buffer
		err := run(context.Background(), []string{"import", "--data", data, "--quiet", tc.feed}, &out, io.Discard)
		got := out.String()
		if err != nil {
			got += err.Error()
		}
		if !strings.Contains(got, tc.want) {
			t.Fatalf("import %s: %s, want %q", filepath.Base(tc.feed), got, tc.want)
		}
	}
	st, err := store.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	addr, stop := serveOnce(t, st, io.Discard)
	defer stop()
	for q, want := range map[string]int{"lamp": 2, "floor": 1, "brass": 1, "table": 0, "reading": 0, "drill": 1} {
		if n := searchTotal(t, addr, `{"query":"`+q+`","key":"default","products":{"count":5}}`); n != want {
			t.Errorf("%q found %d, want %d", q, n, want)
		}
	}
}

func TestImportErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	_ = os.WriteFile(bad, []byte(`{"productNumber":"A1","title":"x","price":"cheap"}`+"\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"import", bad}, "--data"},
		{[]string{"import", "--data", filepath.Join(dir, "d")}, "FILE"},
		{[]string{"import", "--data", filepath.Join(dir, "d"), "--quiet", bad}, "price"},
		{[]string{"import", "--data", filepath.Join(dir, "d"), "--quiet", filepath.Join(dir, "missing.jsonl")}, "missing.jsonl"},
		{[]string{"serve"}, "--data"},
		{[]string{"frobnicate"}, "unknown command"},
	} {
		err := run(context.Background(), tc.args, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want it to mention %q", tc.args, err, tc.want)
		}
	}
	if err := run(context.Background(), nil, io.Discard, io.Discard); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("no arguments: %v", err)
	}
}
