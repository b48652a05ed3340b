//go:build !unix

package store

// heldElsewhere leaves the check to pebble where POSIX locks are not
// available.
func heldElsewhere(string) bool { return false }
