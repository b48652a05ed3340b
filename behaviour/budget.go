package behaviour

// Budget bounds what a model keeps of a website's visitors, so its
// memory is bounded whatever they send: a model holds at most Visitors
// histories and Links links. Products are bounded by the catalog (the
// engine folds only products it holds) and by maxProducts; orders by
// Orders.
type Budget struct {
	// Visitors is how many visitors' histories a model keeps, at least
	// 1. A new visitor that would pass it first evicts the least lately
	// active quarter (evict).
	Visitors int
	// Links is how many emails' and customer ids' links it keeps, at
	// least 2; past it the least lately written go first (linkTable).
	Links int
	// Orders is how many order numbers a model remembers at least (and
	// twice as many at most) to count each order once; 0 means
	// DefaultOrders.
	Orders int
}

// DefaultOrders is how many order numbers a model remembers by default:
// 49,152, which fill its 65,536 slots three quarters.
const DefaultOrders = 3 << 14

// DefaultMaxVisitors is how many visitors a model keeps by default: a
// shop of a million visitors. A visitor takes about 33 bytes (record and
// table slot) and 3 a product of its history (246 at most), a link about
// 40: a million visitors with a view and an email each, 73 MB.
const DefaultMaxVisitors = 1_000_000

// DefaultBudget is New's: a million visitors, an email and a customer
// id each.
var DefaultBudget = BudgetFor(DefaultMaxVisitors)

// BudgetFor is the budget of a shop of visitors visitors: as many
// histories, and twice as many links.
func BudgetFor(visitors int) Budget { return Budget{Visitors: visitors, Links: 2 * visitors} }

// checked is b with each bound at its least.
func (b Budget) checked() Budget {
	orders := b.Orders
	if orders <= 0 {
		orders = DefaultOrders
	}
	return Budget{Visitors: max(b.Visitors, 1), Links: max(b.Links, 2), Orders: orders}
}

// makeRoom evicts the least lately active visitors, when m holds its
// budget of them or more, down to three quarters of the budget: one
// pass over the visitors for a quarter of the budget new ones, so
// eviction costs each new visitor amortised O(1); m.mu is held for
// writing.
func (m *Model) makeRoom() {
	if m.visitors.len() >= m.budget.Visitors {
		m.evict(m.visitors.len() - (m.budget.Visitors - max(1, m.budget.Visitors/4)))
	}
}

// evict forgets the k least lately active visitors: those whose latest
// view, cart or purchase is the earliest (in activeStep steps), and of
// equal times the ones first seen. What is left keeps its order, so a
// model fed the same events evicts the same visitors, whether it was
// read from a snapshot or not. Their history blocks go back to the
// arena (compacted by the fold, as wasteful) and the table is rebuilt:
// O(visitors), no sorting.
func (m *Model) evict(k int) {
	n := m.visitors.len()
	if k <= 0 || n == 0 {
		return
	}
	cut, ties := m.evictionCut(min(k, n))
	kept := 0
	for i := range n {
		v := m.visitors.at(i)
		if a := v.lastActive(); a < cut || a == cut && ties > 0 {
			if a == cut {
				ties--
			}
			m.histories.release(v.ref, v.class)
			continue
		}
		if kept != i {
			*m.visitors.at(kept) = *v
		}
		kept++
	}
	m.visitors.truncate(kept)
	m.visitorIdx.rebuild(&m.visitors)
}

// evictionCut is the active time of the k-th least lately active
// visitor (1 ≤ k ≤ visitors), and how many of those at that time are
// among the k: a radix selection over the 24-bit times, by their high
// 12 bits, then the low 12 bits of that bucket.
func (m *Model) evictionCut(k int) (cut uint32, ties int) {
	const bits = 12
	var counts [1 << bits]int
	n := m.visitors.len()
	for i := range n {
		counts[m.visitors.at(i).lastActive()>>bits]++
	}
	below, hi := 0, 0
	for below+counts[hi] < k {
		below += counts[hi]
		hi++
	}
	counts = [1 << bits]int{}
	for i := range n {
		if a := m.visitors.at(i).lastActive(); int(a>>bits) == hi {
			counts[a&(1<<bits-1)]++
		}
	}
	lo := 0
	for below+counts[lo] < k {
		below += counts[lo]
		lo++
	}
	return uint32(hi<<bits | lo), k - below
}
