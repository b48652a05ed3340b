package live

import (
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/store"
)

// BehaviourStore keeps engine.Behaviours in a store: each website's
// model saved as a snapshot, the events logged after it folded again at
// a start, and the log entries a snapshot covers compacted away.
type BehaviourStore struct {
	st       *store.Store
	bhv      *engine.Behaviours
	mu       sync.Mutex
	savedSeq map[string]uint64 // the entry each website's last snapshot reaches
}

// NewBehaviourStore keeps bhv in st.
func NewBehaviourStore(st *store.Store, bhv *engine.Behaviours) *BehaviourStore {
	return &BehaviourStore{st: st, bhv: bhv, savedSeq: map[string]uint64{}}
}

// Replay loads each website's behaviour snapshot (store.Snapshot), when
// it has one the log still holds, and folds the events logged after it
// (or all of them), each website's in log order, reading only the
// events; it says how many it folded and how many snapshots it loaded.
// A start calls it before serving. A snapshot that does not read back
// is skipped, and that website's events are all folded.
func (p *BehaviourStore) Replay() (folded, loaded int, err error) {
	st, b := p.st, p.bhv
	websites, err := st.EventWebsites()
	if err != nil {
		return 0, 0, err
	}
	snapshots, err := st.SnapshotWebsites() // some may have no events left (Compact)
	if err != nil {
		return 0, 0, err
	}
	websites = slices.Compact(slices.Sorted(slices.Values(append(websites, snapshots...))))
	for _, w := range websites {
		var m *behaviour.Model
		data, err := st.Snapshot(w)
		if err != nil {
			return folded, loaded, err
		}
		if data != nil {
			if m, err = behaviour.DecodeSnapshot(data, b.Budget()); err != nil || m.Seq() > st.Seq() {
				m = nil // replayed from the start instead
			}
		}
		var from uint64 // the entry the loaded snapshot reaches
		if m != nil {
			loaded++
			from = m.Seq()
		} else {
			m = behaviour.NewBudget(b.Budget())
		}
		err = st.EventsAfter(w, m.Seq(), func(seq uint64, raw []json.RawMessage) error {
			for i, data := range raw {
				var e events.Event
				if err := json.Unmarshal(data, &e); err != nil {
					return fmt.Errorf("log entry %d, event %d: %w", seq, i+1, err)
				}
				b.FoldInto(m, &e)
				folded++
			}
			m.Through(seq)
			return nil
		})
		if err != nil {
			return folded, loaded, err
		}
		b.Serve(w, m)
		if from > 0 && m.Seq() == from { // nothing after it: no need to save it again
			p.markSaved(w, from)
		}
	}
	return folded, loaded, nil
}

// Snapshot saves the snapshot of every model that folded events since
// its last (store.PutSnapshot), so the next start folds only what comes
// after (and Compact may remove what it covers); it says how many it
// saved. Folding waits while a model is encoded.
func (p *BehaviourStore) Snapshot() (int, error) {
	st := p.st
	n := 0
	for w, m := range p.bhv.Models() {
		if m.Seq() == 0 || p.saved(w) == m.Seq() {
			continue
		}
		seq := m.Seq()
		if err := st.PutSnapshot(w, m.AppendSnapshot(nil)); err != nil {
			return n, err
		}
		p.markSaved(w, seq)
		n++
	}
	return n, nil
}

// Compact removes from st's log the entries of events alone that each
// website's saved snapshot reaches (saved by Snapshot, or loaded by
// Replay) and whose events are all older than behaviour.LongHalfLife,
// the behaviour's longest window, before now: oldest first, up to the
// first entry with a later event (store.CompactEvents). A start loads
// the snapshot and folds only the entries after it, so the log stops
// growing with time; an entry after the saved snapshot is never
// removed. A start that cannot read the snapshot (of another layout)
// folds what is left, which lacks only events whose weight has halved
// in the long window and vanished from the short one. Call it after
// Snapshot; it says how many entries it removed.
func (p *BehaviourStore) Compact(now time.Time) (int, error) {
	st := p.st
	p.mu.Lock()
	saved := maps.Clone(p.savedSeq)
	p.mu.Unlock()
	before := now.Add(-behaviour.LongHalfLife).UnixMilli()
	expired := func(raw []json.RawMessage) bool {
		for _, data := range raw {
			var e struct {
				Time int64 `json:"time"`
			}
			if json.Unmarshal(data, &e) != nil || e.Time >= before {
				return false
			}
		}
		return true
	}
	removed := 0
	for _, w := range slices.Sorted(maps.Keys(saved)) {
		n, err := st.CompactEvents(w, saved[w], expired)
		removed += n
		if err != nil {
			return removed, fmt.Errorf("compact the event log of %s: %w", w, err)
		}
	}
	return removed, nil
}

// saved is the log entry website's last saved snapshot reaches.
func (p *BehaviourStore) saved(website string) uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.savedSeq[website]
}

// markSaved records that website's saved snapshot reaches entry seq.
func (p *BehaviourStore) markSaved(website string, seq uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.savedSeq[website] = seq
}
