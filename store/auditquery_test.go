package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
)

// The values random audit entries take: few, so filters match some.
var (
	auditWebsites  = []string{"", "w1", "w2", "w3"}
	auditCompanies = []string{"c1", "c2", "c3"}
	auditSources   = []string{"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"}
	auditSeqKeys   = []string{"q0", "q1", "q2", "q3", "q4"}
	auditTypes     = []string{"EVENT", "WEBSITE", "FEED_CONFIG", "SEARCH_CONFIG", "PAGES_DESIGN"}
)

// randomAuditEntry is an entry with random members, its time unset.
func randomAuditEntry(r *rand.Rand) AuditEntry {
	e := AuditEntry{
		SourceID: auditSources[r.IntN(len(auditSources))], SequenceKey: auditSeqKeys[r.IntN(len(auditSeqKeys))],
		WebsiteUUID: auditWebsites[r.IntN(len(auditWebsites))], CompanyID: auditCompanies[r.IntN(len(auditCompanies))],
		Keypoint: r.IntN(4) == 0, Endpoint: r.IntN(5) == 0, ResourceType: auditTypes[r.IntN(len(auditTypes))],
		ResourceTitle: fmt.Sprintf("title %d", r.IntN(100)),
	}
	if r.IntN(2) == 0 {
		e.ChangedFields = []string{"name", "boost"}[:1+r.IntN(2)]
	}
	if r.IntN(3) > 0 {
		e.Session = &AuditSession{SessionID: fmt.Sprintf("session-%d", r.IntN(10)), EntityName: "ops@example.com"}
		if r.IntN(2) == 0 {
			e.Session.Events = []string{"login", "save"}
		}
	}
	return e
}

// auditOracle writes random audit entries into a store and remembers
// what the store must have made of them.
type auditOracle struct {
	st      *Store
	clock   *testClock
	r       *rand.Rand
	entries []AuditEntry // in id order, as stored
	last    time.Time
}

// write writes one random batch: audit entries alone, beside a product,
// or a group of entries with audit entries and events; times from the
// clock (which may step back), or given, sometimes before the last.
func (o *auditOracle) write(t testing.TB) {
	t.Helper()
	o.clock.now = o.clock.now.Add(time.Duration(o.r.IntN(3000)) * time.Millisecond)
	if o.r.IntN(10) == 0 {
		o.clock.now = o.clock.now.Add(-5 * time.Second)
	}
	batch := func(least int) *Batch {
		b := &Batch{}
		for range least + o.r.IntN(16) {
			e := randomAuditEntry(o.r)
			if o.r.IntN(5) == 0 {
				e.CreatedAt = o.clock.now.Add(time.Duration(o.r.IntN(4000)-2000) * time.Millisecond)
			}
			b.Audit(e)
		}
		return b
	}
	var bs []*Batch
	switch o.r.IntN(3) {
	case 0:
		bs = []*Batch{batch(1)}
	case 1:
		b := batch(0)
		b.Website = testSite
		if err := b.PutProduct(&catalog.Product{ProductNumber: fmt.Sprintf("P%d", o.r.IntN(50)), Title: "a drill"}); err != nil {
			t.Fatal(err)
		}
		bs = []*Batch{b}
	default:
		for range 1 + o.r.IntN(3) {
			b := batch(0)
			b.Website = testSite
			b.AddEvent([]byte(`{"kind":"view"}`))
			bs = append(bs, b)
		}
	}
	var first uint64
	var err error
	if len(bs) == 1 && o.r.IntN(2) == 0 {
		first, err = o.st.Append(bs[0], o.r.IntN(2) == 0)
	} else {
		first, err = o.st.AppendGroup(bs, false)
	}
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range bs {
		for n, e := range b.audit {
			e.ID = auditID{first + uint64(i), uint16(n)}.String()
			if e.CreatedAt.IsZero() {
				e.CreatedAt = o.clock.now
			}
			if e.CreatedAt = e.CreatedAt.UTC(); e.CreatedAt.Before(o.last) {
				e.CreatedAt = o.last
			}
			o.last = e.CreatedAt
			o.entries = append(o.entries, e)
		}
	}
}

// matches is the filter applied to one entry, member by member.
func (f *AuditFilter) matches(e *AuditEntry) bool {
	eq := func(want *string, v string) bool { return want == nil || *want == v }
	flag := func(want *bool, v bool) bool { return want == nil || *want == v }
	return eq(f.WebsiteUUID, e.WebsiteUUID) && eq(f.CompanyID, e.CompanyID) && eq(f.SourceID, e.SourceID) &&
		eq(f.SequenceKey, e.SequenceKey) && eq(f.ResourceType, e.ResourceType) &&
		flag(f.Keypoint, e.Keypoint) && flag(f.Endpoint, e.Endpoint) &&
		(f.CreatedBefore == nil || !e.CreatedAt.After(*f.CreatedBefore)) &&
		(f.CreatedAfter == nil || !e.CreatedAt.Before(*f.CreatedAfter))
}

// want is what a walk of q must read: the matching entries, in order.
func (o *auditOracle) want(q AuditQuery) []AuditEntry {
	var out []AuditEntry
	for i := range o.entries {
		if q.Filter.matches(&o.entries[i]) {
			out = append(out, o.entries[i])
		}
	}
	if !q.Ascending {
		slices.Reverse(out)
	}
	return out
}

// randomFilter sets each member of a filter now and then: to a value
// entries have, or one none has; a time bound to an entry's time (the
// bounds are inclusive), near one, or far outside the time keys' range.
func (o *auditOracle) randomFilter() AuditFilter {
	str := func(domain []string) *string {
		if o.r.IntN(4) > 0 {
			return nil
		}
		v := domain[o.r.IntN(len(domain))]
		if o.r.IntN(10) == 0 {
			v = "absent"
		}
		return &v
	}
	flag := func() *bool {
		if o.r.IntN(5) > 0 {
			return nil
		}
		v := o.r.IntN(2) == 0
		return &v
	}
	at := func() *time.Time {
		if o.r.IntN(4) > 0 || len(o.entries) == 0 {
			return nil
		}
		v := o.entries[o.r.IntN(len(o.entries))].CreatedAt
		switch o.r.IntN(6) {
		case 0:
			v = v.Add(time.Nanosecond)
		case 1:
			v = v.Add(-time.Nanosecond)
		case 2:
			v = time.Date(1500+1000*o.r.IntN(2), 1, 1, 0, 0, 0, 0, time.UTC)
		}
		return &v
	}
	return AuditFilter{WebsiteUUID: str(auditWebsites), CompanyID: str(auditCompanies), SourceID: str(auditSources),
		SequenceKey: str(auditSeqKeys), ResourceType: str(auditTypes), Keypoint: flag(), Endpoint: flag(),
		CreatedBefore: at(), CreatedAfter: at()}
}

// walkAudit reads every page of q from its After on, each from the last
// one's End, and checks each page's shape: a cursor per entry, naming
// it; at most q.First entries; no more seeks than the bound; and, when
// exact, full pages but the last, and HasNext false only there.
func walkAudit(t *testing.T, st *Store, q AuditQuery, exact bool) []AuditEntry {
	t.Helper()
	var out []AuditEntry
	for pages := 0; ; pages++ {
		if pages > 100000 {
			t.Fatalf("%+v: a walk of more than %d pages", q, pages)
		}
		p, err := st.AuditLogs(q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		if len(p.Cursors) != len(p.Entries) || len(p.Entries) > q.First || p.steps > st.auditSteps {
			t.Fatalf("%+v: %d entries, %d cursors after %d seeks", q, len(p.Entries), len(p.Cursors), p.steps)
		}
		for i, c := range p.Cursors {
			if id, err := decodeAuditCursor(c); err != nil || id.String() != p.Entries[i].ID {
				t.Fatalf("%+v: the cursor %q of entry %s reads %s, %v", q, c, p.Entries[i].ID, id, err)
			}
		}
		if exact && p.HasNext && len(p.Entries) < q.First {
			t.Fatalf("%+v: a page of %d entries says HasNext %v", q, len(p.Entries), p.HasNext)
		}
		if exact && len(p.Entries) == 0 && (pages > 0 || p.End != "") {
			t.Fatalf("%+v: an empty page %d (End %q) after a page that said more followed", q, pages, p.End)
		}
		out = append(out, p.Entries...)
		if !p.HasNext {
			return out
		}
		if p.End == "" || p.End == q.After {
			t.Fatalf("%+v: a page says more follow and ends at %q", q, p.End)
		}
		q.After = p.End
	}
}

// sameAudit reports whether two lists of audit entries are the same:
// the same JSON, entry by entry.
func sameAudit(a, b []AuditEntry) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// auditIDsOf are the ids of entries, for a message.
func auditIDsOf(entries []AuditEntry) string {
	ids := make([]string, len(entries))
	for i, e := range entries {
		ids[i] = strings.TrimLeft(e.ID, "0")
	}
	return strings.Join(ids, " ")
}

// TestAuditLogsOracle: random entries written in many batches (alone,
// beside a product, in groups with events), read by random queries
// (filters, order, page size, the bound on a page's seeks): every walk
// from page to page reads exactly the entries that filtering and
// sorting the whole list finds, in order, whole; and so does the walk
// of a store reopened.
func TestAuditLogsOracle(t *testing.T) {
	dir := t.TempDir()
	o := &auditOracle{clock: &testClock{now: t0}, r: rand.New(rand.NewPCG(1, 2))}
	o.st = openClocked(t, dir, o.clock)
	defer func() { o.st.Close() }()
	queries := 0
	check := func(rounds int) {
		for range rounds {
			q := AuditQuery{Filter: o.randomFilter(), Ascending: o.r.IntN(2) == 0, First: 1 + o.r.IntN(25)}
			if o.r.IntN(8) == 0 {
				q.First = MaxAuditPage
			}
			exact := o.r.IntN(3) > 0
			o.st.auditSteps = auditPageSteps
			if !exact {
				o.st.auditSteps = len(auditMembers) + o.r.IntN(40)
			}
			want, got := o.want(q), walkAudit(t, o.st, q, exact)
			if !sameAudit(got, want) {
				t.Fatalf("%+v (at most %d seeks a page): the walk read\n%s\nwant\n%s", q, o.st.auditSteps, auditIDsOf(got), auditIDsOf(want))
			}
			queries++
		}
	}
	for range 120 {
		o.write(t)
		check(3)
	}
	if len(o.entries) < 500 {
		t.Fatalf("only %d entries written", len(o.entries))
	}
	if err := o.st.Close(); err != nil {
		t.Fatal(err)
	}
	o.st = openClocked(t, dir, o.clock)
	check(200)
	t.Logf("%d entries, %d queries", len(o.entries), queries)
}

// TestAuditWalkUnderWrites: entries written between the pages of a walk
// do not disturb it: newest first or oldest first, filtered or not,
// each entry there when the walk began is read once, in order, and a
// newest-first walk reads none written since.
func TestAuditWalkUnderWrites(t *testing.T) {
	dir := t.TempDir()
	o := &auditOracle{clock: &testClock{now: t0}, r: rand.New(rand.NewPCG(3, 4))}
	o.st = openClocked(t, dir, o.clock)
	defer o.st.Close()
	for len(o.entries) < 300 {
		o.write(t)
	}
	company := "c2"
	for _, asc := range []bool{false, true} {
		for _, filter := range []AuditFilter{{}, {CompanyID: &company}} {
			q := AuditQuery{Filter: filter, Ascending: asc, First: 7}
			before := o.want(q)
			var read []AuditEntry
			for pages := 0; ; pages++ {
				p, err := o.st.AuditLogs(q)
				if err != nil {
					t.Fatal(err)
				}
				read = append(read, p.Entries...)
				if !p.HasNext {
					break
				}
				q.After = p.End
				if pages < 30 { // then an oldest-first walk catches up
					o.write(t)
				}
			}
			seen := map[string]int{}
			for i, e := range read {
				seen[e.ID]++
				if i > 0 && (read[i-1].ID < e.ID) != asc {
					t.Fatalf("ascending %v: %s read after %s", asc, e.ID, read[i-1].ID)
				}
			}
			for _, e := range before {
				if seen[e.ID] != 1 {
					t.Errorf("ascending %v, %+v: entry %s read %d times, want once", asc, filter, e.ID, seen[e.ID])
				}
			}
			if !asc && len(read) != len(before) {
				t.Errorf("newest first, %+v: %d entries read, %d were there", filter, len(read), len(before))
			}
			if asc && !sameAudit(read, o.want(AuditQuery{Filter: filter, Ascending: true})) {
				t.Errorf("oldest first, %+v: the walk read %s, want every entry now there", filter, auditIDsOf(read))
			}
		}
	}
}

// TestAuditPageWorkIsBounded: two filters whose entries alternate, and
// so never meet, cost a page its bound of seeks, not a walk of a
// posting: the page ends early, empty, its End past where it stopped;
// following End reads the one entry where they do meet once, and the
// walk ends.
func TestAuditPageWorkIsBounded(t *testing.T) {
	st := openClocked(t, t.TempDir(), &testClock{now: t0})
	defer st.Close()
	b := &Batch{}
	for i := range 4000 {
		e := AuditEntry{CompanyID: "even", ResourceType: "ODD"}
		if i%2 == 1 {
			e = AuditEntry{CompanyID: "odd", ResourceType: "EVEN"}
		}
		if i == 2345 {
			e = AuditEntry{CompanyID: "even", ResourceType: "EVEN", SourceID: "the one"}
		}
		b.Audit(e)
	}
	if _, err := st.Apply(b, false); err != nil {
		t.Fatal(err)
	}
	st.auditSteps = 100
	company, kind := "even", "EVEN"
	for _, asc := range []bool{true, false} {
		q := AuditQuery{Filter: AuditFilter{CompanyID: &company, ResourceType: &kind}, Ascending: asc, First: 10}
		p, err := st.AuditLogs(q)
		if err != nil || len(p.Entries) != 0 || !p.HasNext || p.End == "" || p.steps > 100 {
			t.Fatalf("ascending %v: the first page: %d entries, HasNext %v, End %q after %d seeks, %v; want none, more, at most 100 seeks",
				asc, len(p.Entries), p.HasNext, p.End, p.steps, err)
		}
		got := walkAudit(t, st, q, false)
		if len(got) != 1 || got[0].SourceID != "the one" {
			t.Errorf("ascending %v: the walk read %s, want the one entry of both", asc, auditIDsOf(got))
		}
	}
}

// TestAuditZigZagSeeks: a filter every entry matches beside one that
// matches three costs a page a few seeks, not a step through every
// entry between the three, in either order; so do one filter and none.
func TestAuditZigZagSeeks(t *testing.T) {
	st := openClocked(t, t.TempDir(), &testClock{now: t0})
	defer st.Close()
	b := &Batch{}
	for i := range 1000 {
		e := AuditEntry{CompanyID: "all", SourceID: "common"}
		if i == 0 || i == 500 || i == 999 {
			e.SourceID = "rare"
		}
		b.Audit(e)
	}
	if _, err := st.Apply(b, false); err != nil {
		t.Fatal(err)
	}
	company, source := "all", "rare"
	for _, c := range []struct {
		filter         AuditFilter
		entries, seeks int
	}{
		{AuditFilter{CompanyID: &company, SourceID: &source}, 3, 12},
		{AuditFilter{SourceID: &source}, 3, 4},
		{AuditFilter{CompanyID: &company}, 10, 11},
		{AuditFilter{}, 10, 11},
	} {
		for _, asc := range []bool{true, false} {
			p, err := st.AuditLogs(AuditQuery{Filter: c.filter, Ascending: asc, First: 10})
			if err != nil || len(p.Entries) != c.entries || p.steps > c.seeks {
				t.Errorf("%+v, ascending %v: %d entries after %d seeks, %v; want %d after at most %d", c.filter, asc, len(p.Entries), p.steps, err, c.entries, c.seeks)
			}
		}
	}
}

// TestAuditQueryRefused: a malformed cursor is ErrBadCursor, a page
// size outside 1 to MaxAuditPage ErrBadAuditQuery; a cursor at either
// end of the ids reads an empty page.
func TestAuditQueryRefused(t *testing.T) {
	st := openClocked(t, t.TempDir(), &testClock{now: t0})
	defer st.Close()
	if _, err := st.Apply(auditBatch("a", "b"), true); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"x", "MDAwMDAwMDAwMDAwMDAwMS0wMDAw=", "MDAwMDAwMDAwMDAwMDAwMS0wMDA", "bm90IGFuIGlk", "MDAwMDAwMDAwMDAwMDAwMS0wMDAx!", "MDAwMDAwMDAwMDAwMDAwMS0wMDAx\n", "MDAwMDAwMDAw\r\nMDAwMDAwMS0wMDAx"} {
		if _, err := st.AuditLogs(AuditQuery{First: 1, After: c}); !errors.Is(err, ErrBadCursor) {
			t.Errorf("cursor %q: %v, want ErrBadCursor", c, err)
		}
	}
	for _, n := range []int{0, -1, MaxAuditPage + 1} {
		if _, err := st.AuditLogs(AuditQuery{First: n}); !errors.Is(err, ErrBadAuditQuery) {
			t.Errorf("a page of %d: %v, want ErrBadAuditQuery", n, err)
		}
	}
	for _, q := range []AuditQuery{{First: 5, After: encodeAuditCursor(auditID{})}, {First: 5, Ascending: true, After: encodeAuditCursor(maxAuditID)}} {
		if p, err := st.AuditLogs(q); err != nil || len(p.Entries) != 0 || p.HasNext {
			t.Errorf("%+v: %+v, %v; want an empty page", q, p, err)
		}
	}
}

// FuzzAuditCursor: any string is a cursor that reads back to the same
// string, or is refused with ErrBadCursor; never a panic.
func FuzzAuditCursor(f *testing.F) {
	f.Add(encodeAuditCursor(auditID{42, 3}))
	f.Add(encodeAuditCursor(maxAuditID))
	f.Add("")
	f.Fuzz(func(t *testing.T, c string) {
		id, err := decodeAuditCursor(c)
		switch {
		case err == nil && encodeAuditCursor(id) != c:
			t.Fatalf("%q reads %s, whose cursor is %q", c, id, encodeAuditCursor(id))
		case err != nil && !errors.Is(err, ErrBadCursor):
			t.Fatalf("%q: %v is not ErrBadCursor", c, err)
		}
	})
}

// BenchmarkAuditPage reads a page of 20 of an audit log of 10,000 and
// of 200,000 random entries: newest first unfiltered, by one filter, by
// three (a zig-zag over their postings), by a website and a time
// window, and by two filters from a cursor halfway down. A page costs
// its page, the same at either size.
func BenchmarkAuditPage(b *testing.B) {
	for _, n := range []int{10_000, 200_000} {
		o := &auditOracle{clock: &testClock{now: t0}, r: rand.New(rand.NewPCG(5, 6))}
		o.st = openClocked(b, b.TempDir(), o.clock)
		for written := 0; written < n; {
			batch := &Batch{}
			for range min(1000, n-written) {
				batch.Audit(randomAuditEntry(o.r))
				written++
			}
			o.clock.now = o.clock.now.Add(time.Minute)
			if _, err := o.st.Apply(batch, false); err != nil {
				b.Fatal(err)
			}
		}
		if err := o.st.pdb().Flush(); err != nil {
			b.Fatal(err)
		}
		company, kind, site, keypoint := "c2", "SEARCH_CONFIG", "w1", true
		from, to := t0.Add(time.Duration(n/4000)*time.Minute), t0.Add(time.Duration(n/2000)*time.Minute)
		half, err := o.st.AuditLogs(AuditQuery{First: 1, Filter: AuditFilter{CreatedBefore: &to}})
		if err != nil || len(half.Entries) == 0 {
			b.Fatal(half, err)
		}
		for _, c := range []struct {
			name string
			q    AuditQuery
		}{
			{"newest", AuditQuery{}},
			{"company", AuditQuery{Filter: AuditFilter{CompanyID: &company}}},
			{"company+type+keypoint", AuditQuery{Filter: AuditFilter{CompanyID: &company, ResourceType: &kind, Keypoint: &keypoint}}},
			{"website+time", AuditQuery{Filter: AuditFilter{WebsiteUUID: &site, CreatedAfter: &from, CreatedBefore: &to}}},
			{"company+type/after-half", AuditQuery{Filter: AuditFilter{CompanyID: &company, ResourceType: &kind}, After: half.End}},
		} {
			c.q.First = 20
			b.Run(fmt.Sprintf("entries=%d/%s", n, c.name), func(b *testing.B) {
				b.ReportAllocs()
				steps := 0
				for b.Loop() {
					p, err := o.st.AuditLogs(c.q)
					if err != nil || len(p.Entries) != 20 {
						b.Fatalf("%d entries, %v", len(p.Entries), err)
					}
					steps = p.steps
				}
				b.ReportMetric(float64(steps), "seeks/page")
			})
		}
		if err := o.st.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
