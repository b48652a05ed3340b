package engine

import (
	"errors"
	"sync"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/store"
)

// Collector logs behaviour events (package events) with a group commit:
// each Collect waits until its event is durable, and the events that
// arrive while one sync is under way share the next (store.AppendGroup,
// one log entry per website in each group). Events change no product,
// so they never touch a website's index.
type Collector struct {
	st  *store.Store
	eng *Engine
	bhv *Behaviours // folded into once committed
	now func() time.Time

	mu      sync.Mutex
	queue   []*pendingEvent
	wake    chan struct{} // a send wakes the committer
	closed  bool
	stopped chan struct{} // closed when the committer has ended
}

// maxGroup bounds the events of one commit: a larger backlog commits in
// several.
const maxGroup = 4096

// pendingEvent is an event waiting for its commit.
type pendingEvent struct {
	website string
	event   *events.Event
	data    []byte
	seq     uint64
	err     error
	done    chan struct{}
}

// ErrCollectorClosed is Collect's answer once Close has begun.
var ErrCollectorClosed = errors.New("the event collector is closed")

// NewCollector logs events of the websites eng serves into st, and
// folds each into bhv once it is committed, until Close.
func NewCollector(st *store.Store, eng *Engine, bhv *Behaviours) *Collector {
	c := &Collector{st: st, eng: eng, bhv: bhv, now: time.Now, wake: make(chan struct{}, 1), stopped: make(chan struct{})}
	go c.commitLoop()
	return c
}

// Collect checks e (events.Check), stamps it with the time it arrived
// unless it has one, and returns once it is durable in the change log
// and folded into its website's behaviour, with the sequence number of
// the entry that holds it; e is not to be changed after. An event of a
// website the server does not serve is NotFound; an invalid one is
// Invalid, naming the member.
func (c *Collector) Collect(e *events.Event) (uint64, error) {
	if err := events.Check(e); err != nil {
		var ee *events.Error
		if errors.As(err, &ee) {
			return 0, Invalid(ee.Field, "%s", ee.Message)
		}
		return 0, err
	}
	if _, ok := c.eng.Website(e.Website); !ok {
		return 0, NotFound("websiteUuid", "no website %q is served", e.Website)
	}
	if e.Time == 0 {
		e.Time = c.now().UnixMilli()
	}
	data, err := json.Marshal(e)
	if err != nil {
		return 0, err
	}
	p := &pendingEvent{website: e.Website, event: e, data: data, done: make(chan struct{})}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return 0, ErrCollectorClosed
	}
	c.queue = append(c.queue, p)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default: // the committer is awake already
	}
	<-p.done
	return p.seq, p.err
}

// commitLoop commits what is queued, a group at a time, until Close.
func (c *Collector) commitLoop() {
	defer close(c.stopped)
	for {
		<-c.wake
		for {
			c.mu.Lock()
			n := min(len(c.queue), maxGroup)
			group := c.queue[:n:n]
			c.queue = c.queue[n:]
			closed := c.closed
			c.mu.Unlock()
			if n == 0 {
				if closed {
					return
				}
				break
			}
			c.commit(group)
		}
	}
}

// commit writes group as one entry per website, in one sync, and
// answers every event of it.
func (c *Collector) commit(group []*pendingEvent) {
	var batches []*store.Batch
	var of []int // group[i]'s batch
	byWebsite := map[string]int{}
	for _, p := range group {
		k, ok := byWebsite[p.website]
		if !ok {
			k = len(batches)
			byWebsite[p.website] = k
			batches = append(batches, &store.Batch{Website: p.website})
		}
		batches[k].AddEvent(p.data)
		of = append(of, k)
	}
	first, err := c.st.AppendGroup(batches, true)
	for i, p := range group {
		if p.err = err; err == nil {
			p.seq = first + uint64(of[i])
			if c.bhv != nil {
				c.bhv.fold(p.event) // in log order: groups commit one at a time
			}
		}
		close(p.done)
	}
}

// Close commits the events already collected, refuses new ones and
// ends the committer.
func (c *Collector) Close() {
	c.mu.Lock()
	already := c.closed
	c.closed = true
	c.mu.Unlock()
	if already {
		<-c.stopped
		return
	}
	select {
	case c.wake <- struct{}{}:
	default:
	}
	<-c.stopped
}
