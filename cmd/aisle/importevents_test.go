package main

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestImportEvents: aisle import --events appends a behaviour log to the
// data directory, and aisle serve replays it at start; a bad line, an
// unknown website or a directory without a configuration imports
// nothing and says where and why.
func TestImportEvents(t *testing.T) {
	data := shopDir(t)
	dir := t.TempDir()
	good := writeFile(t, dir, "events.jsonl", strings.Join([]string{
		`{"kind":"view","websiteUuid":"` + shopSite + `","productNumber":"R1","trackingUserId":"u1","time":1764000000000}`,
		`{"kind":"view","websiteUuid":"` + shopSite + `","productNumber":"D1","trackingUserId":"u1","time":1764000060000}`,
		``,
		`{"kind":"purchase","websiteUuid":"` + shopSite + `","orderNumber":"O1","productNumbers":["R1","D1"],"trackingUserId":"u1"}`,
	}, "\n")+"\n")
	for _, tc := range []struct {
		name, content, says string
	}{
		{"a bad line", `{"kind":"view","websiteUuid":"` + shopSite + `","productNumber":"R1"}` + "\n" + `{"kind":"view","websiteUuid":"` + shopSite + `"}` + "\n",
			`bad.jsonl:2: a view names the product: productNumber or url; nothing was imported`},
		{"an unknown member", `{"kind":"view","websiteUuid":"` + shopSite + `","sku":"R1"}` + "\n", `bad.jsonl:1: sku: unknown member "sku"`},
		{"an unknown website", `{"kind":"pageview","websiteUuid":"00000000-0000-4000-8000-0000000000ff","url":"/"}` + "\n", `bad.jsonl:1: websiteUuid: no website "00000000-0000-4000-8000-0000000000ff" in the configuration`},
		{"a line too long", `{"kind":"pageview","websiteUuid":"` + shopSite + `","url":"` + strings.Repeat("x", 70<<10) + `"}` + "\n", "bad.jsonl:1: a line longer than 65536 bytes"},
	} {
		bad := writeFile(t, dir, "bad.jsonl", tc.content)
		var out, errOut strings.Builder
		err := run(context.Background(), []string{"import", "--data", data, "--events", "--quiet", bad}, &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.says)
		}
	}
	out := mustRun(t, "import", "--data", data, "--events", "--quiet", good)
	if !strings.Contains(out, "imported 3 events") {
		t.Fatalf("import --events said %q", out)
	}
	s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k")
	if !regexp.MustCompile(`visitors' events replayed.* events=3 `).MatchString(s.stderr.String()) {
		t.Errorf("serve does not replay the 3 imported events (the bad files' none):\n%s", s.stderr.String())
	}
	s.shutdown(t)

	var errOut strings.Builder
	err := run(context.Background(), []string{"import", "--data", filepath.Join(dir, "new"), "--events", good}, &strings.Builder{}, &errOut)
	if err == nil || !strings.Contains(err.Error(), "has no configuration") {
		t.Errorf("events into a directory without a configuration: %v", err)
	}
	err = run(context.Background(), []string{"import", "--url", "http://127.0.0.1:1", "--events", good}, &strings.Builder{}, &errOut)
	if err == nil || !strings.Contains(err.Error(), "POST /serve/collect") {
		t.Errorf("events with --url: %v", err)
	}
}
