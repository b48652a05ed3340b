package behaviour

import (
	"cmp"
	"slices"
	"time"

	"github.com/aisle-search/aisle/internal/background"
)

// Scored is a product and its weight in an answer.
type Scored struct {
	ProductNumber string
	Score         float64
	// ID is the model's id of the product: one number keeps one id for
	// the model's life, so a caller may cache what it derives from a
	// number by ID. Meaningful only in a Scored the model answered.
	ID uint32
}

// Popular is the n products with the highest count of kind k in window
// w as of now, highest first (ties by product number); products with no
// such event are left out.
func (m *Model) Popular(k Kind, w Window, n int, now time.Time) []Scored {
	var weights Weights
	weights[k] = 1
	out := m.Ranked(weights, w, now)
	return slices.Clone(out[:min(n, len(out))])
}

// Weights weigh each kind's count in a popularity score: Weights{Views:
// 1, Carts: 3, Buys: 5} scores views + 3 carts + 5 buys.
type Weights [numKinds]float64

// Ranked is every product with a score above 0, the weighted sum of its
// counts in window w, highest first (ties by product number). The order
// does not change with time: every count of a product decays from the
// same moment by the same factor. So a ranking is computed once and kept
// while no event was folded, or for at most MaxStale after one; its
// scores are as of when it was computed. A stale ranking is then
// recomputed on a background thread while every caller gets the stale
// one, so no search or recommendation waits for it (12 ms for 56,000
// products with events, BenchmarkRanked); only the first ranking
// of a key is waited for, and with MaxStale 0 every caller waits for a
// fresh one. The slice is shared: callers must not modify it.
func (m *Model) Ranked(weights Weights, w Window, now time.Time) []Scored {
	key := rankKey{weights, w}
	m.rankMu.Lock()
	r, ok := m.ranked[key]
	if ok {
		m.mu.RLock()
		fresh := r.events == m.events || now.Sub(r.at) < m.MaxStale && now.Sub(r.at) >= 0
		m.mu.RUnlock()
		if fresh || r.computing && m.MaxStale > 0 {
			m.rankMu.Unlock()
			return r.list
		}
		if m.MaxStale > 0 { // recomputed beside the callers
			r.computing = true
			m.ranked[key] = r
			m.rankMu.Unlock()
			background.Go(func() {
				list, events := m.rank(weights, w, now)
				m.rankMu.Lock()
				defer m.rankMu.Unlock()
				if cur := m.ranked[key]; cur.events > events { // a caller computed a newer one meanwhile
					cur.computing = false
					m.ranked[key] = cur
					return
				}
				m.ranked[key] = ranking{list: list, events: events, at: now}
			})
			return r.list
		}
	}
	defer m.rankMu.Unlock() // the first ranking, or MaxStale 0: callers wait for it
	list, events := m.rank(weights, w, now)
	if m.ranked == nil {
		m.ranked = map[rankKey]ranking{}
	}
	m.ranked[key] = ranking{list: list, events: events, at: now}
	return list
}

// rank computes a Ranked answer and the events it is as of.
func (m *Model) rank(weights Weights, w Window, now time.Time) ([]Scored, int) {
	m.mu.RLock()
	at := now.UnixMilli()
	var out []Scored
	for id := range m.products.len() {
		v := 0.0
		for k, wk := range weights {
			if wk != 0 {
				v += wk * m.products.at(int(id)).value(Kind(k), w, at)
			}
		}
		if v > 0 {
			out = append(out, Scored{m.numbers.number(uint32(id)), v, uint32(id)})
		}
	}
	events := m.events
	m.mu.RUnlock()
	sortScored(out)
	return out, events
}

// rankKey names a ranking: its weights and window.
type rankKey struct {
	weights Weights
	window  Window
}

// ranking is a computed Ranked answer: as of events folded, at time at;
// computing while a caller recomputes it.
type ranking struct {
	list      []Scored
	events    int
	at        time.Time
	computing bool
}

// CoViewed is the products viewed in one session with the products pns,
// most often first, at most MaxNeighbours: each product's strongest
// MaxNeighbours, their counts summed over pns.
func (m *Model) CoViewed(pns ...string) []Scored { return m.neighbours(pns, true) }

// CoBought is CoViewed for products bought in one order with pns.
func (m *Model) CoBought(pns ...string) []Scored { return m.neighbours(pns, false) }

func (m *Model) neighbours(pns []string, viewed bool) []Scored {
	m.mu.RLock()
	defer m.mu.RUnlock()
	lists := make([][]neighbour, 0, len(pns))
	var ref int64
	for _, pn := range pns {
		if id, ok := m.numbers.find(pn); ok {
			ns := m.neighboursOf(id, !viewed)
			lists = append(lists, ns)
			for _, n := range ns {
				ref = max(ref, m.products.at(int(n.id())).atMs())
			}
		}
	}
	// Equal counts go to the more popular product (views + 3 carts + 5
	// buys, long window): with few orders most counts are 1, and the
	// product number says nothing of what sells. Counts decay alike, so
	// any common time orders them the same: the latest of the
	// candidates' is taken.
	type candidate struct {
		id         uint32
		score, pop float64
	}
	better := func(a, b candidate) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		if c := cmp.Compare(b.pop, a.pop); c != 0 {
			return c
		}
		return cmp.Compare(m.numbers.number(a.id), m.numbers.number(b.id))
	}
	var out []candidate
	at := map[uint32]int{} // a neighbour's place in out
	for _, ns := range lists {
		strongest := make([]candidate, len(ns))
		for i, n := range ns {
			c := &m.products.at(int(n.id())).counters
			pop := c.value(kindView, Long, ref) + 3*c.value(kindCart, Long, ref) + 5*c.value(kindBuy, Long, ref)
			strongest[i] = candidate{n.id(), float64(n.count()), pop}
		}
		slices.SortFunc(strongest, better)
		for _, c := range strongest[:min(MaxNeighbours, len(strongest))] {
			if k, seen := at[c.id]; seen {
				out[k].score += c.score
				continue
			}
			at[c.id] = len(out)
			out = append(out, c)
		}
	}
	slices.SortFunc(out, better)
	scored := make([]Scored, 0, min(MaxNeighbours, len(out)))
	for _, c := range out[:min(MaxNeighbours, len(out))] {
		scored = append(scored, Scored{m.numbers.number(c.id), c.score, c.id})
	}
	return scored
}

// sortScored orders by score, highest first, then by product number.
func sortScored(s []Scored) {
	slices.SortFunc(s, func(a, b Scored) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ProductNumber, b.ProductNumber)
	})
}

// Visitor is what a visitor did lately, most recent first.
type Visitor struct {
	Viewed, Bought []string
	Cart           []string // as the last cart event gave it
}

// Visitor is tracking id user's history; ok is false for a visitor no
// event named.
func (m *Model) Visitor(user string) (v Visitor, ok bool) {
	if user == "" {
		return v, false
	}
	return m.VisitorOf(Who{m.hash.sum(user), true})
}

// VisitorOf is the history of the visitor w names (Resolve); ok is false
// for a visitor no event named.
func (m *Model) VisitorOf(w Who) (v Visitor, ok bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	h := m.lookupHash(w.hash)
	if !w.known || h == nil {
		return v, false
	}
	v.Viewed, v.Bought = m.recent(h.viewed(&m.histories)), m.recent(h.bought(&m.histories))
	cart := h.cart(&m.histories)
	for i := range cart.len() {
		v.Cart = append(v.Cart, m.numbers.number(cart.at(i)))
	}
	return v, true
}

// recent names the products of a history, most recent first.
func (m *Model) recent(h idList) []string {
	out := make([]string, h.len())
	for i := range out {
		out[len(out)-1-i] = m.numbers.number(h.at(i))
	}
	return out
}

// Who names a visitor to VisitorOf: the keyed hash of their tracking
// id. The zero Who names nobody.
type Who struct {
	hash  uint64
	known bool
}

// Known reports whether w names a visitor.
func (w Who) Known() bool { return w.known }

// Resolve names the visitor of a tracking id, or of an email's or a
// customer id's hash (events.IdentityKey) once an event linked it to a
// tracking id; the zero Who when none is given or linked.
func (m *Model) Resolve(trackingUserID string, emailHash, customerHash uint64) Who {
	if trackingUserID != "" {
		return Who{m.hash.sum(trackingUserID), true}
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, k := range []uint64{emailHash, customerHash} {
		if k == 0 {
			continue
		}
		if h, ok := m.links.find(k); ok {
			return Who{h, true}
		}
	}
	return Who{}
}
