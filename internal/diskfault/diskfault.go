// Package diskfault makes a file system fail as a disk does, for tests:
// pebble's vfs/errorfs over the operating system's, failing the
// operations a fault names with the errno a full or failing disk
// answers, while the fault is on.
package diskfault

import (
	"os"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/cockroachdb/pebble/vfs"
	"github.com/cockroachdb/pebble/vfs/errorfs"
)

// Fault says which operations fail, and with what.
type Fault struct {
	Name string
	Ops  []errorfs.Op
	Err  syscall.Errno
	// Path, when set, fails only the paths that contain it.
	Path string
}

// The faults a disk has.
var (
	// Full refuses writes and new files: ENOSPC.
	Full = Fault{Name: "full disk", Ops: []errorfs.Op{errorfs.OpFileWrite, errorfs.OpFileWriteAt, errorfs.OpCreate, errorfs.OpFilePreallocate, errorfs.OpReuseForRewrite}, Err: syscall.ENOSPC}
	// FailingSync fails syncs (EIO): what was written is not known to be
	// on the disk, and may be read back.
	FailingSync = Fault{Name: "failing sync", Ops: []errorfs.Op{errorfs.OpFileSync}, Err: syscall.EIO}
)

// Injector is an errorfs.Injector of one fault, off until On.
type Injector struct {
	fault Fault
	on    atomic.Bool
	n     atomic.Int64
}

// New is an injector of f, off.
func New(f Fault) *Injector { return &Injector{fault: f} }

// On starts failing the fault's operations; Off stops.
func (in *Injector) On()  { in.on.Store(true) }
func (in *Injector) Off() { in.on.Store(false) }

// Failed is how many operations were failed.
func (in *Injector) Failed() int64 { return in.n.Load() }

// MaybeError is errorfs.Injector's.
func (in *Injector) MaybeError(op errorfs.Op, path string) error {
	if !in.on.Load() || (in.fault.Path != "" && !strings.Contains(path, in.fault.Path)) {
		return nil
	}
	for _, o := range in.fault.Ops {
		if o == op {
			in.n.Add(1)
			return &os.PathError{Op: "write", Path: path, Err: in.fault.Err}
		}
	}
	return nil
}

// FS is vfs.Default failing as in says. Syncs of data (SyncData, which
// pebble's write-ahead log syncs through) fail as Sync does: errorfs
// does not inject into them.
func FS(in *Injector) vfs.FS { return fs{errorfs.Wrap(vfs.Default, in), in} }

type fs struct {
	*errorfs.FS
	in *Injector
}

func (fs fs) Create(name string) (vfs.File, error) {
	f, err := fs.FS.Create(name)
	if err != nil {
		return nil, err
	}
	return syncDataFile{f, fs.in, name}, nil
}

func (fs fs) ReuseForWrite(oldname, newname string) (vfs.File, error) {
	f, err := fs.FS.ReuseForWrite(oldname, newname)
	if err != nil {
		return nil, err
	}
	return syncDataFile{f, fs.in, newname}, nil
}

type syncDataFile struct {
	vfs.File
	in   *Injector
	path string
}

func (f syncDataFile) SyncData() error {
	if err := f.in.MaybeError(errorfs.OpFileSync, f.path); err != nil {
		return err
	}
	return f.File.SyncData()
}
