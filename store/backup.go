package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cockroachdb/pebble"
)

// ErrBackupExists is Backup's answer when its destination already
// exists: a backup never writes over anything.
var ErrBackupExists = errors.New("the backup's destination already exists")

// ErrBackupNoParent is Backup's answer when its destination's parent
// directory does not exist.
var ErrBackupNoParent = errors.New("the backup's parent directory does not exist")

// ErrClosed is returned by calls on a store that was closed.
var ErrClosed = errors.New("store is closed")

// Backup writes a consistent copy of the database to dest, a directory
// that must not exist and whose parent must, while the store serves and
// takes writes: pebble's checkpoint, whose files are hard links to the
// store's where the file system allows (the same file system) and
// copies where it does not. It returns the log position the copy holds:
// every entry up to it and none after. Appends wait while the checkpoint
// is taken (hard links: milliseconds; copies: the time to copy the
// store). Opening dest serves exactly the state acknowledged at that
// position; everything Aisle keeps (catalog, configuration, keys, the
// events, saved indexes and behaviour snapshots, each stamped with the
// position it reaches) is in the database.
func (s *Store) Backup(dest string) (uint64, error) {
	dest = filepath.Clean(dest)
	if _, err := os.Lstat(dest); err == nil {
		return 0, fmt.Errorf("backup to %s: %w", dest, ErrBackupExists)
	} else if !errors.Is(err, os.ErrNotExist) {
		return 0, fmt.Errorf("backup to %s: %w", dest, err)
	}
	if fi, err := os.Stat(filepath.Dir(dest)); err != nil || !fi.IsDir() {
		return 0, fmt.Errorf("backup to %s: %w", dest, ErrBackupNoParent)
	}
	s.mu.Lock() // no entry is appended while the checkpoint is taken
	defer s.mu.Unlock()
	if s.closed {
		return 0, fmt.Errorf("backup to %s: %w", dest, ErrClosed)
	}
	h := s.acquire()
	defer s.release(h)
	if err := h.db.Checkpoint(dest, pebble.WithFlushedWAL()); err != nil {
		return 0, fmt.Errorf("backup to %s: %w", dest, diskErr(err))
	}
	return s.seq, nil
}
