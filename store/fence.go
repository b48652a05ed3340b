package store

import (
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble/vfs"
)

// errFenced is what a fenced file system answers every change with.
var errFenced = errors.New("store: the database stopped writing after a failed write")

// fenceFS is the file system one opened pebble database writes through.
// Once tripped (trip, when pebble reports a failure it cannot go on
// from, or a write of its log fails) it refuses every change, so the failed database can neither
// delete nor rewrite what the database opened after it replays; reads
// pass. It also remembers, of every write-ahead log it writes, how many
// bytes a sync made durable (walSynced), so that a reopen can cut what
// no sync covered: entries whose commit failed, whose writers were told
// so. Locking is the Store's, held for its whole life: Lock here takes
// nothing, so a database can open while the failed one is still closing.
type fenceFS struct {
	vfs.FS
	tripped atomic.Bool
	// walFailed is told of a write or sync of a log that failed: pebble
	// goes on from none (its log writer keeps the error, and the next
	// commit that meets it panics), so the database must take no more.
	walFailed func(error)

	mu   sync.Mutex
	wals map[string]*walLen // log path → its lengths
}

// walLen is a write-ahead log's bytes written and, of them, synced.
type walLen struct{ written, synced atomic.Int64 }

func newFenceFS(base vfs.FS, walFailed func(error)) *fenceFS {
	return &fenceFS{FS: base, walFailed: walFailed, wals: map[string]*walLen{}}
}

// trip refuses every change from now on.
func (fs *fenceFS) trip() { fs.tripped.Store(true) }

func (fs *fenceFS) refuse() error {
	if fs.tripped.Load() {
		return errFenced
	}
	return nil
}

// walSynced is the synced length of every log written, by path.
func (fs *fenceFS) walSynced() map[string]int64 {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := make(map[string]int64, len(fs.wals))
	for p, l := range fs.wals {
		out[p] = l.synced.Load()
	}
	return out
}

// track starts counting the log at path from an empty file; nil for a
// file that is not a log.
func (fs *fenceFS) track(path string) *walLen {
	if !strings.HasSuffix(path, ".log") {
		return nil
	}
	l := &walLen{}
	fs.mu.Lock()
	fs.wals[path] = l
	fs.mu.Unlock()
	return l
}

func (fs *fenceFS) forget(path string) {
	fs.mu.Lock()
	delete(fs.wals, path)
	fs.mu.Unlock()
}

func (fs *fenceFS) Create(name string) (vfs.File, error) {
	if err := fs.refuse(); err != nil {
		return nil, err
	}
	f, err := fs.FS.Create(name)
	if err != nil {
		return nil, err
	}
	return &fenceFile{File: f, fs: fs, wal: fs.track(name)}, nil
}

func (fs *fenceFS) ReuseForWrite(oldname, newname string) (vfs.File, error) {
	if err := fs.refuse(); err != nil {
		return nil, err
	}
	f, err := fs.FS.ReuseForWrite(oldname, newname)
	if err != nil {
		return nil, err
	}
	fs.forget(oldname)
	return &fenceFile{File: f, fs: fs, wal: fs.track(newname)}, nil
}

func (fs *fenceFS) OpenReadWrite(name string, opts ...vfs.OpenOption) (vfs.File, error) {
	f, err := fs.FS.OpenReadWrite(name, opts...)
	if err != nil {
		return nil, err
	}
	return &fenceFile{File: f, fs: fs}, nil
}

func (fs *fenceFS) Link(oldname, newname string) error {
	if err := fs.refuse(); err != nil {
		return err
	}
	return fs.FS.Link(oldname, newname)
}

func (fs *fenceFS) Remove(name string) error {
	if err := fs.refuse(); err != nil {
		return err
	}
	fs.forget(name)
	return fs.FS.Remove(name)
}

func (fs *fenceFS) RemoveAll(name string) error {
	if err := fs.refuse(); err != nil {
		return err
	}
	return fs.FS.RemoveAll(name)
}

func (fs *fenceFS) Rename(oldname, newname string) error {
	if err := fs.refuse(); err != nil {
		return err
	}
	if err := fs.FS.Rename(oldname, newname); err != nil {
		return err
	}
	fs.mu.Lock()
	if l, ok := fs.wals[oldname]; ok {
		delete(fs.wals, oldname)
		fs.wals[newname] = l
	}
	fs.mu.Unlock()
	return nil
}

func (fs *fenceFS) MkdirAll(dir string, perm os.FileMode) error {
	if err := fs.refuse(); err != nil {
		return err
	}
	return fs.FS.MkdirAll(dir, perm)
}

// Lock takes nothing: the Store holds the directory's lock.
func (fs *fenceFS) Lock(string) (io.Closer, error) { return nopCloser{}, nil }

type nopCloser struct{}

func (nopCloser) Close() error { return nil }

// fenceFile is a file of a fenceFS: its changes are refused once the
// file system is tripped, and a log's lengths are counted.
type fenceFile struct {
	vfs.File
	fs  *fenceFS
	wal *walLen // nil: not a log
}

func (f *fenceFile) Write(p []byte) (int, error) {
	if err := f.fs.refuse(); err != nil {
		return 0, err
	}
	n, err := f.File.Write(p)
	if f.wal != nil {
		f.wal.written.Add(int64(n))
	}
	return n, f.failed(err)
}

// failed is err, a change's; a log's failure is reported first.
func (f *fenceFile) failed(err error) error {
	if err != nil && f.wal != nil {
		f.fs.walFailed(err)
	}
	return err
}

func (f *fenceFile) WriteAt(p []byte, off int64) (int, error) {
	if err := f.fs.refuse(); err != nil {
		return 0, err
	}
	n, err := f.File.WriteAt(p, off)
	if f.wal != nil {
		for end := off + int64(n); ; {
			w := f.wal.written.Load()
			if end <= w || f.wal.written.CompareAndSwap(w, end) {
				break
			}
		}
	}
	return n, f.failed(err)
}

func (f *fenceFile) Preallocate(offset, length int64) error {
	if err := f.fs.refuse(); err != nil {
		return err
	}
	return f.File.Preallocate(offset, length)
}

// synced records that what was written before a sync that began with
// written bytes is durable.
func (f *fenceFile) synced(written int64) {
	if f.wal != nil {
		f.wal.synced.Store(written)
	}
}

func (f *fenceFile) Sync() error {
	if err := f.fs.refuse(); err != nil {
		return err
	}
	w := f.written()
	err := f.File.Sync()
	if err == nil {
		f.synced(w)
	}
	return f.failed(err)
}

func (f *fenceFile) SyncData() error {
	if err := f.fs.refuse(); err != nil {
		return err
	}
	w := f.written()
	err := f.File.SyncData()
	if err == nil {
		f.synced(w)
	}
	return f.failed(err)
}

func (f *fenceFile) SyncTo(length int64) (bool, error) {
	if err := f.fs.refuse(); err != nil {
		return false, err
	}
	w := f.written()
	full, err := f.File.SyncTo(length)
	if err == nil && full {
		f.synced(w)
	}
	return full, f.failed(err)
}

func (f *fenceFile) written() int64 {
	if f.wal == nil {
		return 0
	}
	return f.wal.written.Load()
}
