package replica

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/aisle-search/aisle/cluster"
)

// keepLeases renews the leases this node holds and takes those no one
// holds, every third of the TTL, until the Replicator closes.
func (r *Replicator) keepLeases() {
	tick := time.NewTicker(r.o.LeaseTTL / 3)
	defer tick.Stop()
	for {
		for _, name := range r.names() {
			if r.ctx.Err() != nil {
				return
			}
			r.keepLease(name)
		}
		select {
		case <-r.ctx.Done():
			return
		case <-tick.C:
		case <-r.kick:
		}
	}
}

// lastTimeout bounds a read of a log's last position. A log whose
// reads fail for a while is reported cut off (Status), not one whose
// read is slow once; reads of different logs run side by side, so one
// stream's leader election delays no other log's.
const lastTimeout = 2 * time.Second

// keepLasts reads every followed log's last position every third of the
// lease TTL, apart from the lease loop (a slow read never delays a
// renewal), until the Replicator closes. A log whose last position
// cannot be read is noted with since when (Status).
func (r *Replicator) keepLasts() {
	tick := time.NewTicker(r.o.LeaseTTL / 3)
	defer tick.Stop()
	for {
		var wg sync.WaitGroup
		for _, name := range r.names() {
			if s := r.state(name); s != nil {
				wg.Go(func() { r.readLast(s) })
			}
		}
		wg.Wait()
		select {
		case <-r.ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// readLast reads s's last position once.
func (r *Replicator) readLast(s *logState) {
	ctx, cancel := context.WithTimeout(r.ctx, lastTimeout)
	defer cancel()
	last, err := s.log.Last(ctx)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err == nil {
		s.last, s.unread, s.readSince = max(s.last, last), nil, time.Time{}
	} else if s.unread = err; s.readSince.IsZero() {
		s.readSince = time.Now()
	}
}

// kickLeases has the lease loop look at every log now: a log followed
// anew (a website configured) is written at once rather than at the
// next tick.
func (r *Replicator) kickLeases() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// keepLease renews the log's lease when this node holds it, or tries to
// take it, and refreshes the log's last position. A lease taken makes
// the log writable once the store has applied the log's last entry.
func (r *Replicator) keepLease(name string) {
	s := r.state(name)
	if s == nil {
		return
	}
	ctx, cancel := context.WithTimeout(r.ctx, r.o.LeaseTTL/3)
	defer cancel()
	r.watch(s)
	if s.events {
		return // any node appends to an events log
	}
	r.mu.Lock()
	lease := s.lease
	r.mu.Unlock()
	if lease != nil {
		err := lease.Renew(ctx)
		if err == nil {
			r.catchUp(ctx, s)
			return
		}
		if !errors.Is(err, cluster.ErrLost) && r.ctx.Err() == nil {
			r.o.Log.Warn("a write lease could not be renewed", "log", name, "err", err)
			return // tried again at the next tick, while it lasts
		}
		r.mu.Lock()
		s.lease, s.writable, s.writer = nil, false, ""
		r.mu.Unlock()
		r.o.Log.Warn("write lease lost: another node writes the log", "log", name)
	}
	if name != ServerLog && !r.writes(ServerLog) {
		// A website's log is written by the server log's writer, so that a
		// console's change of a configuration and a catalog lands on one node.
		r.holder(ctx, s)
		return
	}
	lease, err := r.leases.Acquire(ctx, name, r.o.URL)
	var held *cluster.HeldError
	switch {
	case errors.As(err, &held):
		r.mu.Lock()
		s.writer = held.Holder
		r.mu.Unlock()
		return
	case err != nil:
		return
	}
	r.mu.Lock()
	s.lease, s.writer = lease, r.o.URL
	r.mu.Unlock()
	r.o.Log.Info("write lease taken: this node writes the log once it has applied it", "log", name)
	r.catchUp(ctx, s)
}

// catchUp makes s writable when this node holds its lease and has
// applied its last entry.
func (r *Replicator) catchUp(ctx context.Context, s *logState) {
	r.mu.Lock()
	held, writable := s.lease != nil, s.writable
	r.mu.Unlock()
	if !held || writable {
		return
	}
	last, err := s.log.Last(ctx)
	if err != nil || r.o.Store.Position(s.name) < last {
		return // the next tick looks again
	}
	r.mu.Lock()
	s.writable = s.lease != nil
	r.mu.Unlock()
	r.o.Log.Info("writing the log", "log", s.name, "position", last)
}

// writes reports whether this node holds the lease of the log name.
func (r *Replicator) writes(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.logs[name]
	return s != nil && s.lease != nil
}

// holder notes who writes s, as the lease says.
func (r *Replicator) holder(ctx context.Context, s *logState) {
	h, err := r.leases.Holder(ctx, s.name)
	if err != nil {
		return
	}
	r.mu.Lock()
	s.writer = h
	r.mu.Unlock()
}
