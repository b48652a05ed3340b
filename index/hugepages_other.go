//go:build !linux

package index

import "unsafe"

// adviseHuge does nothing where transparent huge pages are not Linux's.
func adviseHuge(unsafe.Pointer, uintptr) {}
