package live

import (
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/aisle-search/aisle/analysis"
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

// follow applies to n every entry after the last one it followed.
func (m *memLog) follow(t *testing.T, n *node) {
	t.Helper()
	for ; n.followed < len(m.entries); n.followed++ {
		e := m.entries[n.followed]
		b, err := store.DecodeBatch(e.data)
		if err != nil {
			t.Fatal(err)
		}
		b.SetPosition(e.pos)
		if err := n.live.ApplyLogged(b); err != nil {
			t.Fatalf("apply %v: %v", e.pos, err)
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
