package index

import (
	"bytes"
	"testing"
	"unsafe"
)

func TestByteArenaCopies(t *testing.T) {
	var a byteArena
	in := [][]byte{[]byte("abc"), {}, []byte("defgh"), bytes.Repeat([]byte{7}, arenaChunk/4), []byte("ij")}
	var out [][]byte
	for _, b := range in {
		out = append(out, a.copy(b))
	}
	for i, b := range in {
		if !bytes.Equal(out[i], b) {
			t.Fatalf("copy %d: %q, want %q", i, out[i], b)
		}
		if cap(out[i]) != len(b) {
			t.Errorf("copy %d: cap %d, want its length %d (appending must not reach a neighbour)", i, cap(out[i]), len(b))
		}
	}
	in[0][0] = 'x'
	if out[0][0] != 'a' {
		t.Error("a copy shares its source")
	}
	// Small values share a chunk, back to back; a large one is apart.
	if unsafe.SliceData(out[2]) != (*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(out[0])), 3)) {
		t.Error("small values are not laid out back to back in one chunk")
	}
	if unsafe.SliceData(out[4]) != (*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(out[2])), 5)) {
		t.Error("a large value took the chunk's room")
	}
	if allocs := testing.AllocsPerRun(100, func() { a.copy([]byte("klm")) }); allocs != 0 {
		t.Errorf("a small copy allocates %.0f times, want 0 (the chunk has room)", allocs)
	}
	var none *byteArena
	if c := none.copy(in[2]); !bytes.Equal(c, in[2]) || unsafe.SliceData(c) == unsafe.SliceData(in[2]) {
		t.Errorf("a nil arena's copy %q of %q is not a copy of its own", c, in[2])
	}
}
