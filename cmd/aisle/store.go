package main

import (
	"errors"
	"fmt"
	"log/slog"

	"github.com/aisle-search/aisle/store"
)

// openStore opens the data directory for a command, saying in one line
// when another process (most likely a running aisle serve) holds it;
// the store logs to log.
func openStore(dir string, log *slog.Logger) (*store.Store, error) {
	st, err := store.OpenWith(dir, store.Options{Logger: log})
	var unreadable *store.UnreadableError
	switch {
	case errors.Is(err, store.ErrLocked):
		return nil, lockedError{dir}
	case errors.As(err, &unreadable):
		return nil, unreadableError{dir, unreadable}
	}
	return st, err
}

// lockedError is store.ErrLocked told to a person.
type lockedError struct{ dir string }

func (e lockedError) Error() string {
	return e.dir + " is in use by another process, most likely a running aisle serve: stop it first, or send the products to its admin API (POST /admin/v1/websites/{uuid}/products)"
}

func (lockedError) Unwrap() error { return store.ErrLocked }

// unreadableError is store.ErrUnreadable told to a person, on one line:
// which files, and the way back.
type unreadableError struct {
	dir string
	err *store.UnreadableError
}

func (e unreadableError) Error() string {
	return fmt.Sprintf("the store in %s cannot be read: %s. Nothing in it was changed. Restore the latest backup (aisle serve --data BACKUP_DIR; docs/operations.md, Restoring), or import the catalog into a new directory", e.dir, e.err.Reason())
}

func (e unreadableError) Unwrap() error { return e.err }
