package live

import (
	"slices"
	"sync/atomic"

	"github.com/aisle-search/aisle/events"
)

// CountedKinds are the event kinds a Collector counts (Logged): those a
// browser or the shop sends (events.Kinds), and the server's
// impressions.
var CountedKinds = [...]events.Kind{events.View, events.Click, events.Cart, events.Purchase, events.Search, events.Pageview, events.Impression}

// eventCounts are the events logged, by index of CountedKinds.
type eventCounts [len(CountedKinds)]atomic.Uint64

// count adds n events of kind k; a kind Check refuses is not counted.
func (c *eventCounts) count(k events.Kind, n uint64) {
	if i := slices.Index(CountedKinds[:], k); i >= 0 {
		c[i].Add(n)
	}
}

// Logged is how many events of kind k the Collector logged since
// NewCollector: durable in the change log, each Collect's, CollectAll's
// and Record's once its group committed.
func (c *Collector) Logged(k events.Kind) uint64 {
	if i := slices.Index(CountedKinds[:], k); i >= 0 {
		return c.logged[i].Load()
	}
	return 0
}
