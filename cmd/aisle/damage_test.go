package main

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/store"
)

// TestRestoreAfterDamage: a store one of whose tables is cut short stops
// aisle serve before it serves anything, with one line naming the table
// and the way back, and changes nothing; serving the latest backup then
// serves the state at the backup's position: the writes acknowledged
// before it, none after.
func TestRestoreAfterDamage(t *testing.T) {
	data := shopDir(t)
	s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k")
	base := s.total(t, config.DefaultKey, "*")
	write := func(word string) {
		status, body := s.admin(t, "k", http.MethodPost, "/admin/v1/websites/"+shopSite+"/products", "application/x-ndjson",
			fmt.Sprintf(`{"productNumber":"%s-1","title":"%s lamp"}`, word, word))
		if status != http.StatusOK {
			t.Fatalf("write %s: %d %s", word, status, body)
		}
	}
	write("before")
	backup := filepath.Join(t.TempDir(), "backup")
	pos := runBackupCLI(t, "--url", "http://"+s.addr, "--admin-key", "k", "--to", backup)
	write("after")
	s.shutdown(t)

	// Cut the largest table in half.
	tables, _ := filepath.Glob(filepath.Join(data, "*.sst"))
	if len(tables) == 0 {
		t.Fatal("the data directory holds no table to damage")
	}
	slices.SortFunc(tables, func(a, b string) int { return int(fileSize(t, b) - fileSize(t, a)) })
	if err := os.Truncate(tables[0], fileSize(t, tables[0])/2); err != nil {
		t.Fatal(err)
	}
	before := dirListing(t, data)
	cmd := exec.Command(os.Args[0], "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k")
	cmd.Env = append(os.Environ(), "AISLE_TEST_AS_MAIN=1")
	var stderr syncBuffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Errorf("aisle serve on a damaged store: %v, want exit status 2", err)
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	table := filepath.Base(tables[0])
	if len(lines) != 1 || !strings.Contains(lines[0], "cannot be read") || !strings.Contains(lines[0], table) || !strings.Contains(lines[0], "Restore the latest backup") {
		t.Errorf("aisle serve on a damaged store said, want one line naming %s and the backup:\n%s", table, stderr.String())
	}
	if after := dirListing(t, data); after != before {
		t.Errorf("the failed start changed the directory:\n%s\nwas\n%s", after, before)
	}

	// The way back: serve the backup.
	r := startCLI(t, "serve", "--data", backup, "--addr", "127.0.0.1:0", "--admin-key", "k")
	for word, want := range map[string]int{"*": base + 1, "before": 1, "after": 0} {
		if n := r.total(t, config.DefaultKey, word); n != want {
			t.Errorf("the restored backup finds %d for %q, want %d", n, word, want)
		}
	}
	r.shutdown(t)
	st, err := store.Open(backup)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if st.Seq() != pos {
		t.Errorf("the restored store is at position %d, the backup said %d", st.Seq(), pos)
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// dirListing is dir's files with their sizes, one a line.
func dirListing(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %d\n", e.Name(), fi.Size())
	}
	return b.String()
}
