package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aisle-search/aisle/internal/expect"
)

// TestFullDisk: aisle serve on a small tmpfs that a file fills. A write
// the disk refuses is answered 503, and so are the writes and events
// after it, while the server lives and searches answer; once the file is
// removed the server takes writes again by itself. Started on a full
// disk with a log to replay, it says why in one line and exits non-zero.
// Every write answered 2xx is there after a restart, and none answered
// 503 is. It mounts the tmpfs, so it needs root: it skips without,
// unless AISLE_REQUIRE_TMPFS (or CI) is on.
func TestFullDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process: not in -short")
	}
	disk := mountTmpfs(t, "128m")
	data := filepath.Join(disk, "shop")
	feed := writeFile(t, t.TempDir(), "feed.jsonl", feedLines)
	mustRun(t, "import", "--data", data, "--quiet", "--website", shopSite, feed)
	c := startChild(t, data)
	word := func(i int) string { return batchWord(1000, i) } // one per write
	acked := []string{word(0)}
	if code, body := c.status("/admin/v1/websites/"+shopSite+"/products", "Bearer k", kites(acked[0])); code != 200 {
		t.Fatalf("a write before the disk is full: %d %s", code, body)
	}

	filler := fill(t, disk)
	// The disk has room again as pebble drops files it no longer needs,
	// so the writes are large: 1,000 of them outgrow the whole tmpfs.
	var refused string // the first write answered 503
	for i := 1; refused == "" && i <= 1000; i++ {
		w := word(i)
		switch code, body := c.status("/admin/v1/websites/"+shopSite+"/products", "Bearer k", paddedKites(w)); code {
		case 200:
			acked = append(acked, w)
		case 503:
			if !strings.Contains(body, `"STORAGE_UNAVAILABLE"`) {
				t.Fatalf("a write the full disk refused: 503 %s, want the STORAGE_UNAVAILABLE body", body)
			}
			refused = w
		default:
			t.Fatalf("a write on a full disk: %d %s\n%s", code, body, c.logs())
		}
	}
	if refused == "" {
		t.Fatalf("1,000 writes of 100 KB on a full 128 MiB disk were all answered 200")
	}
	for range 2 {
		if code, body := c.status("/serve/collect/view", "", `{"websiteUuid":"`+shopSite+`","productNumber":"R1","trackingUserId":"u1"}`); code != 503 {
			t.Fatalf("an event on a full disk: %d %s, want 503", code, body)
		}
	}
	after := word(201)
	if code, body := c.status("/admin/v1/websites/"+shopSite+"/products", "Bearer k", kites(after)); code != 503 {
		t.Fatalf("a write after the disk refused one: %d %s, want 503", code, body)
	}
	if c.cmd.ProcessState != nil {
		t.Fatalf("on a full disk the server ended: %v\n%s", c.cmd.ProcessState, c.logs())
	}
	if shoes, got := c.total(t, "running shoes"), c.total(t, refused); shoes == 0 || got != 0 {
		t.Fatalf("on a full disk, running shoes finds %d products (want some) and the refused write's %d (want none)", shoes, got)
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for freed := word(202); ; {
		code, body := c.status("/admin/v1/websites/"+shopSite+"/products", "Bearer k", kites(freed))
		if code == 200 {
			acked = append(acked, freed)
			break
		}
		if code != 503 || time.Now().After(deadline) {
			t.Fatalf("a write once the disk has room: %d %s\n%s", code, body, c.logs())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code, body := c.status("/serve/collect/view", "", `{"websiteUuid":"`+shopSite+`","productNumber":"R1","trackingUserId":"u1"}`); code != 200 {
		t.Fatalf("an event once the disk has room: %d %s", code, body)
	}

	// Killed with the last writes in the log only, and started on a full
	// disk: the log cannot be replayed into tables.
	c.kill()
	filler = fill(t, disk)
	cmd := exec.Command(os.Args[0], "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k")
	cmd.Env = append(os.Environ(), "AISLE_TEST_AS_MAIN=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	last := lines[len(lines)-1]
	t.Logf("%d writes taken after the fill, then refused; serve on a full disk said %q", len(acked)-2, last)
	if !errors.As(err, &exit) || strings.Contains(string(out), "panic") || strings.Contains(string(out), "goroutine ") || !strings.HasPrefix(last, "aisle: ") || !strings.Contains(last, "no space left on device") {
		t.Fatalf("serve started on a full disk: %v, said:\n%s\nwant one line saying the disk is full, and a non-zero exit", err, out)
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	c = startChild(t, data)
	for _, w := range acked {
		if got := c.total(t, w); got != 3 {
			t.Errorf("after a restart, the answered write %s finds %d products, want 3", w, got)
		}
	}
	for _, w := range []string{refused, after} {
		if got := c.total(t, w); got != 0 {
			t.Errorf("after a restart, the write %s answered 503 finds %d products, want none", w, got)
		}
	}
}

// mountTmpfs mounts a tmpfs of size on a new directory until the test
// ends, or skips the test saying why it cannot (fails, when
// AISLE_REQUIRE_TMPFS is on).
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput()
	if err != nil {
		expect.SkipOrFail(t, expect.RequireTmpfsEnv, fmt.Sprintf("mounting a %s tmpfs failed (it needs root): %v: %s", size, err, strings.TrimSpace(string(out))))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// fill writes a file in dir until the disk refuses, and returns it.
func fill(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return path
		}
	}
}

// kites is a JSON Lines batch of three products titled "Kite <word>".
func kites(word string) string {
	var b strings.Builder
	for j := range 3 {
		fmt.Fprintf(&b, `{"productNumber":"%s-%d","title":"Kite %s","price":%d}`+"\n", word, j, word, j+1)
	}
	return b.String()
}

// paddedKites is kites with a 32 KiB description each.
func paddedKites(word string) string {
	pad := strings.Repeat("padding ", 4<<10)
	var b strings.Builder
	for j := range 3 {
		fmt.Fprintf(&b, `{"productNumber":"%s-%d","title":"Kite %s","description":"%s","price":%d}`+"\n", word, j, word, pad, j+1)
	}
	return b.String()
}

// status posts body to path (with authorization, when not empty; as
// JSON Lines to the admin API, else as text) and returns the status and
// the body.
func (c *child) status(path, authorization, body string) (int, string) {
	req, err := http.NewRequest("POST", "http://"+c.addr+path, strings.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	if strings.HasPrefix(path, "/admin/") {
		req.Header.Set("Content-Type", "application/x-ndjson")
	} else {
		req.Header.Set("Content-Type", "text/plain")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}
