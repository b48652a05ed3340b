package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/store"
)

// TestCrashKeepsAnsweredEvents: the events' crash test. A child aisle
// serve takes events from eight connections at once (group commits) and
// is killed with SIGKILL at a random moment, round after round on one
// directory (every third round it is stopped cleanly instead, saving
// the behaviour's snapshot, which later starts load). In the end every event answered 2xx is in the store once,
// an event in flight at a kill once or not at all, nothing else; and a
// restarted server has folded them: each answered visitor's view comes
// back as RETARGETED, and the behaviour a start builds from the last
// snapshot and the events after it counts every stored event once.
func TestCrashKeepsAnsweredEvents(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills a server process: not in -short")
	}
	data := shopDir(t)
	r := rand.New(rand.NewPCG(10, uint64(*crashRounds)))
	acked := map[string]bool{}    // tracking ids of answered events
	inFlight := map[string]bool{} // tracking ids in flight at a kill
	for round := range *crashRounds {
		c := startChildWith(t, data, "--rate-collect", "0") // one client, as fast as it can
		var mu sync.Mutex
		first := make(chan struct{})
		var firstOnce sync.Once
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Go(func() {
				for i := 0; ; i++ {
					id := fmt.Sprintf("crash-%d-%d-%d", round, w, i)
					mu.Lock()
					inFlight[id] = true
					mu.Unlock()
					if !c.view(id) {
						return
					}
					mu.Lock()
					delete(inFlight, id)
					acked[id] = true
					mu.Unlock()
					firstOnce.Do(func() { close(first) })
				}
			})
		}
		select {
		case <-first:
		case <-time.After(time.Minute):
		}
		time.Sleep(time.Duration(50+r.IntN(350)) * time.Millisecond)
		if round%3 == 1 {
			c.interrupt() // a clean stop: the next start loads a snapshot
		} else {
			c.kill()
		}
		wg.Wait()
	}
	if len(acked) < 10*(*crashRounds) {
		t.Fatalf("only %d events were answered over %d rounds: the test did not exercise the collector", len(acked), *crashRounds)
	}

	// A restart folds them: answered visitors' views come back.
	c := startChild(t, data)
	ids := make([]string, 0, len(acked))
	for id := range acked {
		ids = append(ids, id)
	}
	for range 5 {
		id := ids[r.IntN(len(ids))]
		if got := c.retargeted(t, id); got != "R1" {
			t.Errorf("RETARGETED for %s after the restarts: %q, want R1", id, got)
		}
	}
	c.kill()

	st, err := store.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	times := map[string]int{}
	if err := st.Events(func(_ string, _ uint64, events []json.RawMessage) error {
		for _, raw := range events {
			var e struct {
				Kind string `json:"kind"`
				User string `json:"trackingUserId"`
			}
			if err := json.Unmarshal(raw, &e); err != nil {
				return err
			}
			if e.Kind == "impression" { // the server's, of the RETARGETED box the check below asks
				continue
			}
			times[e.User]++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for id, n := range times {
		switch {
		case n > 1:
			t.Errorf("event of %s stored %d times", id, n)
		case !acked[id] && !inFlight[id]:
			t.Errorf("event of %s stored, never sent", id)
		}
	}
	for id := range acked {
		if times[id] != 1 {
			t.Errorf("answered event of %s stored %d times, want once", id, times[id])
		}
	}
	// The behaviour a start builds (a snapshot from a clean stop, then
	// the events after it) is the one every stored event makes, folded
	// once each.
	loaded := engine.NewBehaviours()
	if _, _, err := live.NewBehaviourStore(st, loaded).Replay(); err != nil {
		t.Fatal(err)
	}
	scratch := behaviour.New()
	if err := st.Events(func(_ string, _ uint64, raws []json.RawMessage) error {
		for _, raw := range raws {
			var e events.Event
			if err := json.Unmarshal(raw, &e); err != nil {
				return err
			}
			scratch.Fold(&e)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	m := loaded.Model(shopSite)
	if a, b := m.Count("R1", behaviour.Views, behaviour.Long, now), scratch.Count("R1", behaviour.Views, behaviour.Long, now); m.Events() != scratch.Events() || math.Abs(a-b) > 1e-6*b {
		t.Errorf("the start's behaviour: %d events, R1 viewed %.3f; every stored event once: %d, %.3f", m.Events(), a, scratch.Events(), b)
	}
	t.Logf("%d rounds: %d events answered, %d in flight at a kill, %d stored", *crashRounds, len(acked), len(inFlight), len(times))
}

// view sends a view of R1 by visitor id and reports whether it was
// answered 2xx; false once the server is gone.
func (c *child) view(id string) bool {
	return c.send("/serve/collect/view", "text/plain", "", fmt.Sprintf(`{"websiteUuid":%q,"productNumber":"R1","trackingUserId":%q}`, shopSite, id))
}

// retargeted is the product numbers /serve/recoms answers as RETARGETED
// for visitor id, space-separated.
func (c *child) retargeted(t *testing.T, id string) string {
	t.Helper()
	body := fmt.Sprintf(`{"websiteUuid":%q,"trackingUserId":%q,"requests":[{"trackingKey":"t","count":5,"sources":[{"type":"RETARGETED"}]}]}`, shopSite, id)
	resp, err := http.Post("http://"+c.addr+"/serve/recoms", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Responses []struct {
			Success  bool
			Message  string
			Products []struct{ ProductNumber string }
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Responses) != 1 {
		t.Fatalf("recoms for %s: %v", id, err)
	}
	var pns []string
	for _, p := range out.Responses[0].Products {
		pns = append(pns, p.ProductNumber)
	}
	if !out.Responses[0].Success {
		return out.Responses[0].Message
	}
	return strings.Join(pns, " ")
}
