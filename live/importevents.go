package live

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/store"
)

// eventsPerEntry is how many events a bulk load writes in one group:
// one entry per website of them, so at most this many in an entry.
const eventsPerEntry = 10000

// maxImportAhead is how far past the import's time an imported event's
// time may be (clocks and time zones differ). One later than that (say
// microseconds taken for milliseconds) would become the analytics'
// latest day: they would drop every day before it, and count no event
// until the clock reached it.
const maxImportAhead = 24 * 60 * 60 * 1000

// ImportEvents appends the events read gives (a behaviour log's bulk
// load) to st's change log in one pass, 10,000 at a time in one entry
// per website, synced once at the end, and returns how many it wrote.
// Each event must pass events.Check, be of a website cfg names and not
// be more than a day after now (maxImportAhead); an event without a
// time gets now; emails and customer ids are sealed
// (events.IdentityKey, under st.Secret) and may relink. read gives each
// event with its JSON as the log keeps it when it has it
// (events.DecodeChecked; read may reuse the bytes once fn returns), or
// nil. All or nothing: at the first bad event, or error of read, what
// the load wrote is taken back (store.TruncateEvents) and the error
// returned. Writing overlaps reading: one group is appended while the
// next is read.
func ImportEvents(st *store.Store, cfg *config.File, read func(fn func(e *events.Event, data []byte) error) error) (int, error) {
	secret, err := st.Secret()
	if err != nil {
		return 0, err
	}
	key := events.NewIdentityKey(secret)
	before := st.Seq()
	groups := make(chan []*store.Batch, 2)
	appended := make(chan error, 1)
	go func() {
		var err error
		for bs := range groups {
			if err == nil {
				_, err = st.AppendGroup(bs, false)
			}
		}
		appended <- err
	}()
	now := time.Now().UnixMilli()
	pending := map[string]*store.Batch{}
	var order []*store.Batch // in the order their website's first event came
	held, n := 0, 0
	flush := func() {
		if held > 0 {
			groups <- order
		}
		pending, order, held = map[string]*store.Batch{}, nil, 0
	}
	err = read(func(e *events.Event, data []byte) error {
		if err := checkEvent(cfg, e); err != nil {
			return err
		}
		if e.Time > now+maxImportAhead {
			return fmt.Errorf("time: %d is more than a day after the import's %d: want Unix milliseconds of when it happened", e.Time, now)
		}
		if e.Time == 0 {
			e.Time, data = now, nil
		}
		if e.Email != "" || e.CustomerID != "" {
			// The shop's own history: it may link as it says.
			key.Seal(e, true)
			data = nil
		}
		if data == nil {
			var err error
			if data, err = json.Marshal(e); err != nil {
				return err
			}
		} else {
			data = slices.Clone(data)
		}
		b := pending[e.Website]
		if b == nil {
			b = &store.Batch{Website: e.Website}
			pending[e.Website] = b
			order = append(order, b)
		}
		b.AddEvent(data)
		n++
		if held++; held >= eventsPerEntry {
			flush()
		}
		return nil
	})
	if err == nil {
		flush()
	}
	close(groups)
	if werr := <-appended; err == nil {
		err = werr
	}
	if err == nil {
		err = st.Sync()
	}
	if err != nil {
		if terr := st.TruncateEvents(before); terr != nil {
			return 0, errors.Join(err, fmt.Errorf("take back the events written: %w", terr))
		}
		return 0, err
	}
	return n, nil
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
