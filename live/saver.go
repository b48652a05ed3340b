package live

import (
	"errors"
	"sync"
	"time"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/internal/background"
	"github.com/aisle-search/aisle/store"
)

// saver saves product indexes that writes changed, in the background and
// one at a time, so a restart loads a recent index and replays only the
// log after it (Open). A write never waits for a save; a save holds
// Live's lock only to hand over the compacted index (rebase). Saves are
// at least saveEvery apart (the first saveEvery after the first write:
// the index loaded is as good as a save), and nine times as long as the
// last one took
// (a million products take seconds of a core to save: saveWait), each
// paced to half a core (pacer) so searches keep the rest, and
// of the generations waiting for one website only the newest is saved.
// A save the disk refused is tried again saveEvery later, until it
// succeeds.
type saver struct {
	mu      sync.Mutex
	pending map[string]*engine.Generation // website → the newest generation to save
	running bool
	closed  bool
	last    time.Time      // when the last save ended
	wait    time.Duration  // from last to the next save (saveWait)
	wake    chan struct{}  // closed by Close: save what waits, now
	idle    sync.WaitGroup // held while a save loop runs
}

// saveEvery is the least time between two background saves: the log
// replayed at a restart covers what came after the last one.
const saveEvery = 30 * time.Second

// saveQuiet is how many times as long as the last save took the saver
// waits at least before the next: saves of an index large enough to take
// more than saveEvery/saveQuiet (a million products: seconds) take at
// most a tenth of the time, and a restart replays a longer log.
const saveQuiet = 9

// saveWait is the time between a save that took took and the next.
func saveWait(took time.Duration) time.Duration { return max(saveEvery, saveQuiet*took) }

// saveLater queues g's product index for saving.
func (l *Writer) saveLater(g *engine.Generation) {
	sv := &l.save
	sv.mu.Lock()
	defer sv.mu.Unlock()
	if sv.closed {
		return
	}
	sv.pending[g.Website.UUID] = g
	if sv.last.IsZero() {
		// The index loaded is as good as a save: the first waits too.
		sv.last, sv.wait = time.Now(), saveEvery
	}
	if sv.running {
		return
	}
	sv.running = true
	sv.idle.Add(1)
	background.Go(l.saveLoop)
}

// forget drops website uuid's queued save: a rebuild or a configuration
// change saves a newer index. (A save already under way ends; the store
// refuses it when it is older under the same settings, ErrStaleSegment.)
func (sv *saver) forget(uuid string) {
	sv.mu.Lock()
	delete(sv.pending, uuid)
	sv.mu.Unlock()
}

// retrySave queues again, after a save the disk refused, the save of
// the website uuid's served generation, unless another waits, the
// website is no longer served or the saver is closed (a restart then
// replays the log since the last save).
func (l *Writer) retrySave(uuid string) {
	cur, ok := l.eng.Website(uuid)
	sv := &l.save
	sv.mu.Lock()
	defer sv.mu.Unlock()
	if _, queued := sv.pending[uuid]; ok && !queued && !sv.closed {
		sv.pending[uuid] = cur
	}
}

// saveLoop saves queued generations until none is left.
func (l *Writer) saveLoop() {
	sv := &l.save
	defer sv.idle.Done()
	for {
		sv.mu.Lock()
		wait := time.Until(sv.last.Add(sv.wait))
		sv.mu.Unlock()
		if wait > 0 {
			select {
			case <-time.After(wait):
			case <-sv.wake:
			}
		}
		sv.mu.Lock()
		var g *engine.Generation
		for uuid, p := range sv.pending {
			g = p
			delete(sv.pending, uuid)
			break
		}
		if g == nil {
			sv.running = false
			sv.mu.Unlock()
			return
		}
		sv.mu.Unlock()
		w := g.Website
		start := time.Now()
		stamp := store.SegmentStamp{Seq: g.ProductSeq, Fingerprint: fingerprint(w, w.Lang(l.lang))}
		compact := g.Products.Compact()
		// Paced: a save of a large index would take a core from the
		// searches for seconds; it takes half of one, for twice as long,
		// unless Close is waiting on it.
		pace := newPacer(func() bool {
			select {
			case <-sv.wake:
				return true
			default:
				return false
			}
		})
		switch err := saveProducts(l.st, w, compact, stamp, l.log, pace); {
		case errors.Is(err, store.ErrStaleSegment): // a rebuild saved a newer one meanwhile
		case errors.Is(err, store.ErrUnavailable):
			l.log.Warn("saving the index failed: the disk refused a write; it is saved again once the disk takes writes", "website", w.UUID, "err", err)
			l.retrySave(w.UUID)
		case err != nil:
			l.log.Warn("saving the index failed: a restart replays the log since the last save", "website", w.UUID, "err", err)
		case compact != g.Products:
			l.rebase(g, compact, stamp.Fingerprint)
		}
		sv.mu.Lock()
		sv.last = time.Now()
		sv.wait = saveWait(sv.last.Sub(start))
		sv.mu.Unlock()
	}
}

// rebase serves compact, the compacted product index of g, in place of
// the holes and tail the served index has gathered since the save began:
// the product writes logged after g are replayed onto it. Those the
// served generation holds are replayed first without Live's lock (a save
// of a million products beside a price feed covers tens of thousands of
// writes: seconds of work), up to rebaseRounds times as writes go on;
// the few left are replayed under the lock, so that no write lands
// between, and the result is swapped in. Nothing changes when the
// website's indexed fields or language changed since.
func (l *Writer) rebase(g *engine.Generation, compact *index.Segment, fp string) {
	seg, at := compact, g.ProductSeq
	for range rebaseRounds {
		cur, caught, ok := l.catchUp(g.Website.UUID, fp, seg, at)
		if !ok {
			return
		}
		moved := cur.ProductSeq > at
		seg, at = caught, cur.ProductSeq
		if !moved {
			break
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if cur, seg, ok := l.catchUp(g.Website.UUID, fp, seg, at); ok {
		l.eng.Swap(cur.WithProducts(seg, cur.Seq, cur.ProductSeq, false)) // compacted: doc ids renumbered
	}
}

// catchUp is seg, website uuid's product index saved under fingerprint
// fp and brought to position at, brought to the served generation cur's
// position; ok is false when it may not replace cur's (rebasable) or the
// replay failed, which is logged.
func (l *Writer) catchUp(uuid, fp string, seg *index.Segment, at uint64) (cur *engine.Generation, caught *index.Segment, ok bool) {
	cur, ok = l.eng.Website(uuid)
	if !ok || !l.rebasable(cur, fp, at) {
		return nil, nil, false
	}
	if cur.ProductSeq == at {
		return cur, seg, true
	}
	caught, err := l.replayOnto(cur, seg, at, cur.ProductSeq)
	if err != nil {
		l.log.Warn("serving the saved index failed: the index in memory serves on", "website", uuid, "err", err)
		return nil, nil, false
	}
	return cur, caught, true
}

// rebaseRounds bounds rebase's catch-up outside the lock.
const rebaseRounds = 3

// rebasable reports whether a product index saved under fingerprint fp
// and brought to position at may replace cur's: cur's website has the
// same indexed fields and language, and is not behind it.
func (l *Writer) rebasable(cur *engine.Generation, fp string, at uint64) bool {
	return fingerprint(cur.Website, cur.Website.Lang(l.lang)) == fp && cur.ProductSeq >= at
}

// replayOnto is seg, cur's website's product index at position after,
// with the product writes logged after it up to upto replayed onto it.
func (l *Writer) replayOnto(cur *engine.Generation, seg *index.Segment, after, upto uint64) (*index.Segment, error) {
	pl, err := readProductLog(l.st, cur.Website, after, upto)
	if err != nil {
		return nil, err
	}
	return pl.replay(cur.Website, cur.Website.Lang(l.lang), seg)
}

// Close finishes the saves queued and stops saving; the store may be
// closed after. Indexes that column writes change after Close are not
// saved (a restart replays the log for them).
func (l *Writer) Close() {
	l.save.mu.Lock()
	if !l.save.closed {
		l.save.closed = true
		close(l.save.wake)
	}
	l.save.mu.Unlock()
	l.save.idle.Wait()
}
