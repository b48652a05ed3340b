package live

import (
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/store"
)

// TestSnapshotsFollowTheServer: started, Snapshots saves the behaviour
// every Every and at once after a start that folded AfterReplay events;
// Close saves what was collected since, so a start after it loads the
// snapshot and folds no event; a start that folded fewer saves nothing
// until its first period.
func TestSnapshotsFollowTheServer(t *testing.T) {
	st, eng, _, _ := liveShop(t)
	bhv := engine.NewBehaviours()
	bhv.UseCatalog(eng)
	c := NewCollector(st, eng, bhv)
	collect := func(user string) {
		t.Helper()
		e := events.Event{Website: shopUUID, Kind: events.View, ProductNumber: "A100", User: user}
		if _, err := c.Collect(&e, ""); err != nil {
			t.Fatal(err)
		}
	}
	collect("u1")
	var log lockedBuffer
	lg := slog.New(slog.NewTextHandler(&log, nil))

	// Few folded at start, a long period: nothing saved before Close.
	s := StartSnapshots(kept(st, bhv), SnapshotOptions{Every: time.Hour, Folded: 1, AfterReplay: 2, Log: lg})
	time.Sleep(50 * time.Millisecond)
	if strings.Contains(log.String(), "snapshot saved") {
		t.Errorf("saved before its period:\n%s", log.String())
	}
	collect("u2")
	c.Close() // as aisle serve stops: the collector first
	s.Close()
	if !strings.Contains(log.String(), "why=\"shutting down\"") {
		t.Errorf("Close saved nothing:\n%s", log.String())
	}
	next := engine.NewBehaviours()
	next.UseCatalog(eng)
	if folded, loaded, err := kept(st, next).Replay(); err != nil || folded != 0 || loaded != 1 {
		t.Errorf("the start after Close: %d events folded, %d snapshots loaded, %v; want 0 and 1", folded, loaded, err)
	}

	// Many folded at start: saved at once; then every period.
	c = NewCollector(st, eng, next)
	defer c.Close()
	collect("u3")
	log.take()
	s = StartSnapshots(kept(st, next), SnapshotOptions{Every: 20 * time.Millisecond, Folded: 5, AfterReplay: 5, Log: lg})
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(log.String(), "events folded at start") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	collect("u4")
	for !strings.Contains(log.String(), "why=periodic") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	s.Close()
	for _, want := range []string{"events folded at start", "why=periodic"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("no save %q:\n%s", want, log.String())
		}
	}
}

// behaviourStores are the tests' BehaviourStores, one a Behaviours, as a
// server keeps one beside its Behaviours.
var behaviourStores sync.Map

// kept is b's BehaviourStore in st.
func kept(st *store.Store, b *engine.Behaviours) *BehaviourStore {
	v, _ := behaviourStores.LoadOrStore(b, NewBehaviourStore(st, b))
	return v.(*BehaviourStore)
}
