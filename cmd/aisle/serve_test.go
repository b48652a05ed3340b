package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/store"
)

// feedLines is a small catalog whose words tell the stemming languages
// apart: English stems "running" to "run", so "runs" finds the shoes; with
// --lang none only the word as written matches.
const feedLines = `{"productNumber":"R1","title":"Running Shoes","price":80,"brand":"Stride","inStock":true}
{"productNumber":"D1","title":"Cordless Drill","price":99,"brand":"Voltmax","hierarchies":[["Tools","Drills"]]}
{"productNumber":"L1","title":"Table Lamp","price":25,"previousPrice":30}
`

// shopConfig is a configuration whose only search key is "shop", so a
// server that ignores it answers that key with 404.
const shopConfig = `{"websites":[{"uuid":"00000000-0000-4000-8000-000000000001","name":"My Shop",
  "indexedFields":[{"name":"brand","type":"keyword"},{"name":"price","type":"number","sortable":true}],
  "searchConfigs":[{"key":"shop","versions":[{"id":1,"status":"live",
    "fields":[{"name":"title","weight":5},{"name":"brand","weight":3}],
    "facets":[{"field":"brand","type":"LIST","title":"Brand"}]}]}]}]}`

// lockedConfig is shopConfig under the key "locked", with requireApiKey
// and one website key.
const lockedConfig = `{"websites":[{"uuid":"00000000-0000-4000-8000-000000000001","requireApiKey":true,"apiKeys":["shop-key"],
  "indexedFields":[{"name":"brand","type":"keyword"},{"name":"price","type":"number","sortable":true}],
  "searchConfigs":[{"key":"locked","versions":[{"id":1,"status":"live",
    "fields":[{"name":"title","weight":5},{"name":"brand","weight":3}]}]}]}]}`

// shopSite is the website of shopConfig and lockedConfig, and of the
// catalogs shopDir imports.
const shopSite = "00000000-0000-4000-8000-000000000001"

// shopDir imports feedLines into a new data directory with the extra
// import flags and returns the directory.
func shopDir(t *testing.T, flags ...string) string {
	t.Helper()
	dir := t.TempDir()
	feed := writeFile(t, dir, "feed.jsonl", feedLines)
	data := filepath.Join(dir, "shop")
	args := append([]string{"import", "--data", data, "--quiet", "--website", shopSite}, flags...)
	out := mustRun(t, append(args, feed)...)
	if !strings.Contains(out, "imported 3 products") {
		t.Fatalf("import said %q", out)
	}
	return data
}

// keyStatus is the HTTP status of a wildcard search under key.
func keyStatus(t *testing.T, s *cliServer, key string) int {
	t.Helper()
	status, _ := s.search(t, "", `{"query":"*","key":"`+key+`","products":{"count":1}}`)
	return status
}

// TestConfigStoredAndReusedWithoutFlag: docs/configuration.md, "loaded
// with --config FILE by aisle import or aisle serve and stored in the data
// directory, so later restarts use it without the flag".
func TestConfigStoredAndReusedWithoutFlag(t *testing.T) {
	for _, by := range []string{"import", "serve"} {
		t.Run("--config on "+by, func(t *testing.T) {
			cfg := writeFile(t, t.TempDir(), "shop.json", shopConfig)
			var data string
			if by == "import" {
				data = shopDir(t, "--config", cfg)
			} else {
				data = shopDir(t)
				s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k", "--config", cfg)
				if n := s.total(t, "shop", "drill"); n != 1 {
					t.Fatalf("with --config: drill found %d, want 1", n)
				}
				s.shutdown(t)
			}
			for start := 1; start <= 2; start++ {
				s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k")
				if n := s.total(t, "shop", "drill"); n != 1 {
					t.Errorf("restart %d without --config: drill under key shop found %d, want 1", start, n)
				}
				if st := keyStatus(t, s, "default"); st != http.StatusNotFound {
					t.Errorf("restart %d: key default answered %d, want 404 (the stored configuration replaces the default)", start, st)
				}
				s.shutdown(t)
				if logs := s.stderr.String(); strings.Contains(logs, "no configuration stored") {
					t.Errorf("restart %d served the default configuration:\n%s", start, logs)
				}
			}
		})
	}
}

// TestChangingLangRebuildsIndex: docs/decisions.md, "One stemming language
// per catalog (--lang ...), fixed at indexing time; changing it rebuilds
// the index".
func TestChangingLangRebuildsIndex(t *testing.T) {
	data := shopDir(t, "--lang", "en")
	for i, tc := range []struct {
		lang, log string
		runs      int // products "runs" finds
	}{
		{"en", "index loaded", 1},
		{"none", "index built", 0},
		{"none", "index loaded", 0},
		{"en", "index built", 1},
	} {
		s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k", "--lang", tc.lang)
		if n := s.total(t, "default", "runs"); n != tc.runs {
			t.Errorf("start %d, --lang %s: runs found %d, want %d", i, tc.lang, n, tc.runs)
		}
		if n := s.total(t, "default", "running"); n != 1 {
			t.Errorf("start %d, --lang %s: running found %d, want 1", i, tc.lang, n)
		}
		s.shutdown(t)
		if logs := s.stderr.String(); !strings.Contains(logs, "msg=\""+tc.log+"\"") {
			t.Errorf("start %d, --lang %s: log lacks %q:\n%s", i, tc.lang, tc.log, logs)
		}
	}
}

// freePort returns a loopback address nothing listens on.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestFlagsSetByEnvironment: the usage text (cmd/aisle/main.go), "Every
// flag can also be set by environment: AISLE_ADDR, AISLE_DATA,
// AISLE_ADMIN_KEY, AISLE_CONFIG, AISLE_LANG".
func TestFlagsSetByEnvironment(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "shop")
	feed := writeFile(t, dir, "feed.jsonl", feedLines)
	t.Run("import", func(t *testing.T) {
		t.Setenv("AISLE_DATA", data)
		t.Setenv("AISLE_CONFIG", writeFile(t, dir, "shop.json", shopConfig))
		t.Setenv("AISLE_LANG", "none")
		if out := mustRun(t, "import", "--quiet", feed); !strings.Contains(out, "imported 3 products") {
			t.Fatalf("import said %q", out)
		}
	})
	t.Run("import's environment reached the directory", func(t *testing.T) {
		// Flags only: the index saved with AISLE_LANG=none loads as it is
		// for --lang none, and AISLE_CONFIG's key is served.
		s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k", "--lang", "none")
		if n := s.total(t, "shop", "running"); n != 1 {
			t.Errorf("key shop: running found %d, want 1", n)
		}
		s.shutdown(t)
		if logs := s.stderr.String(); !strings.Contains(logs, `msg="index loaded"`) {
			t.Errorf("the index imported under AISLE_LANG=none was not loaded for --lang none:\n%s", logs)
		}
	})
	t.Run("serve", func(t *testing.T) {
		addr := freePort(t)
		t.Setenv("AISLE_ADDR", addr)
		t.Setenv("AISLE_DATA", data)
		t.Setenv("AISLE_ADMIN_KEY", "env-admin")
		t.Setenv("AISLE_CONFIG", writeFile(t, dir, "locked.json", lockedConfig))
		t.Setenv("AISLE_LANG", "none")
		s := startCLI(t, "serve")
		if s.addr != addr {
			t.Errorf("listening on %s, want AISLE_ADDR %s", s.addr, addr)
		}
		body := `{"query":"runs","key":"locked","products":{"count":5}}`
		status, out := s.search(t, "env-admin", body)
		if status != http.StatusOK {
			t.Fatalf("AISLE_ADMIN_KEY as the bearer: status %d, %+v", status, out.Error)
		}
		if out.Products.TotalCount != 0 {
			t.Errorf("runs found %d under AISLE_LANG=none, want 0 (English stemming would find the running shoes)", out.Products.TotalCount)
		}
		if status, _ := s.search(t, "", body); status != http.StatusUnauthorized {
			t.Errorf("no key: status %d, want 401 (AISLE_CONFIG requires one)", status)
		}
		s.shutdown(t)
		if strings.Contains(s.stdout.String(), "generated") {
			t.Errorf("an admin key was generated although AISLE_ADMIN_KEY is set:\n%s", s.stdout.String())
		}
	})
}

var generatedKeyRE = regexp.MustCompile(`Admin API key \(generated; pass --admin-key to fix it\): (aisle_admin_[0-9a-f]{32})\n`)

// TestAdminKeyGeneratedAndPrinted: README.md, "--admin-key KEY (generated
// and printed when not given)"; docs/decisions.md, "The admin key
// (--admin-key) is accepted wherever a website key is".
func TestAdminKeyGeneratedAndPrinted(t *testing.T) {
	t.Setenv("AISLE_ADMIN_KEY", "")
	data := shopDir(t, "--config", writeFile(t, t.TempDir(), "locked.json", lockedConfig))
	body := `{"query":"drill","key":"locked","products":{"count":5}}`
	var keys []string
	for range 2 {
		s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0")
		m := generatedKeyRE.FindStringSubmatch(s.stdout.String())
		if m == nil {
			t.Fatalf("no generated key printed:\n%s", s.stdout.String())
		}
		keys = append(keys, m[1])
		for _, tc := range []struct {
			bearer string
			want   int
		}{
			{m[1], http.StatusOK},
			{"shop-key", http.StatusOK},
			{"aisle_admin_" + strings.Repeat("0", 32), http.StatusUnauthorized},
			{"", http.StatusUnauthorized},
		} {
			if status, out := s.search(t, tc.bearer, body); status != tc.want {
				t.Errorf("bearer %q: status %d, want %d (%+v)", tc.bearer, status, tc.want, out.Error)
			}
		}
		s.shutdown(t)
	}
	if keys[0] == keys[1] {
		t.Errorf("two starts generated the same key %s", keys[0])
	}
	s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "given")
	if status, _ := s.search(t, "given", body); status != http.StatusOK {
		t.Errorf("--admin-key given: status %d", status)
	}
	s.shutdown(t)
	if out := s.stdout.String(); strings.Contains(out, "Admin API key") {
		t.Errorf("a key was printed although --admin-key was given:\n%s", out)
	}
}

// TestServeTakesWritesThatOutliveARestart: the README's admin API
// example: aisle serve on a catalog imported without --config takes a
// product posted to the website 00000000-0000-4000-8000-000000000001 with the admin key; it
// is searchable at once, and after a restart on the same directory it is
// still there, served from the saved index without importing again.
func TestServeTakesWritesThatOutliveARestart(t *testing.T) {
	data := shopDir(t)
	args := []string{"serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k"}
	s := startCLI(t, args...)
	before := s.total(t, "default", "*")
	status, body := s.admin(t, "k", "POST", "/admin/v1/websites/"+shopSite+"/products", "application/x-ndjson",
		`{"productNumber":"Z1","title":"Zeppelin kite","price":5}`+"\n")
	if status != http.StatusOK || !strings.Contains(body, `"added":1`) {
		t.Fatalf("POST a product: %d %s", status, body)
	}
	if n := s.total(t, "default", "zeppelin"); n != 1 {
		t.Errorf("zeppelin finds %d right after the write", n)
	}
	s.shutdown(t)

	s = startCLI(t, args...)
	if n := s.total(t, "default", "zeppelin"); n != 1 || s.total(t, "default", "*") != before+1 {
		t.Errorf("after a restart zeppelin finds %d of %d products", n, s.total(t, "default", "*"))
	}
	if !strings.Contains(s.stderr.String(), "index loaded") {
		t.Errorf("the restart rebuilt the index instead of loading the one the write saved:\n%s", s.stderr.String())
	}
}

// TestPutConfigOutlivesARestart: a configuration replaced through the
// admin API is the one served after a restart without --config.
func TestPutConfigOutlivesARestart(t *testing.T) {
	data := shopDir(t)
	args := []string{"serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k"}
	s := startCLI(t, args...)
	if status, body := s.admin(t, "k", "PUT", "/admin/v1/config", "application/json", shopConfig); status != http.StatusOK {
		t.Fatalf("PUT config: %d %s", status, body)
	}
	if keyStatus(t, s, "shop") != http.StatusOK || keyStatus(t, s, "default") != http.StatusNotFound {
		t.Fatalf("after the PUT: shop %d, default %d", keyStatus(t, s, "shop"), keyStatus(t, s, "default"))
	}
	s.shutdown(t)
	s = startCLI(t, args...)
	if keyStatus(t, s, "shop") != http.StatusOK || keyStatus(t, s, "default") != http.StatusNotFound {
		t.Errorf("after a restart: shop %d, default %d", keyStatus(t, s, "shop"), keyStatus(t, s, "default"))
	}
}

// TestServeWarnsOfUnnamedWebsites: a catalog imported under one website
// and served with a configuration that names another is not served, and
// the log says which website's products are left out and how to serve
// them.
func TestServeWarnsOfUnnamedWebsites(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "shop")
	const other = "00000000-0000-4000-8000-0000000000ee"
	mustRun(t, "import", "--data", data, "--quiet", "--website", other, writeFile(t, dir, "feed.jsonl", feedLines))
	cfg := writeFile(t, dir, "shop.json", shopConfig)
	s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k", "--config", cfg)
	if n := s.total(t, "shop", "*"); n != 0 {
		t.Errorf("the configured website serves %d products, want none (they are the other website's)", n)
	}
	s.shutdown(t)
	if logs := s.stderr.String(); !strings.Contains(logs, "the configuration does not name") || !strings.Contains(logs, other) {
		t.Errorf("no warning naming %s:\n%s", other, logs)
	}
}

// TestMaxWriteBytes: --max-write-bytes (or AISLE_MAX_WRITE_BYTES) caps an
// admin batch, a larger one is a 413; a value under 1 MiB or not a number
// is refused at start in one line.
func TestMaxWriteBytes(t *testing.T) {
	data := shopDir(t)
	for _, bad := range []string{"12", "two megabytes"} {
		_, err := runCLI("serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k", "--max-write-bytes", bad)
		if err == nil || !strings.Contains(err.Error(), "--max-write-bytes") {
			t.Errorf("--max-write-bytes %q: %v", bad, err)
		}
	}
	t.Setenv("AISLE_MAX_WRITE_BYTES", "2097152")
	s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k")
	var body strings.Builder
	for i := 0; body.Len() <= 2<<20; i++ {
		fmt.Fprintf(&body, `{"productNumber":"M%06d","title":"Kite %d","description":"%s"}`+"\n", i, i, strings.Repeat("x", 500))
	}
	path := "/admin/v1/websites/" + shopSite + "/products"
	if status, raw := s.admin(t, "k", "POST", path, "application/x-ndjson", body.String()); status != http.StatusRequestEntityTooLarge {
		t.Errorf("a batch over 2 MiB: %d %.200s", status, raw)
	}
	half := body.String()[:strings.LastIndexByte(body.String()[:1<<20], '\n')+1]
	if status, raw := s.admin(t, "k", "POST", path, "application/x-ndjson", half); status != http.StatusOK {
		t.Errorf("a batch of 1 MiB (over a search's limit): %d %.200s", status, raw)
	}
	s.shutdown(t)
}

var profilerRE = regexp.MustCompile(`msg="profiler listening" addr=(http://\S+)`)

// TestDebugAddrServesTheProfiler: --debug-addr serves Go's profiler on its
// own listener, and the API's listener does not.
func TestDebugAddrServesTheProfiler(t *testing.T) {
	data := shopDir(t)
	s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k", "--debug-addr", "127.0.0.1:0")
	defer s.shutdown(t)
	m := profilerRE.FindStringSubmatch(s.stderr.String())
	if m == nil {
		t.Fatalf("no profiler address logged:\n%s", s.stderr.String())
	}
	for url, want := range map[string]int{m[1] + "goroutine?debug=1": http.StatusOK, "http://" + s.addr + "/debug/pprof/": http.StatusNotFound} {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", url, resp.StatusCode, want)
		}
	}
}

// TestServeCollectsEventsThatOutliveARestart: aisle serve takes POST
// /serve/collect, and a restart replays the events into the visitors'
// behaviour, saying how many, and loads the saved product index: events
// never force a re-index.
func TestServeCollectsEventsThatOutliveARestart(t *testing.T) {
	data := shopDir(t)
	args := []string{"serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k"}
	s := startCLI(t, args...)
	for _, ev := range []string{`{"websiteUuid":"` + shopSite + `","productNumber":"R1"}`, `{"websiteUuid":"` + shopSite + `","url":"/p/d1"}`} {
		if status, body := s.admin(t, "", "POST", "/serve/collect/view", "text/plain", ev); status != http.StatusOK || !strings.Contains(body, `"trackingUserId"`) {
			t.Fatalf("POST /serve/collect/view: %d %s", status, body)
		}
	}
	if strings.Contains(s.stderr.String(), "events replayed") {
		t.Errorf("a first start with no events says it replayed some:\n%s", s.stderr.String())
	}
	s.shutdown(t)
	// The shutdown saves the behaviour's snapshot: the restart loads it
	// and folds no event again.
	if firstRun := s.stderr.String(); !regexp.MustCompile(`behaviour snapshot saved" websites=1 why="shutting down"`).MatchString(firstRun) {
		t.Errorf("the shutdown does not say it saved the snapshot:\n%s", firstRun)
	}
	s = startCLI(t, args...)
	if !regexp.MustCompile(`visitors' events replayed.* events=0 snapshots=1 took=\S+ memory="[0-9.]+ MB"`).MatchString(s.stderr.String()) {
		t.Errorf("the restart does not say it loaded the snapshot and folded nothing:\n%s", s.stderr.String())
	}
	// Events never force a product re-index: the saved index still
	// matches the log's product stamp.
	if logs := s.stderr.String(); !strings.Contains(logs, `msg="index loaded"`) || strings.Contains(logs, "log replayed") || strings.Contains(logs, "index built") {
		t.Errorf("events made the restart replay the log onto the product index or rebuild it:\n%s", logs)
	}
}

// TestServeRanksByCollectedPopularity: views collected over HTTP reorder
// a popularity listing at once and after a restart (the replayed events
// feed search as they feed recommendations).
func TestServeRanksByCollectedPopularity(t *testing.T) {
	cfg := writeFile(t, t.TempDir(), "shop.json", strings.Replace(shopConfig, `"facets"`, `"boosts":{"popularity":0.1,"listing":"popularity"},"facets"`, 1))
	data := shopDir(t, "--config", cfg)
	args := []string{"serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k"}
	order := func(s *cliServer) string {
		t.Helper()
		status, ans := s.search(t, "", `{"query":"*","key":"shop","products":{"count":3,"fields":["productNumber"]}}`)
		if status != http.StatusOK {
			t.Fatalf("search: %d", status)
		}
		var out []string
		for _, r := range ans.Products.Results {
			out = append(out, fmt.Sprint(r["productNumber"]))
		}
		return strings.Join(out, " ")
	}
	s := startCLI(t, args...)
	for _, pn := range []string{"L1", "L1", "D1"} {
		ev := `{"websiteUuid":"` + shopSite + `","productNumber":"` + pn + `"}`
		if status, body := s.admin(t, "", "POST", "/serve/collect/view", "text/plain", ev); status != http.StatusOK {
			t.Fatalf("POST /serve/collect/view: %d %s", status, body)
		}
	}
	if got := order(s); got != "L1 D1 R1" {
		t.Errorf("after views of L1, L1, D1: %s, want L1 D1 R1 (catalog order D1 L1 R1)", got)
	}
	s.shutdown(t)
	s = startCLI(t, args...)
	if got := order(s); got != "L1 D1 R1" {
		t.Errorf("after a restart: %s, want L1 D1 R1", got)
	}
}

// TestServeMaxVisitors: --max-visitors bounds the visitors each
// website's behaviour keeps: past it the least lately active is
// forgotten (RETARGETED no longer knows them), the others kept; a bad
// number, by flag or AISLE_MAX_VISITORS, is refused at start.
func TestServeMaxVisitors(t *testing.T) {
	data := shopDir(t)
	c := startChildWith(t, data, "--max-visitors", "2")
	for _, u := range []string{"u1", "u2", "u3"} {
		if !c.view(u) {
			t.Fatalf("the view of %s was not answered", u)
		}
	}
	for u, want := range map[string]bool{"u1": false, "u2": true, "u3": true} {
		if got := c.retargeted(t, u); (got == "R1") != want {
			t.Errorf("RETARGETED for %s: %q, want R1 %v", u, got, want)
		}
	}
	c.kill()
	for _, tc := range []struct{ flag, env string }{{"0", ""}, {"", "many"}} {
		t.Setenv("AISLE_MAX_VISITORS", tc.env)
		args := []string{"serve", "--data", data}
		if tc.flag != "" {
			args = append(args, "--max-visitors", tc.flag)
		}
		var out, errOut strings.Builder
		if err := run(context.Background(), args, &out, &errOut); err == nil || !strings.Contains(err.Error(), "--max-visitors (or AISLE_MAX_VISITORS)") {
			t.Errorf("--max-visitors %q, AISLE_MAX_VISITORS %q: %v", tc.flag, tc.env, err)
		}
	}
}

// TestServeCompactsTheEventLog: events older than the behaviour's long
// half-life leave the log once a snapshot covers them (at the shutdown
// here), and a restart answers from the snapshot as before.
func TestServeCompactsTheEventLog(t *testing.T) {
	data := shopDir(t)
	old := time.Now().Add(-behaviour.LongHalfLife - 24*time.Hour).UnixMilli()
	events := writeFile(t, t.TempDir(), "events.jsonl", fmt.Sprintf(`{"kind":"view","websiteUuid":%q,"productNumber":"R1","trackingUserId":"old","time":%d}`+"\n", shopSite, old))
	mustRun(t, "import", "--data", data, "--events", "--quiet", events)
	s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k")
	s.shutdown(t)
	if !regexp.MustCompile(`event log compacted.* entries=1 `).MatchString(s.stderr.String()) {
		t.Errorf("the shutdown's snapshot does not compact the log:\n%s", s.stderr.String())
	}
	st, err := store.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Entries(0, func(e *store.Entry) error {
		if e.EventCount > 0 {
			t.Errorf("entry %d of %d events is left", e.Seq, e.EventCount)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	c := startChild(t, data)
	if got := c.retargeted(t, "old"); got != "R1" {
		t.Errorf("RETARGETED after the compaction: %q, want R1", got)
	}
}

// TestServeSavesSnapshotsPeriodically: --snapshot-every saves the
// behaviour while serving, so a start after SIGKILL loads it and folds
// only what came after; a bad duration is refused.
func TestServeSavesSnapshotsPeriodically(t *testing.T) {
	t.Setenv("AISLE_TEST_AS_MAIN", "1")
	data := shopDir(t)
	c := startChildWith(t, data, "--snapshot-every", "100ms")
	for _, pn := range []string{"R1", "D1"} {
		if !c.send("/serve/collect/view", "text/plain", "", `{"websiteUuid":"`+shopSite+`","productNumber":"`+pn+`","trackingUserId":"u1"}`) {
			t.Fatalf("view %s not answered", pn)
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(c.logs(), `why=periodic`) {
		if time.Now().After(deadline) {
			t.Fatalf("no periodic snapshot:\n%s", c.logs())
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.kill()
	s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k")
	if !regexp.MustCompile(`visitors' events replayed.* events=0 snapshots=1 `).MatchString(s.stderr.String()) {
		t.Errorf("the start after SIGKILL does not load the periodic snapshot:\n%s", s.stderr.String())
	}
	s.shutdown(t)
	var out, errOut strings.Builder
	if err := run(context.Background(), []string{"serve", "--data", data, "--snapshot-every", "0s"}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "--snapshot-every") {
		t.Errorf("--snapshot-every 0s: %v", err)
	}
}
