package behaviour

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/aisle-search/aisle/events"
)

// budgetOracle is a plain model of the visitor budget: every visitor
// with the time of their latest event and when they were first seen;
// past the budget, a sort picks the least lately active.
type budgetOracle struct {
	budget  int
	seen    int
	visitor map[string][2]int64 // active step, first seen
}

func (o *budgetOracle) event(user string, ms int64) {
	v, ok := o.visitor[user]
	if !ok {
		if len(o.visitor) >= o.budget {
			type entry struct {
				user string
				v    [2]int64
			}
			var all []entry
			for u, v := range o.visitor {
				all = append(all, entry{u, v})
			}
			slices.SortFunc(all, func(a, b entry) int {
				return cmp.Or(cmp.Compare(a.v[0], b.v[0]), cmp.Compare(a.v[1], b.v[1]))
			})
			for _, e := range all[:len(all)-(o.budget-max(1, o.budget/4))] {
				delete(o.visitor, e.user)
			}
		}
		o.seen++
		v = [2]int64{0, int64(o.seen)}
	}
	v[0] = max(v[0], min(max(ms/activeStep.Milliseconds(), 0), maxActive))
	o.visitor[user] = v
}

// budgetEvents are n views, carts and purchases of visitors drawn from
// a pool that widens as time goes, so some come back, most are new, and
// some events carry an earlier time (an imported log's), many in one
// activeStep.
func budgetEvents(r *rand.Rand, n int) []*events.Event {
	var out []*events.Event
	for i := range n {
		user := fmt.Sprint("u", r.IntN(i/2+10))
		if r.IntN(5) == 0 {
			user = "regular" // active all along: never evicted
		}
		at := time.Duration(i) * 2 * time.Minute
		if r.IntN(10) == 0 {
			at -= time.Duration(r.IntN(3000)) * time.Minute
		}
		pn := fmt.Sprint("P", r.IntN(30))
		switch r.IntN(4) {
		case 0:
			out = append(out, cart(user, at, pn))
		case 1:
			out = append(out, order(user, fmt.Sprint("O", i), at, pn))
		default:
			out = append(out, view(user, pn, at))
		}
	}
	return out
}

// TestVisitorsEvictedPastTheBudget: against a plain oracle that sorts
// every visitor by their latest event, the model keeps exactly the
// visitors the oracle keeps, at most the budget at every step, the
// least lately active going first (of equal times the first seen); a
// visitor active all along keeps their history; the visitors' memory
// (records, table and histories) stays within that of the budget's
// visitors with full histories, twice over, and an arena page.
func TestVisitorsEvictedPastTheBudget(t *testing.T) {
	const budget = 200
	r := rand.New(rand.NewPCG(3, 4))
	m := NewBudget(Budget{Visitors: budget, Links: 2 * budget})
	o := &budgetOracle{budget: budget, visitor: map[string][2]int64{}}
	evs := budgetEvents(r, 20000)
	full := 2*budget*(int(unsafe.Sizeof(visitor{}))+historyClasses[len(historyClasses)-1]+4*2) + arenaPageSize
	reached := false
	for i, e := range evs {
		m.Fold(e)
		o.event(e.User, e.Time)
		s := m.Size()
		if s.Visitors > budget || s.Visitors != len(o.visitor) {
			t.Fatalf("after event %d: %d visitors, the oracle %d, budget %d", i, s.Visitors, len(o.visitor), budget)
		}
		reached = reached || s.Visitors == budget
		if n := m.visitors.bytes() + 4*len(m.visitorIdx.slots) + m.histories.bytes(); n > full {
			t.Fatalf("after event %d the visitors take %d bytes, want at most %d", i, n, full)
		}
	}
	if !reached {
		t.Fatal("the budget was never reached")
	}
	kept := 0
	for i := range 20000/2 + 10 {
		u := fmt.Sprint("u", i)
		_, ok := m.Visitor(u)
		_, want := o.visitor[u]
		if ok != want {
			t.Errorf("visitor %s known %v, the oracle %v", u, ok, want)
		}
		if ok {
			kept++
		}
	}
	if kept < budget/2 {
		t.Errorf("only %d visitors kept of a budget of %d", kept, budget)
	}
	if v, ok := m.Visitor("regular"); !ok || len(v.Viewed)+len(v.Bought) == 0 {
		t.Errorf("the visitor active all along: %+v, %v", v, ok)
	}
	for i := range m.visitors.len() {
		h := m.visitors.at(i).hash
		if pos, ok := m.visitorIdx.find(&m.visitors, h); !ok || pos != i {
			t.Fatalf("visitor %d found at %d, %v", i, pos, ok)
		}
	}
}

// TestEvictionIsDeterministic: a model read from a snapshot part way
// through a log and folding the rest holds what the model that folded
// it all holds, and so does a model replaying the whole log (under
// another hash key: compared by what it says of each visitor); a
// snapshot read under a smaller budget keeps the most lately active.
func TestEvictionIsDeterministic(t *testing.T) {
	b := Budget{Visitors: 50, Links: 100}
	r := rand.New(rand.NewPCG(5, 6))
	evs := budgetEvents(r, 4000)
	for _, e := range evs[:300] {
		e.Email = e.User + "@shop.test"
		testKey.Seal(e, false)
	}
	whole := NewBudget(b)
	for _, e := range evs[:2000] {
		whole.Fold(e)
	}
	back, err := DecodeSnapshot(whole.AppendSnapshot(nil), b)
	if err != nil {
		t.Fatal(err)
	}
	replayed := NewBudget(b)
	for _, e := range evs[:2000] {
		replayed.Fold(e)
	}
	for _, e := range evs[2000:] {
		whole.Fold(e)
		back.Fold(e)
		replayed.Fold(e)
	}
	if !reflect.DeepEqual(state(back), state(whole)) {
		t.Error("a model read from a snapshot part way and folded on differs from the one that folded it all")
	}
	kept := 0
	for i := range 4000/2 + 10 {
		u := fmt.Sprint("u", i)
		a, okA := whole.Visitor(u)
		b, okB := replayed.Visitor(u)
		if okA != okB || !reflect.DeepEqual(a, b) {
			t.Fatalf("visitor %s: %+v %v, replayed %+v %v", u, a, okA, b, okB)
		}
		if okA {
			kept++
		}
		email := testKey.Email(u + "@shop.test")
		if whole.Resolve("", email, 0) == (Who{}) != (replayed.Resolve("", email, 0) == (Who{})) {
			t.Errorf("%s's email linked in one model and not the other", u)
		}
	}
	if kept == 0 || whole.Size().Links == 0 {
		t.Fatalf("%d visitors kept, %d links: the comparison compared nothing", kept, whole.Size().Links)
	}

	small, err := DecodeSnapshot(whole.AppendSnapshot(nil), Budget{Visitors: 10, Links: 4})
	if err != nil {
		t.Fatal(err)
	}
	if s := small.Size(); s.Visitors != 10 || s.Links > 4 {
		t.Fatalf("read under a budget of 10 visitors and 4 links: %d and %d", s.Visitors, s.Links)
	}
	type active struct {
		at  uint32
		pos int
	}
	var all []active
	for i := range whole.visitors.len() {
		all = append(all, active{whole.visitors.at(i).lastActive(), i})
	}
	slices.SortFunc(all, func(a, b active) int { return cmp.Or(cmp.Compare(b.at, a.at), cmp.Compare(b.pos, a.pos)) })
	for _, a := range all[:10] {
		h := whole.visitors.at(a.pos).hash
		if small.lookupHash(h) == nil {
			t.Errorf("visitor %d (active at %d) is among the 10 most lately active, and was evicted", a.pos, a.at)
		}
	}
}

// TestVisitorRecordStaysSmall: the last active time fits the visitor
// record's padding; a visitor costs 24 bytes and its ids.
func TestVisitorRecordStaysSmall(t *testing.T) {
	if n := unsafe.Sizeof(visitor{}); n != 24 {
		t.Errorf("a visitor record takes %d bytes, want 24", n)
	}
	var v visitor
	for _, tc := range []struct {
		ms   int64
		want uint32
	}{
		{-5, 0}, {0, 0}, {activeStep.Milliseconds() - 1, 0}, {activeStep.Milliseconds(), 1},
		{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(), 2945376}, {1 << 62, maxActive},
	} {
		v.setActive(0)
		v.touch(tc.ms)
		if got := v.lastActive(); got != tc.want {
			t.Errorf("active at %d ms: %d, want %d", tc.ms, got, tc.want)
		}
	}
	v.touch(0)
	if v.lastActive() != maxActive {
		t.Error("an earlier event moved the last active time back")
	}
}
