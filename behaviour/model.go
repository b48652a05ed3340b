// Package behaviour holds what a website's visitors' events add up to:
// per-product counters that decay with time (views, carts, buys, each
// over a short and a long half-life), item-to-item co-occurrence (viewed
// in one session, bought in one order), and per-visitor histories
// (recently viewed, recently bought, the cart). A Model is fed events in
// the change log's order (Fold) and answers what recommendations and
// ranking ask of it. It knows nothing of the index, HTTP or the store:
// products are known by number, visitors by tracking id.
package behaviour

import (
	"hash/maphash"
	"slices"
	"sync"
	"time"

	"github.com/aisle-search/aisle/events"
)

// The model's bounds and windows. Memory stays bounded: each product
// keeps at most MaxNeighbours co-viewed and as many co-bought products,
// each visitor the last MaxHistory products of each history.
const (
	// ShortHalfLife and LongHalfLife: a count loses half its weight in
	// that long. The short window follows trends, the long one lasting
	// popularity.
	ShortHalfLife = 7 * 24 * time.Hour
	LongHalfLife  = 90 * 24 * time.Hour
	// SessionGap: views of one visitor less than this apart are one
	// session, and co-viewed.
	SessionGap = 30 * time.Minute
	// MaxNeighbours is how many co-viewed (and co-bought) products a
	// product keeps, the strongest.
	MaxNeighbours = 50
	// MaxHistory is how many products a visitor's recent views and
	// purchases keep.
	MaxHistory = 20
	// maxPairs bounds the products of one order that are paired with
	// each other (the first ones): an order of a thousand lines would
	// otherwise add half a million pairs.
	maxPairs = 50
)

// Model is one website's behaviour. Its methods are safe to call beside
// each other; Fold takes a write lock for one event.
type Model struct {
	mu       sync.RWMutex
	ids      map[string]uint32 // product number → id
	numbers  []string          // id → product number
	counts   []counters        // by id
	coViewed []neighbours      // by id
	coBought []neighbours      // by id
	visitors map[string]*visitor
	links    map[string]string   // "email:" or "customer:" + id → tracking id
	orders   map[uint64]struct{} // hashes of the order numbers counted
	seed     maphash.Seed
	events   int // events folded

	// MaxStale is how long a ranking (Ranked) is reused after events were
	// folded since it was computed; default (New) 1 s, 0: never.
	MaxStale time.Duration
	rankMu   sync.Mutex // guards ranked; taken before mu
	ranked   map[rankKey]ranking
}

// New is an empty model.
func New() *Model {
	return &Model{ids: map[string]uint32{}, visitors: map[string]*visitor{}, links: map[string]string{},
		orders: map[uint64]struct{}{}, seed: maphash.MakeSeed(), MaxStale: time.Second}
}

// visitor is one tracking id's history.
type visitor struct {
	viewed []stamped // oldest first, at most MaxHistory
	bought []stamped
	cart   []uint32
}

// stamped is a product at a time (Unix milliseconds).
type stamped struct {
	id uint32
	at int64
}

// id is product pn's id, added when new; m.mu is held for writing.
func (m *Model) id(pn string) uint32 {
	if id, ok := m.ids[pn]; ok {
		return id
	}
	id := uint32(len(m.numbers))
	m.ids[pn] = id
	m.numbers = append(m.numbers, pn)
	m.counts = append(m.counts, counters{})
	m.coViewed = append(m.coViewed, nil)
	m.coBought = append(m.coBought, nil)
	return id
}

// Events is how many events Fold has taken.
func (m *Model) Events() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.events
}

// Fold adds event e, which events.Check accepted, to the model. Events
// come in log order; an event of another website is the caller's to keep
// out. Only view (by product number), cart and purchase events change
// counts and histories; email and customer ids on any event link to its
// tracking id. A purchase whose order number was counted before is not
// counted again.
func (m *Model) Fold(e *events.Event) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.events++
	if e.User != "" {
		if e.Email != "" {
			m.links["email:"+e.Email] = e.User
		}
		if e.CustomerID != "" {
			m.links["customer:"+e.CustomerID] = e.User
		}
	}
	switch e.Kind {
	case events.View:
		if e.ProductNumber != "" {
			m.view(e.User, m.id(e.ProductNumber), e.Time)
		}
	case events.Cart:
		m.cart(e.User, e.ProductNumbers, e.Time)
	case events.Purchase:
		m.purchase(e, e.Time)
	}
}

// visitor is tracking id user's history, made when new; "" has none.
func (m *Model) visitor(user string) *visitor {
	if user == "" {
		return nil
	}
	v := m.visitors[user]
	if v == nil {
		v = &visitor{}
		m.visitors[user] = v
	}
	return v
}

func (m *Model) view(user string, id uint32, at int64) {
	m.counts[id].add(kindView, at)
	v := m.visitor(user)
	if v == nil {
		return
	}
	// Co-viewed: the products this visitor viewed in this session.
	for i := len(v.viewed) - 1; i >= 0; i-- {
		prev := v.viewed[i]
		if at-prev.at > SessionGap.Milliseconds() {
			break
		}
		if prev.id != id {
			m.coViewed[id] = m.coViewed[id].add(prev.id)
			m.coViewed[prev.id] = m.coViewed[prev.id].add(id)
		}
	}
	v.viewed = pushHistory(v.viewed, stamped{id, at})
}

func (m *Model) cart(user string, pns []string, at int64) {
	v := m.visitor(user)
	ids := make([]uint32, 0, len(pns))
	for _, pn := range pns {
		id := m.id(pn)
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	// Counted: the products the cart did not hold before.
	for _, id := range ids {
		if v == nil || !slices.Contains(v.cart, id) {
			m.counts[id].add(kindCart, at)
		}
	}
	if v != nil {
		v.cart = ids
	}
}

func (m *Model) purchase(e *events.Event, at int64) {
	h := maphash.String(m.seed, e.Website+"\x00"+e.OrderNumber)
	if _, seen := m.orders[h]; seen {
		return
	}
	m.orders[h] = struct{}{}
	var ids []uint32
	for _, pn := range e.Products() {
		id := m.id(pn)
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		m.counts[id].add(kindBuy, at)
	}
	paired := ids[:min(len(ids), maxPairs)]
	for i, a := range paired {
		for _, b := range paired[i+1:] {
			m.coBought[a] = m.coBought[a].add(b)
			m.coBought[b] = m.coBought[b].add(a)
		}
	}
	if v := m.visitor(e.User); v != nil {
		for _, id := range ids {
			v.bought = pushHistory(v.bought, stamped{id, at})
		}
		v.cart = nil // bought: the cart is empty
	}
}

// pushHistory appends s, moving an earlier entry of the same product to
// the end, and keeps the last MaxHistory.
func pushHistory(h []stamped, s stamped) []stamped {
	for i := range h {
		if h[i].id == s.id {
			h = append(h[:i], h[i+1:]...)
			break
		}
	}
	h = append(h, s)
	if len(h) > MaxHistory {
		h = append(h[:0], h[len(h)-MaxHistory:]...)
	}
	return h
}
