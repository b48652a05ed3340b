package main

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/internal/golden"
)

// The replay test pins the wire answers of the HTTP API, byte for byte:
// a demo server as aisle demo builds it answers a few hundred requests
// of every route, in order (writes, then the reads that see them), and
// each request and answer is compared with testdata/replay/GROUP.txt.
// A change that means to alter no answer (moving code between packages)
// proves it with this test; one that means to alter some rewrites the
// files and shows the change in their diff:
//
//	go test ./cmd/aisle -run TestReplay -update
//	git diff cmd/aisle/testdata/replay

// replayProducts is the English demo shop's size: small enough to
// generate in a second, large enough for every facet, source and page to
// have answers. Below engine's boostSyncWork, so a write's popularity
// boosts are rebuilt before it answers, not beside the next searches.
const replayProducts = 2000

// replayAdminKey is the replayed server's admin key (--admin-key).
const replayAdminKey = "replay-admin-key"

// replayClock is the time the server answers as of, and stamps events
// with: the demo's generated behaviour ends then (demo.EventsEnd), so its
// decayed counts, and what the answers rank by them, are the same on any
// day the test runs.
func replayClock() time.Time { return demo.EventsEnd }

// replayGroup is a golden file's requests, run in order.
type replayGroup struct {
	name     string // testdata/replay/NAME.txt
	requests []replayRequest
}

// replayGroups are every group, in the order they run: each may see what
// the ones before wrote.
func replayGroups() []replayGroup {
	return []replayGroup{
		{"search", searchReplays()},
		{"pages", pageReplays()},
		{"recoms", recomReplays()},
		{"collect", collectReplays()},
		{"admin", adminReplays()},
		{"http", httpReplays()},
	}
}

// TestReplay replays every group on a fresh demo server and compares
// the answers with the golden files, reporting each group's first
// request whose record differs.
func TestReplay(t *testing.T) {
	addr := startReplayDemo(t)
	for _, g := range replayGroups() {
		var n replayNormaliser
		records := make([]string, 0, len(g.requests))
		seen := map[string]bool{}
		for _, r := range g.requests {
			if seen[r.name] {
				t.Fatalf("%s: two requests are named %q", g.name, r.name)
			}
			seen[r.name] = true
			a, err := r.send(addr)
			if err != nil {
				t.Fatalf("%s: %s: %v", g.name, r.name, err)
			}
			records = append(records, r.record(a, &n))
		}
		checkReplay(t, g.name, records)
	}
}

// checkReplay compares a group's records with its golden file, or
// writes the file with -update.
func checkReplay(t *testing.T, group string, records []string) {
	t.Helper()
	name := "replay/" + group + ".txt"
	got := strings.Join(records, "\n")
	if golden.Updating() {
		golden.Check(t, name, []byte(got))
		return
	}
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("%v: write it with go test ./cmd/aisle -run TestReplay -update, then review it", err)
	}
	want := splitRecords(string(raw))
	differ := 0
	for i := range max(len(want), len(records)) {
		w, g := "", ""
		if i < len(want) {
			w = want[i]
		}
		if i < len(records) {
			g = strings.TrimSuffix(records[i], "\n")
		}
		if w == g {
			continue
		}
		if differ++; differ == 1 {
			t.Errorf("testdata/%s: request %d, %s, answers otherwise (- recorded, + now; -update to accept, then review the diff):\n%s",
				name, i+1, title(w, g), golden.Diff(w, g))
		}
	}
	if differ > 1 {
		t.Errorf("testdata/%s: %d requests of %d differ in all (%d recorded)", name, differ, len(records), len(want))
	}
}

// splitRecords cuts a golden file into its records, each without its
// final newline.
func splitRecords(file string) []string {
	var out []string
	for rec := range strings.SplitSeq(strings.TrimSuffix(file, "\n"), "\n\n### ") {
		if len(out) > 0 {
			rec = "### " + rec
		}
		out = append(out, rec)
	}
	return out
}

// title is a record's first line, the recorded one's when there is one.
func title(want, got string) string {
	for _, r := range []string{want, got} {
		if line, _, _ := strings.Cut(r, "\n"); line != "" {
			return fmt.Sprintf("%q", strings.TrimPrefix(line, "### "))
		}
	}
	return "(none)"
}

// startReplayDemo generates the demo into a new data directory and
// serves it as aisle demo does (seedDemo, then serveStore), with the
// clock pinned and /serve/collect unlimited (--rate-collect 0, as aisle
// bench runs it): the collect group sends more events than a client's
// default burst. It returns the address; the server stops with the test.
func startReplayDemo(t *testing.T) string {
	t.Helper()
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	st, err := openStore(filepath.Join(t.TempDir(), "demo"), log)
	if err != nil {
		t.Fatal(err)
	}
	f := serveFlags{addr: "127.0.0.1:0", adminKey: replayAdminKey, lang: "en", rateCollect: "0", clock: replayClock}
	if err := seedDemo(st, replayProducts, f.lang, demoOrigins(f.addr), log); err != nil {
		t.Fatal(err)
	}
	addr, stop := serveWith(t, st, f, log)
	t.Cleanup(func() {
		stop()
		if err := st.Close(); err != nil {
			t.Errorf("close the store: %v", err)
		}
		if t.Failed() {
			t.Logf("the server's log:\n%s", logs.String())
		}
	})
	return addr
}
