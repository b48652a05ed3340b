package main

import (
	"errors"
	"log/slog"

	"github.com/aisle-search/aisle/store"
)

// openStore opens the data directory for a command, saying in one line
// when another process (most likely a running aisle serve) holds it;
// the store logs to log.
func openStore(dir string, log *slog.Logger) (*store.Store, error) {
	st, err := store.OpenWith(dir, store.Options{Logger: log})
	if errors.Is(err, store.ErrLocked) {
		return nil, lockedError{dir}
	}
	return st, err
}

// lockedError is store.ErrLocked told to a person.
type lockedError struct{ dir string }

func (e lockedError) Error() string {
	return e.dir + " is in use by another process, most likely a running aisle serve: stop it first, or send the products to its admin API (POST /admin/v1/websites/{uuid}/products)"
}

func (lockedError) Unwrap() error { return store.ErrLocked }
