package main

import (
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestServeProcs: --procs sets the scheduler threads; without it,
// GOMAXPROCS from the environment is kept, else Go's default doubles.
func TestServeProcs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.SetDefaultGOMAXPROCS()
	def := runtime.GOMAXPROCS(0)
	runtime.GOMAXPROCS(def + 5) // an earlier serve's setting: not a base to double
	for _, tc := range []struct {
		flag, env string
		want      int
		bad       bool
	}{
		{flag: "3", want: 3},
		{flag: "3", env: "7", want: 3},
		{want: 2 * def},
		{env: "7", want: def + 5}, // the runtime read the environment at start
		{flag: "0", bad: true},
		{flag: "-2", bad: true},
		{flag: "four", bad: true},
	} {
		t.Setenv("GOMAXPROCS", tc.env)
		got, err := serveProcs(tc.flag)
		switch {
		case tc.bad && (err == nil || !strings.Contains(err.Error(), "--procs")):
			t.Errorf("--procs %q: %d, %v; want an error naming --procs", tc.flag, got, err)
		case !tc.bad && (err != nil || got != tc.want):
			t.Errorf("--procs %q, GOMAXPROCS %q: %d, %v; want %d", tc.flag, tc.env, got, err, tc.want)
		}
		runtime.GOMAXPROCS(def + 5)
	}
}

var procsRE = regexp.MustCompile(`msg=listening .* procs=(\d+)`)

// TestServeRunsWithProcs: aisle serve --procs N serves with N threads
// and logs it; a bad value is refused before anything starts.
func TestServeRunsWithProcs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	data := shopDir(t)
	if _, err := runCLI("serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k", "--procs", "none"); err == nil || !strings.Contains(err.Error(), "--procs") {
		t.Errorf("--procs none: %v, want an error naming --procs", err)
	}
	s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k", "--procs", "3")
	got := runtime.GOMAXPROCS(0)
	s.shutdown(t)
	if m := procsRE.FindStringSubmatch(s.stderr.String()); m == nil || m[1] != "3" || got != 3 {
		t.Errorf("serving with --procs 3: GOMAXPROCS %d, logged %q\n%s", got, m, s.stderr.String())
	}
}
