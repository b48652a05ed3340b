// Package expect holds the checks Aisle's test suites share, so that a
// test cannot pass by checking nothing: a loop over results that must not
// be empty, and the switches that turn a missing data set or peer server from a skip into a
// failure on CI.
//
// It registers no flags, so the datasets package may use it.
package expect

import "testing"

// Some returns s, failing the test first when s is empty. Wrap the slice a
// check loops over with it, so that the loop cannot pass by running zero
// times:
//
//	for _, p := range expect.Some(t, "products", r.Results("products")) {
//		...
//	}
//
// what names the slice in the failure message.
func Some[S ~[]E, E any](t testing.TB, what string, s S) S {
	t.Helper()
	if len(s) == 0 {
		t.Fatalf("%s: empty, so the checks over it would run zero times", what)
	}
	return s
}

// AtLeast fails the test unless s holds at least n elements, and returns s.
func AtLeast[S ~[]E, E any](t testing.TB, what string, n int, s S) S {
	t.Helper()
	if len(s) < n {
		t.Fatalf("%s: %d elements, want at least %d", what, len(s), n)
	}
	return s
}

// Counter counts the iterations of a loop whose range is not a slice (a
// map, an iterator, a callback), and fails the test at Check when it ran
// fewer than Min times.
type Counter struct {
	What string
	Min  int
	N    int
}

// Check fails the test when the counted loop ran fewer than c.Min times
// (one when Min is zero).
func (c *Counter) Check(t testing.TB) {
	t.Helper()
	if c.N < max(c.Min, 1) {
		t.Fatalf("%s: ran %d times, want at least %d", c.What, c.N, max(c.Min, 1))
	}
}
