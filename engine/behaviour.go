package engine

import (
	"crypto/rand"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/store"
)

// Behaviours holds each website's behaviour model (package behaviour),
// fed by the Collector as events are committed and, at a start, by
// Replay from the change log. A website's model is kept apart from its
// index generations: events never make a generation, and a model outlives
// the website's re-indexing.
type Behaviours struct {
	mu       sync.RWMutex
	models   map[string]*behaviour.Model // by website UUID
	savedSeq map[string]uint64           // the entry each website's last snapshot reaches
	catalog  *Engine                     // resolves views of a page to its product; nil: none
	key      *events.IdentityKey         // seals emails and customer ids (UseSecret)
	budget   behaviour.Budget            // each model's (UseBudget)
}

// UseSecret makes the emails and customer ids of events, and of the
// visitors recommendations look up, hashed under secret (the data
// directory's, store.Secret), so links outlive a restart; call it before
// Replay. Without it they are hashed under a random key of this process.
func (b *Behaviours) UseSecret(secret []byte) { b.key = events.NewIdentityKey(secret) }

// Key is the key emails and customer ids are hashed under.
func (b *Behaviours) Key() *events.IdentityKey { return b.key }

// UseBudget makes each website's model keep at most b's visitors and
// links (behaviour.Budget; NewBehaviours' is behaviour.DefaultBudget);
// call it before Replay.
func (b *Behaviours) UseBudget(budget behaviour.Budget) { b.budget = budget }

// UseCatalog makes events count only for products eng serves, whether
// they are collected, replayed or imported (foldInto): views that name
// only a page's address count for the product of the website whose url
// it is; call it before Replay.
func (b *Behaviours) UseCatalog(eng *Engine) { b.catalog = eng }

// NewBehaviours holds no model yet.
func NewBehaviours() *Behaviours {
	secret := make([]byte, 32)
	rand.Read(secret) //nolint:errcheck // crypto/rand.Read does not fail
	return &Behaviours{models: map[string]*behaviour.Model{}, key: events.NewIdentityKey(secret), budget: behaviour.DefaultBudget}
}

// Model is website uuid's model, empty until an event of it is folded.
func (b *Behaviours) Model(uuid string) *behaviour.Model {
	b.mu.RLock()
	m := b.models[uuid]
	b.mu.RUnlock()
	if m != nil {
		return m
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if m = b.models[uuid]; m == nil {
		m = behaviour.NewBudget(b.budget)
		b.models[uuid] = m
	}
	return m
}

// Forget drops website uuid's model (a website no longer served): its
// next event starts an empty one. What the log holds of it stays.
func (b *Behaviours) Forget(uuid string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.models, uuid)
}

// Bytes is the room every website's model takes (behaviour.Size.Bytes),
// about the heap the behaviour holds.
func (b *Behaviours) Bytes() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	n := 0
	for _, m := range b.models {
		n += m.Size().Bytes
	}
	return n
}

// Fold adds e to its website's model.
func (b *Behaviours) Fold(e *events.Event) { b.foldInto(b.Model(e.Website), e) }

// foldInto adds e to m. With a catalog (UseCatalog) that serves e's
// website, e counts only for the products it holds (inCatalog), so a
// model keeps no number a visitor made up: its products are bounded by
// the catalog's. Without one, or for a website it does not serve (one
// that failed to open), e is folded as logged, within the model's
// maxProducts. e is not changed: the log keeps what the visitor sent.
// An event logged before the log sealed emails and customer ids is
// sealed here, as one that may relink them, as such events did.
func (b *Behaviours) foldInto(m *behaviour.Model, e *events.Event) {
	if b.catalog != nil {
		if g, ok := b.catalog.Website(e.Website); ok {
			e = g.inCatalog(e)
		}
	}
	if e.Email != "" || e.CustomerID != "" {
		sealed := *e
		b.key.Seal(&sealed, true)
		e = &sealed
	}
	m.Fold(e)
}

// inCatalog is e as it counts for g's catalog: a view, cart or purchase
// names the catalog's products under their stored numbers (compared
// folded, as product writes compare them; a variant's number is not its
// product's, as the recommendations that read the model look products
// up), and leaves out numbers it does not hold; a view that names no
// product the catalog holds counts for the product whose url its page
// is, if any. Other kinds count for no product (a click for its
// campaign). A product deleted after its events were folded keeps its
// counts: it was real, and nothing answers it once deleted; a replay
// against the catalog of the day folds them no more. e itself when it
// needs no change, else a copy.
func (g *Generation) inCatalog(e *events.Event) *events.Event {
	switch e.Kind {
	case events.View:
		pn := ""
		if e.ProductNumber != "" {
			pn, _ = g.StoredNumber(e.ProductNumber)
		}
		if pn == "" && e.URL != "" {
			if d, ok := g.productByURL(e.URL); ok {
				pn = g.Products.Key(d)
			}
		}
		if pn == e.ProductNumber {
			return e
		}
		out := *e
		out.ProductNumber = pn
		return &out
	case events.Cart, events.Purchase:
		pns := e.Products()
		var kept []string // nil while every number is the catalog's, as given
		for i, pn := range pns {
			key, ok := g.StoredNumber(pn)
			if kept == nil && (!ok || key != pn) {
				kept = append(make([]string, 0, len(pns)), pns[:i]...)
			}
			if kept != nil && ok {
				kept = append(kept, key)
			}
		}
		if kept == nil {
			return e
		}
		out := *e
		out.ProductNumbers, out.Lines = kept, nil
		return &out
	}
	return e
}

// Replay loads each website's behaviour snapshot (store.Snapshot), when
// it has one the log still holds, and folds the events logged after it
// (or all of them), each website's in log order, reading only the
// events; it says how many it folded and how many snapshots it loaded.
// A start calls it before serving. A snapshot that does not read back
// is skipped, and that website's events are all folded.
func (b *Behaviours) Replay(st *store.Store) (folded, loaded int, err error) {
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
			if m, err = behaviour.DecodeSnapshot(data, b.budget); err != nil || m.Seq() > st.Seq() {
				m = nil // replayed from the start instead
			}
		}
		var from uint64 // the entry the loaded snapshot reaches
		if m != nil {
			loaded++
			from = m.Seq()
		} else {
			m = behaviour.NewBudget(b.budget)
		}
		err = st.EventsAfter(w, m.Seq(), func(seq uint64, raw []json.RawMessage) error {
			for i, data := range raw {
				var e events.Event
				if err := json.Unmarshal(data, &e); err != nil {
					return fmt.Errorf("log entry %d, event %d: %w", seq, i+1, err)
				}
				b.foldInto(m, &e)
				folded++
			}
			m.Through(seq)
			return nil
		})
		if err != nil {
			return folded, loaded, err
		}
		b.mu.Lock()
		b.models[w] = m
		if from > 0 && m.Seq() == from { // nothing after it: no need to save it again
			if b.savedSeq == nil {
				b.savedSeq = map[string]uint64{}
			}
			b.savedSeq[w] = from
		}
		b.mu.Unlock()
	}
	return folded, loaded, nil
}

// Snapshot saves the snapshot of every model that folded events since
// its last (store.PutSnapshot), so the next start folds only what comes
// after (and Compact may remove what it covers); it says how many it
// saved. Folding waits while a model is encoded.
func (b *Behaviours) Snapshot(st *store.Store) (int, error) {
	b.mu.RLock()
	models := make(map[string]*behaviour.Model, len(b.models))
	for w, m := range b.models {
		models[w] = m
	}
	b.mu.RUnlock()
	n := 0
	for w, m := range models {
		if m.Seq() == 0 || b.saved(w) == m.Seq() {
			continue
		}
		seq := m.Seq()
		if err := st.PutSnapshot(w, m.AppendSnapshot(nil)); err != nil {
			return n, err
		}
		b.mu.Lock()
		if b.savedSeq == nil {
			b.savedSeq = map[string]uint64{}
		}
		b.savedSeq[w] = seq
		b.mu.Unlock()
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
func (b *Behaviours) Compact(st *store.Store, now time.Time) (int, error) {
	b.mu.RLock()
	saved := maps.Clone(b.savedSeq)
	b.mu.RUnlock()
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
func (b *Behaviours) saved(website string) uint64 {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.savedSeq[website]
}
