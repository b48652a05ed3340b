package live

import (
	"errors"
	"fmt"
	"slices"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/store"
)

// A Publisher makes a change part of a replicated log (package
// cluster's, wired by package replica) before this node applies it: a
// Writer that publishes to one is the writer of the logs it publishes
// to, and its changes reach every node as the entries it published.
type Publisher interface {
	// Publish appends b's replicated form (store.AppendBatch) to the
	// log b belongs to, after the log's entry this node applied last,
	// and sets b's position to the entry it became. It returns only
	// once the log has the entry (a replicated log: a quorum of its
	// servers). On an error b was not logged, or the log refused it
	// (another node writes that log); nothing is applied and the
	// change is answered with the error.
	Publish(b *store.Batch) error
}

// PublishTo makes every change this Writer makes from now on go through
// p before it is applied; nil publishes nothing (a single node, the
// default). Set it before the admin API opens.
func (l *Writer) PublishTo(p Publisher) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pub = p
}

// publish publishes b when this Writer publishes and b is a change made
// here (a logged entry is applied as it is); l.mu is held. Audit entries
// are stamped with their time first (the store's clock, as a single
// node stamps them), so every node records the same.
func (l *writer) publish(b *store.Batch) error {
	if l.pub == nil {
		return nil
	}
	if _, logged := b.Position(); logged {
		return nil
	}
	b.StampAuditTimes(l.st.Now())
	return l.pub.Publish(b)
}

// errNotLogged refuses ApplyLogged a batch without a position.
var errNotLogged = errors.New("live: a logged entry has no position")

// ApplyLogged applies b, an entry of a replicated log (its position
// set, store.Batch.SetPosition), with the code that applied it on the
// node that wrote it: a configuration as SetConfig applies one (every
// website opened), a website's products and content as Apply does (the
// generation that includes them swapped in), keys as CreateKey and
// RevokeKey do. The entry's audit entries are stored as it carries
// them; nothing is published. An entry at or before the position its
// log was applied through is skipped: this node wrote it, or applied it
// before a restart. A website's entry for a website not served is
// stored, and served when the website is opened.
func (l *Writer) ApplyLogged(b *store.Batch) error {
	if _, ok := b.Position(); !ok {
		return errNotLogged
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.applyLogged(b)
}

// applyLogged is ApplyLogged of b, which has a position, with l.mu held.
func (l *Writer) applyLogged(b *store.Batch) error {
	p, _ := b.Position()
	if p.Seq <= l.st.Position(p.Log) {
		return nil
	}
	var err error
	switch {
	case b.Config() != nil:
		_, err = l.setConfig(b.Config(), b)
	case b.ChangesProducts() || b.ChangesContent():
		if g, ok := l.eng.Website(b.Website); ok {
			_, err = l.apply(g, b)
		} else {
			_, err = l.commit(b)
		}
	default:
		_, err = l.applyKeys(b)
	}
	if err != nil {
		return fmt.Errorf("entry %d of %s: %w", p.Seq, p.Log, err)
	}
	return nil
}

// ApplyLoggedRun applies bs, consecutive entries of one replicated log,
// as ApplyLogged applies each, except that a run of entries that only
// put products of one served website (a price feed) is applied as one
// change of its product index: its entries are stored one by one, in
// order, and the generation serving them all is swapped in after the
// last. A node that has fallen behind its log so catches up in fewer,
// larger index changes; at a million products a change costs about as
// much for one product as for a thousand (docs/live-engine.md). Entries
// at or before the position their log was applied through are skipped.
// On an error the entries before the failing one are applied.
func (l *Writer) ApplyLoggedRun(bs []*store.Batch) error {
	for _, b := range bs {
		if _, ok := b.Position(); !ok {
			return errNotLogged
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(bs) > 0 {
		n := 1
		for n < len(bs) && bs[0].OnlyProductPuts() && bs[n].OnlyProductPuts() && bs[n].Website == bs[0].Website {
			n++
		}
		if err := l.applyLoggedPuts(bs[:n]); err != nil {
			return err
		}
		bs = bs[n:]
	}
	return nil
}

// applyLoggedPuts applies bs, entries that only put one website's
// products (or a single entry of any kind), with l.mu held: one by one
// when fewer than two are left to apply or the website is not served,
// else as one change of its index.
func (l *Writer) applyLoggedPuts(bs []*store.Batch) error {
	for len(bs) > 0 {
		p, _ := bs[0].Position()
		if p.Seq > l.st.Position(p.Log) {
			break
		}
		bs = bs[1:]
	}
	if len(bs) == 0 {
		return nil
	}
	g, served := l.eng.Website(bs[0].Website)
	if len(bs) < 2 || !served {
		for _, b := range bs {
			if err := l.applyLogged(b); err != nil {
				return err
			}
		}
		return nil
	}
	var cw productWrite
	numbers, data, _ := cw.writesOf(bs).puts()
	first, _ := bs[0].Position()
	last, _ := bs[len(bs)-1].Position()
	var err error
	judged := !slices.ContainsFunc(bs, func(b *store.Batch) bool { return !b.ColumnWrite() })
	if cw.changes, cw.ok, err = columnChanges(g, numbers, data, l.patchesPerWorker, judged); err == nil {
		_, err = l.applyEntries(g, bs, cw)
	}
	if err != nil {
		return fmt.Errorf("entries %d to %d of %s: %w", first.Seq, last.Seq, first.Log, err)
	}
	return nil
}

// NotWriterError is a Publisher's refusal of a change this node may not
// make: another node writes the log the change belongs to (Writer, its
// advertised URL, for the change to be sent to), or none does right now
// (Writer empty: the lease is being taken over). Nothing was applied.
type NotWriterError struct {
	Log    string // the log the change belongs to: "server" or a website's UUID
	Writer string // the writer's URL; "" when none is known
}

func (e *NotWriterError) Error() string {
	if e.Writer == "" {
		return fmt.Sprintf("no node writes the log %s right now", e.Log)
	}
	return fmt.Sprintf("the log %s is written by %s", e.Log, e.Writer)
}

// errNoWriter is a NotWriterError told to a client: a node without a
// writer to send the change to (or that was sent it by another node and
// is not the writer either) answers it; nothing changed.
var errNoWriter = &engine.Error{Kind: engine.KindUnavailable, Code: "NO_WRITER",
	Message: "no node of the cluster takes this change right now (its writer is being replaced), so nothing changed; send it again shortly"}

// ShareSecret publishes secret as the data directory's secret
// (store.Batch.SetSecret) and stores it: the first writer of a new
// cluster shares its own, so that every node hashes visitors' emails
// alike. Without a Publisher it only stores it.
func (l *Writer) ShareSecret(secret []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var b store.Batch
	b.SetSecret(secret)
	_, err := l.commit(&b)
	return err
}
