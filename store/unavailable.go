package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// ErrUnavailable is the answer to a write the disk refused (it is full,
// or failing), and to every write after it until the disk takes writes
// again: the write changed nothing. Reads go on from what was synced,
// and the store reopens its database by itself once a probe write
// succeeds (Store.keep); nothing needs restarting.
var ErrUnavailable = errors.New("the disk refused a write")

// isDiskError reports whether err is the disk's refusal to write: full,
// over quota, read-only or failing.
func isDiskError(err error) bool {
	for _, e := range []error{syscall.ENOSPC, syscall.EDQUOT, syscall.EROFS, syscall.EIO} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// diskErr is err typed ErrUnavailable when it is the disk's refusal.
func diskErr(err error) error {
	if err != nil && isDiskError(err) && !errors.Is(err, ErrUnavailable) {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return err
}

// retryEvery is how often a store whose disk refused a write probes it.
const retryEvery = time.Second

// probeName is the file a probe writes in the data directory.
const probeName = "aisle-probe"

// probeBytes is what a probe writes: room for the log a reopen starts.
const probeBytes = 1 << 20

// update runs fn, a change of the database through h, one at a time.
// Every commit in fn goes through h.check: pebble reports a commit that
// failed to reach the disk through its logger, with no error. A failure
// pebble cannot go on from makes the store degrade before update
// returns, so the caller's answer comes after reads see only what was
// synced; the error is then ErrUnavailable, as it is while the store is
// degraded and when the disk refused a write pebble could go on from.
func (s *Store) update(fn func(h *handle) error) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	h := s.acquire()
	if h.readOnly || h.tripped() {
		s.release(h)
		return s.unavailable(h)
	}
	h.lost.Store(false)
	err := h.run(fn)
	s.release(h)
	switch {
	case errors.Is(err, errLost) || (err != nil && h.tripped()):
		err = fmt.Errorf("%w: %s", ErrUnavailable, h.cause())
	default:
		err = diskErr(err)
	}
	if h.tripped() {
		s.degrade(h)
	}
	return err
}

// unavailable is ErrUnavailable with the failure that made h refuse
// writes.
func (s *Store) unavailable(h *handle) error {
	cause := h.cause()
	if h.readOnly {
		s.hmu.Lock()
		cause = s.down
		s.hmu.Unlock()
	}
	return fmt.Errorf("%w: %s", ErrUnavailable, cause)
}

// Unavailable is why the store refuses writes (wrapping ErrUnavailable),
// nil while it takes them.
func (s *Store) Unavailable() error {
	h := s.acquire()
	defer s.release(h)
	if h.readOnly || h.tripped() {
		return s.unavailable(h)
	}
	return nil
}

// degrade replaces h, the current database, which pebble reported a
// failure of and which writes nothing more, by a read-only database of
// what was synced: the write-ahead logs are cut where their last
// successful sync ended, so a commit whose writer was told it failed is
// not replayed. h is closed once unused (keep). s.wmu is held.
func (s *Store) degrade(h *handle) {
	s.hmu.Lock()
	current := s.cur == h
	s.hmu.Unlock()
	if !current || h.readOnly {
		return
	}
	s.log.Error("the disk refused a write: writes are answered unavailable, and reads go on from what was synced, until it takes writes again", "dir", s.dir, "cause", h.cause())
	for path, synced := range h.fs.walSynced() {
		if fi, err := os.Stat(path); err == nil && fi.Size() > synced {
			if err := os.Truncate(path, synced); err != nil {
				s.log.Error("cutting what no sync covered from the write-ahead log failed", "path", path, "err", err)
			}
		}
	}
	ro, err := openHandle(s.dir, s.base, true, s.trouble)
	s.hmu.Lock()
	s.down = h.cause()
	if err == nil {
		s.cur = ro
		s.retired = append(s.retired, h)
		s.hcond.Broadcast()
	}
	s.hmu.Unlock()
	if err != nil {
		s.log.Error("opening what was synced failed: reads go on from the failed database", "dir", s.dir, "err", err)
	}
	select {
	case s.trouble <- struct{}{}:
	default:
	}
}

// keep degrades the store when pebble reports a failure outside a write
// (a flush's), and while it is degraded probes the disk every retryEvery
// and reopens the database once a probe succeeds, until Close.
func (s *Store) keep() {
	defer close(s.kept)
	for {
		select {
		case <-s.stop:
			return
		case <-s.trouble:
		}
		s.wmu.Lock()
		h := s.acquire()
		s.release(h)
		if h.tripped() {
			s.degrade(h)
		}
		s.wmu.Unlock()
		for s.degraded() {
			s.closeRetired()
			select {
			case <-s.stop:
				return
			case <-time.After(s.retryEvery):
			}
			if err := s.probe(); err != nil {
				continue
			}
			if err := s.reopen(); err != nil && !errors.Is(err, errBusy) {
				s.log.Warn("reopening the database failed: writes stay unavailable", "dir", s.dir, "err", err)
			}
		}
		s.closeRetired()
	}
}

// closeRetired closes the failed databases no call uses any more.
func (s *Store) closeRetired() {
	s.hmu.Lock()
	var unused []*handle
	for i := 0; i < len(s.retired); i++ {
		if r := s.retired[i]; r.refs == 0 {
			unused = append(unused, r)
			s.retired = append(s.retired[:i], s.retired[i+1:]...)
			i--
		}
	}
	s.hmu.Unlock()
	for _, r := range unused {
		_ = r.close() // fenced: its errors are its refused writes
	}
}

// degraded reports whether the current database refuses writes.
func (s *Store) degraded() bool {
	s.hmu.Lock()
	defer s.hmu.Unlock()
	return s.cur == nil || s.cur.readOnly || s.cur.tripped()
}

// probe writes, syncs and removes probeBytes in the data directory.
func (s *Store) probe() error {
	path := filepath.Join(s.dir, probeName)
	f, err := s.base.Create(path)
	if err != nil {
		return err
	}
	_, err = f.Write(make([]byte, probeBytes))
	if err == nil {
		err = f.Sync()
	}
	return errors.Join(err, f.Close(), s.base.Remove(path))
}

// errBusy is a reopen put off: the degraded database is in use.
var errBusy = errors.New("the database is in use")

// reopen closes the degraded database and opens it for writes, or, when
// that fails, for reads again. It waits for nothing: while a call uses
// a database (the read-only one, or a failed one not yet closed) it
// does nothing and says so (errBusy).
func (s *Store) reopen() error {
	s.mu.Lock() // the sequence numbers are read again
	defer s.mu.Unlock()
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.hmu.Lock()
	old := s.cur
	if len(s.retired) > 0 || old.refs > 0 {
		s.hmu.Unlock()
		return errBusy
	}
	s.cur = nil // calls wait for the next database
	s.hmu.Unlock()
	_ = old.close()
	h, err := openHandle(s.dir, s.base, false, s.trouble)
	if err == nil {
		if err = s.reload(h); err != nil {
			_ = h.close()
		}
	}
	if err != nil {
		h = s.openReadOnly()
	} else {
		s.log.Info("the disk takes writes again: writes are answered", "dir", s.dir, "seq", s.seq)
	}
	s.hmu.Lock()
	s.cur = h
	if h != nil && !h.readOnly {
		s.down = ""
	}
	s.hcond.Broadcast()
	s.hmu.Unlock()
	return err
}

// openReadOnly opens the database for reads, trying again every
// retryEvery until it opens (calls wait for it) or Close begins (nil).
func (s *Store) openReadOnly() *handle {
	for {
		h, err := openHandle(s.dir, s.base, true, s.trouble)
		if err == nil {
			return h
		}
		s.log.Error("opening what was synced failed", "dir", s.dir, "err", err)
		select {
		case <-s.stop:
			return nil
		case <-time.After(s.retryEvery):
		}
	}
}

// reload reads the sequence numbers, the replicated logs' positions and the last audit entry's time of
// h's database after a reopen; s.mu is held. They are those of the entries acknowledged: the logs
// were cut to what was synced.
func (s *Store) reload(h *handle) error {
	seq, pseq, err := readSeqs(h)
	if err != nil {
		return err
	}
	last, err := lastAuditTime(h.db)
	if err != nil {
		return err
	}
	positions, err := readPositions(h)
	if err != nil {
		return err
	}
	if seq != s.seq {
		s.log.Warn("the reopened database ends at another entry than the last acknowledged", "dir", s.dir, "acknowledged", s.seq, "stored", seq)
	}
	s.seq, s.pseq, s.auditLast, s.positions = seq, pseq, last, positions
	return nil
}
