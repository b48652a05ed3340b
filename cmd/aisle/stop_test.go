package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/store"
)

// TestCleanStopUnderLoad stops a serving server (the signal's context,
// as SIGTERM does) while clients search and send events: every request
// answered is answered in full and with success, the server returns no
// error, and every event acknowledged before the stop is in the store
// after it.
func TestCleanStopUnderLoad(t *testing.T) {
	data := shopDir(t)
	s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k", "--grace", "10s")
	var answered, failed, acked atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for c := range 8 {
		wg.Go(func() {
			client := &http.Client{Timeout: 10 * time.Second}
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				path, body := "/serve/search", fmt.Sprintf(`{"query":"*","key":%q,"products":{"count":5}}`, config.DefaultKey)
				if c%2 == 1 {
					path, body = "/serve/collect/view", fmt.Sprintf(`{"websiteUuid":%q,"trackingUserId":"stop-%d","productNumber":"P1"}`, shopSite, c)
				}
				resp, err := client.Post("http://"+s.addr+path, "application/json", strings.NewReader(body))
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
				if c%2 == 1 {
					acked.Add(1)
				}
			}
		})
	}
	for answered.Load() < 200 {
		time.Sleep(time.Millisecond)
	}
	if err := s.stop(); err != nil {
		t.Errorf("the server's stop: %v", err)
	}
	close(stop)
	wg.Wait()
	if !strings.Contains(s.stderr.String(), `why="shutting down"`) {
		t.Errorf("no behaviour snapshot saved at the stop:\n%s", s.stderr.String())
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
