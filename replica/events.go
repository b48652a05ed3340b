package replica

import (
	"context"
	"strconv"
	"strings"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/store"
)

// Visitors' events. Each website has an events log beside its change
// log: any node appends the events it receives (no lease: events do not
// depend on one another, and a node that stops takes no event with it),
// and every node follows the log and folds its entries
// (live.Collector.ApplyLogged), the receiving node included, so every
// node's behaviour (popularity, recommendations, personalization) holds
// the same events, each within the lag of its log.

// eventsPrefix starts the name of a website's events log.
const eventsPrefix = "events-"

// EventsLog is the name of website's events log.
func EventsLog(website string) string { return eventsPrefix + website }

// isEventsLog reports whether name is an events log's.
func isEventsLog(name string) bool { return strings.HasPrefix(name, eventsPrefix) }

// FollowEvents replicates visitors' events: c publishes the events it
// collects to their website's events log, and this node follows every
// served website's events log and folds it into c. Call it once, before
// the API opens.
func (r *Replicator) FollowEvents(ctx context.Context, c *live.Collector) error {
	r.mu.Lock()
	r.collector = c
	r.mu.Unlock()
	if err := r.reconcile(ctx); err != nil {
		return err
	}
	c.PublishTo(r)
	return nil
}

// errEventsLog answers events of a website whose events log this node
// does not follow yet (its configuration is being applied).
var errEventsLog = &engine.Error{Kind: engine.KindUnavailable, Code: "LOG_UNAVAILABLE",
	Message: "the website's events log is being opened, so the events were not taken; send them again shortly"}

// PublishEvents appends a website's events to its events log, as one
// entry (a batch of the website's events, store.AppendBatch), retried
// under one id until publishTimeout; it returns once the log has it.
func (r *Replicator) PublishEvents(website string, events [][]byte) error {
	s := r.state(EventsLog(website))
	if s == nil {
		return errEventsLog
	}
	b := &store.Batch{Website: website}
	for _, e := range events {
		b.AddEvent(e)
	}
	entry, err := store.AppendBatch(nil, b)
	if err != nil {
		return err
	}
	id := r.id + ":" + strconv.FormatUint(r.published.Add(1), 10)
	err = r.untilConfirmed(func(ctx context.Context) error {
		_, err := s.log.Add(ctx, id, entry)
		return err
	})
	if err != nil {
		r.o.Log.Warn("the cluster did not confirm events", "log", s.name, "err", err)
		return errUnconfirmed
	}
	return nil
}
