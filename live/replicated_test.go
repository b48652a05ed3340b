package live

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/store"
)

// memLog is a replicated log in memory: Publish appends a batch's
// replicated form, numbered in its log (the server's for configuration
// and keys, the website's for its catalog), and follow applies the
// entries a node has not seen, decoded, as a replica does.
type memLog struct {
	entries []memEntry
	last    map[string]uint64
	refuse  error // Publish's answer when set
}

type memEntry struct {
	pos  store.Position
	data []byte
}

func (m *memLog) Publish(b *store.Batch) error {
	if m.refuse != nil {
		return m.refuse
	}
	data, err := store.AppendBatch(nil, b)
	if err != nil {
		return err
	}
	log := "server"
	if b.Website != "" && b.Config() == nil {
		log = b.Website
	}
	m.last[log]++
	p := store.Position{Log: log, Seq: m.last[log]}
	b.SetPosition(p)
	m.entries = append(m.entries, memEntry{p, data})
	return nil
}

// follow applies to n every entry after the last one it followed, as a
// replica's follower hands them over: each run of consecutive entries of
// one log at once (ApplyLoggedRun).
func (m *memLog) follow(t *testing.T, n *node) {
	t.Helper()
	for n.followed < len(m.entries) {
		var run []*store.Batch
		log := m.entries[n.followed].pos.Log
		for ; n.followed < len(m.entries) && m.entries[n.followed].pos.Log == log; n.followed++ {
			e := m.entries[n.followed]
			b, err := store.DecodeBatch(e.data)
			if err != nil {
				t.Fatal(err)
			}
			b.SetPosition(e.pos)
			run = append(run, b)
		}
		if err := n.live.ApplyLoggedRun(run); err != nil {
			p, _ := run[0].Position()
			t.Fatalf("apply the run from %v: %v", p, err)
		}
	}
}

// node is a replica: a store, an engine and a Writer of its own.
type node struct {
	dir      string
	st       *store.Store
	eng      *engine.Engine
	live     *Writer
	log      *slog.Logger
	followed int // entries of the memLog seen
}

func openNode(t *testing.T, dir string, log *slog.Logger) *node {
	t.Helper()
	n := &node{dir: dir, log: log}
	n.open(t)
	return n
}

// open opens the node's directory as a start does.
func (n *node) open(t *testing.T) {
	t.Helper()
	st, err := store.Open(n.dir)
	if err != nil {
		t.Fatal(err)
	}
	var gens []*engine.Generation
	if cfg, err := st.Config(); err != nil {
		t.Fatal(err)
	} else if cfg != nil {
		if gens, err = OpenAll(st, cfg, analysis.English, n.log); err != nil {
			t.Fatal(err)
		}
	}
	n.st, n.eng = st, engine.New("", gens...)
	n.live = New(st, n.eng, analysis.English, n.log)
}

// restart closes the node and opens it again, and has it follow the log
// from its start: what it applied before is skipped by position.
func (n *node) restart(t *testing.T) {
	t.Helper()
	n.close()
	n.open(t)
	n.followed = 0
}

func (n *node) close() {
	n.live.Close()
	n.st.Close()
}

// publishingShop is a Writer on a new store opened with o, publishing
// to a memLog, serving the shop website; all closed at t's end.
func publishingShop(t *testing.T, o store.Options) (*store.Store, *Writer, *memLog, *config.Website) {
	t.Helper()
	st, err := store.OpenWith(t.TempDir(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w := New(st, engine.New(""), analysis.English, nil)
	t.Cleanup(w.Close)
	log := &memLog{last: map[string]uint64{}}
	w.PublishTo(log)
	site := shopWebsite()
	if _, err := w.SetConfig(&config.File{Websites: []config.Website{*site}}); err != nil {
		t.Fatal(err)
	}
	return st, w, log, site
}

// TestPublishRefused: a change the log refuses is answered with the
// log's error and changes nothing here.
func TestPublishRefused(t *testing.T) {
	st, w, log, site := publishingShop(t, store.Options{})
	seq := st.Seq()
	refused := errors.New("another node writes this log")
	log.refuse = refused
	var b store.Batch
	p := shopProducts()[0]
	if err := b.PutProduct(&p); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Apply(site.UUID, &b); !errors.Is(err, refused) {
		t.Fatalf("apply: %v, want the log's refusal", err)
	}
	if st.Seq() != seq {
		t.Fatalf("a refused change was stored: seq %d, was %d", st.Seq(), seq)
	}
	if n, _ := st.Count(site.UUID); n != 0 {
		t.Fatalf("%d products stored", n)
	}
	// ApplyLogged takes only logged entries.
	if err := w.ApplyLogged(&b); !errors.Is(err, errNotLogged) {
		t.Fatalf("ApplyLogged of an unlogged batch: %v", err)
	}
}

// TestPublishStampsTheStoresClock: the audit entries of a published
// change carry the store's clock's time, as a single node's do.
func TestPublishStampsTheStoresClock(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	_, w, log, site := publishingShop(t, store.Options{Clock: func() time.Time { return at }})
	var b store.Batch
	p := shopProducts()[0]
	if err := b.PutProduct(&p); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Apply(site.UUID, &b); err != nil {
		t.Fatal(err)
	}
	for _, e := range log.entries {
		d, err := store.DecodeBatch(e.data)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.AuditEntries()) == 0 {
			t.Errorf("entry %v: no audit entry", e.pos)
		}
		for _, a := range d.AuditEntries() {
			if !a.CreatedAt.Equal(at) {
				t.Errorf("entry %v: audit entry at %s, want the store's clock's %s", e.pos, a.CreatedAt, at)
			}
		}
	}
}

// eventLog is an EventPublisher that keeps each website's entries, as
// a replica's events log does.
type eventLog struct {
	entries [][]byte
	refuse  error
}

func (l *eventLog) PublishEvents(website string, events [][]byte) error {
	if l.refuse != nil {
		return l.refuse
	}
	b := &store.Batch{Website: website}
	for _, e := range events {
		b.AddEvent(e)
	}
	data, err := store.AppendBatch(nil, b)
	if err != nil {
		return err
	}
	l.entries = append(l.entries, data)
	return nil
}

// TestCollectorPublishes: a Collector that publishes answers a Collect
// once the log has its events, and logs and folds nothing itself; a
// node applying the log's entries (ApplyLogged) logs and folds them once,
// however often it is given them; a refusal of the log is the Collect's.
func TestCollectorPublishes(t *testing.T) {
	st, eng, _, _ := liveShop(t)
	bhv := engine.NewBehaviours()
	c := NewCollector(st, eng, bhv)
	defer c.Close()
	log := &eventLog{}
	c.PublishTo(log)
	seq := st.Seq()
	for _, user := range []string{"u1", "u2", "u3"} {
		e := events.Event{Kind: events.View, Website: shopUUID, ProductNumber: "A100", User: user}
		if _, err := c.Collect(&e, ""); err != nil {
			t.Fatal(err)
		}
	}
	if len(log.entries) != 3 || st.Seq() != seq || bhv.Model(shopUUID).Events() != 0 {
		t.Fatalf("published %d entries; logged through %d (was %d), folded %d", len(log.entries), st.Seq(), seq, bhv.Model(shopUUID).Events())
	}
	for range 2 { // the second pass is skipped by position
		for i, data := range log.entries {
			b, err := store.DecodeBatch(data)
			if err != nil {
				t.Fatal(err)
			}
			b.SetPosition(store.Position{Log: "events", Seq: uint64(i + 1)})
			if err := c.ApplyLogged(b); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got := loggedEvents(t, st, seq); len(got) != 3 || bhv.Model(shopUUID).Events() != 3 {
		t.Fatalf("applied: logged %q, folded %d", got, bhv.Model(shopUUID).Events())
	}
	refused := errors.New("no quorum")
	log.refuse = refused
	e := events.Event{Kind: events.View, Website: shopUUID, ProductNumber: "A100", User: "u4"}
	if _, err := c.Collect(&e, ""); !errors.Is(err, refused) {
		t.Fatalf("a refused publish: %v", err)
	}
}

// TestApplyLoggedRun: a replica handed a run of a website's entries
// applies the entries that only put products with one index change a
// run, each other entry on its own, and answers as the writer does; a
// run it applied before, whole or in part, is skipped entry by entry.
func TestApplyLoggedRun(t *testing.T) {
	_, w, log, site := publishingShop(t, store.Options{})
	products := shopProducts()
	put := func(ps ...catalog.Product) {
		t.Helper()
		var b store.Batch
		for i := range ps {
			if err := b.PutProduct(&ps[i]); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := w.Apply(site.UUID, &b); err != nil {
			t.Fatal(err)
		}
	}
	put(products...) // new products: doc changes
	for i, price := range []float64{3, 7, 5, 900} {
		p := products[i%2] // the same products priced again
		p.Price = price
		put(p)
	}
	if _, _, err := w.DeleteProducts(site.UUID, []string{products[2].ProductNumber}); err != nil {
		t.Fatal(err)
	}
	for _, price := range []float64{11, 12} {
		p := products[3]
		p.Price = price
		put(p)
	}
	// The writer marks the entries it judged column writes: the prices,
	// not the new products.
	var marked []bool
	for _, e := range log.entries {
		if e.pos.Log != site.UUID {
			continue
		}
		b, err := store.DecodeBatch(e.data)
		if err != nil {
			t.Fatal(err)
		}
		marked = append(marked, b.ColumnWrite())
	}
	if want := []bool{false, true, true, true, true, false, true, true}; !slices.Equal(marked, want) {
		t.Errorf("the website's entries marked column writes: %v, want %v", marked, want)
	}
	replica := openNode(t, t.TempDir(), nil)
	defer replica.close()
	log.follow(t, replica)
	// The website's log: a run of five puts, the delete, a run of two.
	if got := replica.live.IndexChanges(); got != 3 {
		t.Errorf("the replica changed its index %d times for the website's 8 entries, want 3", got)
	}
	sameAnswers := func(when string) {
		t.Helper()
		wg, _ := w.eng.Website(site.UUID)
		rg, ok := replica.eng.Website(site.UUID)
		if !ok {
			t.Fatalf("%s: the replica does not serve the website", when)
		}
		for _, body := range []string{
			`{"query":"","key":"default","products":{"count":50,"sorting":["price asc"],"returnFilters":true}}`,
			`{"query":"","key":"default","products":{"count":50,"filters":["price:4,20"]}}`,
		} {
			if got, want := answer(t, rg, body), answer(t, wg, body); !bytes.Equal(got, want) {
				t.Errorf("%s: the replica and the writer differ for %s\nreplica: %.600s\nwriter:  %.600s", when, body, got, want)
			}
		}
		if got, want := replica.st.Position(site.UUID), w.st.Position(site.UUID); got != want {
			t.Errorf("%s: the replica applied the website's log through %d, the writer %d", when, got, want)
		}
	}
	sameAnswers("followed")

	// Followed again from the start, and from the middle of a run: what
	// was applied is skipped, and nothing else changes.
	changes := replica.live.IndexChanges()
	replica.followed = 0
	log.follow(t, replica)
	replica.followed = 3
	log.follow(t, replica)
	if got := replica.live.IndexChanges(); got != changes {
		t.Errorf("applied entries handed over again changed the index %d times", got-changes)
	}
	sameAnswers("followed again")
}

// TestColumnChangesJudged: products the writer judged column writes are
// taken as such, not compared with their stored ones again; otherwise a
// new title makes a doc write.
func TestColumnChangesJudged(t *testing.T) {
	_, eng, _, _ := liveShop(t)
	g := current(t, eng)
	p := shopProducts()[0]
	p.Title += " renamed"
	p.Price++
	data, err := json.Marshal(&p)
	if err != nil {
		t.Fatal(err)
	}
	numbers, puts := []string{p.ProductNumber}, [][]byte{data}
	if _, ok, err := columnChanges(g, numbers, puts, 1, false); err != nil || ok {
		t.Errorf("a new title compared: column write %t, %v; want a doc write", ok, err)
	}
	changes, ok, err := columnChanges(g, numbers, puts, 1, true)
	if err != nil || !ok || len(changes) != 1 || !bytes.Equal(changes[0].Stored, data) {
		t.Errorf("judged a column write: %v, %t, %v; want its change", changes, ok, err)
	}
	if d, _ := g.Doc(store.ProductID(p.ProductNumber)); len(changes) == 1 && changes[0].Doc != d {
		t.Errorf("judged change of doc %d, want %d", changes[0].Doc, d)
	}
	// A product the index does not hold is never a column write.
	if _, ok, _ := columnChanges(g, []string{"NOPE-1"}, [][]byte{[]byte(`{"productNumber":"NOPE-1"}`)}, 1, true); ok {
		t.Error("a product not served was taken as a column write")
	}
}
