package behaviour

import (
	"math"
	"time"
)

// Kind is what a counter counts.
type Kind int

// The counted kinds.
const (
	kindView Kind = iota
	kindCart
	kindBuy
	numKinds
)

// Views, Carts and Buys name the kinds for the queries.
const (
	Views = kindView
	Carts = kindCart
	Buys  = kindBuy
)

// Window is a counter's half-life: Short or Long.
type Window int

// The windows.
const (
	Short Window = iota // ShortHalfLife
	Long                // LongHalfLife
	numWindows
)

// halfLifeMs is each window's half-life in milliseconds.
var halfLifeMs = [numWindows]float64{Short: float64(ShortHalfLife.Milliseconds()), Long: float64(LongHalfLife.Milliseconds())}

// counters are one product's decayed counts, as they were at time at
// (Unix seconds, so a product takes 28 bytes; a day's decay is a
// second's finer than a hundred-thousandth).
type counters struct {
	v  [numKinds][numWindows]float32
	at uint32
}

// seconds is Unix milliseconds ms as counters keep a time, in seconds
// from 1970 to 2106.
func seconds(ms int64) uint32 { return uint32(min(max(ms/1000, 0), math.MaxUint32)) }

// atMs is the counters' time in Unix milliseconds.
func (c *counters) atMs() int64 { return int64(c.at) * 1000 }

// decay is the factor a count kept from at shrinks by until now in
// window w: 2^(-(now-at)/halfLife). An event older than the counter's
// time (the log is in order, but clocks are not) counts as at its time.
func decay(at, now int64, w Window) float64 {
	if now <= at {
		return 1
	}
	return math.Exp2(-float64(now-at) / halfLifeMs[w])
}

// add counts one event of kind k at time at (Unix milliseconds).
func (c *counters) add(k Kind, at int64) {
	if sec := seconds(at); sec > c.at {
		for w := range numWindows {
			f := float32(decay(c.atMs(), int64(sec)*1000, w))
			for kk := range numKinds {
				c.v[kk][w] *= f
			}
		}
		c.at = sec
	}
	for w := range numWindows {
		c.v[k][w]++
	}
}

// value is the count of kind k in window w as of now.
func (c *counters) value(k Kind, w Window, now int64) float64 {
	return float64(c.v[k][w]) * decay(c.atMs(), now, w)
}

// Count is product pn's count of kind k in window w as of now: each event
// weighs 1 when it happened and half as much a half-life later. 0 for a
// product no event named.
func (m *Model) Count(pn string, k Kind, w Window, now time.Time) float64 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	id, ok := m.numbers.find(pn)
	if !ok {
		return 0
	}
	return m.products.at(int(id)).value(k, w, now.UnixMilli())
}
