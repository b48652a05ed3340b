package behaviour

import (
	"cmp"
	"slices"
)

// Taste is what a visitor's history says of their taste, as a profile
// for personalized ranking reads it: the model's ids (Number names
// them) of the products they viewed and bought lately and of their
// cart, most recent first, and the products related to their latest
// ones. It is read under one lock, touching a few hundred bytes.
type Taste struct {
	Viewed, Bought, Cart []uint32
	// Related are the products viewed in one session with the visitor's
	// latest viewed ones, or bought in one order with the latest bought
	// ones, strongest first, without the visitor's own products.
	Related []Related
}

// Related is a product related to a visitor's and how strongly: its
// counts beside the visitor's products, summed.
type Related struct {
	ID    uint32
	Count float64
}

// TasteOf is the taste of the visitor of tracking id user: at most n
// of the latest viewed and bought products and of the cart; seeds of
// the latest viewed and bought products give at most related products
// (each seed its strongest tasteStrongest neighbours, by count alone;
// ties by id). ok is false for a visitor no event named.
func (m *Model) TasteOf(user string, n, seeds, related int) (t Taste, ok bool) {
	if user == "" {
		return t, false
	}
	h := m.hash.sum(user)
	m.mu.RLock()
	defer m.mu.RUnlock()
	v := m.lookupHash(h)
	if v == nil {
		return t, false
	}
	t.Viewed = latest(v.viewed(&m.histories), n)
	t.Bought = latest(v.bought(&m.histories), n)
	cart := v.cart(&m.histories)
	t.Cart = make([]uint32, min(cart.len(), n))
	for i := range t.Cart {
		t.Cart[i] = cart.at(i)
	}
	if related <= 0 || seeds <= 0 {
		return t, true
	}
	all := v.all(&m.histories)
	acc := make([]Related, 0, 2*seeds*tasteStrongest)
	var best [tasteStrongest]neighbour
	add := func(h idList, bought bool) {
		for _, seed := range latest(h, seeds) {
			// The seed's strongest tasteStrongest neighbours, by
			// insertion: its list holds at most capBought.
			n := 0
			for _, x := range m.neighboursOf(seed, bought) {
				if n == len(best) && x.count() <= best[n-1].count() {
					continue
				}
				i := min(n, len(best)-1)
				for i > 0 && best[i-1].count() < x.count() {
					if i < len(best) {
						best[i] = best[i-1]
					}
					i--
				}
				best[i] = x
				n = min(n+1, len(best))
			}
			for _, x := range best[:n] {
				if all.index(x.id()) >= 0 {
					continue // the visitor's own
				}
				if i := slices.IndexFunc(acc, func(a Related) bool { return a.ID == x.id() }); i >= 0 {
					acc[i].Count += float64(x.count())
					continue
				}
				acc = append(acc, Related{x.id(), float64(x.count())})
			}
		}
	}
	add(v.viewed(&m.histories), false)
	add(v.bought(&m.histories), true)
	slices.SortFunc(acc, func(a, b Related) int {
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	t.Related = acc[:min(len(acc), related)]
	return t, true
}

// Number is the product number of the model's id id (Taste, Scored.ID).
func (m *Model) Number(id uint32) string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.numbers.number(id)
}

// tasteStrongest is how many of each seed's neighbours a taste weighs:
// its strongest.
const tasteStrongest = 8

// latest is the last n ids of a history, most recent first.
func latest(h idList, n int) []uint32 {
	out := make([]uint32, min(h.len(), n))
	for i := range out {
		out[i] = h.at(h.len() - 1 - i)
	}
	return out
}

// Mark is a digest of the history of the visitor of tracking id user
// (viewed, bought, cart, in order): it changes with each event that
// changes the history, so a caller may keep what it derived from a
// Taste while the mark holds. ok is false for a visitor no event named.
func (m *Model) Mark(user string) (mark uint64, ok bool) {
	if user == "" {
		return 0, false
	}
	h := m.hash.sum(user)
	m.mu.RLock()
	defer m.mu.RUnlock()
	v := m.lookupHash(h)
	if v == nil {
		return 0, false
	}
	mark = 14695981039346656037 // FNV-1a over the counts and the ids
	for _, b := range [...]byte{v.nViewed, v.nBought, v.nCart} {
		mark = (mark ^ uint64(b)) * 1099511628211
	}
	for _, b := range v.all(&m.histories) {
		mark = (mark ^ uint64(b)) * 1099511628211
	}
	return mark, true
}
