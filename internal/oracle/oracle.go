// Package oracle holds deliberately plain implementations of rules the
// engine implements fast, for tests to compare the engine against: each
// is written from the rule's definition, slowly and without shortcuts,
// so that it shares none of the engine's optimisations or bugs.
//
// It is imported only by _test.go files.
package oracle

// OSA is the optimal string alignment distance between a and b, written as
// the textbook table: insertions, deletions, substitutions and
// transpositions of adjacent runes each cost one edit
// (docs/decisions.md, "Typos": "transpositions count as one").
func OSA(a, b []rune) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
