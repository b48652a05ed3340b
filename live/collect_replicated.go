package live

import (
	"fmt"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/store"
)

// An EventPublisher appends visitors' events to a replicated log of the
// website's events (package replica's), which every node of a cluster
// follows and folds (Collector.ApplyLogged), the node that received
// them included.
type EventPublisher interface {
	// PublishEvents appends events, each an event's JSON, to website's
	// events log, and returns once the log has them (a quorum of its
	// servers); on an error they may not be logged.
	PublishEvents(website string, events [][]byte) error
}

// PublishTo makes the Collector publish the events it collects to p
// instead of logging and folding them here: a Collect is answered once
// p has them, and they are folded when this node applies them from the
// log (ApplyLogged). nil logs them here (a single node, the default).
// Set it before the API opens.
func (c *Collector) PublishTo(p EventPublisher) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pub = p
}

// publish publishes group's events, one entry per website, and answers
// every Collect of it with the first failure, if any.
func (c *Collector) publish(pub EventPublisher, group []*pendingEvents) {
	var order []string
	byWebsite := map[string][][]byte{}
	for _, p := range group {
		for i, e := range p.events {
			if _, ok := byWebsite[e.Website]; !ok {
				order = append(order, e.Website)
			}
			byWebsite[e.Website] = append(byWebsite[e.Website], p.data[i])
		}
	}
	var err error
	for _, w := range order {
		if err = pub.PublishEvents(w, byWebsite[w]); err != nil {
			break
		}
	}
	for _, p := range group {
		if p.err = err; err == nil {
			for _, e := range p.events {
				c.logged.count(e.Kind, 1)
			}
		}
		close(p.done)
	}
}

// ApplyLogged logs b, an entry of a website's events log (its position
// set), and folds its events into the website's behaviour, as a single
// node does the events it collects; an entry at or before its log's
// applied position is skipped. Entries are applied one at a time.
func (c *Collector) ApplyLogged(b *store.Batch) error {
	p, ok := b.Position()
	if !ok {
		return errNotLogged
	}
	c.applyMu.Lock()
	defer c.applyMu.Unlock()
	if p.Seq <= c.st.Position(p.Log) {
		return nil
	}
	evs := make([]*events.Event, len(b.Events()))
	for i, data := range b.Events() {
		evs[i] = new(events.Event)
		if err := json.Unmarshal(data, evs[i]); err != nil {
			return fmt.Errorf("event %d of entry %d of %s: %w", i, p.Seq, p.Log, err)
		}
	}
	seq, err := c.st.AppendGroup([]*store.Batch{b}, true)
	if err != nil {
		return err
	}
	if c.bhv != nil {
		for _, e := range evs {
			c.bhv.Fold(e)
		}
		c.bhv.Model(b.Website).Through(seq)
	}
	return nil
}
