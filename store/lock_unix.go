//go:build unix

package store

import (
	"os"
	"path/filepath"
	"syscall"
)

// heldElsewhere reports whether another process holds pebble's lock on
// dir: pebble takes a POSIX record lock on dir/LOCK, and F_GETLK describes
// a conflicting lock without taking one.
func heldElsewhere(dir string) bool {
	f, err := os.OpenFile(filepath.Join(dir, "LOCK"), os.O_RDWR, 0)
	if err != nil {
		return false // no LOCK yet: a new or never-opened directory
	}
	defer f.Close()
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_GETLK, &lk); err != nil {
		return false // let pebble say what is wrong
	}
	return lk.Type != syscall.F_UNLCK
}
