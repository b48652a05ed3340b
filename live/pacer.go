package live

import (
	"time"

	"github.com/aisle-search/aisle/index"
)

// pacerSlice is how long background work runs before it pauses as long.
const pacerSlice = 10 * time.Millisecond

// pacer spreads background work (a save of a large index) so that it
// takes at most half of a core: after each busy stretch of pacerSlice or
// more it sleeps as long as the stretch ran. Searches beside it then lose
// half a core at most, for twice as long; the work pauses only between
// steps. A nil pacer, or one whose hurry says so (a shutdown), never
// pauses.
type pacer struct {
	busySince time.Time
	hurry     func() bool
	now       func() time.Time
	sleep     func(time.Duration)
}

// newPacer paces with the real clock; hurry may be nil.
func newPacer(hurry func() bool) *pacer {
	return &pacer{hurry: hurry, now: time.Now, sleep: time.Sleep}
}

// step marks the end of a step of work, and pauses when the stretch
// since the last pause is long enough.
func (p *pacer) step() {
	if p == nil || p.hurry != nil && p.hurry() {
		return
	}
	now := p.now()
	if p.busySince.IsZero() {
		p.busySince = now
		return
	}
	if busy := now.Sub(p.busySince); busy >= pacerSlice {
		p.sleep(busy)
		p.busySince = p.now()
	}
}

// pacedWriter is a segment writer whose every key is a step of p.
type pacedWriter struct {
	w index.KVWriter
	p *pacer
}

func (pw pacedWriter) Set(key, value []byte) error {
	pw.p.step()
	return pw.w.Set(key, value)
}
