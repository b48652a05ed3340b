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

// Replay folds every event st holds into the models, each website's in
// log order (store.Events, which reads only the events), and says how
// many; a start calls it before serving.
func (b *Behaviours) Replay(st *store.Store) (int, error) {
	n := 0
	err := st.Events(func(website string, seq uint64, raw []json.RawMessage) error {
		m := b.Model(website)
		for i, data := range raw {
			var e events.Event
			if err := json.Unmarshal(data, &e); err != nil {
				return fmt.Errorf("log entry %d, event %d: %w", seq, i+1, err)
			}
			m.Fold(&e)
			n++
		}
		return nil
	})
	return n, err
}
