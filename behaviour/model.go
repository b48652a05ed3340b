// Package behaviour holds what a website's visitors' events add up to:
// per-product counters that decay with time (views, carts, buys, each
// over a short and a long half-life), item-to-item co-occurrence (viewed
// in one session, bought in one order), per-visitor histories (recently
// viewed, recently bought, the cart) and tastes (TasteOf), the links
// from customers' hashed emails and ids to visitors, retail media
// campaigns' counts, and the analytics' per-day aggregates (Analytics).
// A Model is fed events in the change log's order (Fold) and answers
// what recommendations, ranking and analytics ask of it; its memory is
// bounded by a Budget of visitors and links and by the analytics' day
// budgets, and it is saved and restored whole as a snapshot
// (AppendSnapshot, DecodeSnapshot). It knows nothing of the index, HTTP
// or the store: products are known by number, visitors by tracking id.
package behaviour

import (
	"slices"
	"sync"
	"time"

	"github.com/aisle-search/aisle/events"
)

// The model's bounds and windows. Memory stays bounded: each product
// keeps at most MaxNeighbours co-viewed and as many co-bought products,
// each visitor the last MaxHistory products of each history, and the
// model at most its Budget of visitors and links.
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
	MaxHistory = 16
	// maxPairs bounds the products of one order that are paired with
	// each other (the first ones): an order of a thousand lines would
	// otherwise add half a million pairs.
	maxPairs = 50
)

// Model is one website's behaviour. Its methods are safe to call beside
// each other; Fold takes a write lock for one event.
type Model struct {
	mu       sync.RWMutex
	numbers  productNumbers   // the products' numbers and ids
	products chunked[product] // by id
	lists    arena[neighbour] // the products' neighbours
	// visitors by the keyed hash of their tracking id (64 bits: two of
	// ten million visitors share one with a chance of about 1 in 370,000),
	// at most budget.Visitors of them.
	budget     Budget
	visitorIdx visitorTable
	visitors   chunked[visitor]
	histories  arena[byte] // the visitors' ids
	links      linkTable   // emails' and customer ids' hashes → visitors' hashes
	// campaigns are the retail media campaigns' counts, by id.
	campaigns map[string]CampaignStats
	// stats are the analytics' per-day aggregates (Analytics).
	stats stats
	// orders and oldOrders hold the hashes of the order numbers counted
	// lately: when orders holds budget.Orders, it becomes oldOrders and the
	// oldest are forgotten, so memory stays bounded and a repeated
	// purchase event (a retry, a reload of the thank-you page) is still
	// counted once.
	orders, oldOrders orderSet
	hash              *idHash // of tracking ids and order numbers
	events            int     // events folded
	seq               uint64  // the last log entry folded (Through)

	// MaxStale is how long a ranking (Ranked) is reused after events were
	// folded since it was computed; default (New) 1 s, 0: never.
	MaxStale time.Duration
	rankMu   sync.Mutex // guards ranked; taken before mu
	ranked   map[rankKey]ranking
}

// product is what the model holds of one product: 40 bytes and its
// neighbours.
type product struct {
	counters
	lists
}

// New is an empty model of DefaultBudget.
func New() *Model { return NewBudget(DefaultBudget) }

// NewBudget is an empty model that keeps at most b's visitors and links.
func NewBudget(b Budget) *Model {
	b = b.checked()
	return &Model{numbers: newProductNumbers(), budget: b, links: newLinkTable(b.Links),
		lists: newArena[neighbour](neighbourClasses...), histories: newArena[byte](historyClasses...),
		hash: newIDHash([16]byte{}), MaxStale: time.Second}
}

// id is product pn's id, added when new; m.mu is held for writing. Past
// maxProducts products a new one is not added (ok false), and its events
// are not counted.
func (m *Model) id(pn string) (id uint32, ok bool) {
	if id, ok := m.numbers.find(pn); ok {
		return id, true
	}
	if m.numbers.len() == maxProducts {
		return 0, false
	}
	m.products.add()
	return m.numbers.add(pn), true
}

// Events is how many events Fold has taken.
func (m *Model) Events() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.events
}

// Fold adds event e, which events.Check accepted and IdentityKey.Seal
// sealed, to the model. Events come in log order; an event of another
// website is the caller's to keep out. Only view (by product number),
// cart and purchase events change counts and histories; impressions and
// clicks of sponsored products count for their campaign (Campaign). The
// email and customer id hashes on any event link to its tracking id when
// they are linked to none yet, or when the event may relink them
// (events.Event.Relink); an unsealed email or customer id links nothing.
// A purchase whose order number was counted before is not counted again.
func (m *Model) Fold(e *events.Event) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.events++
	if e.User != "" && e.EmailHash|e.CustomerHash != 0 {
		h := m.hash.sum(e.User)
		m.links.set(e.EmailHash, h, e.Relink)
		m.links.set(e.CustomerHash, h, e.Relink)
	}
	switch e.Kind {
	case events.View:
		if e.ProductNumber == "" {
			break
		}
		if id, ok := m.id(e.ProductNumber); ok {
			m.view(e.User, id, e.Time)
		}
	case events.Cart:
		m.cart(e.User, e.ProductNumbers, e.Time)
	case events.Purchase:
		m.purchase(e, e.Time)
	case events.Click, events.Impression:
		m.countCampaign(e)
		m.foldStats(e, nil, nil)
	case events.Search:
		m.foldStats(e, nil, nil)
	}
	m.compact()
}

// compact compacts an arena whose released blocks waste too much of it
// (a few times over ten million events, tens of milliseconds each).
func (m *Model) compact() {
	if m.lists.wasteful() {
		live := make([]liveBlock, 0, m.products.len())
		for i := range m.products.len() {
			if p := m.products.at(i); p.class != 0 {
				live = append(live, liveBlock{&p.ref, p.class})
			}
		}
		m.lists.compact(live)
	}
	if m.histories.wasteful() {
		live := make([]liveBlock, 0, m.visitors.len())
		for i := range m.visitors.len() {
			if v := m.visitors.at(i); v.class != 0 {
				live = append(live, liveBlock{&v.ref, v.class})
			}
		}
		m.histories.compact(live)
	}
}

// visitor is tracking id user's history, made when new (past the
// budget, after evicting the least lately active), with an event at
// Unix milliseconds at; "" has none. The pointer is good until the next
// visitor is made.
func (m *Model) visitor(user string, at int64) *visitor {
	if user == "" {
		return nil
	}
	h := m.hash.sum(user)
	i, ok := m.visitorIdx.find(&m.visitors, h)
	if !ok {
		m.makeRoom()
		i = m.visitors.len()
		m.visitors.add().hash = h
		m.visitorIdx.add(&m.visitors, h, i)
	}
	v := m.visitors.at(i)
	v.touch(at)
	return v
}

// lookupHash is the history of the visitor whose tracking id hashes to
// h, nil when none.
func (m *Model) lookupHash(h uint64) *visitor {
	i, ok := m.visitorIdx.find(&m.visitors, h)
	if !ok {
		return nil
	}
	return m.visitors.at(i)
}

func (m *Model) view(user string, id uint32, at int64) {
	m.products.at(int(id)).add(kindView, at)
	v := m.visitor(user, at)
	if v == nil {
		return
	}
	// Co-viewed: the products this visitor viewed in this session, the
	// views less than SessionGap apart.
	sec := at / 1000
	if sec-int64(v.lastView) > int64(SessionGap/time.Second) || sec < int64(v.lastView) {
		v.session = 0
	}
	seen := v.viewed(&m.histories)
	inSession := false
	for i := seen.len() - int(v.session); i < seen.len(); i++ {
		prev := seen.at(i)
		if prev == id {
			inSession = true
			continue
		}
		m.addNeighbour(id, prev, false)
		m.addNeighbour(prev, id, false)
	}
	v.pushViewed(&m.histories, id)
	if !inSession {
		v.session = min(v.session+1, v.nViewed)
	}
	v.lastView = uint32(max(sec, 0))
}

func (m *Model) cart(user string, pns []string, at int64) {
	v := m.visitor(user, at)
	ids := m.distinct(pns)
	// Counted: the products the cart did not hold before.
	for _, id := range ids {
		if v == nil || v.cart(&m.histories).index(id) < 0 {
			m.products.at(int(id)).add(kindCart, at)
		}
	}
	if v != nil {
		v.setCart(&m.histories, ids)
	}
}

func (m *Model) purchase(e *events.Event, at int64) {
	h := m.hash.sum(e.Website, e.OrderNumber)
	if m.orders.has(h) || m.oldOrders.has(h) {
		return
	}
	if m.orders.n >= m.budget.Orders {
		m.oldOrders, m.orders = m.orders, orderSet{slots: make([]uint64, len(m.orders.slots))}
	}
	m.orders.add(h)
	ids := m.distinct(e.Products())
	m.foldStats(e, ids, m.units(e, ids))
	for _, id := range ids {
		m.products.at(int(id)).add(kindBuy, at)
	}
	paired := ids[:min(len(ids), maxPairs)]
	for i, a := range paired {
		for _, b := range paired[i+1:] {
			m.addNeighbour(a, b, true)
			m.addNeighbour(b, a, true)
		}
	}
	if v := m.visitor(e.User, at); v != nil {
		for _, id := range ids {
			v.pushBought(&m.histories, id)
		}
		v.setCart(&m.histories, nil) // bought: the cart is empty
	}
}

// units are the quantities a purchase e bought of each of ids (its
// products, distinct): its lines' summed (1 a line without one), or 1
// each when it lists product numbers.
func (m *Model) units(e *events.Event, ids []uint32) []float64 {
	out := make([]float64, len(ids))
	if len(e.Lines) == 0 {
		for i := range out {
			out[i] = 1
		}
		return out
	}
	for _, l := range e.Lines {
		id, ok := m.numbers.find(l.ProductNumber)
		if !ok {
			continue
		}
		if i := slices.Index(ids, id); i >= 0 {
			q := l.Quantity
			if q <= 0 {
				q = 1
			}
			out[i] += q
		}
	}
	return out
}

// distinct are the ids of pns, each once, in their order.
func (m *Model) distinct(pns []string) []uint32 {
	ids := make([]uint32, 0, len(pns))
	for _, pn := range pns {
		if id, ok := m.id(pn); ok && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// Size is what a model holds: its products, visitors and the orders it
// remembers, and the entries of its lists.
type Size struct {
	Products, Visitors, Orders, Links int
	// Neighbours are the co-viewed and co-bought entries kept, and the
	// room their lists take.
	Neighbours, NeighbourCap int
	// History are the products in visitors' histories and carts, and
	// the room they take.
	History, HistoryCap int
	// Released are the elements in blocks released for reuse (a
	// compaction returns them), and Pages the arenas' pages.
	Released, Pages int
	// Bytes is the room the model's arenas, chunks and tables take:
	// about its heap (a link counted as linkBytes).
	Bytes int
}

// Held is how many visitors' histories and links m holds, which its
// Budget bounds: cheaper than Size, which counts everything.
func (m *Model) Held() (visitors, links int) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.visitors.len(), m.links.len()
}

// Size counts what m holds.
func (m *Model) Size() Size {
	m.mu.RLock()
	defer m.mu.RUnlock()
	s := Size{Products: m.numbers.len(), Visitors: m.visitors.len(), Orders: m.orders.n + m.oldOrders.n, Links: m.links.len()}
	for i := range m.products.len() {
		l := &m.products.at(i).lists
		s.Neighbours += int(l.nViewed) + int(l.nBought)
		s.NeighbourCap += m.lists.classes[l.class]
	}
	s.Released, s.Pages = m.lists.released+m.histories.released/idBytes, len(m.lists.pages)+len(m.histories.pages)
	s.Bytes = m.lists.bytes() + m.histories.bytes() + m.products.bytes() + m.visitors.bytes() +
		4*len(m.visitorIdx.slots) + m.numbers.bytes() + 8*(len(m.orders.slots)+len(m.oldOrders.slots)) + linkBytes*s.Links
	for i := range m.visitors.len() {
		v := m.visitors.at(i)
		s.History += int(v.nViewed) + int(v.nBought) + int(v.nCart)
		s.HistoryCap += m.histories.classes[v.class] / idBytes
	}
	return s
}
