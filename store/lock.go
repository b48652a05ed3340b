package store

import (
	"errors"
	"path/filepath"
	"sync"
)

// ErrLocked is returned by Open when another process, or another Store in
// this one, has the directory open: pebble allows one writer, and a
// running aisle serve keeps its directory open.
var ErrLocked = errors.New("in use by another process")

// openDirs are the directories this process has open, by absolute path.
var openDirs sync.Map

// lockDir claims dir for one Store of this process, and checks that no
// other process holds it. The returned func releases the claim.
func lockDir(dir string) (func(), error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	if _, taken := openDirs.LoadOrStore(abs, true); taken {
		return nil, ErrLocked
	}
	if heldElsewhere(dir) {
		openDirs.Delete(abs)
		return nil, ErrLocked
	}
	var once sync.Once
	return func() { once.Do(func() { openDirs.Delete(abs) }) }, nil
}
