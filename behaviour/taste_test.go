package behaviour

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestTasteMatchesAnOracle: a visitor's taste is their latest viewed and
// bought products, their cart, and the products related to their latest
// ones as a brute force over the neighbour lists finds them (each seed's
// strongest tasteStrongest, by count then list order; summed; the
// visitor's own left out; by count then id), over random shops.
func TestTasteMatchesAnOracle(t *testing.T) {
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 34))
		m := New()
		var at time.Duration
		for range 400 {
			user := fmt.Sprint("u", r.IntN(20))
			at += time.Duration(r.IntN(40)) * time.Minute
			if r.IntN(4) == 0 {
				fold(m, order(user, fmt.Sprint("o", at), at, fmt.Sprint("p", r.IntN(30)), fmt.Sprint("p", r.IntN(30))))
			} else {
				fold(m, view(user, fmt.Sprint("p", r.IntN(30)), at))
			}
		}
		for u := range 20 {
			user := fmt.Sprint("u", u)
			n, seeds, related := 1+r.IntN(6), 1+r.IntN(3), 1+r.IntN(10)
			got, ok := m.TasteOf(user, n, seeds, related)
			v, known := m.Visitor(user)
			if ok != known {
				t.Fatalf("seed %d %s: ok %v, visitor known %v", seed, user, ok, known)
			}
			if !ok {
				continue
			}
			ids := func(pns []string) []uint32 {
				out := []uint32{}
				for _, pn := range pns {
					id, _ := m.numbers.find(pn)
					out = append(out, id)
				}
				return out
			}
			viewed, bought := ids(v.Viewed), ids(v.Bought)
			own := slices.Concat(viewed, bought, ids(v.Cart))
			sum := map[uint32]float64{}
			for _, s := range []struct {
				list   []uint32
				bought bool
			}{{viewed, false}, {bought, true}} {
				for _, id := range s.list[:min(len(s.list), seeds)] {
					ns := slices.Clone(m.neighboursOf(id, s.bought))
					slices.SortStableFunc(ns, func(a, b neighbour) int { return cmp.Compare(b.count(), a.count()) })
					for _, x := range ns[:min(len(ns), tasteStrongest)] {
						if !slices.Contains(own, x.id()) {
							sum[x.id()] += float64(x.count())
						}
					}
				}
			}
			var want []Related
			for id, c := range sum {
				want = append(want, Related{id, c})
			}
			slices.SortFunc(want, func(a, b Related) int {
				if c := cmp.Compare(b.Count, a.Count); c != 0 {
					return c
				}
				return cmp.Compare(a.ID, b.ID)
			})
			want = want[:min(len(want), related)]
			cart := ids(v.Cart)
			if !slices.Equal(got.Viewed, viewed[:min(len(viewed), n)]) || !slices.Equal(got.Bought, bought[:min(len(bought), n)]) ||
				!slices.Equal(got.Cart, cart[:min(len(cart), n)]) || !slices.Equal(got.Related, want) && len(got.Related)+len(want) > 0 {
				t.Fatalf("seed %d %s (n %d, seeds %d, related %d):\ngot  %+v\nwant viewed %v bought %v related %+v", seed, user, n, seeds, related, got, viewed, bought, want)
			}
		}
	}
}

// TestMarkFollowsTheHistory: a visitor's mark changes with each event
// that changes their history, a view of the latest product aside, and
// not with other visitors' events.
func TestMarkFollowsTheHistory(t *testing.T) {
	m := New()
	if _, ok := m.Mark("u"); ok {
		t.Fatal("a mark for a visitor no event named")
	}
	fold(m, view("u", "A", 0))
	marks := map[uint64]string{}
	step := func(name string, changes bool) {
		t.Helper()
		mark, ok := m.Mark("u")
		if !ok {
			t.Fatalf("%s: no mark", name)
		}
		if _, seen := marks[mark]; seen == changes {
			t.Errorf("%s: mark %x seen before: %v, want %v", name, mark, seen, !changes)
		}
		marks[mark] = name
	}
	step("first view", true)
	fold(m, view("u", "B", time.Minute))
	step("another product", true)
	fold(m, view("u", "A", 2*time.Minute))
	step("an earlier product again: the order changes", true)
	fold(m, view("v", "C", 3*time.Minute))
	step("another visitor's view", false)
	fold(m, order("u", "o1", 4*time.Minute, "C"))
	step("a purchase", true)
}
