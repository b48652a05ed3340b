package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/store"
)

// TestSIGTERMUnderLoad sends SIGTERM to a serving aisle serve process
// while clients search and send events: every request it accepted is
// answered in full and with success, it saves the behaviour's snapshot,
// closes the store and exits 0, and every event acknowledged before the
// stop is in the store after it.
func TestSIGTERMUnderLoad(t *testing.T) {
	data := shopDir(t)
	c := startChildWith(t, data, "--grace", "1m")
	var answered, failed, acked atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for n := range 8 {
		wg.Go(func() {
			client := &http.Client{Timeout: 30 * time.Second}
			for {
				select {
				case <-stop:
					return
				default:
				}
				path, body := "/serve/search", fmt.Sprintf(`{"query":"*","key":%q,"products":{"count":5}}`, config.DefaultKey)
				if n%2 == 1 {
					path, body = "/serve/collect/view", fmt.Sprintf(`{"websiteUuid":%q,"trackingUserId":"stop-%d","productNumber":"P1"}`, shopSite, n)
				}
				resp, err := client.Post("http://"+c.addr+path, "application/json", strings.NewReader(body))
				if err != nil {
					continue // not accepted: the listener is closed, or an idle connection was
				}
				raw, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				var ok struct{ Success bool }
				if err != nil || resp.StatusCode != http.StatusOK || json.Unmarshal(raw, &ok) != nil || !ok.Success {
					failed.Add(1)
					t.Errorf("%s: %d %q %v", path, resp.StatusCode, raw, err)
					continue
				}
				answered.Add(1)
				if n%2 == 1 {
					acked.Add(1)
				}
			}
		})
	}
	for answered.Load() < 200 {
		time.Sleep(time.Millisecond)
	}
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err := c.cmd.Wait()
	close(stop)
	wg.Wait()
	if err != nil {
		t.Errorf("aisle serve after SIGTERM: %v, want exit 0\n%s", err, c.logs())
	}
	for _, line := range []string{`msg="shutting down"`, `why="shutting down"`, `msg="stopped: every answered write and event is on disk"`} {
		if !strings.Contains(c.logs(), line) {
			t.Errorf("no %s in the log:\n%s", line, c.logs())
		}
	}
	st, err := store.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	logged := 0
	if err := st.Events(func(_ string, _ uint64, evs []json.RawMessage) error { logged += len(evs); return nil }); err != nil {
		t.Fatal(err)
	}
	if int64(logged) < acked.Load() {
		t.Errorf("%d events in the store, %d acknowledged", logged, acked.Load())
	}
	t.Logf("%d requests answered (%d events acknowledged, %d logged), %d failed", answered.Load(), acked.Load(), logged, failed.Load())
}

// TestStopWithARequestInFlight: a request still in flight (an admin write
// whose body never ends) holds a stop back for the grace period only:
// at its end the server logs so and exits 0, its snapshot saved; and a
// second SIGTERM within the grace period ends the process at once.
func TestStopWithARequestInFlight(t *testing.T) {
	for _, tc := range []struct {
		name, grace string
		second      bool
	}{
		{"grace ends", "1s", false},
		{"second signal", "10m", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := startChildWith(t, shopDir(t), "--grace", tc.grace)
			if !c.send("/serve/collect/view", "application/json", "", fmt.Sprintf(`{"websiteUuid":%q,"trackingUserId":"in-flight","productNumber":"P1"}`, shopSite)) {
				t.Fatal("the view was not answered")
			}
			conn := hangingWrite(t, c.addr)
			defer conn.Close()
			start := time.Now()
			if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			if tc.second {
				for !strings.Contains(c.logs(), `msg="shutting down"`) {
					if time.Since(start) > time.Minute {
						t.Fatalf("no shutting down line:\n%s", c.logs())
					}
					time.Sleep(5 * time.Millisecond)
				}
				if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
					t.Fatal(err)
				}
			}
			done := make(chan error, 1)
			go func() { done <- c.cmd.Wait() }()
			var err error
			select {
			case err = <-done:
			case <-time.After(time.Minute):
				t.Fatalf("still running a minute after SIGTERM (grace %s):\n%s", tc.grace, c.logs())
			}
			took := time.Since(start)
			var exit *exec.ExitError
			switch {
			case tc.second:
				if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM {
					t.Errorf("after a second SIGTERM: %v, want the process ended by the signal\n%s", err, c.logs())
				}
			case err != nil:
				t.Errorf("after the grace period: %v, want exit 0\n%s", err, c.logs())
			case !strings.Contains(c.logs(), "requests still in flight at the end of the grace period"):
				t.Errorf("no line for the request left in flight:\n%s", c.logs())
			case !strings.Contains(c.logs(), `why="shutting down"`) || !strings.Contains(c.logs(), "msg=\"stopped: "):
				t.Errorf("no behaviour snapshot saved or no stopped line:\n%s", c.logs())
			}
			t.Logf("ended %s after SIGTERM", took.Round(time.Millisecond))
		})
	}
}

// hangingWrite starts an admin product write on a new connection and
// leaves its body unfinished; it returns once the server is reading it.
func hangingWrite(t *testing.T, addr string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	line := `{"productNumber":"hang-1","title":"Hanging kite","price":1}` + "\n"
	head := fmt.Sprintf("POST /admin/v1/websites/%s/products HTTP/1.1\r\nHost: aisle\r\nAuthorization: Bearer k\r\nContent-Type: application/x-ndjson\r\nContent-Length: %d\r\n\r\n", shopSite, 1<<20)
	if _, err := io.WriteString(conn, head+line); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // the server reads the head and starts the handler
	return conn
}
