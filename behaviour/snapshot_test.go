package behaviour

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aisle-search/aisle/events"
)

// randomEvents are n events of every kind that changes the model, over
// 60 products and 40 visitors, some linked by email, some orders
// repeated.
func randomEvents(r *rand.Rand, n int, from time.Duration) []*events.Event {
	var out []*events.Event
	pn := func() string { return fmt.Sprintf("P%02d", int(60*r.Float64()*r.Float64())) }
	for i := range n {
		user := fmt.Sprint("u", r.IntN(40))
		at := from + time.Duration(i)*time.Minute
		switch r.IntN(6) {
		case 0:
			out = append(out, &events.Event{Kind: events.Cart, Website: "w", User: user, ProductNumbers: []string{pn(), pn()}, Time: t0.Add(at).UnixMilli()})
		case 1:
			out = append(out, order(user, fmt.Sprint("O", r.IntN(n)), at, pn(), pn(), pn()))
		case 2:
			e := view(user, pn(), at)
			if r.IntN(4) == 0 { // a sponsored product: shown, and clicked
				sh := &events.Shown{Source: events.SourceSearch, Key: "k", Campaign: fmt.Sprint("c", r.IntN(3))}
				out = append(out, &events.Event{Kind: events.Impression, Website: "w", ProductNumber: pn(), Shown: sh, Time: t0.Add(at).UnixMilli()},
					&events.Event{Kind: events.Click, Website: "w", User: user, ProductNumber: pn(), Shown: sh, Time: t0.Add(at).UnixMilli()})
			}
			e.Email = user + "@shop.test"
			testKey.Seal(e, r.IntN(2) == 0)
			out = append(out, e)
		default:
			out = append(out, view(user, pn(), at))
		}
	}
	return out
}

// state is what a model holds, for comparing two: where its lists lie
// in their arenas is left out.
func state(m *Model) []any {
	type product struct {
		counters
		viewed, bought []neighbour
	}
	type visitor struct {
		hash                             uint64
		lastView, active                 uint32
		nViewed, nBought, nCart, session uint8
		ids                              []uint32
	}
	var numbers []string
	var ps []product
	for id := range m.products.len() {
		numbers = append(numbers, m.numbers.number(uint32(id)))
		ps = append(ps, product{m.products.at(id).counters,
			append([]neighbour{}, m.neighboursOf(uint32(id), false)...), append([]neighbour{}, m.neighboursOf(uint32(id), true)...)})
	}
	var vs []visitor
	for i := range m.visitors.len() {
		v := m.visitors.at(i)
		vs = append(vs, visitor{v.hash, v.lastView, v.lastActive(), v.nViewed, v.nBought, v.nCart, v.session, v.all(&m.histories).ids()})
	}
	found := make([]int, len(vs)) // where the table finds each visitor
	for i := range vs {
		found[i], _ = m.visitorIdx.find(&m.visitors, vs[i].hash)
	}
	return []any{numbers, ps, m.visitorIdx.n, found, vs, m.links, m.campaigns,
		m.orders.n + m.oldOrders.n, m.events, m.seq, m.hash.key}
}

// TestSnapshotRoundTrip: a model read back from its snapshot holds what
// it held, hashes ids as it did, and goes on folding to the same model
// as the original.
func TestSnapshotRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 26))
	m := New()
	for _, e := range randomEvents(r, 3000, 0) {
		m.Fold(e)
	}
	m.Through(42)
	back, err := DecodeSnapshot(m.AppendSnapshot(nil), DefaultBudget)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(state(back), state(m)) {
		t.Fatal("the snapshot read back differs from the model")
	}
	if back.Seq() != 42 {
		t.Errorf("seq %d, want 42", back.Seq())
	}
	more := randomEvents(r, 2000, 3000*time.Minute)
	for _, e := range more {
		m.Fold(e)
		back.Fold(e)
	}
	if !reflect.DeepEqual(state(back), state(m)) {
		t.Error("after the same events the two models differ")
	}
	now := t0.Add(10000 * time.Minute)
	w := Weights{Views: 1, Carts: 3, Buys: 5}
	if a, b := fmt.Sprint(m.Ranked(w, Long, now)), fmt.Sprint(back.Ranked(w, Long, now)); a != b {
		t.Errorf("rankings differ:\n%s\n%s", a, b)
	}
	for _, u := range []string{"u1", "u7", "@u3@shop.test"} {
		var a, b Visitor
		if email, ok := strings.CutPrefix(u, "@"); ok {
			a, _ = m.VisitorOf(m.Resolve("", testKey.Email(email), 0))
			b, _ = back.VisitorOf(back.Resolve("", testKey.Email(email), 0))
		} else {
			a, _ = m.Visitor(u)
			b, _ = back.Visitor(u)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("visitor %s: %+v and %+v", u, a, b)
		}
	}
}

// TestSnapshotCorruption: a snapshot with a byte changed, cut short or
// of another layout is refused with ErrCorruptSnapshot, never read
// wrongly.
func TestSnapshotCorruption(t *testing.T) {
	m := New()
	for _, e := range randomEvents(rand.New(rand.NewPCG(1, 2)), 300, 0) {
		m.Fold(e)
	}
	snap := m.AppendSnapshot(nil)
	flipped := append([]byte(nil), snap...)
	flipped[len(flipped)/2] ^= 0x10
	for name, b := range map[string][]byte{
		"a byte changed": flipped,
		"cut short":      snap[:len(snap)-9],
		"empty":          nil,
		"another layout": append([]byte("aisle-behaviour-0"), snap[len(snapshotMagic):]...),
	} {
		if _, err := DecodeSnapshot(b, DefaultBudget); !errors.Is(err, ErrCorruptSnapshot) {
			t.Errorf("%s: %v, want ErrCorruptSnapshot", name, err)
		}
	}
}

// FuzzDecodeSnapshot: any bytes read back as a model or fail with
// ErrCorruptSnapshot, without a panic; the checksum is recomputed so
// the fuzzer reaches the body's checks.
func FuzzDecodeSnapshot(f *testing.F) {
	m := New()
	for _, e := range randomEvents(rand.New(rand.NewPCG(3, 4)), 50, 0) {
		m.Fold(e)
	}
	f.Add(m.AppendSnapshot(nil))
	f.Add([]byte(snapshotMagic))
	withStats := New()
	for _, e := range analyticsLog(2, 60) {
		withStats.Fold(e)
	}
	f.Add(withStats.AppendSnapshot(nil))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) >= 4 {
			b = append([]byte(nil), b...)
			sum := crcOf(b[:len(b)-4])
			copy(b[len(b)-4:], sum)
		}
		back, err := DecodeSnapshot(b, DefaultBudget)
		if err != nil {
			if !errors.Is(err, ErrCorruptSnapshot) {
				t.Fatalf("%v: not ErrCorruptSnapshot", err)
			}
			return
		}
		// What reads back can be folded into and asked.
		back.Fold(view("u", "P1", time.Minute))
		back.Visitor("u")
		back.CoViewed("P1")
		back.Analytics(-1<<31, 1<<31-1, 10)
		for _, e := range analyticsLog(5, 20) {
			back.Fold(e)
		}
	})
}
