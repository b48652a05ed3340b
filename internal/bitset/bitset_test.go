package bitset

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// TestSetsAgainstRoaring holds every operation to roaring's over random
// sets of array, bitmap and run containers: a set over 3 containers'
// doc ids and one over fewer (Or's shorter src).
func TestSetsAgainstRoaring(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const slots = 3<<16 + 100
	random := func(n uint64) *roaring.Bitmap {
		bm := roaring.New()
		for range r.IntN(int(n)) {
			bm.Add(uint32(r.Uint64N(n)))
		}
		if r.IntN(3) == 0 { // a run container
			lo := r.Uint64N(n / 2)
			bm.AddRange(lo, lo+r.Uint64N(n/2))
			bm.RunOptimize()
		}
		return bm
	}
	members := func(s []uint64) []uint32 {
		var out []uint32
		for w, b := range s {
			for i := range 64 {
				if b>>i&1 != 0 {
					out = append(out, uint32(w*64+i))
				}
			}
		}
		return out
	}
	set := func(bm *roaring.Bitmap) []uint64 {
		s := make([]uint64, Words(slots))
		OrBitmap(s, bm)
		return s
	}
	for i := range 200 {
		a, b := random(slots), random(slots)
		if i%2 == 0 {
			b = random(1 << 16) // fewer doc ids
		}
		sa := set(a)
		if got := members(sa); !slices.Equal(got, a.ToArray()) {
			t.Fatalf("OrBitmap: %d docs, want %d", len(got), a.GetCardinality())
		}
		card := int(a.GetCardinality())
		if Count(sa) != card {
			t.Fatalf("Count %d, want %d", Count(sa), card)
		}
		short := make([]uint64, Words(int(b.Maximum())+1))
		Set(short, b.ToArray())
		or := slices.Clone(sa)
		Or(or, short)
		if got, want := members(or), roaring.Or(a, b).ToArray(); !slices.Equal(got, want) {
			t.Fatalf("Or: %d docs, want %d", len(got), len(want))
		}
		for _, n := range []int{0, card} { // the sparse loop and the other
			if got := AppendMembers([]uint32{9}, sa, n); got[0] != 9 || !slices.Equal(got[1:], a.ToArray()) {
				t.Fatalf("AppendMembers(%d): %d docs, want %d after the one there", n, len(got), card)
			}
		}
		if got, want := AndCount(sa, set(b)), int(roaring.And(a, b).GetCardinality()); got != want {
			t.Fatalf("AndCount %d, want %d", got, want)
		}
		into := make([]uint64, len(sa))
		if n := AndInto(into, sa, set(b)); n != int(roaring.And(a, b).GetCardinality()) || !slices.Equal(members(into), roaring.And(a, b).ToArray()) {
			t.Fatalf("AndInto: %d docs counted, %d set, want %d", n, len(members(into)), roaring.And(a, b).GetCardinality())
		}
		orBM := slices.Clone(sa)
		OrBitmap(orBM, b)
		if got, want := members(orBM), roaring.Or(a, b).ToArray(); !slices.Equal(got, want) {
			t.Fatalf("OrBitmap into a set: %d docs, want %d", len(got), len(want))
		}
		and := slices.Clone(sa)
		And(and, set(b))
		if got, want := members(and), roaring.And(a, b).ToArray(); !slices.Equal(got, want) {
			t.Fatalf("And: %d docs, want %d", len(got), len(want))
		}
	}
}
