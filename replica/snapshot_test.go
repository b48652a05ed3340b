package replica

import (
	"archive/tar"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestSnapshotTar: a directory written as a tar stream reads back into
// another, file for file; an entry naming a path outside the directory,
// or not a regular file, is refused.
func TestSnapshotTar(t *testing.T) {
	src := t.TempDir()
	files := map[string]string{"CURRENT": "MANIFEST-000001\n", "000004.sst": "tables", "sub/OPTIONS": "o"}
	for name, body := range files {
		path := filepath.Join(src, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stream bytes.Buffer
	if err := writeTar(&stream, src); err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	if err := readTar(bytes.NewReader(stream.Bytes()), dst); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		got, err := os.ReadFile(filepath.Join(dst, name))
		if err != nil || string(got) != body {
			t.Errorf("%s: %q %v, want %q", name, got, err, body)
		}
	}
	for _, h := range []tar.Header{
		{Name: "../escape", Typeflag: tar.TypeReg},
		{Name: "/abs", Typeflag: tar.TypeReg},
		{Name: `a\..\..\b`, Typeflag: tar.TypeReg},
		{Name: "link", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"},
	} {
		var b bytes.Buffer
		tw := tar.NewWriter(&b)
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		tw.Close()
		if err := readTar(&b, t.TempDir()); !errors.Is(err, errTarPath) {
			t.Errorf("%q (%c): %v, want errTarPath", h.Name, h.Typeflag, err)
		}
	}
}
