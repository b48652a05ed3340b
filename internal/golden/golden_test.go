package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that notes a failure instead of stopping.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Fatalf(string, ...any) { r.failed = true }
func (r *recorder) Fatal(...any)          { r.failed = true }
func (r *recorder) Errorf(string, ...any) { r.failed = true }

func TestGolden(t *testing.T) {
	if Updating() {
		t.Skip("-update rewrites files; this test checks comparing")
	}
	t.Chdir(t.TempDir())
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	Check(r, "a.txt", []byte("one\ntwo"))
	if r.failed {
		t.Fatal("equal content (but for the final newline) failed")
	}
	Check(r, "a.txt", []byte("one\nthree\n"))
	if !r.failed {
		t.Fatal("different content passed")
	}
	r = &recorder{TB: t}
	Check(r, "missing.txt", []byte("x"))
	if !r.failed {
		t.Fatal("a missing golden file passed")
	}
}
