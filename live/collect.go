package live

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/store"
)

// Collector logs behaviour events (package events) with a group commit:
// each Collect waits until its events are durable, and the events that
// arrive while one sync is under way share the next (store.AppendGroup,
// one log entry per website in each group). The events of one Collect
// always commit in one group: all or none. Events change no product,
// so they never touch a website's index.
type Collector struct {
	st  *store.Store
	eng *engine.Engine
	bhv *engine.Behaviours // folded into once committed
	now func() time.Time

	mu      sync.Mutex
	queue   []*pendingEvents
	wake    chan struct{} // a send wakes the committer
	closed  bool
	stopped chan struct{} // closed when the committer has ended

	logged eventCounts // by kind (Logged)

	// pub is PublishTo's, guarded by mu; nil logs events here.
	pub EventPublisher
	// applyMu serialises ApplyLogged.
	applyMu sync.Mutex
}

// maxGroup bounds the events of one commit: a larger backlog commits in
// several (a Collect's events are never split).
const maxGroup = 4096

// pendingEvents are one Collect's events waiting for their commit.
type pendingEvents struct {
	events []*events.Event
	data   [][]byte // each event's JSON
	seq    uint64   // the last entry holding them, once committed
	err    error
	done   chan struct{}
}

// ErrCollectorClosed is Collect's answer once Close has begun.
var ErrCollectorClosed = errors.New("the event collector is closed")

// NewCollector logs events of the websites eng serves into st, and
// folds each into bhv once it is committed, until Close; events are
// stamped with eng's clock (Engine.Now).
func NewCollector(st *store.Store, eng *engine.Engine, bhv *engine.Behaviours) *Collector {
	c := &Collector{st: st, eng: eng, bhv: bhv, now: eng.Now, wake: make(chan struct{}, 1), stopped: make(chan struct{})}
	go c.commitLoop()
	return c
}

// Collect checks e (events.Check), stamps it with the time it arrived
// unless it has one, seals its email and customer id (the log keeps
// their hashes, events.IdentityKey), and returns once it is durable in
// the change log and folded into its website's behaviour, with the
// sequence number of the entry that holds it; e is not to be changed
// after. An event of a website the server does not serve is engine.NotFound;
// an invalid one is engine.Invalid, naming the member. apiKey is the sender's
// key, "" for a browser: with the website's key (or the admin key) the
// event may move an email's or customer id's link to its tracking id;
// without, it links only one linked to none; a key that is not valid
// for the website is engine.Unauthorized.
func (c *Collector) Collect(e *events.Event, apiKey string) (uint64, error) {
	return c.collect([]*events.Event{e}, apiKey, false, true)
}

// Record is Collect without waiting for the event to be durable and
// folded, for an event the server records of a request it answers (a
// page's first load is a page view), which should not wait for the
// disk: it returns once e is checked and queued.
func (c *Collector) Record(e *events.Event) error {
	_, err := c.collect([]*events.Event{e}, "", false, false)
	return err
}

// CollectAll is Collect for several events at once, all or none: each
// is checked first, and an error names the event as "events.I.member";
// then they commit together. The sequence number is of the last entry
// holding them (one per website they name).
func (c *Collector) CollectAll(evs []*events.Event, apiKey string) (uint64, error) {
	return c.collect(evs, apiKey, true, true)
}

func (c *Collector) collect(evs []*events.Event, apiKey string, batch, wait bool) (uint64, error) {
	p := &pendingEvents{events: evs, data: make([][]byte, len(evs)), done: make(chan struct{})}
	now := c.now().UnixMilli()
	for i, e := range evs {
		trusted, err := c.check(e, apiKey)
		if err != nil {
			if batch {
				return 0, atEvent(i, err)
			}
			return 0, err
		}
		if e.Time == 0 {
			e.Time = now
		}
		if c.bhv != nil {
			c.bhv.Key().Seal(e, trusted)
		}
		data, err := json.Marshal(e)
		if err != nil {
			return 0, err
		}
		p.data[i] = data
	}
	if len(evs) == 0 {
		return 0, nil
	}
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
	if !wait {
		return 0, nil
	}
	<-p.done
	return p.seq, p.err
}

// check is events.Check as an engine error, and the website served;
// trusted says apiKey is the website's key (or the admin key).
func (c *Collector) check(e *events.Event, apiKey string) (trusted bool, err error) {
	if err := events.Check(e); err != nil {
		var ee *events.Error
		if errors.As(err, &ee) {
			return false, engine.Invalid(ee.Field, "%s", ee.Message)
		}
		return false, err
	}
	g, ok := c.eng.Website(e.Website)
	if !ok {
		return false, engine.NotFound("websiteUuid", "no website %q is served", e.Website)
	}
	if apiKey == "" {
		return false, nil
	}
	if err := c.eng.AuthorizeKey(g, apiKey); err != nil {
		return false, err
	}
	return true, nil
}

// atEvent is err, an engine error about one event, about event i of a
// batch: its field is named "events.I.field".
func atEvent(i int, err error) error {
	var e *engine.Error
	if !errors.As(err, &e) {
		return err
	}
	out := *e
	out.Field = fmt.Sprintf("events.%d", i)
	if e.Field != "" {
		out.Field += "." + e.Field
	}
	return &out
}

// commitLoop commits what is queued, a group at a time, until Close.
func (c *Collector) commitLoop() {
	defer close(c.stopped)
	for {
		<-c.wake
		for {
			c.mu.Lock()
			n, size := 0, 0
			for n < len(c.queue) && (n == 0 || size+len(c.queue[n].events) <= maxGroup) {
				size += len(c.queue[n].events)
				n++
			}
			group := c.queue[:n:n]
			c.queue = c.queue[n:]
			closed, pub := c.closed, c.pub
			c.mu.Unlock()
			if n == 0 {
				if closed {
					return
				}
				break
			}
			if pub != nil {
				c.publish(pub, group)
				continue
			}
			c.commit(group)
		}
	}
}

// commit writes group as one entry per website, in one sync, and
// answers every Collect of it.
func (c *Collector) commit(group []*pendingEvents) {
	var batches []*store.Batch
	byWebsite := map[string]int{}
	for _, p := range group {
		for i, e := range p.events {
			k, ok := byWebsite[e.Website]
			if !ok {
				k = len(batches)
				byWebsite[e.Website] = k
				batches = append(batches, &store.Batch{Website: e.Website})
			}
			batches[k].AddEvent(p.data[i])
		}
	}
	first, err := c.st.AppendGroup(batches, true)
	for _, p := range group {
		if p.err = err; err == nil {
			last := 0
			for _, e := range p.events {
				c.logged.count(e.Kind, 1)
				last = max(last, byWebsite[e.Website])
				if c.bhv != nil {
					c.bhv.Fold(e) // in log order: groups commit one at a time
				}
			}
			p.seq = first + uint64(last)
		}
	}
	if err == nil && c.bhv != nil {
		for w, k := range byWebsite {
			c.bhv.Model(w).Through(first + uint64(k))
		}
	}
	for _, p := range group {
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
