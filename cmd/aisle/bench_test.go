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
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"bench", "--products", "300", "--concurrency", "2", "--duration", "50ms", "--json", report}, &out, &errOut)
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
	if rep.Products != 300 || len(rep.Classes) != 5 || rep.Concurrent != 2 {
		t.Fatalf("report %+v", rep)
	}
	for _, c := range rep.Classes {
		if c.HTTPQPS <= 0 || c.Errors != 0 {
			t.Fatalf("class %s: %+v", c.Class, c)
		}
	}
}
