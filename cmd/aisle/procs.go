package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
)

// serveProcs is the number of Go scheduler threads (GOMAXPROCS) aisle
// serve runs with: the --procs value when given, else GOMAXPROCS from
// the environment when set, else twice Go's own default (the cores, or
// a container's CPU limit).
//
// Twice the cores, because the server's background work (a write's
// merge and new index, the saver, pebble's compactions) is CPU-bound
// beside latency-bound searches. With one thread per core, a search
// woken while background goroutines hold every thread waits for Go's
// scheduler to preempt one, up to 10 ms; with spare threads it runs at
// once and the kernel, which favours a thread that has slept, shares
// the core (figures in docs/decisions.md, Running).
func serveProcs(flagValue string) (int, error) {
	if flagValue != "" {
		n, err := strconv.Atoi(flagValue)
		if err != nil || n < 1 {
			return 0, fmt.Errorf("serve: --procs (or AISLE_PROCS) %q: want a number of threads of at least 1", flagValue)
		}
		return n, nil
	}
	if os.Getenv("GOMAXPROCS") != "" {
		return runtime.GOMAXPROCS(0), nil
	}
	runtime.SetDefaultGOMAXPROCS() // Go's default, whatever an earlier call set
	return 2 * runtime.GOMAXPROCS(0), nil
}
