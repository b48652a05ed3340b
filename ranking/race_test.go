//go:build race

package ranking

// raceEnabled: the race detector is on, and sync.Pool drops what is put
// back at random, so allocation counts of pooled code mean nothing.
const raceEnabled = true
