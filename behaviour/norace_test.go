//go:build !race

package behaviour

// raceEnabled: the race detector is off.
const raceEnabled = false
