package behaviour

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestVisitorHistoriesMatchAnOracle: a visitor's packed histories and
// cart behave as three plain lists would, over random pushes and carts
// (some longer than a visitor keeps), and its block is the smallest that
// held them.
func TestVisitorHistoriesMatchAnOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 26))
	push := func(h []uint32, id uint32) []uint32 {
		h = slices.DeleteFunc(slices.Clone(h), func(x uint32) bool { return x == id })
		h = append(h, id)
		return h[max(0, len(h)-MaxHistory):]
	}
	a := newArena[byte](historyClasses...)
	var v, other visitor
	var viewed, bought, cart []uint32
	most := 0
	for step := range 5000 {
		id := uint32(r.IntN(40)) << (8 * (step % 3)) // ids of one, two and three bytes
		switch r.IntN(10) {
		case 0:
			cart = nil
			for range r.IntN(5) + 60*r.IntN(2)*r.IntN(2) {
				cart = append(cart, uint32(r.IntN(1<<24)))
			}
			v.setCart(&a, cart)
			cart = cart[:min(len(cart), maxCart)]
		case 1, 2:
			bought = push(bought, id)
			v.pushBought(&a, id)
		default:
			viewed = push(viewed, id)
			v.pushViewed(&a, id)
		}
		other.pushViewed(&a, uint32(step)) // a neighbour in the arena, moving too
		if !slices.Equal(v.viewed(&a).ids(), viewed) || !slices.Equal(v.bought(&a).ids(), bought) || !slices.Equal(v.cart(&a).ids(), cart) {
			t.Fatalf("step %d: packed %v | %v | %v, want %v | %v | %v", step, v.viewed(&a).ids(), v.bought(&a).ids(), v.cart(&a).ids(), viewed, bought, cart)
		}
		most = max(most, len(viewed)+len(bought)+len(cart))
		if want := a.class(most * idBytes); v.class != want {
			t.Fatalf("step %d: class %d (%d bytes), want %d: the smallest to hold %d ids", step, v.class, a.classes[v.class], want, most)
		}
	}
}

// TestSessionsChainViews: views less than SessionGap apart are one
// session however long it runs; a longer pause starts another.
func TestSessionsChainViews(t *testing.T) {
	m := New()
	fold(m, view("u", "A", 0), view("u", "B", 20*time.Minute), view("u", "C", 40*time.Minute), // 40 minutes after A, 20 after B
		view("u", "D", 75*time.Minute), view("u", "E", 80*time.Minute), // a new session
		view("u", "D", 85*time.Minute)) // D again: paired with E again
	got := ""
	for _, pn := range []string{"A", "C", "D", "E"} {
		got += pn + ":"
		for _, s := range m.CoViewed(pn) {
			got += fmt.Sprintf(" %s%g", s.ProductNumber, s.Score)
		}
		got += "; "
	}
	// (Equal counts: the more recently viewed first.)
	if want := "A: C1 B1; C: B1 A1; D: E2; E: D2; "; got != want {
		t.Errorf("co-viewed %q, want %q", got, want)
	}
}

// TestOrdersRememberedBounded: an order is counted once while it is
// among the last Budget.Orders to 2 × Budget.Orders orders, and the
// memory of orders stays within that.
func TestOrdersRememberedBounded(t *testing.T) {
	const maxOrders = 100
	b := DefaultBudget
	b.Orders = maxOrders
	m := NewBudget(b)
	for i := range 1000 {
		fold(m, order("u", fmt.Sprint("O", i), time.Duration(i)*time.Second, "P"))
		if i >= 150 { // a retry of an order 150 back
			fold(m, order("u", fmt.Sprint("O", i-150), time.Duration(i)*time.Second, "P"))
		}
		if n := m.Size().Orders; n > 2*maxOrders {
			t.Fatalf("after %d orders %d remembered, want at most %d", i+1, n, 2*maxOrders)
		}
	}
	// Each retry came 150 orders later: within memory while the newer
	// set is at least half full, so some were counted again; a retry of
	// the last order is never counted.
	before := m.Count("P", Buys, Long, t0.Add(time.Hour))
	fold(m, order("u", "O999", time.Hour, "P"), order("u", "O998", time.Hour, "P"))
	if after := m.Count("P", Buys, Long, t0.Add(time.Hour)); after != before {
		t.Errorf("a retry of a recent order counted: %v → %v", before, after)
	}
}

// TestVisitorTableFindsEveryVisitor: the open-addressing table finds each
// of many visitors, hashes sharing their low bits included, never one
// that was not added, and stays at most three quarters full.
func TestVisitorTableFindsEveryVisitor(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	var tab visitorTable
	var vs chunked[visitor]
	added := map[uint64]int{}
	for i := range 20000 {
		h := r.Uint64()
		if i%3 == 0 {
			h = h<<20 | 7 // the same low bits: one probe chain
		}
		if _, dup := added[h]; dup {
			continue
		}
		vs.add().hash = h
		tab.add(&vs, h, vs.len()-1)
		added[h] = vs.len() - 1
	}
	for h, pos := range added {
		if got, ok := tab.find(&vs, h); !ok || got != pos {
			t.Fatalf("hash %x: found %d %v, want %d", h, got, ok, pos)
		}
	}
	for range 1000 {
		if h := r.Uint64(); !containsKey(added, h) {
			if _, ok := tab.find(&vs, h); ok {
				t.Fatalf("hash %x found, never added", h)
			}
		}
	}
	if tab.n != vs.len() || tab.n*4 > len(tab.slots)*3 {
		t.Errorf("%d visitors in %d slots", tab.n, len(tab.slots))
	}
}

func containsKey(m map[uint64]int, k uint64) bool {
	_, ok := m[k]
	return ok
}
