package store

import (
	"errors"
	"strings"
)

// ErrUnreadable marks an Open whose database pebble refused for what
// its files hold rather than for the disk (ErrUnavailable) or the lock
// (ErrLocked): a table shorter than the manifest says or missing (a
// truncated or deleted file), a manifest or log pebble finds corrupt,
// or files a newer Aisle wrote in a format this one does not read.
// Nothing in the directory is changed; the way back is a backup
// (docs/operations.md, Restoring). Its errors are *UnreadableError.
var ErrUnreadable = errors.New("the store's files cannot be read")

// UnreadableError is an ErrUnreadable with pebble's reason.
type UnreadableError struct {
	Err error // pebble's
}

// Reason is pebble's reason on one line: a check of every table may
// report several, a line each.
func (e *UnreadableError) Reason() string {
	return strings.Join(strings.Split(strings.TrimSpace(e.Err.Error()), "\n"), "; ")
}

func (e *UnreadableError) Error() string { return ErrUnreadable.Error() + ": " + e.Reason() }

func (e *UnreadableError) Is(target error) bool { return target == ErrUnreadable }

func (e *UnreadableError) Unwrap() error { return e.Err }
