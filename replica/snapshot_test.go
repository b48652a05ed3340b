package replica

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aisle-search/aisle/cluster/clustertest"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/internal/testshop"
	"github.com/aisle-search/aisle/store"
)

// tarOf is the tar stream (writeTar) of a directory holding files, by
// slash-separated path.
func tarOf(t *testing.T, files map[string]string) *bytes.Buffer {
	t.Helper()
	src := t.TempDir()
	for name, body := range files {
		path := filepath.Join(src, filepath.FromSlash(name))
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
	return &stream
}

// TestSnapshotTar: a directory written as a tar stream reads back into
// another, file for file; an entry naming a path outside the directory,
// or not a regular file, is refused.
func TestSnapshotTar(t *testing.T) {
	files := map[string]string{"CURRENT": "MANIFEST-000001\n", "000004.sst": "tables", "sub/OPTIONS": "o"}
	stream := tarOf(t, files)
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

// brokenRead reads r, then fails with err.
type brokenRead struct {
	r   io.Reader
	err error
}

func (b *brokenRead) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.EOF {
		err = b.err
	}
	return n, err
}

// TestLoadSnapshotReadsAgain: a snapshot whose read the cluster breaks
// is read again into a directory rid of the first read's files, and
// loads; a failure to write a file ends the load at once, as does the
// last try's broken read.
func TestLoadSnapshotReadsAgain(t *testing.T) {
	files := map[string]string{"CURRENT": "MANIFEST-000001\n", "000004.sst": strings.Repeat("tables", 1000), "sub/OPTIONS": "o"}
	stream := tarOf(t, files)
	corrupt := errors.New("digests do not match")
	// gets opens the snapshot: broken the first breaks times, cut after
	// half of it, whole after.
	gets := func(breaks int, calls *int) func() (io.ReadCloser, uint64, error) {
		return func() (io.ReadCloser, uint64, error) {
			*calls++
			r := io.Reader(bytes.NewReader(stream.Bytes()))
			if *calls <= breaks {
				r = &brokenRead{r: io.LimitReader(r, int64(stream.Len()/2)), err: corrupt}
			}
			return io.NopCloser(r), 7, nil
		}
	}
	for _, tc := range []struct {
		name    string
		breaks  int
		taken   string // a file in the directory already
		calls   int
		wantErr error
	}{
		{name: "whole", calls: 1},
		{name: "broken twice", breaks: 2, calls: 3},
		{name: "broken every try", breaks: snapshotTries, calls: snapshotTries, wantErr: errSnapshotRead},
		{name: "a file there already", taken: "CURRENT", calls: 1, wantErr: fs.ErrExist},
	} {
		dir := t.TempDir()
		if tc.taken != "" {
			if err := os.WriteFile(filepath.Join(dir, tc.taken), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		calls := 0
		ok, err := loadSnapshot(gets(tc.breaks, &calls), dir, quiet)
		if calls != tc.calls || (tc.wantErr == nil) != (err == nil) || tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
			t.Errorf("%s: read %d times, %v; want %d, %v", tc.name, calls, err, tc.calls, tc.wantErr)
		}
		if tc.wantErr != nil {
			continue
		}
		if !ok {
			t.Errorf("%s: no snapshot loaded", tc.name)
		}
		for name, body := range files {
			if got, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(got) != body {
				t.Errorf("%s: %s holds %d bytes, %v; want %d", tc.name, name, len(got), err, len(body))
			}
		}
	}
}

// TestKeepSnapshots: the server log's writer publishes a snapshot once a
// log moved, and a new directory bootstrapped from it holds the writes
// and each log's position.
func TestKeepSnapshots(t *testing.T) {
	nats := clustertest.Nodes(t, 1)
	a := startNode(t, "http://a", t.TempDir(), nats...)
	eventually(t, 30*time.Second, "the node writes the server's log", func() bool { return a.writing(ServerLog) })
	site := testshop.Website()
	if _, err := a.live.SetConfig(&config.File{Websites: []config.Website{*site}}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 30*time.Second, "the node writes the website's log", func() bool { return a.writing(site.UUID) })
	if _, err := a.live.Apply(site.UUID, products(t, 0, 7, "kept")); err != nil {
		t.Fatal(err)
	}
	a.rep.KeepSnapshots(100 * time.Millisecond)
	want := a.st.Positions()
	eventually(t, 30*time.Second, "a snapshot holding the writes", func() bool {
		dir := filepath.Join(t.TempDir(), "new")
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if ok, err := Bootstrap(ctx, a.nc, 1, dir, false, quiet); err != nil || !ok {
			return false
		}
		st, err := store.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		n, _ := st.Count(site.UUID)
		return n == 7 && maps.Equal(st.Positions(), want)
	})
}
