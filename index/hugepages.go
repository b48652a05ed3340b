package index

import "unsafe"

// hugeMin is the smallest slice, in bytes, that makeHuge advises: its
// aligned interior holds at least one huge page.
const hugeMin = 4 << 20

// makeHuge is make([]T, n, c) for the large flat arrays a segment is
// made of (stored docs, postings, dictionaries, per-doc columns). Where
// the platform allows it (Linux with transparent huge pages set to
// "madvise", as Debian ships), it asks for huge pages on the slice's
// 2 MiB-aligned interior before anything touches it, so filling the
// slice faults once per 2 MiB instead of once per 4 KiB: loading a
// million products touches 1.4 GB of fresh memory. Elsewhere, and
// below hugeMin bytes, it is make.
func makeHuge[T any](n, c int) []T {
	s := make([]T, n, c)
	var zero T
	if size := uintptr(c) * unsafe.Sizeof(zero); size >= hugeMin {
		adviseHuge(unsafe.Pointer(unsafe.SliceData(s)), size)
	}
	return s
}
