package index

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// TestMakeHugeAdvisesHugePages holds makeHuge to its contract on Linux:
// a large slice's memory is marked MADV_HUGEPAGE (its mapping shows the
// "hg" flag in /proc/self/smaps), and a small one is make's.
func TestMakeHugeAdvisesHugePages(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("this kernel has no transparent huge pages:", err)
	}
	big := makeHuge[uint32](0, 4<<20) // 16 MiB
	if len(big) != 0 || cap(big) != 4<<20 {
		t.Fatalf("makeHuge(0, %d): len %d cap %d", 4<<20, len(big), cap(big))
	}
	mid := uintptr(unsafe.Pointer(unsafe.SliceData(big))) + 8<<20
	if flags := vmFlags(t, mid); !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("a 16 MiB slice's mapping has flags %q, want hg (MADV_HUGEPAGE)", flags)
	}
	small := makeHuge[byte](100, 100)
	if len(small) != 100 || cap(small) != 100 {
		t.Fatalf("makeHuge(100, 100): len %d cap %d", len(small), cap(small))
	}
}

// vmFlags is the VmFlags line of the mapping in /proc/self/smaps that
// holds addr.
func vmFlags(t *testing.T, addr uintptr) string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && strings.Contains(line, " ") {
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:"))
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return ""
}
