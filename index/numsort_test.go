package index

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortByValueIsByValue: the radix sort gives the comparison sort's
// order (value, then doc id) for columns of every shape: few values and
// many, negatives, zeros of both signs, infinities, small and large.
func TestSortByValueIsByValue(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	shapes := map[string]func() float64{
		"few ints":      func() float64 { return float64(r.IntN(5)) },
		"prices":        func() float64 { return float64(r.IntN(100000)) / 100 },
		"signed floats": func() float64 { return r.NormFloat64() * 1e6 },
		"zeros and infinities": func() float64 {
			return []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), -1, 1, math.SmallestNonzeroFloat64, -math.MaxFloat64}[r.IntN(8)]
		},
		"one value": func() float64 { return 42 },
	}
	for name, gen := range shapes {
		for _, n := range []int{0, 1, 5, 255, 256, 1000, 70000} {
			vals := make([]float64, n+n/3)
			var docs []uint32
			for d := range vals {
				if r.IntN(4) > 0 {
					vals[d] = gen()
					docs = append(docs, uint32(d))
				}
			}
			f := &NumericField{vals: vals}
			want := slices.Clone(docs)
			slices.SortFunc(want, f.byValue)
			sortByValue(docs, vals)
			if !slices.Equal(docs, want) {
				t.Fatalf("%s, %d docs: radix order differs from byValue's", name, len(docs))
			}
		}
	}
}

func BenchmarkSortByValue(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	vals := make([]float64, 1000000)
	docs := make([]uint32, len(vals))
	for d := range vals {
		vals[d] = float64(r.IntN(100000)) / 100
		docs[d] = uint32(d)
	}
	for _, impl := range []struct {
		name string
		sort func([]uint32)
	}{
		{"radix", func(p []uint32) { sortByValue(p, vals) }},
		{"pdqsort", func(p []uint32) { slices.SortFunc(p, (&NumericField{vals: vals}).byValue) }},
	} {
		b.Run(impl.name, func(b *testing.B) {
			b.ReportAllocs()
			p := make([]uint32, len(docs))
			for b.Loop() {
				copy(p, docs)
				impl.sort(p)
			}
		})
	}
}
