//go:build !linux

package background

// nice does nothing where threads have no nice value of their own.
func nice() {}
