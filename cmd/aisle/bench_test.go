package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-json"
)

// TestMain lets the test binary stand in for the aisle command: aisle
// bench starts `aisle serve` from its own executable, which under go test
// is this binary.
func TestMain(m *testing.M) {
	if os.Getenv("AISLE_TEST_AS_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestBenchAndEvalFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--products", "0"}, "--products 0"},
		{[]string{"bench", "--products", "-5"}, "--products -5"},
		{[]string{"bench", "--concurrency", "0"}, "--concurrency 0"},
		{[]string{"bench", "--duration", "0s"}, "--duration 0s"},
		{[]string{"bench", "--catalog", "acme"}, `unknown catalog "acme"`},
		{[]string{"bench", "--engines", "aisle,lucene"}, `unknown engine "lucene"`},
		{[]string{"bench", "--queries", "0"}, "--queries 0"},
		{[]string{"bench", "--p99", "0s"}, "--p99 0s"},
		{[]string{"bench", "extra"}, `unexpected argument "extra"`},
		{[]string{"bench", "--catalog", "homedepot", "--shared", "/nonexistent"}, "catalog homedepot"},
		{[]string{"eval", "--k", "0"}, "--k 0"},
		{[]string{"eval", "--shared", "/nonexistent"}, "catalog homedepot"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run(context.Background(), tc.args, &out, &errOut)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestBenchDemo runs the whole command on a tiny generated catalog: build,
// in-process searches, HTTP load on loopback, table and JSON report.
func TestBenchDemo(t *testing.T) {
	report := filepath.Join(t.TempDir(), "report.json")
	t.Setenv("AISLE_TEST_AS_MAIN", "1") // for the serve process
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"bench", "--products", "300", "--concurrency", "2", "--duration", "100ms", "--queries", "50", "--json", report}, &out, &errOut)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "300 products") || !strings.Contains(out.String(), "words+filters+facets") {
		t.Fatalf("table:\n%s", out.String())
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var rep benchReport
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	im := rep.Import
	if rep.Products != 300 || len(rep.Classes) != 5 || rep.Concurrent != 2 || im.Products != 300 {
		t.Fatalf("report %+v", rep)
	}
	if rep.Serve.RSSBytes <= 0 || rep.Serve.LoadSeconds <= 0 || !strings.Contains(out.String(), "aisle serve on it") {
		t.Fatalf("serve process: %+v", rep.Serve)
	}
	if im.JSONBytes < 300*200 || im.DiskBytes <= 0 || im.RSSBytes <= 0 || im.TotalPerSec <= 0 || im.FeedSeconds+im.IndexSeconds > im.TotalSeconds*1.01 {
		t.Fatalf("import %+v", im)
	}
	for _, c := range rep.Classes {
		ip := c.InProcess
		if c.HTTPQPS <= 0 || c.Errors != 0 || ip.QPS <= 0 || ip.P50us <= 0 || ip.P99us < ip.P50us {
			t.Fatalf("class %s: %+v", c.Class, c)
		}
		// The rate search found a rate held under 20 ms and measured half of it.
		if c.MaxRate <= 0 || c.MaxRateP99ms >= 20 || c.HalfP99ms <= 0 {
			t.Fatalf("class %s rate search: %+v", c.Class, c)
		}
	}
}

// TestFindPeers finds the peers module from inside the checkout and says
// how to run it from outside one.
func TestFindPeers(t *testing.T) {
	dir, err := findPeers()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "cmd", "peerbench", "main.go")); err != nil {
		t.Fatalf("found %s, which holds no peerbench: %v", dir, err)
	}
	t.Chdir(t.TempDir())
	if _, err := findPeers(); err == nil || !strings.Contains(err.Error(), "cd bench/peers") {
		t.Fatalf("outside a checkout: %v", err)
	}
}
