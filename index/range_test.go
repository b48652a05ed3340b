package index

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/aisle-search/aisle/analysis"
)

// numberDocs builds a segment of n docs whose field "v" holds value(i) for
// the i-th doc added where present(i), and returns the column by doc id.
func numberDocs(t *testing.T, n int, value func(i int) float64, present func(i int) bool) (*NumericField, []float64, []bool) {
	t.Helper()
	b := NewBuilder(analysis.New(analysis.None))
	vals, has := make([]float64, n), make([]bool, n)
	for i := range n {
		// Keys in byte order are the order added: doc i is the i-th doc.
		d := Doc{Key: fmt.Sprintf("%07d", i)}
		if present(i) {
			vals[i], has[i] = value(i), true
			d.Numbers = []NumberValue{{"v", vals[i]}}
		}
		if err := b.Add(&d); err != nil {
			t.Fatal(err)
		}
	}
	f := b.Build().Numeric("v")
	if f == nil {
		t.Fatal("no field v")
	}
	return f, vals, has
}

// TestRangeAtBucketEdges checks Range and Check ("Range adds to dst every
// doc whose value lies in [min, max]", segment.go; docs/architecture.md:
// "64 bucket bitmaps over that order ... a few ORs plus two partial
// buckets") on 3,072 values, three full buckets of the smallest size, tied
// in threes (so a run of ties starts at the last place of the first
// bucket), and docs without one: every range whose bounds are the values
// at the ends and edges of the buckets, exactly and a float inside, so
// full buckets, partial ones and a range reaching the last value are all
// taken.
func TestRangeAtBucketEdges(t *testing.T) {
	const n = 3171 // 99 without a value
	perm, next := rand.New(rand.NewPCG(3, 5)).Perm(3072), 0
	value := func(int) float64 {
		next++
		return float64(perm[next-1]/3) - 500
	}
	f, vals, has := numberDocs(t, n, value, func(i int) bool { return i%32 != 5 })
	if perm, _ := f.Sorted(); len(perm) != 3072 {
		t.Fatalf("%d values, want 3072", len(perm))
	}
	checkNumericField(t, f, vals, has, nil)
}

// TestRangeCheckQuanta checks Check against the values on a column too
// long for 16 bits (segment.go Quantised: "each doc's position in value
// order shifted down to 16 bits ... a lower quantum never holds a higher
// value"; RangeCheck reads "the value itself only for docs in the two
// boundary quanta"): the ranges start and end at each place in a quantum,
// at the lowest and highest value, and between buckets.
func TestRangeCheckQuanta(t *testing.T) {
	const withValue = 70_400 // 2 positions a quantum; buckets of 1,100
	r := rand.New(rand.NewPCG(8, 9))
	perm := r.Perm(withValue)
	// Values tie in threes, so ties straddle quanta; one doc in 11 has none.
	f, vals, has := numberDocs(t, withValue/10*11, func(i int) float64 { return float64(perm[i/11*10+i%11]/3) / 4 }, func(i int) bool { return i%11 != 10 })
	order, sorted := f.Sorted()
	if len(sorted) != withValue {
		t.Fatalf("%d values, want %d", len(sorted), withValue)
	}
	last := withValue - 1
	var ranges [][2]float64
	inf := math.Inf(1)
	for _, p := range []int{0, 1, 2, 3, 4, 1099, 1100, 1101, 2199, 35_000, 35_001, last - 3, last - 2, last - 1, last} {
		for _, q := range []int{0, 1, 2, 5, 6, 2199, 2200, 35_002, 35_003, last - 2, last - 1, last} {
			if p <= q {
				ranges = append(ranges, [2]float64{sorted[p], sorted[q]})
			}
		}
		ranges = append(ranges, [2]float64{sorted[p], sorted[p]}, [2]float64{sorted[p], inf}, [2]float64{-inf, sorted[p]})
	}
	ranges = append(ranges, [2]float64{-inf, math.Nextafter(sorted[0], -inf)}, [2]float64{math.Nextafter(sorted[last], inf), inf}, [2]float64{5, 4})
	checkNumericField(t, f, vals, has, ranges)
	if q := f.Quantised(); q[order[0]] != 0 || q[order[last]] != uint16(last>>1) {
		t.Fatalf("lowest value in quantum %d, highest in %d; want 0 and %d", q[order[0]], q[order[last]], last>>1)
	}
}
