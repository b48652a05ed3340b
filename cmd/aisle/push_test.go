package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestPushSaysWhatWasApplied: a push stopped part way says which
// products the server applied: when the connection drops on a batch, the
// batches before it were applied and that one may have been; when the
// server refuses a batch, those before were and it was not; when a bad
// product stops the read, the batches sent were and the one being filled
// was not.
func TestPushSaysWhatWasApplied(t *testing.T) {
	var calls atomic.Int32
	var refuse atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) < 2 {
			fmt.Fprint(w, `{"success":true,"added":1000,"updated":0}`)
			return
		}
		if refuse.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(w, `{"success":false,"error":{"code":"STORAGE_UNAVAILABLE","message":"the disk refused the write"}}`)
			return
		}
		conn, _, err := w.(http.Hijacker).Hijack() // the connection drops mid-answer
		if err == nil {
			conn.Close()
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	var lines []string
	for i := range 2500 {
		lines = append(lines, fmt.Sprintf(`{"productNumber":"K%04d","title":"Kite"}`, i))
	}
	feed := writeFile(t, dir, "kites.jsonl", strings.Join(lines, "\n"))
	for _, tc := range []struct{ fail, says string }{
		{"drop", "push products 1001–2000: "},
		{"drop", "the 1000 products before them were applied, and these may have been"},
		{"refuse", "the 1000 products before them were applied, these were not"},
	} {
		refuse.Store(tc.fail == "refuse")
		calls.Store(0)
		_, err := runCLI("import", "--url", srv.URL, "--admin-key", "k", "--website", shopSite, "--quiet", feed)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want it to say %q", tc.fail, err, tc.says)
		}
	}
	lines[1500] = `{"productNumber":"K1500"}`
	bad := writeFile(t, dir, "bad.jsonl", strings.Join(lines, "\n"))
	calls.Store(0)
	_, err := runCLI("import", "--url", srv.URL, "--admin-key", "k", "--website", shopSite, "--quiet", bad)
	if err == nil || !strings.Contains(err.Error(), "the 1000 products before the batch being filled were applied, that batch was not sent") {
		t.Errorf("a bad product in the second batch: %v", err)
	}
}
