package behaviour

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestArenaMatchesAnOracle: lists grown in an arena, moved between
// classes and compacted hold what plain slices do; a compaction leaves
// no released room and no more pages than the live blocks need.
func TestArenaMatchesAnOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 26))
	a := newArena[uint32](2, 5, 9, 17, 40, 3000)
	type owner struct {
		ref   uint32
		class uint8
		n     int
	}
	owners := make([]owner, 400)
	want := make([][]uint32, len(owners))
	check := func(step int) {
		t.Helper()
		for i, o := range owners {
			if got := a.block(o.ref, o.class)[:o.n]; !slices.Equal(got, want[i]) {
				t.Fatalf("step %d, list %d: %v, want %v", step, i, got, want[i])
			}
		}
	}
	compactions := 0
	for step := range 60000 {
		i := r.IntN(len(owners))
		o := &owners[i]
		if o.n < 3000 && r.IntN(4) > 0 {
			if o.n == a.classes[o.class] {
				o.ref, o.class = a.grow(o.ref, o.class, o.n, o.n+1)
			}
			v := r.Uint32()
			a.block(o.ref, o.class)[o.n] = v
			o.n++
			want[i] = append(want[i], v)
		}
		if r.IntN(5000) == 0 || a.wasteful() {
			var live []liveBlock
			need := 0
			for k := range owners {
				if owners[k].class != 0 {
					live = append(live, liveBlock{&owners[k].ref, owners[k].class})
					need += a.classes[owners[k].class]
				}
			}
			a.compact(live)
			compactions++
			check(step)
			if a.released != 0 || len(a.pages) > need/(arenaPageSize-3000)+1 {
				t.Fatalf("step %d: after compacting, %d released, %d pages for %d elements", step, a.released, len(a.pages), need)
			}
		}
	}
	check(-1)
	if compactions < 3 {
		t.Errorf("%d compactions: the test did not exercise them", compactions)
	}
}
