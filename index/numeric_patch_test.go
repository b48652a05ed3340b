package index

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// numericEqual fails unless two number columns are the same, part by
// part: values, docs with a value, permutation, sorted values, quantised
// positions and every bucket.
func numericEqual(t *testing.T, what string, got, want *NumericField) {
	t.Helper()
	switch {
	case !slices.Equal(got.vals, want.vals):
		t.Fatalf("%s: values differ", what)
	case !got.has.Equals(want.has):
		t.Fatalf("%s: docs with a value differ", what)
	case !slices.Equal(got.perm, want.perm):
		t.Fatalf("%s: permutation differs", what)
	case !slices.Equal(got.sortedVals, want.sortedVals):
		t.Fatalf("%s: sorted values differ", what)
	case got.qshift != want.qshift || !slices.Equal(got.qpos, want.qpos):
		for d := range min(len(got.qpos), len(want.qpos)) {
			if got.qpos[d] != want.qpos[d] {
				t.Fatalf("%s: doc %d quantum %d, want %d (shift %d, %d)", what, d, got.qpos[d], want.qpos[d], got.qshift, want.qshift)
			}
		}
		t.Fatalf("%s: quanta of %d docs, want %d", what, len(got.qpos), len(want.qpos))
	case got.bucketSize != want.bucketSize || len(got.buckets) != len(want.buckets):
		t.Fatalf("%s: %d buckets of %d, want %d of %d", what, len(got.buckets), got.bucketSize, len(want.buckets), want.bucketSize)
	}
	for b := range want.buckets {
		if !got.buckets[b].Equals(want.buckets[b]) || !slices.Equal(got.bucketDocs[b], want.bucketDocs[b]) || !slices.Equal(got.bucketVals[b], want.bucketVals[b]) {
			t.Fatalf("%s: bucket %d differs", what, b)
		}
	}
}

// TestPatchNumericEqualsRebuild: random changes to a column of several
// buckets (docs moved far and near, a value kept in place, values lost
// and gained, ties, docs past the column as WithDocs adds them) patch it
// into exactly what rebuildNumeric derives.
func TestPatchNumericEqualsRebuild(t *testing.T) {
	const n = 70000
	docs := make([]Doc, n)
	for i := range docs {
		docs[i] = Doc{Key: fmt.Sprintf("P%06d", i), Stored: []byte(`{}`)}
		if i%50 != 7 {
			docs[i].Numbers = []NumberValue{{"price", float64(i%1000) * 2}}
		}
	}
	s := buildInKeyOrder(t, docs)
	r := rand.New(rand.NewPCG(3, 9))
	patched, large := 0, 0
	for round := range 60 {
		slots := s.n + uint32(r.IntN(3)) // docs past the column, as added docs
		changed := changeSet{byDoc: map[uint32]*ColumnChange{}, bits: make([]uint64, (slots+63)/64)}
		k := 1 + r.IntN(40)
		if round%10 == 9 {
			k = 1050 // a large batch: buckets built again
		}
		for range k {
			d := uint32(r.IntN(int(slots)))
			c := &ColumnChange{Doc: d}
			if _, ok := s.numeric["price"].ValueAt(d); ok && k > 100 {
				// The large batch moves values only, so the count (and
				// the bucket size) stays and the patch applies.
				c.Numbers = []NumberValue{{"price", float64(r.IntN(4000)) / 2}}
				changed.byDoc[d] = c
				changed.bits[d/64] |= 1 << (d % 64)
				continue
			} else if k > 100 {
				continue
			}
			switch r.IntN(8) {
			case 0: // no value
			case 1: // a tie with many
				c.Numbers = []NumberValue{{"price", 500}}
			case 2: // its own value again
				if v, ok := s.numeric["price"].ValueAt(d); ok {
					c.Numbers = []NumberValue{{"price", v}}
				}
			case 3:
				c.Numbers = []NumberValue{{"price", math.NaN()}}
			case 4: // a new value that keeps its place among the others
				if v, ok := s.numeric["price"].ValueAt(d); ok {
					c.Numbers = []NumberValue{{"price", v + 1e-9}}
				}
			default:
				c.Numbers = []NumberValue{{"price", float64(r.IntN(4000)) / 2}}
			}
			changed.byDoc[d] = c
			changed.bits[d/64] |= 1 << (d % 64)
		}
		want := s.rebuildNumeric("price", slots, changed)
		got, ok := s.patchNumeric("price", slots, changed)
		if !ok {
			continue
		}
		patched++
		if k > 100 {
			large++
		}
		numericEqual(t, fmt.Sprintf("round %d (%d changes)", round, len(changed.byDoc)), got, want)
		if round%3 == 0 {
			s2 := *s
			s2.numeric = map[string]*NumericField{"price": got}
			s2.n = slots
			s = &s2 // the next round patches a patched column
		}
	}
	t.Logf("patched %d rounds of 60, %d of them large", patched, large)
	if patched < 20 || large < 3 {
		t.Fatalf("patched %d rounds of 60: the rest fell back", patched)
	}
}
