package background

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// threadNice is the calling thread's nice value, from /proc (field 19 of
// /proc/thread-self/stat); the caller holds its thread.
func threadNice(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/thread-self/stat")
	if err != nil {
		t.Skipf("no /proc/thread-self/stat here: %v", err)
	}
	return statNice(t, string(b))
}

// statNice is the nice value in a /proc stat line: field 19, counted
// after the command name, which is in parentheses and may hold spaces.
func statNice(t *testing.T, stat string) int {
	t.Helper()
	fields := strings.Fields(stat[strings.LastIndexByte(stat, ')')+2:])
	n, err := strconv.Atoi(fields[16]) // fields[0] is field 3
	if err != nil {
		t.Fatalf("nice in %q: %v", stat, err)
	}
	return n
}

func requireLinux(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("threads have a nice value of their own on Linux only")
	}
}

func TestRunNicesItsThreadNotTheCallers(t *testing.T) {
	requireLinux(t)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before := threadNice(t)
	var inside int
	Run(func() { inside = threadNice(t) })
	if inside != Nice {
		t.Errorf("Run's function ran at nice %d, want %d", inside, Nice)
	}
	if after := threadNice(t); after != before {
		t.Errorf("the caller's thread went from nice %d to %d", before, after)
	}
}

func TestEachRunsEveryIndexOnNicedThreads(t *testing.T) {
	requireLinux(t)
	const n = 5
	var mu sync.Mutex
	seen := map[int]int{}
	Each(n, func(w int) {
		nice := threadNice(t)
		mu.Lock()
		defer mu.Unlock()
		seen[w]++
		if nice != Nice {
			t.Errorf("Each's fn(%d) ran at nice %d, want %d", w, nice, Nice)
		}
	})
	for w := range n {
		if seen[w] != 1 {
			t.Errorf("fn(%d) ran %d times, want once", w, seen[w])
		}
	}
	if len(seen) != n {
		t.Errorf("fn ran for %d indexes, want %d", len(seen), n)
	}
	Each(0, func(int) { t.Error("Each(0) called fn") })
}

// The main goroutine keeps the main thread: Go cannot end that thread,
// and a locked goroutine exiting on it would park it for good instead,
// which TestNicedThreadsEnd could not tell from a thread in the pool.
func init() { runtime.LockOSThread() }

// TestNicedThreadsEnd: a niced thread ends with its goroutine rather
// than going back to Go's pool, where a search could be scheduled on it.
func TestNicedThreadsEnd(t *testing.T) {
	requireLinux(t)
	for name, work := range map[string]func(){
		"Run":  func() { Run(func() {}) },
		"Each": func() { Each(2, func(int) {}) },
		"Go": func() {
			done := make(chan struct{})
			Go(func() { close(done) })
			<-done
		},
	} {
		t.Run(name, func(t *testing.T) {
			for range 10 {
				work()
			}
			deadline := time.Now().Add(5 * time.Second)
			for {
				niced := nicedThreads(t)
				if niced == 0 {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("%d threads of the process are still niced after their work returned: they went back to Go's pool", niced)
				}
				time.Sleep(10 * time.Millisecond) // a thread ends just after its goroutine
			}
		})
	}
}

// nicedThreads counts the process's threads whose nice value is not 0.
func nicedThreads(t *testing.T) int {
	t.Helper()
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Skipf("no /proc/self/task here: %v", err)
	}
	n := 0
	for _, task := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + task.Name() + "/stat")
		if err != nil {
			continue // the thread ended meanwhile
		}
		if statNice(t, string(b)) != 0 {
			n++
		}
	}
	return n
}

func TestPanicsReachTheCaller(t *testing.T) {
	for name, call := range map[string]func(){
		"Run":  func() { Run(func() { panic("boom") }) },
		"Each": func() { Each(3, func(w int) { panic("boom") }) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if p := recover(); p != "boom" {
					t.Errorf("recovered %v, want the panic of the function", p)
				}
			}()
			call()
			t.Error("no panic reached the caller")
		})
	}
}

func TestCores(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(4 * runtime.NumCPU())
	if got := Cores(); got != runtime.NumCPU() {
		t.Errorf("Cores with GOMAXPROCS above the CPUs = %d, want the CPUs (%d)", got, runtime.NumCPU())
	}
	runtime.GOMAXPROCS(1)
	if got := Cores(); got != 1 {
		t.Errorf("Cores with GOMAXPROCS 1 = %d, want 1", got)
	}
}

// TestHoldHoldsGo: work Go starts while Hold holds waits until release.
func TestHoldHoldsGo(t *testing.T) {
	release := Hold()
	ran := make(chan struct{})
	Go(func() { close(ran) })
	select {
	case <-ran:
		t.Fatal("the work ran while held")
	case <-time.After(50 * time.Millisecond):
	}
	release()
	select {
	case <-ran:
	case <-time.After(10 * time.Second):
		t.Fatal("the work did not run once released")
	}
}
