package store

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/vfs"
)

// handle is one opened pebble database of the store's directory: the
// read-write one, or, while the disk refuses writes, a read-only one of
// what was synced (Store.degrade).
type handle struct {
	db       *pebble.DB
	opts     *pebble.Options
	fs       *fenceFS
	readOnly bool
	refs     int // calls using db; guarded by Store.hmu

	// lost is set when pebble reports a failed commit (through Fatalf,
	// which returns: see pebbleCommitFatal); Store.update reads it after
	// each write, so a commit pebble answered with no error is known to
	// have failed.
	lost atomic.Bool
	// wedged is set when pebble panicked over a write the disk refused:
	// it may hold its locks for good, so the database is never closed,
	// only dropped.
	wedged atomic.Bool

	mu     sync.Mutex
	reason string // the first failure pebble could not go on from; "" while healthy

	flushFailed chan struct{} // a background flush or compaction failed since it was drained
	trouble     chan<- struct{}
}

// pebbleCommitFatal is the format pebble (v1.1, DB.applyInternal)
// reports a failed commit with, through Logger.Fatalf, before it
// returns no error to the committer. Its Fatalf must return rather than
// panic: the same Fatalf is called from pebble's own goroutines (a
// failed manifest write in a flush), where a panic ends the process.
const pebbleCommitFatal = "pebble: fatal commit error: %v"

// errLost is a write whose commit pebble reported failed.
var errLost = errors.New("the commit failed")

// openHandle opens the database in dir through base, read-only or not;
// a failure pebble reports during the open fails it. trouble is
// signalled when pebble reports one later.
func openHandle(dir string, base vfs.FS, readOnly bool, trouble chan<- struct{}) (*handle, error) {
	h := &handle{readOnly: readOnly, flushFailed: make(chan struct{}, 1), trouble: trouble}
	h.fs = newFenceFS(base, func(err error) { h.fatal("pebble: write-ahead log: %v", err) })
	h.opts = options(h)
	db, err := pebble.Open(dir, h.opts)
	if err == nil && h.tripped() {
		err = errors.Join(errors.New(h.cause()), db.Close())
	}
	if err != nil {
		if h.tripped() || isDiskError(err) {
			err = fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
		return nil, err
	}
	h.db = db
	return h, nil
}

// run runs fn, writes of h's database. Pebble panics, rather than
// report, over some writes the disk refused (closing a full log when it
// starts the next; a commit that meets an earlier write's failure):
// such a panic fails h, as fatal does, and fn with errLost; any other
// goes on.
func (h *handle) run(fn func(h *handle) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			perr, ok := r.(error)
			if !ok || !(isDiskError(perr) || errors.Is(perr, errFenced)) {
				panic(r)
			}
			h.wedged.Store(true)
			h.fatal("pebble: %v", perr)
			err = errLost
		}
	}()
	return fn(h)
}

// check is err, a write's, or errLost when pebble reported the write's
// commit failed.
func (h *handle) check(err error) error {
	if err == nil && h.lost.Load() {
		return errLost
	}
	return err
}

// tripped reports whether pebble reported a failure it cannot go on
// from: the database writes nothing more.
func (h *handle) tripped() bool { return h.fs.tripped.Load() }

// cause is the failure pebble reported.
func (h *handle) cause() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.reason
}

// fatal is pebble's Fatalf: the database is fenced (it writes nothing
// more), the store told; it returns, as pebble's own goroutines need.
func (h *handle) fatal(format string, args ...any) {
	h.fs.trip()
	if format == pebbleCommitFatal {
		h.lost.Store(true)
	}
	h.mu.Lock()
	if h.reason == "" {
		h.reason = fmt.Sprintf(format, args...)
	}
	h.mu.Unlock()
	select {
	case h.trouble <- struct{}{}:
	default:
	}
}

// background is pebble's report of a failed flush or compaction. One the
// disk refused fences the database, as fatal does: pebble retries it
// without pause, and a flush that cannot finish would stall the writes.
func (h *handle) background(err error) {
	select {
	case h.flushFailed <- struct{}{}:
	default:
	}
	if isDiskError(err) && !errors.Is(err, errFenced) {
		h.fatal("pebble: background write failed: %v", err)
	}
}

// close flushes the memtable when the database is healthy, unless a
// flush fails (a full disk makes pebble retry it without end: the log
// replays it at the next open), and closes the database, unless pebble
// is wedged.
func (h *handle) close() error {
	var err error
	if !h.readOnly && !h.tripped() {
		select {
		case <-h.flushFailed:
		default:
		}
		err = h.run(func(h *handle) error {
			done, err := h.db.AsyncFlush()
			if err == nil {
				select {
				case <-done:
				case <-h.flushFailed:
				}
			}
			return err
		})
	}
	if h.wedged.Load() {
		return err
	}
	return errors.Join(err, h.db.Close())
}

// handleLogger is pebble's logger for one handle: quiet, but for the
// failures pebble cannot go on from (fatal).
type handleLogger struct{ h *handle }

func (handleLogger) Infof(string, ...interface{})  {}
func (handleLogger) Errorf(string, ...interface{}) {}
func (l handleLogger) Fatalf(format string, args ...interface{}) {
	l.h.fatal(format, args...)
}
