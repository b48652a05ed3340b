package engine

import (
	"fmt"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/store"
)

// eventsPerEntry is how many events a bulk load writes in one group:
// one entry per website of them, so at most this many in an entry.
const eventsPerEntry = 10000

// ImportEvents appends the events read gives (a behaviour log's bulk
// load) to st's change log, 10,000 at a time in one entry per website,
// synced once at the end. Each event must pass events.Check and
// be of a website cfg names; an event without a time gets now. It does
// not stop at a bad event: read is expected to have been checked with
// CheckEvents first, so that a bad line writes nothing; an error here
// leaves the entries written before it. It returns how many events it
// wrote.
func ImportEvents(st *store.Store, cfg *config.File, read func(fn func(*events.Event) error) error) (int, error) {
	now := time.Now().UnixMilli()
	pending := map[string]*store.Batch{}
	var order []string // websites in the order their first event came
	held, n := 0, 0
	flush := func(sync bool) error {
		var bs []*store.Batch
		for _, w := range order {
			if b := pending[w]; !b.Empty() {
				bs = append(bs, b)
			}
		}
		switch {
		case len(bs) > 0:
			if _, err := st.AppendGroup(bs, sync); err != nil {
				return err
			}
		case sync:
			if err := st.Sync(); err != nil {
				return err
			}
		}
		pending, order, held = map[string]*store.Batch{}, order[:0], 0
		return nil
	}
	err := read(func(e *events.Event) error {
		if err := checkEvent(cfg, e); err != nil {
			return err
		}
		if e.Time == 0 {
			e.Time = now
		}
		data, err := json.Marshal(e)
		if err != nil {
			return err
		}
		b := pending[e.Website]
		if b == nil {
			b = &store.Batch{Website: e.Website}
			pending[e.Website] = b
			order = append(order, e.Website)
		}
		b.AddEvent(data)
		n++
		if held++; held >= eventsPerEntry {
			return flush(false)
		}
		return nil
	})
	if err != nil {
		return n, err
	}
	return n, flush(true)
}

// CheckEvents reads the events read gives and checks each as
// ImportEvents would, writing nothing; it returns how many there are.
func CheckEvents(cfg *config.File, read func(fn func(*events.Event) error) error) (int, error) {
	n := 0
	err := read(func(e *events.Event) error {
		n++
		return checkEvent(cfg, e)
	})
	return n, err
}

// checkEvent is events.Check, and e's website in cfg.
func checkEvent(cfg *config.File, e *events.Event) error {
	if err := events.Check(e); err != nil {
		return err
	}
	if _, ok := cfg.Website(e.Website); !ok {
		return fmt.Errorf("websiteUuid: no website %q in the configuration", e.Website)
	}
	return nil
}
