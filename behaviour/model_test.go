package behaviour

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/aisle-search/aisle/events"
)

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// at is t0 plus d, in the events' Unix milliseconds.
func at(d time.Duration) int64 { return t0.Add(d).UnixMilli() }

func view(user, pn string, d time.Duration) *events.Event {
	return &events.Event{Kind: events.View, Website: "w", User: user, ProductNumber: pn, Time: at(d)}
}

func order(user, number string, d time.Duration, pns ...string) *events.Event {
	return &events.Event{Kind: events.Purchase, Website: "w", User: user, OrderNumber: number, ProductNumbers: pns, Time: at(d)}
}

func cart(user string, d time.Duration, pns ...string) *events.Event {
	return &events.Event{Kind: events.Cart, Website: "w", User: user, ProductNumbers: pns, Time: at(d)}
}

func fold(m *Model, es ...*events.Event) {
	for _, e := range es {
		m.Fold(e)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-5*max(1, math.Abs(b)) }

// TestCountsDecay: a count weighs 1 when it happens and half as much a
// half-life later, in each window.
func TestCountsDecay(t *testing.T) {
	m := New()
	week := 7 * 24 * time.Hour
	fold(m, view("u1", "A", 0), view("u2", "A", 0), view("u3", "A", week))
	now := t0.Add(week)
	if got := m.Count("A", Views, Short, now); !near(got, 2*0.5+1) {
		t.Errorf("short count a half-life on: %v, want 2", got)
	}
	if got, want := m.Count("A", Views, Long, now), 2*math.Exp2(-7.0/90)+1; !near(got, want) {
		t.Errorf("long count a week on: %v, want %v", got, want)
	}
	if got := m.Count("A", Views, Short, now.Add(2*week)); !near(got, 2*0.125+0.25) {
		t.Errorf("short count two more half-lives on: %v, want 0.5", got)
	}
	if got := m.Count("B", Views, Short, now); got != 0 {
		t.Errorf("a product no event named counts %v", got)
	}
	if got := m.Count("A", Buys, Long, now); got != 0 {
		t.Errorf("views counted as buys: %v", got)
	}
}

// TestPopular: highest count first, ties by number, n at most.
func TestPopular(t *testing.T) {
	m := New()
	fold(m, view("u", "B", 0), view("u", "A", 0), view("u", "C", time.Hour), view("v", "C", time.Hour), order("u", "O1", 2*time.Hour, "D"))
	got := m.Popular(Views, Short, 2, t0.Add(2*time.Hour))
	if len(got) != 2 || got[0].ProductNumber != "C" || got[1].ProductNumber != "A" {
		t.Errorf("top 2 viewed: %+v, want C then A (A and B tie, by number)", got)
	}
	if got := m.Popular(Buys, Long, 10, t0.Add(2*time.Hour)); len(got) != 1 || got[0].ProductNumber != "D" {
		t.Errorf("bought: %+v, want D alone", got)
	}
}

// TestSessionsAndOrders: views of one visitor within SessionGap are
// co-viewed, a longer gap starts a new session; an order's products are
// co-bought, and an order number counts once.
func TestSessionsAndOrders(t *testing.T) {
	m := New()
	fold(m,
		view("u", "A", 0), view("u", "B", 10*time.Minute), view("u", "A", 15*time.Minute),
		view("u", "C", 50*time.Minute), // 35 minutes after A: a new session
		view("v", "C", 0), view("v", "B", time.Minute),
		order("u", "O1", time.Hour, "A", "B", "C"), order("v", "O2", time.Hour, "A", "B"),
		order("u", "O1", 2*time.Hour, "A", "B", "C"), // the same order again
		order("w", "O3", time.Hour, "X", "Y", "Z2"), view("w", "Z2", time.Hour), view("x", "Z2", time.Hour),
	)
	scores := func(s []Scored) string {
		out := ""
		for _, x := range s {
			out += fmt.Sprintf("%s:%g ", x.ProductNumber, x.Score)
		}
		return out
	}
	for _, tc := range []struct {
		name, got, want string
	}{
		{"co-viewed with A", scores(m.CoViewed("A")), "B:2 "},
		{"co-viewed with B", scores(m.CoViewed("B")), "A:2 C:1 "},
		{"co-viewed with C", scores(m.CoViewed("C")), "B:1 "},
		{"co-bought with A", scores(m.CoBought("A")), "B:2 C:1 "},
		{"co-bought with C: equal counts, the more popular first (B's views are later)", scores(m.CoBought("C")), "B:1 A:1 "},
		{"co-bought with X: Z2, viewed, before Y", scores(m.CoBought("X")), "Z2:1 Y:1 "},
		{"co-bought with Z", scores(m.CoBought("Z")), ""},
		{"co-bought with A and C, summed", scores(m.CoBought("A", "C", "Z")), "B:3 A:1 C:1 "},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
	if got := m.Count("A", Buys, Long, t0.Add(2*time.Hour)); !near(got, 2*math.Exp2(-1.0/(90*24))) {
		t.Errorf("A bought %v times (decayed), want 2: O1 counts once", got)
	}
}

// TestVisitors: histories most recent first, a product seen again moves
// to the front, at most MaxHistory; the cart counts what it gains and a
// purchase empties it; email and customer ids resolve to the tracking id.
func TestVisitors(t *testing.T) {
	m := New()
	fold(m, view("u", "A", 0), view("u", "B", time.Minute), view("u", "A", 2*time.Minute),
		cart("u", 3*time.Minute, "A"), cart("u", 4*time.Minute, "A", "B"))
	v, ok := m.Visitor("u")
	if !ok || !slices.Equal(v.Viewed, []string{"A", "B"}) || !slices.Equal(v.Cart, []string{"A", "B"}) || len(v.Bought) != 0 {
		t.Errorf("visitor u: %+v %v", v, ok)
	}
	minute := math.Exp2(-1.0 / (7 * 24 * 60)) // a minute of the short half-life
	if a, b := m.Count("A", Carts, Short, t0.Add(4*time.Minute)), m.Count("B", Carts, Short, t0.Add(4*time.Minute)); !near(a, minute) || !near(b, 1) {
		t.Errorf("carts: A %v, B %v; want 1 each, A's a minute old (it stayed in the cart)", a, b)
	}
	e := order("u", "O9", 5*time.Minute, "B")
	e.Email, e.CustomerID = "a@shop.example", "c-1"
	testKey.Seal(e, false)
	fold(m, e)
	if v, _ := m.Visitor("u"); !slices.Equal(v.Bought, []string{"B"}) || v.Cart != nil {
		t.Errorf("after the order: bought %v, cart %v", v.Bought, v.Cart)
	}
	for i := range MaxHistory + 5 {
		fold(m, view("w", fmt.Sprint("P", i), time.Duration(i)*time.Minute))
	}
	if v, _ := m.Visitor("w"); len(v.Viewed) != MaxHistory || v.Viewed[0] != fmt.Sprint("P", MaxHistory+4) {
		t.Errorf("a long history: %d views, first %q", len(v.Viewed), v.Viewed[0])
	}
	if _, ok := m.Visitor("nobody"); ok {
		t.Error("a visitor no event named has a history")
	}
	for _, tc := range [][3]string{{"t-1", "", ""}, {"", " A@Shop.Example", ""}, {"", "", "c-1"}} {
		want := m.Resolve("u", 0, 0)
		if tc[0] != "" {
			want = m.Resolve(tc[0], 0, 0)
		}
		if got := m.Resolve(tc[0], testKey.Email(tc[1]), testKey.Customer(tc[2])); got != want || !got.Known() {
			t.Errorf("Resolve%q = %v, want %v", tc, got, want)
		}
	}
	if got := m.Resolve("", testKey.Email("x@shop.example"), 0); got.Known() {
		t.Errorf("an unknown email resolves to %v", got)
	}
}

// testKey seals the tests' events.
var testKey = events.NewIdentityKey([]byte("test secret"))

// TestLinks: an email or customer id links to the first tracking id an
// event names it with; a later event moves the link only when it may
// relink (its sender held the website's key); an email sent unsealed
// links nothing; past the budget the links least lately written go
// first, and the budget holds.
func TestLinks(t *testing.T) {
	m := New()
	who := func(email string) Who { return m.Resolve("", testKey.Email(email), 0) }
	link := func(user, email string, relink bool) {
		e := view(user, "A", 0)
		e.Email = email
		testKey.Seal(e, relink)
		m.Fold(e)
	}
	link("alice", "alice@x", false)
	link("mallory", "alice@x", false)
	if who("alice@x") != m.Resolve("alice", 0, 0) {
		t.Error("an event without the key moved alice@x's link")
	}
	link("alice2", "alice@x", true)
	if who("alice@x") != m.Resolve("alice2", 0, 0) {
		t.Error("an event with the key did not move alice@x's link")
	}
	e := view("mallory", "A", 0)
	e.Email = "bob@x"
	m.Fold(e)
	if who("bob@x").Known() {
		t.Error("an unsealed email was linked")
	}

	m = New()
	m.links = newLinkTable(100)
	for i := range 1000 {
		link(fmt.Sprint("u", i), fmt.Sprint(i, "@x"), false)
		if n := m.Size().Links; n > 100 {
			t.Fatalf("%d links after %d, budget 100", n, i+1)
		}
	}
	if !who("999@x").Known() || who("0@x").Known() {
		t.Error("past the budget the newest link went, or the oldest stayed")
	}
}

// TestNeighboursMatchExactCounts: against exact pair counts kept in maps,
// the neighbours of every product are exact while they fit, and bounded
// with the strongest kept when they do not.
func TestNeighboursMatchExactCounts(t *testing.T) {
	// (Few enough orders of the 30 that no count passes maxCount and
	// halves: TestNeighbourCountsHalveAtTheTop.) The same sets are
	// bought in one order, or viewed in one session.
	for _, bought := range []bool{true, false} {
		for products, orders := range map[int]int{30: 600, 400: 3000} {
			t.Run(fmt.Sprint(products, " products, bought ", bought), func(t *testing.T) {
				testNeighbours(t, products, orders, bought)
			})
		}
	}
}

func testNeighbours(t *testing.T, products, orders int, bought bool) {
	r := rand.New(rand.NewPCG(7, uint64(products)))
	m := New()
	exact := map[string]map[string]int{}
	for o := range orders {
		var pns []string
		for range 2 + r.IntN(3) {
			// skewed: low numbers are bought far more often
			p := fmt.Sprintf("P%03d", int(float64(products)*math.Pow(r.Float64(), 3)))
			if !slices.Contains(pns, p) {
				pns = append(pns, p)
			}
		}
		if bought {
			fold(m, order("u", fmt.Sprint("O", o), time.Duration(o)*time.Second, pns...))
		} else {
			for i, pn := range pns { // sessions an hour apart
				fold(m, view("u", pn, time.Duration(o)*time.Hour+time.Duration(i)*time.Minute))
			}
		}
		for _, a := range pns {
			for _, b := range pns {
				if a != b {
					if exact[a] == nil {
						exact[a] = map[string]int{}
					}
					exact[a][b]++
				}
			}
		}
	}
	over := 0
	keeps := capOf(bought)
	neighboursOf := m.CoViewed
	if bought {
		neighboursOf = m.CoBought
	}
	defer func() {
		if products > keeps && over == 0 {
			t.Error("no product had more neighbours than it keeps: the bound was not tested")
		}
	}()
	for a, counts := range exact {
		got := neighboursOf(a)
		if len(counts) > keeps {
			over++
		}
		if id, _ := m.numbers.find(a); len(m.neighboursOf(id, bought)) > keeps {
			t.Fatalf("%s: %d candidates kept, at most %d", a, len(m.neighboursOf(id, bought)), keeps)
		}
		if len(counts) <= keeps {
			if len(got) != min(len(counts), MaxNeighbours) {
				t.Fatalf("%s: %d neighbours, want %d", a, len(got), min(len(counts), MaxNeighbours))
			}
			for _, s := range got {
				if int(s.Score) != counts[s.ProductNumber] {
					t.Fatalf("%s with %s: %v, exact %d", a, s.ProductNumber, s.Score, counts[s.ProductNumber])
				}
			}
			continue
		}
		if len(got) != MaxNeighbours {
			t.Fatalf("%s: %d neighbours, want %d", a, len(got), MaxNeighbours)
		}
		// The exact strongest five, well above the weakest kept,
		// are among them.
		type pc struct {
			p string
			c int
		}
		var all []pc
		for p, c := range counts {
			all = append(all, pc{p, c})
		}
		slices.SortFunc(all, func(x, y pc) int { return y.c - x.c })
		for _, s := range all[:5] {
			if !slices.ContainsFunc(got, func(g Scored) bool { return g.ProductNumber == s.p }) {
				t.Errorf("%s: its %d-time neighbour %s is not kept", a, s.c, s.p)
			}
		}
	}
}

// TestRankedIsKept: a ranking is reused while no event was folded, and
// for MaxStale after one; with MaxStale 0 every fold is seen at once.
// Its order does not depend on when it is asked for.
func TestRankedIsKept(t *testing.T) {
	m := New()
	fold(m, view("u", "A", 0), view("u", "B", 0), view("v", "B", time.Minute))
	w := Weights{Views: 1}
	now := t0.Add(time.Hour)
	names := func(s []Scored) string {
		out := ""
		for _, x := range s {
			out += x.ProductNumber
		}
		return out
	}
	if got := names(m.Ranked(w, Short, now)); got != "BA" {
		t.Fatalf("ranked %q, want BA", got)
	}
	fold(m, view("x", "A", 2*time.Minute), view("y", "A", 2*time.Minute))
	if got := names(m.Ranked(w, Short, now.Add(500*time.Millisecond))); got != "BA" {
		t.Errorf("within MaxStale of the last ranking: %q, want the kept BA", got)
	}
	// Past MaxStale the stale ranking is still answered while a new one
	// is computed in the background, which the calls after get.
	if got := names(m.Ranked(w, Short, now.Add(2*time.Second))); got != "BA" {
		t.Errorf("past MaxStale, during the recomputation: %q, want the kept BA", got)
	}
	deadline := time.Now().Add(10 * time.Second)
	for names(m.Ranked(w, Short, now.Add(2*time.Second))) != "AB" {
		if time.Now().After(deadline) {
			t.Fatal("past MaxStale: the recomputed AB never came")
		}
		time.Sleep(time.Millisecond)
	}
	m.MaxStale = 0
	fold(m, view("z", "C", 3*time.Minute), view("z2", "C", 3*time.Minute), view("z3", "C", 3*time.Minute))
	if got := names(m.Ranked(w, Short, now.Add(2*time.Second))); got != "CAB" {
		t.Errorf("MaxStale 0: %q, want CAB at once", got)
	}
	// The order is the same asked for a year later: scores shrink
	// together.
	later := New()
	later.MaxStale = 0
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 500 {
		fold(later, view(fmt.Sprint("u", i), fmt.Sprint("P", r.IntN(40)), time.Duration(r.IntN(30*24))*time.Hour))
	}
	a := names(later.Ranked(w, Long, t0.Add(31*24*time.Hour)))
	later.Fold(&events.Event{Kind: events.Search, Website: "w", Query: "x", Results: new(int)}) // a fold that changes no count
	if b := names(later.Ranked(w, Long, t0.Add(400*24*time.Hour))); a != b {
		t.Errorf("the order changed with time:\n%s\n%s", a, b)
	}
}

// TestRankedServesStaleWhileRecomputing: past MaxStale, while a ranking
// is recomputed, callers get the stale one at once, and the recomputed
// one replaces it when done; with MaxStale 0 a caller never gets a stale
// one, even beside a recomputation.
func TestRankedServesStaleWhileRecomputing(t *testing.T) {
	m := New()
	m.MaxStale = time.Millisecond
	fold(m, view("u", "A", 0))
	w := Weights{Views: 1}
	now := t0.Add(time.Hour)
	first := m.Ranked(w, Short, now)
	fold(m, view("v", "B", time.Minute), view("x", "B", time.Minute))
	key := rankKey{w, Short}
	m.rankMu.Lock()
	r := m.ranked[key]
	r.computing = true // as if a recomputation were under way
	m.ranked[key] = r
	m.rankMu.Unlock()
	later := now.Add(time.Second)
	if got := m.Ranked(w, Short, later); len(got) != 1 || &got[0] != &first[0] {
		t.Fatalf("beside a recomputation: %v, want the stale ranking %v", got, first)
	}
	m.MaxStale = 0
	if got := m.Ranked(w, Short, later); len(got) != 2 || got[0].ProductNumber != "B" {
		t.Fatalf("MaxStale 0 beside a recomputation: %v, want the fresh B then A", got)
	}
	m.MaxStale = time.Millisecond
	fold(m, view("y", "A", 2*time.Minute), view("z", "A", 2*time.Minute))
	m.Ranked(w, Short, later.Add(time.Second)) // stale: starts the recomputation
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := m.Ranked(w, Short, later.Add(time.Second))
		if len(got) == 2 && got[0].ProductNumber == "A" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the recomputed ranking never came: %v", got)
		}
		time.Sleep(time.Millisecond)
	}
	m.rankMu.Lock()
	defer m.rankMu.Unlock()
	if m.ranked[key].computing {
		t.Fatal("the recomputed ranking is still marked computing")
	}
}

// TestNeighbourCountsHalveAtTheTop: a count about to pass maxCount
// halves every count of its list, so the order holds and entries stay 4
// bytes.
func TestNeighbourCountsHalveAtTheTop(t *testing.T) {
	if size := unsafe.Sizeof(neighbour(0)); size != 4 {
		t.Fatalf("a neighbour takes %d bytes, want 4", size)
	}
	m := New()
	m.id("A")
	const big = 1<<24 - 1 // the largest id
	for range maxCount {
		m.addNeighbour(0, big, false)
	}
	for range 3 {
		m.addNeighbour(0, 7, false)
	}
	m.addNeighbour(0, 9, true) // the co-bought list beside it is left alone
	ns := m.neighboursOf(0, false)
	if len(ns) != 2 || ns[0].id() != big || ns[0].count() != maxCount || ns[1].count() != 3 {
		t.Fatalf("before the top: %v", ns)
	}
	m.addNeighbour(0, big, false)
	ns = m.neighboursOf(0, false)
	if ns[0].count() != maxCount/2+2 || ns[1].count() != 2 || ns[0].id() != big || ns[1].id() != 7 {
		t.Errorf("after passing the top: %d and %d (ids %d, %d), want %d and 2", ns[0].count(), ns[1].count(), ns[0].id(), ns[1].id(), maxCount/2+2)
	}
	if b := m.neighboursOf(0, true); len(b) != 1 || b[0] != newNeighbour(9, 1) {
		t.Errorf("co-bought %v, want 9 once", b)
	}
}

// TestASmallModelIsSmall: a website with a few events costs a few
// kilobytes, not a page of each arena, so a server of many small
// websites stays small; the room grows with what is folded.
func TestASmallModelIsSmall(t *testing.T) {
	m := New()
	fold(m, view("u1", "A", 0), view("u1", "B", time.Minute), view("u2", "A", 2*time.Minute),
		order("u2", "O1", 3*time.Minute, "A", "C"))
	small := m.Size().Bytes
	if small > 4<<10 {
		t.Errorf("a model of 4 events takes %d bytes, want at most 4 KiB", small)
	}
	for i := range 3000 {
		fold(m, view(fmt.Sprint("u", i%500), fmt.Sprint("P", i%700), time.Duration(i)*time.Minute))
	}
	if big := m.Size().Bytes; big < 10*small {
		t.Errorf("3,000 events more take %d bytes, a 4-event model %d: the room is not counted", big, small)
	}
}

// TestCampaignCounts: a campaign counts the impressions the server
// recorded and the clicks naming it; a click without a campaign counts
// for none; at most maxCampaigns campaigns are counted.
func TestCampaignCounts(t *testing.T) {
	m := New()
	sh := func(c string) *events.Shown {
		return &events.Shown{Source: events.SourcePage, Key: "garden", Campaign: c}
	}
	for range 3 {
		fold(m, &events.Event{Kind: events.Impression, Website: "w", ProductNumber: "P1", Shown: sh("spring")})
	}
	fold(m, &events.Event{Kind: events.Click, Website: "w", ProductNumber: "P1", Shown: sh("spring")},
		&events.Event{Kind: events.Click, Website: "w", ProductNumber: "P1", Shown: sh("")},
		&events.Event{Kind: events.Impression, Website: "w", ProductNumber: "P2", Shown: sh("autumn")})
	if got := m.Campaign("spring"); got != (CampaignStats{Impressions: 3, Clicks: 1}) {
		t.Errorf("spring: %+v, want 3 impressions and 1 click", got)
	}
	if got := m.Campaign("autumn"); got != (CampaignStats{Impressions: 1}) {
		t.Errorf("autumn: %+v", got)
	}
	for i := range maxCampaigns + 10 {
		fold(m, &events.Event{Kind: events.Click, Website: "w", ProductNumber: "P1", Shown: sh(fmt.Sprint("x", i))})
	}
	if len(m.campaigns) != maxCampaigns || m.Campaign("spring").Clicks != 1 {
		t.Errorf("%d campaigns counted, want at most %d", len(m.campaigns), maxCampaigns)
	}
}
