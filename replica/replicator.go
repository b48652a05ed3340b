package replica

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/aisle-search/aisle/cluster"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/store"
)

// ServerLog is the name of the server's log: the configuration and the
// API keys. A website's log is named by its UUID.
const ServerLog = "server"

// Options configure a Replicator. NATS, Store, Engine and Writer are
// required.
type Options struct {
	// NATS is the connection to the cluster's NATS servers.
	NATS *nats.Conn
	// Replicas is how many copies of each log the cluster keeps: 1 on
	// one NATS server, 3 in a three-node cluster (default 1).
	Replicas int
	// URL is this node's advertised HTTP address, which its leases name
	// so the other nodes send it the changes of the logs it writes.
	URL string
	// LeaseTTL is how long a writer's lease outlives its last renewal:
	// how long a dead writer's logs take no writes (default 3s).
	LeaseTTL time.Duration
	Store    *store.Store
	Engine   *engine.Engine
	Writer   *live.Writer
	// Log receives the replication's notices; default slog.Default().
	Log *slog.Logger
}

// publishTimeout bounds an append: a log whose NATS servers elect a new
// leader takes a few seconds; the append is retried under its message id
// until then, so a retry never appends twice.
const publishTimeout = 10 * time.Second

// Replicator is a node of a cluster: the follower of every log, and the
// writer of those whose lease it holds.
type Replicator struct {
	o      Options
	leases *cluster.Leases
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu        sync.Mutex
	logs      map[string]*logState // by log name
	collector *live.Collector      // FollowEvents'; nil: events are not replicated
	published atomic.Uint64        // events entries published: their ids' counter
	id        string               // this Replicator's id in its events entries' ids
	snaps     *cluster.Snapshots   // opened by snapshots
	kick      chan struct{}        // kickLeases'
}

// logState is one log as this node sees it.
type logState struct {
	name   string
	events bool // a website's events log (EventsLog): no lease, folded by the Collector
	log    *cluster.Log
	cancel context.CancelFunc // ends its follower
	done   chan struct{}      // closed when its follower ended

	// guarded by Replicator.mu
	lease     *cluster.Lease // held; nil otherwise
	writable  bool           // lease held and the log applied through its last entry
	writer    string         // the writer's URL as last seen; this node's when it writes
	last      uint64         // the log's last position as last seen
	err       error          // the follower's last failure, nil once it applies again
	applied   uint64         // the applied position watch saw last
	movedAt   time.Time      // when it saw it move, an entry was applied, or the follower started
	applying  int            // entries being applied now (a restarted follower's may overlap)
	unread    error          // why the log's last position could not be read, nil once it was
	readSince time.Time      // since when it could not
}

// Start joins the cluster: it opens the server's log and the leases,
// follows the server's log and the log of every website the stored
// configuration names, takes the leases no one holds, and makes itself
// o.Writer's Publisher.
func Start(ctx context.Context, o Options) (*Replicator, error) {
	if o.NATS == nil || o.Store == nil || o.Engine == nil || o.Writer == nil {
		return nil, errors.New("replica: NATS, Store, Engine and Writer are required")
	}
	o.Replicas = max(o.Replicas, 1)
	if o.LeaseTTL <= 0 {
		o.LeaseTTL = 3 * time.Second
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	var leases *cluster.Leases
	err := retry(ctx, func(ctx context.Context) (err error) {
		leases, err = cluster.OpenLeases(ctx, o.NATS, o.Replicas, o.LeaseTTL)
		return err
	})
	if err != nil {
		return nil, err
	}
	var id [8]byte
	rand.Read(id[:]) //nolint:errcheck // crypto/rand.Read does not fail
	r := &Replicator{o: o, leases: leases, logs: map[string]*logState{}, id: hex.EncodeToString(id[:]), kick: make(chan struct{}, 1)}
	r.ctx, r.cancel = context.WithCancel(context.Background())
	if err := r.follow(ctx, ServerLog); err != nil {
		r.Close()
		return nil, err
	}
	if err := r.reconcile(ctx); err != nil {
		r.Close()
		return nil, err
	}
	o.Writer.PublishTo(r)
	r.wg.Go(r.keepLeases)
	r.wg.Go(r.keepLasts)
	return r, nil
}

// Close stops following and writing: the leases held are released, so
// another node takes them at once.
func (r *Replicator) Close() {
	r.o.Writer.PublishTo(nil)
	r.cancel()
	r.wg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	for _, s := range r.logs {
		s.cancel()
		<-s.done
		if s.lease != nil {
			s.lease.Release(ctx) //nolint:errcheck // expires anyway
			s.lease, s.writable = nil, false
		}
	}
}

// follow opens the log named name and follows it from the position the
// store applied; a log followed already is left as it is.
func (r *Replicator) follow(ctx context.Context, name string) error {
	r.mu.Lock()
	_, ok := r.logs[name]
	r.mu.Unlock()
	if ok {
		return nil
	}
	var lg *cluster.Log
	err := retry(ctx, func(ctx context.Context) (err error) {
		lg, err = cluster.OpenLog(ctx, r.o.NATS, name, r.o.Replicas)
		return err
	})
	if err != nil {
		return err
	}
	s := &logState{name: name, events: isEventsLog(name), log: lg}
	r.mu.Lock()
	r.logs[name] = s
	r.startFollower(s)
	r.mu.Unlock()
	r.kickLeases()
	return nil
}

// startFollower starts s's follower; r.mu is held.
func (r *Replicator) startFollower(s *logState) {
	fctx, cancel := context.WithCancel(r.ctx)
	done := make(chan struct{})
	s.cancel, s.done, s.movedAt = cancel, done, time.Now()
	go func() {
		defer close(done)
		r.followLog(fctx, s)
	}()
}

// stallAfter is how long a follower may apply nothing while its log has
// entries it has not applied before it is started again: a follow the
// cluster broke in a way the client does not notice.
const stallAfter = 3 * time.Second

// watch starts s's follower again when it stalled: the log has entries
// past the applied one, no entry is being applied, and none was for
// stallAfter (a slow entry is not a stall).
func (r *Replicator) watch(s *logState) {
	applied := r.o.Store.Position(s.name)
	r.mu.Lock()
	defer r.mu.Unlock()
	if applied != s.applied || s.last <= applied {
		s.applied, s.movedAt = applied, time.Now()
		return
	}
	if s.applying > 0 || time.Since(s.movedAt) < stallAfter || r.logs[s.name] != s {
		return
	}
	r.o.Log.Warn("a log's follower stalled: following it again", "log", s.name, "applied", applied, "last", s.last)
	s.cancel() // its goroutine ends on its own; the new one starts after applied
	r.startFollower(s)
}

// followRetry is how long a follower that failed to apply an entry waits
// before it tries again from the position the store applied.
const followRetry = time.Second

// followLog applies s's entries until ctx ends. An entry that fails to
// apply stops the follower, which reports the failure (Status) and tries
// again after followRetry.
func (r *Replicator) followLog(ctx context.Context, s *logState) {
	for ctx.Err() == nil {
		err := s.log.Follow(ctx, r.o.Store.Position(s.name), func(run []cluster.Entry) error {
			return r.applyRun(ctx, s, run)
		})
		if ctx.Err() != nil {
			return
		}
		r.mu.Lock()
		s.err = err
		r.mu.Unlock()
		r.o.Log.Error("a replicated entry cannot be applied: this node stops following the log until it can", "log", s.name, "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(followRetry):
		}
	}
}

// applyRun applies a run of s's entries, in order. A website's log's
// run is applied by live.Writer.ApplyLoggedRun, its product and content
// writes as one change of the index (a node that fell behind catches up
// in fewer changes); the server's log's and an events log's entries one
// by one, since after an entry of the server's log this node follows the
// logs of the websites it configures.
func (r *Replicator) applyRun(ctx context.Context, s *logState, run []cluster.Entry) error {
	r.mu.Lock()
	s.applying++
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		s.applying--
		s.movedAt = time.Now()
		r.mu.Unlock()
	}()
	bs := make([]*store.Batch, len(run))
	for i, e := range run {
		b, err := store.DecodeBatch(e.Data)
		if err != nil {
			return fmt.Errorf("entry %d of %s: %w", e.Seq, s.name, err)
		}
		b.SetPosition(store.Position{Log: s.name, Seq: e.Seq})
		bs[i] = b
	}
	switch {
	case s.events:
		r.mu.Lock()
		c := r.collector
		r.mu.Unlock()
		for _, b := range bs {
			if err := c.ApplyLogged(b); err != nil {
				return err
			}
			r.applied(s, b)
		}
	case s.name == ServerLog:
		for _, b := range bs {
			if err := r.applyServerEntry(ctx, b); err != nil {
				return err
			}
			r.applied(s, b)
		}
	default:
		if err := r.o.Writer.ApplyLoggedRun(bs); err != nil {
			return err
		}
		r.applied(s, bs[len(bs)-1])
	}
	return nil
}

// applied notes that s was applied through b.
func (r *Replicator) applied(s *logState, b *store.Batch) {
	p, _ := b.Position()
	r.mu.Lock()
	s.last, s.err = max(s.last, p.Seq), nil
	r.mu.Unlock()
}

// applyServerEntry applies b, an entry of the server's log. The logs of
// the websites a configuration adds are followed first, so a website is
// served once its logs take its changes and events; those it drops stop
// being followed after it.
func (r *Replicator) applyServerEntry(ctx context.Context, b *store.Batch) error {
	cfg := b.Config()
	if cfg != nil {
		if _, err := r.followWebsites(ctx, cfg); err != nil {
			return err
		}
	}
	if err := r.o.Writer.ApplyLogged(b); err != nil {
		return err
	}
	if cfg != nil {
		return r.reconcile(ctx)
	}
	return nil
}

// followWebsites follows the logs of every website cfg names (their
// events logs too, once FollowEvents was called), and returns the names
// of the logs it wants followed.
func (r *Replicator) followWebsites(ctx context.Context, cfg *config.File) (map[string]bool, error) {
	r.mu.Lock()
	withEvents := r.collector != nil
	r.mu.Unlock()
	want := map[string]bool{ServerLog: true}
	if cfg == nil {
		return want, nil
	}
	for _, w := range cfg.Websites {
		names := []string{w.UUID}
		if withEvents {
			names = append(names, EventsLog(w.UUID))
		}
		for _, name := range names {
			want[name] = true
			if err := r.follow(ctx, name); err != nil {
				return nil, err
			}
		}
	}
	return want, nil
}

// reconcile follows the logs of every website the stored configuration
// names, and stops following those it no longer names.
func (r *Replicator) reconcile(ctx context.Context) error {
	cfg, err := r.o.Store.Config()
	if err != nil {
		return err
	}
	want, err := r.followWebsites(ctx, cfg)
	if err != nil {
		return err
	}
	r.mu.Lock()
	var gone []*logState
	for name, s := range r.logs {
		if !want[name] {
			gone = append(gone, s)
			delete(r.logs, name)
		}
	}
	r.mu.Unlock()
	for _, s := range gone {
		s.cancel() // not waited for: it may be the caller's follower
		if s.lease != nil {
			s.lease.Release(ctx) //nolint:errcheck // expires anyway
		}
	}
	return nil
}

// Tries of a request the cluster may not answer yet: JetStream takes a
// few seconds after its servers start to elect its leaders.
const (
	tryTimeout = 5 * time.Second
	tryAgain   = 200 * time.Millisecond
)

// retry calls fn, each time within tryTimeout, until it succeeds or ctx
// ends; it returns fn's last error then.
func retry(ctx context.Context, fn func(ctx context.Context) error) error {
	for {
		tctx, cancel := context.WithTimeout(ctx, tryTimeout)
		err := fn(tctx)
		cancel()
		if err == nil || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(tryAgain):
		}
	}
}

// names are the logs followed, sorted.
func (r *Replicator) names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	names := make([]string, 0, len(r.logs))
	for n := range r.logs {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// state is the log named name, nil when it is not followed.
func (r *Replicator) state(name string) *logState {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.logs[name]
}
