//go:build race

package live

// raceEnabled: the race detector is on, and runs a test some ten times
// slower.
const raceEnabled = true
