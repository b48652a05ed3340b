package main

import (
	"testing"
	"time"
)

func TestParseBusy(t *testing.T) {
	for _, c := range []struct {
		line string
		busy int64
		ok   bool
	}{
		{"cpu  100 5 30 9000 40 1 2 3 7 0", 141, true}, // guest (7) is in user already
		{"cpu  100 5 30 9000 40 1 2 3", 141, true},
		{"cpu 1 2 3 4 5 6 7", 0, false},
		{"cpu0 100 5 30 9000 40 1 2 3", 0, false},
		{"cpu 1 2 x 4 5", 0, false},
		{"", 0, false},
	} {
		if busy, ok := parseBusy(c.line); busy != c.busy || ok != c.ok {
			t.Errorf("%q: %d, %v; want %d, %v", c.line, busy, ok, c.busy, c.ok)
		}
	}
}

// TestSettleWaitsForWork keeps a core busy for a second: settle waits
// it out, and gives up at its limit whatever else runs.
func TestSettleWaitsForWork(t *testing.T) {
	if _, ok := busyTicks(); !ok {
		t.Skip("no /proc/stat")
	}
	stop := time.Now().Add(time.Second)
	go func() {
		for n := 0; time.Now().Before(stop); n++ {
		}
	}()
	if d := settle(5 * time.Second); d < 900*time.Millisecond || d > 6*time.Second {
		t.Fatalf("settled after %s with a core busy for 1s, limit 5s", d)
	}
}
