//go:build !race

package ranking

// raceEnabled: the race detector is on (race_test.go).
const raceEnabled = false
