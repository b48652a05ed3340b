package main

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// settle waits until the machine is idle, under a tenth of a core busy
// over half a second, at most max, and says how long it waited. Engines
// keep working after their loads: Bleve's scorch merges its segments for
// about ten seconds after a million documents, Aisle builds its impact
// lists, PostgreSQL may vacuum. Timed while that runs, the first classes
// measured every engine against a core taken away (at 1M products,
// Aisle's words p99 4.7 ms against 0.66 ms settled).
func settle(max time.Duration) time.Duration {
	start := time.Now()
	for time.Since(start) < max {
		b0, ok := busyTicks()
		t0 := time.Now()
		time.Sleep(500 * time.Millisecond)
		b1, ok1 := busyTicks()
		if !ok || !ok1 {
			break // no /proc/stat: nothing to wait on
		}
		if float64(b1-b0)*tick < 0.1*float64(time.Since(t0)) {
			break
		}
	}
	return time.Since(start)
}

// tick is a clock tick of /proc/stat (USER_HZ, 100 a second on Linux).
const tick = float64(10 * time.Millisecond)

// busyTicks is the machine's busy CPU time, in ticks, from /proc/stat.
func busyTicks() (int64, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return parseBusy(line)
}

// parseBusy reads the busy ticks from /proc/stat's first line ("cpu
// user nice system idle iowait irq softirq steal guest guest_nice"):
// user to steal but idle and iowait (guest time is counted in user).
func parseBusy(line string) (int64, bool) {
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0, false
	}
	var busy int64
	for i, s := range f[1:9] {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, false
		}
		if i == 3 || i == 4 { // idle, iowait
			continue
		}
		busy += v
	}
	return busy, true
}
