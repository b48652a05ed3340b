package index

import "math"

// sortByValue sorts docs, ascending ids, into perm's order: by vals[doc],
// then by doc id (NumericField.byValue), with a radix sort on the
// values' bits: a million docs in a few passes over memory, where a
// comparison sort took 0.1 s per column and several columns load
// together. docs must be ascending and their values not NaN.
func sortByValue(docs []uint32, vals []float64) {
	if len(docs) < 256 {
		sortSmallByValue(docs, vals)
		return
	}
	keys := makeHuge[uint64](len(docs), len(docs))
	for i, d := range docs {
		keys[i] = orderedBits(vals[d])
	}
	keys2 := makeHuge[uint64](len(docs), len(docs))
	docs2 := makeHuge[uint32](len(docs), len(docs))
	const bits = 8
	const passes = 64 / bits
	var count [passes][1 << bits]int // every pass's histogram, from one read
	for _, k := range keys {
		for p := range passes {
			count[p][(k>>(p*bits))&(1<<bits-1)]++
		}
	}
	srcK, srcD, dstK, dstD := keys, docs, keys2, docs2
	for p := range passes {
		shift := uint(p * bits)
		c := &count[p]
		if c[(srcK[0]>>shift)&(1<<bits-1)] == len(srcK) {
			continue // one digit for all: the pass would not move a doc
		}
		at := 0
		for i, n := range c {
			c[i] = at
			at += n
		}
		// A stable pass: equal digits keep their order, so ties stay in
		// doc order from the first pass to the last.
		for i, k := range srcK {
			j := &c[(k>>shift)&(1<<bits-1)]
			dstK[*j], dstD[*j] = k, srcD[i]
			*j++
		}
		srcK, srcD, dstK, dstD = dstK, dstD, srcK, srcD
	}
	if &srcD[0] != &docs[0] {
		copy(docs, srcD)
	}
}

// orderedBits maps a float to a uint64 of the same order: negative
// values' bits inverted, positive ones' sign bit set. -0 counts as 0, as
// comparisons do.
func orderedBits(v float64) uint64 {
	if v == 0 {
		v = 0
	}
	b := math.Float64bits(v)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

// sortSmallByValue is sortByValue by insertion, for a few docs.
func sortSmallByValue(docs []uint32, vals []float64) {
	for i := 1; i < len(docs); i++ {
		d := docs[i]
		j := i
		for ; j > 0 && vals[docs[j-1]] > vals[d]; j-- { // stable: ties keep doc order
			docs[j] = docs[j-1]
		}
		docs[j] = d
	}
}
