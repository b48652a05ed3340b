//go:build race

package behaviour

// raceEnabled: the race detector is on, and sync.Pool drops some of
// what it is given.
const raceEnabled = true
