package store

import (
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble"
	"github.com/goccy/go-json"
)

// compactBatch is how many entries CompactEvents removes in one pebble
// batch.
const compactBatch = 4096

// CompactEvents removes website's log entries of events alone up to
// entry through, oldest first, while expired says an entry's events
// (valid during the call only) may go: the first entry it keeps ends
// the run, so a run reads one entry more than it removes. An entry that
// changes products, content, the configuration or API keys, or writes
// audit entries, is never removed (it is passed over). An entry goes
// whole, its events (v/<uuid>/<seq>) and the entry (l/<seq>), leaving a
// gap in the log's sequence numbers, which every reader steps over; the
// last entry's number (Seq) stays.
// The caller keeps what the entries added up to elsewhere (a behaviour
// snapshot that reaches through). It says how many entries it removed.
func (s *Store) CompactEvents(website string, through uint64, expired func(events []json.RawMessage) bool) (int, error) {
	removed, committed := 0, 0
	err := s.update(func(h *handle) error {
		it, err := h.db.NewIter(&pebble.IterOptions{LowerBound: appendEventsKey(nil, website, 0), UpperBound: appendEventsKey(nil, website, through+1)})
		if err != nil {
			return err
		}
		defer it.Close()
		pb := h.db.NewBatch()
		defer func() { pb.Close() }()
		commit := func() error {
			if pb.Empty() {
				return nil
			}
			if err := h.check(pb.Commit(pebble.NoSync)); err != nil {
				return fmt.Errorf("compact the events of %s: %w", website, err)
			}
			committed = removed
			pb.Close()
			pb = h.db.NewBatch()
			return nil
		}
		for it.First(); it.Valid(); it.Next() {
			w, seq, err := decodeEventsKey(it.Key())
			if err != nil {
				return err
			}
			if w != website {
				return corruptionErrorf("events key %q under website %s", it.Key(), website)
			}
			alone, err := eventsAloneIn(h, seq)
			if err != nil {
				return err
			}
			if !alone {
				continue
			}
			events, err := decodeEvents(seq, it.Value())
			if err != nil {
				return err
			}
			if !expired(events) {
				break
			}
			if err := errors.Join(pb.Delete(it.Key(), nil), pb.Delete(appendLogKey(nil, seq), nil)); err != nil {
				return err
			}
			if removed++; removed%compactBatch == 0 {
				if err := commit(); err != nil {
					return err
				}
			}
		}
		if err := it.Error(); err != nil {
			return err
		}
		return commit()
	})
	if err != nil {
		return committed, err
	}
	return removed, nil
}

// eventsAloneIn reports whether log entry seq of h's database holds
// events alone (or is gone).
func eventsAloneIn(h *handle, seq uint64) (bool, error) {
	v, closer, err := h.db.Get(appendLogKey(nil, seq))
	if errors.Is(err, pebble.ErrNotFound) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	defer closer.Close()
	var e Entry
	if err := json.Unmarshal(v, &e); err != nil {
		return false, fmt.Errorf("decode log entry %d: %w", seq, errors.Join(ErrCorrupt, err))
	}
	return e.eventsAlone(), nil
}

// eventsAlone reports whether e changes no product, content,
// configuration or API key and writes no audit entry: an entry of
// events alone.
func (e *Entry) eventsAlone() bool {
	return len(e.Products)+len(e.Deletes)+len(e.Content)+len(e.ContentDeletes)+len(e.Keys)+len(e.KeyRemovals)+e.AuditCount == 0 && e.Config == nil
}
