package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/bench"
)

// benchReportCopy copies bench's test reports and its document with
// stale tables into a temporary docs/ directory, and returns the
// document's path.
func benchReportCopy(t *testing.T) string {
	t.Helper()
	docs := filepath.Join(t.TempDir(), "docs")
	from := filepath.Join("..", "..", "bench", "testdata")
	entries, err := os.ReadDir(filepath.Join(from, "reports"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(docs, "reports"), 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile := func(src, dst string) {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range entries {
		copyFile(filepath.Join(from, "reports", e.Name()), filepath.Join(docs, "reports", e.Name()))
	}
	doc := filepath.Join(docs, "benchmarks.md")
	copyFile(filepath.Join(from, "report_tables.md"), doc)
	return doc
}

// TestBenchReport: aisle bench report rewrites a document's generated
// tables from the reports beside it, as bench renders them (the golden
// of bench's tests); --check fails on the stale document, writing
// nothing, and passes on the rewritten one.
func TestBenchReport(t *testing.T) {
	doc := benchReportCopy(t)
	stale, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	err = run(context.Background(), []string{"bench", "report", "--check", "--doc", doc}, &out, &errOut)
	if !errors.Is(err, bench.ErrReportTablesStale) || !strings.Contains(err.Error(), doc) {
		t.Fatalf("--check on stale tables: %v", err)
	}
	if now, _ := os.ReadFile(doc); !bytes.Equal(now, stale) {
		t.Fatal("--check wrote the document")
	}

	if err := run(context.Background(), []string{"bench", "report", "--doc", doc}, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	got, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", "bench", "testdata", "report_tables.golden.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("rewritten:\n%s\nwant bench's golden:\n%s", got, want)
	}
	out.Reset()
	if err := run(context.Background(), []string{"bench", "report", "--check", "--doc", doc}, &out, &errOut); err != nil {
		t.Fatalf("--check after rewriting: %v", err)
	}
	if !strings.Contains(out.String(), "its tables are the reports'") {
		t.Fatalf("--check said %q", out.String())
	}
}

// TestBenchReportFinds: without --doc, aisle bench report takes the
// checkout's docs/benchmarks.md from a directory inside the checkout,
// and says what to do outside one.
func TestBenchReportFinds(t *testing.T) {
	doc := benchReportCopy(t)
	root := filepath.Dir(filepath.Dir(doc))
	inside := filepath.Join(root, "cmd", "aisle")
	if err := os.MkdirAll(inside, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(inside)
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"bench", "report"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), filepath.Join(root, "docs", "benchmarks.md")) {
		t.Fatalf("said %q", out.String())
	}
	t.Chdir(t.TempDir())
	err := run(context.Background(), []string{"bench", "report"}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "--doc") {
		t.Fatalf("outside a checkout: %v", err)
	}
}

// TestBenchReportRefuses: arguments, a report named for what it does
// not hold, a missing document or reports directory are errors naming
// them.
func TestBenchReportRefuses(t *testing.T) {
	doc := benchReportCopy(t)
	misnamed := filepath.Join(filepath.Dir(doc), "reports", "report.json")
	if err := os.WriteFile(misnamed, []byte(`{"catalog": "demo", "products": 1000, "classes": [{"class": "words"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"an argument", []string{"bench", "report", "extra"}, `unexpected argument "extra"`},
		{"a misnamed report", []string{"bench", "report", "--doc", doc}, "name it YYYY-MM-DD-aisle-demo-1k.json"},
		{"no document", []string{"bench", "report", "--doc", filepath.Join(filepath.Dir(doc), "missing.md"), "--reports", t.TempDir()}, "missing.md"},
		{"no reports", []string{"bench", "report", "--doc", doc, "--reports", filepath.Join(t.TempDir(), "none")}, "none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run(context.Background(), tc.args, &out, &errOut)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}
