//go:build race

package main

// raceEnabled: the race detector is on, and runs a server child some
// ten times slower.
const raceEnabled = true
