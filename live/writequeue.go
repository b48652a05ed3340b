package live

import "time"

// A write's turn: every change of the served state (Apply and the
// product, content, configuration and key writes built on it) waits for
// the Writer's lock, is logged synced, and is swapped in before it is
// answered. Its wait and its work are what the operator sees as the
// write queue: Waiting counts the writes between their arrival (a
// decoded write asking for its turn) and their answer, and the timer
// UseWriteTimer sets gets each acknowledged write's time between the
// two, when it is durable and searchable.

// Waiting is how many writes have arrived and are not yet answered: the
// one being applied and those waiting for their turn.
func (l *Writer) Waiting() int { return int(l.waiting.Load()) }

// IndexChanges is how many times writes changed a product index since
// the Writer was made: one a product write, one a run of replicated
// entries applied together (ApplyLoggedRun); a rebuild is not counted.
func (l *Writer) IndexChanges() uint64 { return l.changes.Load() }

// UseWriteTimer makes every acknowledged write (one answered without an
// error) report the time from its arrival to its answer to fn; call it
// before the Writer takes writes.
func (l *Writer) UseWriteTimer(fn func(took time.Duration)) { l.timer = fn }

// arrive marks a write's arrival, before it waits for l.mu: defer
// l.answered(l.arrive(), &err).
func (l *writer) arrive() time.Time {
	l.waiting.Add(1)
	return time.Now()
}

// answered ends the write that arrived at start, whose result is *err.
func (l *writer) answered(start time.Time, err *error) {
	l.waiting.Add(-1)
	if *err == nil && l.timer != nil {
		l.timer(time.Since(start))
	}
}
