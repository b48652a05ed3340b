// Package golden compares what a test produced with a file under the
// package's testdata/ and rewrites the file with -update: for bodies a
// reviewer should read in the diff (error bodies, facet JSON, analyzer
// tokens, query expansions).
//
// It is imported only by _test.go files: it registers the -update flag.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update rewrites golden files instead of comparing against them:
//
//	go test ./httpapi -run TestErrorBodies -update
//
// Review the rewritten files in the diff before committing them.
var update = flag.Bool("update", false, "rewrite the golden files under testdata/ with what the tests produce")

// Updating reports whether the run rewrites golden files (-update).
func Updating() bool { return *update }

// Check compares got with the file testdata/<name> of the package under
// test, or writes it there with -update. A missing file fails the test
// and says how to create it. Line endings are compared as written; a
// trailing newline is added to got when it lacks one, so files end
// cleanly.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	if len(got) == 0 || got[len(got)-1] != '\n' {
		got = append(got[:len(got):len(got)], '\n')
	}
	path := filepath.Join("testdata", filepath.FromSlash(name))
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		t.Fatalf("golden file %s is missing: run the test with -update to write it, then review it", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what the test produced (rerun with -update to accept, then review the diff):\n%s", path, Diff(string(want), string(got)))
	}
}

// Diff shows the first lines where want and got part, with a little
// context: enough to read a changed golden file, or one record of it, in
// a test log.
func Diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	var b strings.Builder
	from := max(0, i-2)
	for j := from; j < i; j++ {
		b.WriteString("  " + w[j] + "\n")
	}
	for j := i; j < min(len(w), i+8); j++ {
		b.WriteString("- " + w[j] + "\n")
	}
	for j := i; j < min(len(g), i+8); j++ {
		b.WriteString("+ " + g[j] + "\n")
	}
	return b.String()
}
