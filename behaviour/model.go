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
	// session, however long it runs, and co-viewed (each with the
	// session's last MaxHistory views).
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
	// visitors by the keyed hash of their tracking id (64 bits: two of
	// ten million visitors share one with a chance of about 1 in 370,000).
	visitorIdx visitorTable
	visitors   []visitor
	links      map[string]string // "email:" or "customer:" + id → tracking id
	// orders and oldOrders hold the hashes of the order numbers counted
	// lately: when orders holds maxOrders, it becomes oldOrders and the
	// oldest are forgotten, so memory stays bounded and a repeated
	// purchase event (a retry, a reload of the thank-you page) is still
	// counted once.
	orders, oldOrders map[uint64]struct{}
	hash              *idHash // of tracking ids and order numbers
	events            int     // events folded
	seq               uint64  // the last log entry folded (Through)

	// MaxStale is how long a ranking (Ranked) is reused after events were
	// folded since it was computed; default (New) 1 s, 0: never.
	MaxStale time.Duration
	rankMu   sync.Mutex // guards ranked; taken before mu
	ranked   map[rankKey]ranking
}

// New is an empty model.
func New() *Model {
	return &Model{ids: map[string]uint32{}, links: map[string]string{},
		orders: map[uint64]struct{}{}, hash: newIDHash([16]byte{}), MaxStale: time.Second}
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
// The pointer is good until the next visitor is made.
func (m *Model) visitor(user string) *visitor {
	if user == "" {
		return nil
	}
	h := m.hash.sum(user)
	i, ok := m.visitorIdx.find(m.visitors, h)
	if !ok {
		i = len(m.visitors)
		m.visitors = append(m.visitors, visitor{hash: h})
		m.visitorIdx.add(m.visitors, h, i)
	}
	return &m.visitors[i]
}

// lookup is tracking id user's history, nil when none.
func (m *Model) lookup(user string) *visitor {
	i, ok := m.visitorIdx.find(m.visitors, m.hash.sum(user))
	if !ok || user == "" {
		return nil
	}
	return &m.visitors[i]
}

func (m *Model) view(user string, id uint32, at int64) {
	m.counts[id].add(kindView, at)
	v := m.visitor(user)
	if v == nil {
		return
	}
	// Co-viewed: the products this visitor viewed in this session, the
	// views less than SessionGap apart.
	sec := at / 1000
	if sec-int64(v.lastView) > int64(SessionGap/time.Second) || sec < int64(v.lastView) {
		v.session = 0
	}
	seen := v.viewed()
	session := seen[len(seen)-int(v.session):]
	inSession := false
	for _, prev := range session {
		if prev == id {
			inSession = true
			continue
		}
		m.coViewed[id] = m.coViewed[id].add(prev)
		m.coViewed[prev] = m.coViewed[prev].add(id)
	}
	v.pushViewed(id)
	if !inSession {
		v.session = min(v.session+1, v.nViewed)
	}
	v.lastView = uint32(max(sec, 0))
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
		if v == nil || !slices.Contains(v.cart(), id) {
			m.counts[id].add(kindCart, at)
		}
	}
	if v != nil {
		v.setCart(ids)
	}
}

// maxOrders is how many order numbers the model remembers at least (and
// twice as many at most) to count each order once.
var maxOrders = 1 << 16 // a variable for tests

func (m *Model) purchase(e *events.Event, at int64) {
	h := m.hash.sum(e.Website, e.OrderNumber)
	_, seen := m.orders[h]
	if _, old := m.oldOrders[h]; seen || old {
		return
	}
	if len(m.orders) >= maxOrders {
		m.oldOrders, m.orders = m.orders, make(map[uint64]struct{}, maxOrders)
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
			v.pushBought(id)
		}
		v.setCart(nil) // bought: the cart is empty
	}
}

// Size is what a model holds: its products, visitors and the orders it
// remembers, and the entries of its lists.
type Size struct {
	Products, Visitors, Orders int
	// Neighbours are the co-viewed and co-bought entries kept, and the
	// room their lists take.
	Neighbours, NeighbourCap int
	// History are the products in visitors' histories and carts, and
	// the room they take.
	History, HistoryCap int
}

// Size counts what m holds.
func (m *Model) Size() Size {
	m.mu.RLock()
	defer m.mu.RUnlock()
	s := Size{Products: len(m.numbers), Visitors: len(m.visitors), Orders: len(m.orders) + len(m.oldOrders)}
	for i := range m.coViewed {
		s.Neighbours += len(m.coViewed[i]) + len(m.coBought[i])
		s.NeighbourCap += cap(m.coViewed[i]) + cap(m.coBought[i])
	}
	for i := range m.visitors {
		s.History += len(m.visitors[i].ids)
		s.HistoryCap += cap(m.visitors[i].ids)
	}
	return s
}
