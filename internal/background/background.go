// Package background runs work that may wait at a lower CPU priority than
// the requests a server answers: on Linux, an OS thread of its own with a
// raised nice value, so that when the cores are busy the kernel gives them
// to request goroutines first and the background work takes what is left.
//
// Go schedules goroutines on a few OS threads and has no priorities of
// its own: a write that parses, merges and indexes on every core takes
// the cores from the searches beside it for as long as it runs. A thread
// that is niced keeps the work's goroutine; the goroutines it starts run
// on ordinary threads unless they are started by Go here too.
//
// A niced thread is never handed back to Go's pool (lowering the nice
// value again needs a privilege the server may lack): the goroutine exits
// with the thread locked, and Go ends the thread with it. Starting a
// thread costs some tens of microseconds, so Run is for work of a
// millisecond or more.
package background

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Nice is the nice value of background threads: 10 weighs a thread at
// about a tenth of a default one (nice 0) when they share a core.
const Nice = 10

// started counts the goroutines Run, Go and Each have started, each on a
// background thread of its own.
var started atomic.Uint64

// Started is how many background threads this process has started: a
// test's way to see that work ran in the background.
func Started() uint64 { return started.Load() }

// thread makes the calling goroutine's thread a background one: locked to
// it for the rest of the goroutine (never unlocked, so the thread ends
// with the goroutine) and niced.
func thread() {
	runtime.LockOSThread()
	nice()
}

// Run calls f on a niced thread of its own and returns when f returns.
// A panic in f is carried to the caller's goroutine.
func Run(f func()) { Each(1, func(int) { f() }) }

// Go is Run without the wait: f runs on a niced thread of its own.
func Go(f func()) {
	started.Add(1)
	go func() {
		thread()
		held.RLock() // a gate: f waits while a test holds work back (Hold)
		//lint:ignore SA2001 the lock is taken only to wait for it
		held.RUnlock()
		f()
	}()
}

// held is locked while Hold holds work back.
var held sync.RWMutex

// Hold keeps the work Go starts from now on from running until release
// is called: a test's way to look at a server while its background work
// is under way. Run and Each are not held.
func Hold() (release func()) {
	held.Lock()
	return held.Unlock
}

// Cores is how many goroutines background work spreads over: the cores
// Go schedules on (GOMAXPROCS), at most the machine's CPUs, so a server
// that runs more scheduler threads than cores (aisle serve --procs) does
// not split its background work finer than the cores.
func Cores() int { return max(1, min(runtime.NumCPU(), runtime.GOMAXPROCS(0))) }

// Each calls fn(0) … fn(n-1), each on a niced thread of its own, and
// returns when all have returned. A panic in one is carried to the
// caller's goroutine once all have returned.
func Each(n int, fn func(w int)) {
	done := make(chan any, n)
	started.Add(uint64(max(n, 0)))
	for w := range n {
		go func() {
			thread()
			defer func() { done <- recover() }()
			fn(w)
		}()
	}
	var p any
	for range n {
		if q := <-done; q != nil && p == nil {
			p = q
		}
	}
	if p != nil {
		panic(p)
	}
}
