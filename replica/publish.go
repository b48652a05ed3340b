package replica

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aisle-search/aisle/cluster"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/store"
)

// errUnconfirmed answers a change the log's servers did not confirm in
// publishTimeout: most often nothing was appended, but the confirmation
// may be what was lost, and then every node applies the change.
var errUnconfirmed = &engine.Error{Kind: engine.KindUnavailable, Code: "LOG_UNAVAILABLE",
	Message: "the cluster did not confirm the change in time, so it was not applied here; it may still be applied from the cluster's log: read it back before sending it again"}

// untilConfirmed calls try until the log confirms it, for publishTimeout
// at most: while the log's servers elect a leader an append fails, and
// the same append again, under the same message id, appends once. A
// conflict or an entry too large is final, and returned at once.
func (r *Replicator) untilConfirmed(try func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(r.ctx, publishTimeout)
	defer cancel()
	for {
		err := try(ctx)
		if err == nil || errors.Is(err, cluster.ErrConflict) || errors.Is(err, cluster.ErrEntryTooLarge) || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// LogOf is the log a change belongs to: the server's for a configuration
// and for API keys, its website's for products and content.
func LogOf(b *store.Batch) string {
	if b.Config() != nil || b.Website == "" {
		return ServerLog
	}
	return b.Website
}

// Publish appends b to its log, if this node writes that log, after the
// position the store applied, and sets b's position; live.Writer calls
// it with its lock held, so this node's appends to a log are serial. A
// log another node writes, or none, is refused with
// *live.NotWriterError. An append the log refuses because another node
// appended since (cluster.ErrConflict) makes this node stop writing the
// log until it has applied what was appended.
func (r *Replicator) Publish(b *store.Batch) error {
	name := LogOf(b)
	r.mu.Lock()
	s := r.logs[name]
	writable, writer := s != nil && s.writable, ""
	if s != nil {
		writer = s.writer
	}
	r.mu.Unlock()
	if !writable {
		return &live.NotWriterError{Log: name, Writer: writer}
	}
	entry, err := store.AppendBatch(nil, b)
	if err != nil {
		return err
	}
	after := r.o.Store.Position(name)
	var seq uint64
	err = r.untilConfirmed(func(ctx context.Context) (err error) {
		seq, err = s.log.Append(ctx, after, entry)
		return err
	})
	switch {
	case errors.Is(err, cluster.ErrConflict):
		r.mu.Lock()
		s.writable = false
		r.mu.Unlock()
		r.o.Log.Warn("another node appended to a log this node writes: it stops writing the log until it has applied what was appended", "log", name, "err", err)
		return &live.NotWriterError{Log: name}
	case errors.Is(err, cluster.ErrEntryTooLarge):
		return &engine.Error{Kind: engine.KindTooLarge, Code: "CHANGE_TOO_LARGE", Message: fmt.Sprintf("%v: send the change in smaller batches; nothing changed", err)}
	case err != nil:
		r.o.Log.Warn("the cluster did not confirm an append", "log", name, "err", err)
		return errUnconfirmed
	}
	b.SetPosition(store.Position{Log: name, Seq: seq})
	r.mu.Lock()
	s.last = max(s.last, seq)
	r.mu.Unlock()
	return nil
}
