package main

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aisle-search/aisle/config"
)

var backupPositionRE = regexp.MustCompile(`holds the log up to position (\d+)`)

// runBackupCLI runs `aisle backup args...` and returns the position it
// printed.
func runBackupCLI(t *testing.T, args ...string) uint64 {
	t.Helper()
	var out, errs syncBuffer
	if err := run(context.Background(), append([]string{"backup"}, args...), &out, &errs); err != nil {
		t.Fatalf("aisle backup %v: %v\n%s", args, err, errs.String())
	}
	m := backupPositionRE.FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("aisle backup printed no position: %q", out.String())
	}
	pos, _ := strconv.ParseUint(m[1], 10, 64)
	return pos
}

var writeSeqRE = regexp.MustCompile(`"seq":(\d+)`)

// TestBackupOnlineRestore backs up a serving server while products are
// written to it (aisle backup --url), and a stopped directory (aisle
// backup --data); serving each backup serves exactly the products
// acknowledged up to the position it printed.
func TestBackupOnlineRestore(t *testing.T) {
	data := shopDir(t)
	s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k")
	base := s.total(t, config.DefaultKey, "*")
	path := "/admin/v1/websites/" + shopSite + "/products"

	var mu sync.Mutex
	acked := map[uint64]bool{} // the entries of acknowledged writes
	write := func(i int) {
		status, body := s.admin(t, "k", http.MethodPost, path, "application/x-ndjson", fmt.Sprintf(`{"productNumber":"BK-%04d","title":"backup widget %d"}`, i, i))
		m := writeSeqRE.FindStringSubmatch(body)
		if status != http.StatusOK || m == nil {
			t.Errorf("write %d: %d %s", i, status, body)
			return
		}
		seq, _ := strconv.ParseUint(m[1], 10, 64)
		mu.Lock()
		acked[seq] = true
		mu.Unlock()
	}
	online := filepath.Join(t.TempDir(), "online")
	var pos uint64
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 60 {
			write(i)
		}
	})
	for { // back up with writes before and after it
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n >= 20 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	pos = runBackupCLI(t, "--url", "http://"+s.addr, "--admin-key", "k", "--to", online)
	wg.Wait()
	// Refused, naming the member: a relative path, a destination that
	// exists, a key that is not the operator's.
	for _, tc := range []struct {
		key, body string
		status    int
		want      string
	}{
		{"k", `{"to":"backups/x"}`, http.StatusBadRequest, `"field":"to"`},
		{"k", fmt.Sprintf(`{"to":%q}`, online), http.StatusBadRequest, "already exists"},
		{"k", `{}`, http.StatusBadRequest, "is required"},
		{"wrong", `{"to":"/tmp/never"}`, http.StatusUnauthorized, "UNAUTHORIZED"},
	} {
		status, body := s.admin(t, tc.key, http.MethodPost, "/admin/v1/backup", "application/json", tc.body)
		if status != tc.status || !strings.Contains(body, tc.want) {
			t.Errorf("POST /admin/v1/backup %s: %d %s, want %d with %q", tc.body, status, body, tc.status, tc.want)
		}
	}
	s.shutdown(t)
	stopped := filepath.Join(t.TempDir(), "stopped")
	last := runBackupCLI(t, "--data", data, "--to", stopped)

	before := 0
	for seq := range acked {
		if seq <= pos {
			before++
		}
	}
	if before < 20 || before == len(acked) {
		t.Fatalf("the backup at %d holds %d of %d writes: want it taken among them", pos, before, len(acked))
	}
	for _, tc := range []struct {
		name, dir string
		pos       uint64
		want      int
	}{
		{"online", online, pos, base + before},
		{"stopped", stopped, last, base + len(acked)},
	} {
		r := startCLI(t, "serve", "--data", tc.dir, "--addr", "127.0.0.1:0", "--admin-key", "k")
		if n := r.total(t, config.DefaultKey, "*"); n != tc.want {
			t.Errorf("%s backup at %d serves %d products, want %d", tc.name, tc.pos, n, tc.want)
		}
		if n := r.total(t, config.DefaultKey, "widget"); n != tc.want-base {
			t.Errorf("%s backup at %d finds %d widgets, want %d", tc.name, tc.pos, n, tc.want-base)
		}
		r.shutdown(t)
	}
}
