package engine

import (
	"fmt"
	"sync"

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
	mu     sync.RWMutex
	models map[string]*behaviour.Model // by website UUID
}

// NewBehaviours holds no model yet.
func NewBehaviours() *Behaviours { return &Behaviours{models: map[string]*behaviour.Model{}} }

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
		m = behaviour.New()
		b.models[uuid] = m
	}
	return m
}

// fold adds e to its website's model.
func (b *Behaviours) fold(e *events.Event) { b.Model(e.Website).Fold(e) }

// Replay folds every event in st's log into the models, in log order,
// and says how many; a start calls it before serving.
func (b *Behaviours) Replay(st *store.Store) (int, error) {
	n := 0
	err := st.Entries(0, func(entry *store.Entry) error {
		for i, raw := range entry.Events {
			var e events.Event
			if err := json.Unmarshal(raw, &e); err != nil {
				return fmt.Errorf("log entry %d, event %d: %w", entry.Seq, i+1, err)
			}
			b.fold(&e)
			n++
		}
		return nil
	})
	return n, err
}
