package index

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of a transparent huge page on linux/amd64 and
// linux/arm64 with 4 KiB pages.
const hugePage = 2 << 20

// adviseHuge marks the huge-page-aligned interior of [p, p+size) as
// MADV_HUGEPAGE. The memory is the Go heap's: the advice only changes
// how the kernel backs it, and the runtime's later MADV_DONTNEED on
// freed spans still returns it. A kernel without transparent huge pages
// refuses the advice, which changes nothing.
func adviseHuge(p unsafe.Pointer, size uintptr) {
	start := uintptr(p)
	beg := (start + hugePage - 1) &^ (hugePage - 1)
	end := (start + size) &^ (hugePage - 1)
	if beg >= end {
		return
	}
	_ = unix.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, beg-start)), end-beg), unix.MADV_HUGEPAGE)
}
