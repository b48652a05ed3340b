package behaviour

import (
	"cmp"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// refCounts is space-saving as its definition has it: a newcomer to a
// full map evicts the entry of the lowest count, the least key of
// those, found by looking at every entry, and takes its count.
type refCounts map[string]*sourceStats

func (r refCounts) slot(k string, max int) *sourceStats {
	if v := r[k]; v != nil {
		return v
	}
	v := new(sourceStats)
	if len(r) >= max {
		low := ""
		for key, val := range r {
			if l := r[low]; l == nil || val.impressions < l.impressions || val.impressions == l.impressions && key < low {
				low = key
			}
		}
		v.impressions = r[low].impressions
		delete(r, low)
	}
	r[k] = v
	return v
}

// TestCountsAreSpaceSaving: a day's counts (a heap) keep the entries,
// counts and evictions of refCounts through random slots, raises of the
// count that orders them (through the pointer slot gives) and of the
// others (through slot and get), read back from a snapshot's key order
// (add) and cloned, with the keys added and dropped reported in pairs.
func TestCountsAreSpaceSaving(t *testing.T) {
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 9))
		max := 1 + r.IntN(12)
		keys := make([]string, 2+r.IntN(40))
		for i := range keys {
			keys[i] = string(rune('a'+i%26)) + string(rune('a'+i/26))
		}
		var c counts[string, sourceStats]
		ref := refCounts{}
		held := map[string]bool{}
		changed := func(k string, added bool) {
			if held[k] == added {
				t.Fatalf("seed %d: %s reported added %v twice", seed, k, added)
			}
			held[k] = added
			if !added {
				delete(held, k)
			}
		}
		for step := range 3000 {
			k := keys[min(r.IntN(len(keys)), r.IntN(len(keys)))] // the first keys more often
			switch r.IntN(20) {
			case 0: // read back from a snapshot, in key order
				back := counts[string, sourceStats]{}
				for _, key := range slices.Sorted(maps.Keys(c.index)) {
					back.add(key, c.vals[c.index[key]])
				}
				c = back
			case 1:
				c = c.clone()
			case 2:
				if v := c.get(k); v != nil {
					v.clicks++
					ref[k].clicks++
				}
			}
			v, w := c.slot(k, max, impressionCount, lessString, changed), ref.slot(k, max)
			n := uint32(r.IntN(3))
			v.impressions += n
			w.impressions += n
			if r.IntN(4) == 0 {
				v.purchases++
				w.purchases++
			}
			if len(c.keys) != len(ref) || len(held) != len(ref) {
				t.Fatalf("seed %d, step %d: %d keys, %d reported, want %d", seed, step, len(c.keys), len(held), len(ref))
			}
			for key, want := range ref {
				if got := c.get(key); got == nil || *got != *want || !held[key] {
					t.Fatalf("seed %d, step %d: %s is %+v (reported %v), want %+v", seed, step, key, got, held[key], *want)
				}
			}
		}
	}
}

func byN(a, b counted) int { return cmp.Compare(a.n, b.n) }

// TestCountsSlotCostsLogN: a full day's newcomers each look at a few
// entries, not at all of them.
func TestCountsSlotCostsLogN(t *testing.T) {
	var c counts[uint32, counted]
	looked := 0
	less := func(a, b uint32) bool { looked++; return a < b }
	for id := range uint32(maxDayProducts) {
		c.slot(id, maxDayProducts, plainCount, less, nil).n++
	}
	looked = 0
	const newcomers = 1000
	for id := range uint32(newcomers) {
		c.slot(maxDayProducts+id, maxDayProducts, plainCount, less, nil).n++
	}
	if per := looked / newcomers; per > 4*10 {
		t.Errorf("a newcomer compared %d keys of equal count, want O(log %d)", per, maxDayProducts)
	}
	// Each newcomer took the place of an original (count 1) and its count.
	if lo, hi := slices.MinFunc(c.vals, byN), slices.MaxFunc(c.vals, byN); lo.n != 2 || hi.n != 2 {
		t.Errorf("counts %d to %d, want 2 each", lo.n, hi.n)
	}
}
