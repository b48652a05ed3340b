// Package store is Aisle's pebble database: the ordered change log
// (product and content writes, configuration, visitors' events) and the
// state it is applied into (products, content items, configuration),
// the source of truth every generation is built from; beside them, what
// a start reads instead of rebuilding: each website's saved index
// segments and behaviour snapshots. A snapshot is also what remains of
// the events log compaction removed (CompactEvents). The store keeps the
// secret customers' identities are hashed under (Secret).
package store

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/sstable"
	"github.com/cockroachdb/pebble/vfs"
	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
)

// Store wraps one pebble database. Appends are serialised; reads may run
// beside them and see whole entries only.
//
// When the disk refuses a write (full, or failing), the write is answered
// ErrUnavailable and changes nothing; so is every write after it, while
// reads go on from what was synced, until the disk takes writes again
// and the store reopens its database by itself (degrade, keep).
type Store struct {
	dir  string
	base vfs.FS // the file system the data is read and written through
	log  *slog.Logger
	lock io.Closer // pebble's lock on dir, held until Close

	hmu     sync.Mutex
	hcond   sync.Cond // on hmu: cur was set, or a handle's refs fell to 0
	cur     *handle   // the database calls use; nil while one is replaced
	retired []*handle // failed databases to close once unused
	down    string    // why writes are refused; guarded by hmu

	wmu        sync.Mutex    // one update at a time
	trouble    chan struct{} // a database failed: keep degrades and recovers
	stop       chan struct{} // closed by Close: keep ends
	kept       chan struct{} // closed when keep has ended
	retryEvery time.Duration

	mu        sync.Mutex
	seq       uint64
	pseq      map[string]uint64 // website → the last entry that changed its products
	positions map[string]uint64 // replicated log → the last of its entries applied (Position)
	bulk      bool              // a BulkWriter holds the log
	auditLast time.Time         // the time of the last audit entry written

	clock      func() time.Time // Options.Clock
	auditSteps int              // Options.auditSteps

	unlock func() // releases the directory for another Open
	closed bool
	segMu  sync.Mutex // one SaveSegment at a time: each replaces a segment whole
}

// Options are Open's settings; the zero value is the default.
type Options struct {
	// FS is the file system the data directory is read and written
	// through; default vfs.Default. It must be backed by the operating
	// system's (the directory's paths are also read directly): tests
	// inject faults with pebble's vfs/errorfs over vfs.Default.
	FS vfs.FS
	// Logger receives the store's lines (a refused write, the recovery
	// after it); default slog.Default().
	Logger *slog.Logger
	// Clock is the time an audit entry written without one is stamped
	// with; default time.Now.
	Clock func() time.Time

	retryEvery time.Duration // default retryEvery
	auditSteps int           // the seeks an audit log page may take; default auditPageSteps
}

// Open opens or creates the database in dir.
func Open(dir string) (*Store, error) { return OpenWith(dir, Options{}) }

// Now is the store's clock (Options.Clock): the time it stamps an audit
// entry written without one.
func (s *Store) Now() time.Time { return s.clock() }

// OpenWith is Open with options.
func OpenWith(dir string, o Options) (*Store, error) {
	if o.FS == nil {
		o.FS = vfs.Default
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.retryEvery == 0 {
		o.retryEvery = retryEvery
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.auditSteps == 0 {
		o.auditSteps = auditPageSteps
	}
	o.auditSteps = max(o.auditSteps, len(auditMembers)) // a walk cut short has moved (auditWalk.match)
	unlock, err := lockDir(dir)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", dir, err)
	}
	s := &Store{dir: dir, base: o.FS, log: o.Logger, pseq: map[string]uint64{}, unlock: unlock,
		trouble: make(chan struct{}, 1), stop: make(chan struct{}), kept: make(chan struct{}), retryEvery: o.retryEvery,
		clock: o.Clock, auditSteps: o.auditSteps}
	s.hcond.L = &s.hmu
	if err := s.open(); err != nil {
		unlock()
		return nil, fmt.Errorf("open store %s: %w", dir, err)
	}
	go s.keep()
	return s, nil
}

// open locks dir, opens its database and reads the sequence numbers.
func (s *Store) open() error {
	if err := s.base.MkdirAll(s.dir, 0o755); err != nil {
		return diskErr(err)
	}
	lock, err := s.base.Lock(filepath.Join(s.dir, "LOCK"))
	if err != nil {
		return diskErr(err)
	}
	h, err := openHandle(s.dir, s.base, false, s.trouble)
	if err != nil {
		lock.Close()
		if !errors.Is(err, ErrUnavailable) {
			err = &UnreadableError{Err: err}
		}
		return err
	}
	// Tables of an import or a segment save that a crash cut short: never
	// ingested, so nothing refers to them; a cluster snapshot's checkpoint
	// (package replica) a crash left; and a probe's file. The lock
	// means no other process is writing them.
	for _, pattern := range []string{"import-*", "segment-*", "snapshot-*", probeName} {
		left, _ := filepath.Glob(filepath.Join(s.dir, pattern))
		for _, p := range left {
			os.RemoveAll(p)
		}
	}
	s.lock, s.cur = lock, h
	if err := s.load(); err != nil {
		h.db.Close()
		lock.Close()
		return err
	}
	return nil
}

// load reads the layout, the sequence numbers and the last audit
// entry's time, and stamps an empty store with Layout.
func (s *Store) load() error {
	s.pseq, s.positions = map[string]uint64{}, map[string]uint64{}
	_, hasLog, err := s.readSeq(keySeq)
	if err != nil {
		return err
	}
	layout, ok, err := s.readSeq(keyLayout)
	switch {
	case err != nil:
		return err
	case !ok && !hasLog:
		return s.update(func(h *handle) error {
			return h.check(h.db.Set([]byte(keyLayout), appendSeq(nil, Layout), pebble.Sync))
		})
	case !ok:
		layout = 1 // before m/layout, keys had no website
	}
	if layout == 2 {
		if err := s.migrateLayout2(); err != nil {
			return err
		}
		layout = Layout
	}
	if layout != Layout {
		return fmt.Errorf("%w: layout %d, and this Aisle reads layout %d: import the catalog again into a new directory", ErrLayout, layout, Layout)
	}
	h := s.acquire()
	defer s.release(h)
	seq, pseq, err := readSeqs(h)
	if err != nil {
		return err
	}
	last, err := lastAuditTime(h.db)
	if err != nil {
		return err
	}
	positions, err := readPositions(h)
	if err != nil {
		return err
	}
	s.seq, s.pseq, s.auditLast, s.positions = seq, pseq, last, positions
	return nil
}

// readSeqs reads keySeq and every website's product sequence number from
// h's database.
func readSeqs(h *handle) (seq uint64, pseq map[string]uint64, err error) {
	seq, _, err = getSeq(h.db, keySeq)
	if err != nil {
		return 0, nil, err
	}
	pseq = map[string]uint64{}
	err = scanDB(h.db, prefixProductSeq, func(k, v []byte) error {
		website, err := decodeProductSeqKey(k)
		if err != nil {
			return err
		}
		ps, err := decodeSeq(string(k), v)
		if err != nil {
			return err
		}
		if ps > seq {
			return corruptionErrorf("%s %d is past %s %d", k, ps, keySeq, seq)
		}
		pseq[website] = ps
		return nil
	})
	return seq, pseq, err
}

// readSeq reads keySeq or keyLayout; ok is false when it is absent.
func (s *Store) readSeq(key string) (seq uint64, ok bool, err error) {
	h := s.acquire()
	defer s.release(h)
	return getSeq(h.db, key)
}

// getSeq reads keySeq or keyLayout from db; ok is false when it is
// absent.
func getSeq(db *pebble.DB, key string) (seq uint64, ok bool, err error) {
	v, closer, err := db.Get([]byte(key))
	if errors.Is(err, pebble.ErrNotFound) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("read %s: %w", key, err)
	}
	defer closer.Close()
	seq, err = decodeSeq(key, v)
	return seq, err == nil, err
}

// acquire is the database calls use now, held until release: a
// database is closed only once no call holds it.
func (s *Store) acquire() *handle {
	s.hmu.Lock()
	for s.cur == nil {
		s.hcond.Wait()
	}
	h := s.cur
	h.refs++
	s.hmu.Unlock()
	return h
}

func (s *Store) release(h *handle) {
	s.hmu.Lock()
	if h.refs--; h.refs == 0 {
		s.hcond.Broadcast()
	}
	s.hmu.Unlock()
}

// pdb is the current pebble database, for tests.
func (s *Store) pdb() *pebble.DB {
	s.hmu.Lock()
	defer s.hmu.Unlock()
	return s.cur.db
}

// options tunes pebble for Aisle's writes: bulk imports of large entries
// (a batch of 5,000 products is a few megabytes, written to the log and
// to the state) and segment saves. Pebble's 4 MB default memtable turned
// every entry into its own flush and a cascade of compactions; 32 MB ones
// and a higher L0 threshold halve the rewriting, at 64 MB of memory. The
// database of h writes through h's fence and reports to h.
func options(h *handle) *pebble.Options {
	o := &pebble.Options{
		FS:                       h.fs,
		ReadOnly:                 h.readOnly,
		Logger:                   handleLogger{h},
		MemTableSize:             32 << 20,
		L0CompactionThreshold:    4,
		L0StopWritesThreshold:    24,
		MaxConcurrentCompactions: func() int { return 2 },
		EventListener:            &pebble.EventListener{BackgroundError: h.background},
	}
	// The levels above the last two hold what changed lately (product
	// updates, log entries) and are compacted again soon: compressing
	// them took a third of the compactions' CPU under sustained writes.
	// Only the bottom levels, where the catalog rests, are compressed.
	o.Levels = make([]pebble.LevelOptions, 7)
	for i := range o.Levels {
		o.Levels[i].TargetFileSize = 2 << 20 << i
		o.Levels[i].Compression = pebble.NoCompression
		if i >= 5 {
			o.Levels[i].Compression = pebble.SnappyCompression
		}
	}
	o.WithFSDefaults() // pebble's disk-health checks, over the fence
	o.EnsureDefaults()
	return o
}

// Close flushes and closes the database and releases the directory; a
// second Close does nothing. A database whose disk refuses writes is
// closed unflushed: its log replays at the next open.
func (s *Store) Close() error {
	s.mu.Lock()
	closed := s.closed
	s.closed = true
	s.mu.Unlock()
	if closed {
		return nil
	}
	defer s.unlock()
	close(s.stop)
	<-s.kept
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.hmu.Lock()
	h, retired := s.cur, s.retired
	s.hmu.Unlock()
	for _, r := range retired {
		_ = r.close() // fenced: its errors are its refused writes
	}
	var err error
	if h != nil { // nil: no database could be opened again
		if err = h.close(); err != nil {
			err = fmt.Errorf("close store %s: %w", s.dir, err)
		}
	}
	return errors.Join(err, s.lock.Close())
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

// Seq is the sequence number of the last applied entry.
func (s *Store) Seq() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq
}

// ProductSeq is the sequence number of the last entry that added,
// replaced or deleted a product of website (0 for none): its product
// index built at ProductSeq is current whatever entries followed it.
// Configuration and content entries, and other websites' entries, do not
// move it.
func (s *Store) ProductSeq(website string) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pseq[website]
}

// ProductWebsites are the websites that have had products written, in
// UUID order (their products may since have been deleted).
func (s *Store) ProductWebsites() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Sorted(maps.Keys(s.pseq))
}

// Entry is one change: self-contained, so a follower applying the same
// entries in order reaches the same state.
type Entry struct {
	Seq uint64 `json:"seq"`
	// Website is the UUID of the website whose products and content the
	// entry changes; empty for a configuration-only entry.
	Website  string            `json:"website,omitempty"`
	Products []json.RawMessage `json:"products,omitempty"`
	Deletes  []string          `json:"deletes,omitempty"`
	// ContentDeletes are content items deleted, as "kind/id".
	ContentDeletes []string          `json:"contentDeletes,omitempty"`
	Content        []json.RawMessage `json:"content,omitempty"`
	Config         *config.File      `json:"config,omitempty"`
	// EventCount is how many events of what the website's visitors did
	// (package events) the entry logs; they change no product, content
	// or configuration. They are kept once, apart from the entry (a bulk
	// load's entry holds 10,000): EntryEvents reads them.
	EventCount int `json:"eventCount,omitempty"`
	// Events are an entry's events when the entry holds them itself, as
	// entries written before EventCount did; EntryEvents reads either.
	Events []json.RawMessage `json:"events,omitempty"`
	// Keys are the API keys the entry wrote, and KeyRemovals the ids of
	// those it removed (after its writes).
	Keys        []*access.Key `json:"keys,omitempty"`
	KeyRemovals []string      `json:"keyRemovals,omitempty"`
	// AuditCount is how many audit entries the entry wrote; they are
	// kept once, apart from it (EntryAudit).
	AuditCount int `json:"auditCount,omitempty"`
}

// Batch gathers one entry's changes before Append commits them.
type Batch struct {
	// Website is the UUID of the website whose products and content the
	// batch changes; Apply refuses a batch that changes them without one.
	Website string

	products [][]byte
	pkeys    []string
	content  [][]byte
	ckeys    []string
	deletes  []string
	cdeletes []string // content keys: kind/id
	config   *config.File
	events   [][]byte
	// stored: every product put is known to be stored already
	// (ProductsStored).
	stored bool
	// columns: every product put changes only columns (ColumnWrite).
	columns     bool
	keys        [][]byte // API keys' JSON
	keyIDs      []string // their ids
	keyRemovals []string
	audit       []AuditEntry
	position    Position // SetPosition's; zero for none
	secret      []byte   // SetSecret's; nil for none
}

// Applied says what an entry changed. Products are counted by ProductID
// and content items by kind and ContentID: one put twice in an entry
// (under either spelling) counts once, and a delete counts only a
// product that was there (stored, or put earlier in the entry).
type Applied struct {
	Seq                     uint64
	Added, Updated, Deleted int
	// Content items, counted the same way by kind and id.
	ContentAdded, ContentUpdated, ContentDeleted int
}

// PutProduct adds an upsert of p.
func (b *Batch) PutProduct(p *catalog.Product) error {
	data, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encode product %s: %w", p.ProductNumber, err)
	}
	b.products = append(b.products, data)
	b.pkeys = append(b.pkeys, p.ProductNumber)
	return nil
}

// BulkBatch is how many products a bulk write puts in one log entry: a
// few megabytes, so the log stays coarse.
const BulkBatch = 5000

// PutProductJSON adds an upsert of the product numbered pn whose JSON,
// as PutProduct encodes it, is data (a partial update merged by the
// caller). The batch keeps data, not a copy.
func (b *Batch) PutProductJSON(pn string, data []byte) {
	b.products = append(b.products, data)
	b.pkeys = append(b.pkeys, pn)
}

// ProductsStored says every product the batch puts is stored already, as
// the caller knows (the engine, from the index it serves): Apply counts
// them as updated without reading them back, which costs a random read
// each when the products are spread over a large catalog.
func (b *Batch) ProductsStored() { b.stored = true }

// MarkColumnWrite says, as the writer judged against the index it
// serves, that every product the batch puts is served and changes only
// its keyword and number values and stored JSON (a column write, package
// live); it implies ProductsStored. It travels with the batch's
// replicated form, so that a node applying the entry after the same
// entries as the writer takes the judgement rather than comparing each
// product with its stored one again.
func (b *Batch) MarkColumnWrite() { b.stored, b.columns = true, true }

// ColumnWrite reports MarkColumnWrite.
func (b *Batch) ColumnWrite() bool { return b.columns }

// DeleteProduct adds a delete by product number.
func (b *Batch) DeleteProduct(productNumber string) { b.deletes = append(b.deletes, productNumber) }

// PutContent adds an upsert of a content item.
func (b *Batch) PutContent(c *catalog.Content) error {
	data, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("encode content %s: %w", c.ID, err)
	}
	b.content = append(b.content, data)
	b.ckeys = append(b.ckeys, string(c.Kind)+"/"+c.ID)
	return nil
}

// DeleteContent adds a delete of a content item.
func (b *Batch) DeleteContent(kind catalog.ContentKind, id string) {
	b.cdeletes = append(b.cdeletes, string(kind)+"/"+id)
}

// AddEvent adds a behaviour event, data its JSON (events.Event's
// encoding), kept as given: the store does not read it.
func (b *Batch) AddEvent(data []byte) { b.events = append(b.events, data) }

// Events are the events the batch adds.
func (b *Batch) Events() [][]byte { return b.events }

// SetSecret replaces the data directory's secret (Secret) with v, 32
// bytes: the nodes of a cluster share the first node's, so that they
// hash visitors' emails alike.
func (b *Batch) SetSecret(v []byte) { b.secret = v }

// SetConfig replaces the configuration.
func (b *Batch) SetConfig(f *config.File) { b.config = f }

// Config is the configuration the batch sets, nil for none. Read only.
func (b *Batch) Config() *config.File { return b.config }

// ProductPuts are the batch's product upserts, in order: the product
// numbers and the JSON each is stored as. Read only.
func (b *Batch) ProductPuts() (numbers []string, data [][]byte) { return b.pkeys, b.products }

// ContentPuts are the JSON of the batch's content upserts, in order, as
// PutContent encodes them. Read only.
func (b *Batch) ContentPuts() [][]byte { return b.content }

// ProductDeletes are the product numbers the batch deletes, in order.
// Read only.
func (b *Batch) ProductDeletes() []string { return b.deletes }

// ChangesContent reports whether the batch upserts or deletes a content
// item.
func (b *Batch) ChangesContent() bool { return len(b.content)+len(b.cdeletes) > 0 }

// ChangesProducts reports whether the batch upserts or deletes a
// product.
func (b *Batch) ChangesProducts() bool { return len(b.products)+len(b.deletes) > 0 }

// OnlyProductPuts reports whether the batch upserts products and does
// nothing else: no delete, content, configuration, key or event. Its
// audit entries, which record the change, aside: a replica applies a
// writer's price feed, audited, as the writer did (column updates).
func (b *Batch) OnlyProductPuts() bool {
	return len(b.products) > 0 && len(b.deletes)+len(b.content)+len(b.cdeletes)+len(b.keys)+len(b.keyRemovals)+len(b.events) == 0 &&
		b.config == nil && b.secret == nil
}

// Empty reports whether the batch holds no change, no event and no
// audit entry.
func (b *Batch) Empty() bool {
	return len(b.products)+len(b.content)+len(b.deletes)+len(b.cdeletes)+len(b.events)+b.serverChanges() == 0 && b.config == nil && b.secret == nil
}

// serverChanges counts the batch's changes that belong to no website:
// API keys written and removed, audit entries.
func (b *Batch) serverChanges() int { return len(b.keys) + len(b.keyRemovals) + len(b.audit) }

// Reset empties the batch for reuse.
func (b *Batch) Reset() {
	b.products, b.pkeys, b.content, b.ckeys, b.deletes, b.cdeletes, b.config = b.products[:0], b.pkeys[:0], b.content[:0], b.ckeys[:0], b.deletes[:0], b.cdeletes[:0], nil
	b.events = b.events[:0]
	b.stored = false
	b.keys, b.keyIDs, b.keyRemovals, b.audit = b.keys[:0], b.keyIDs[:0], b.keyRemovals[:0], b.audit[:0]
	b.position, b.secret = Position{}, nil
}

// Append writes b as the next log entry and applies it to the state in one
// atomic pebble batch, returning its sequence number. sync makes it durable
// before returning; bulk imports pass false and call Sync at the end.
func (s *Store) Append(b *Batch, sync bool) (uint64, error) {
	a, err := s.Apply(b, sync)
	return a.Seq, err
}

// Apply is Append that also says what the entry changed. The batch is
// not modified: a failed Apply leaves it, and the store, as they were.
func (s *Store) Apply(b *Batch, sync bool) (Applied, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bulk {
		return Applied{}, ErrBulkInProgress
	}
	if err := b.check(); err != nil {
		return Applied{}, err
	}
	if err := s.checkPositions([]*Batch{b}); err != nil {
		return Applied{}, err
	}
	applied, err := s.count(b)
	if err != nil {
		return Applied{}, err
	}
	seq, err := s.appendEntry(b, sync)
	applied.Seq = seq
	return applied, err
}

// ErrInvalidBatch marks a batch Apply cannot write as it is: an API key
// without an id, more than MaxAuditPerEntry audit entries, an audit
// entry's time out of range. The wrapping error names the problem.
var ErrInvalidBatch = errors.New("invalid batch")

// check refuses a batch that changes products or content, or adds
// events, without naming its website (API keys and audit entries need
// none), and one ErrInvalidBatch describes.
func (b *Batch) check() error {
	if b.Website == "" && len(b.products)+len(b.content)+len(b.deletes)+len(b.cdeletes)+len(b.events) > 0 {
		return ErrNoWebsite
	}
	var secret error
	if b.secret != nil && len(b.secret) != 32 {
		secret = fmt.Errorf("%w: a secret of %d bytes, not 32", ErrInvalidBatch, len(b.secret))
	}
	return errors.Join(b.checkKeys(), b.checkAudit(), secret)
}

// AppendGroup writes bs as consecutive log entries, each applied to the
// state, in one atomic pebble batch and (sync) one sync: a group commit,
// so that many small writes (behaviour events) share the cost of a sync.
// It returns the first entry's sequence number; bs[i] is entry first+i.
// It does not count what the entries change, as Apply does; an empty
// batch is refused, as a batch without its website. On an error nothing
// is written.
func (s *Store) AppendGroup(bs []*Batch, sync bool) (first uint64, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bulk {
		return 0, ErrBulkInProgress
	}
	for _, b := range bs {
		if b.Empty() {
			return 0, errEmptyBatch
		}
		if err := b.check(); err != nil {
			return 0, err
		}
	}
	if err := s.checkPositions(bs); err != nil {
		return 0, err
	}
	return s.appendEntries(bs, sync)
}

// ErrNotEventsOnly is TruncateEvents' refusal of entries that change
// products, content or the configuration.
var ErrNotEventsOnly = errors.New("store: only entries of events alone are truncated")

// TruncateEvents removes the log entries after entry after, and their
// events, and makes after the last entry again, in one synced batch: a
// bulk load of events that failed part way takes back what it wrote,
// before anything served it. Every entry removed must hold events
// alone (ErrNotEventsOnly, and nothing is removed, otherwise).
func (s *Store) TruncateEvents(after uint64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if after >= s.seq {
		return nil
	}
	err := s.update(func(h *handle) error {
		pb := h.db.NewBatch()
		defer pb.Close()
		err := s.Entries(after, func(e *Entry) error {
			if !e.eventsAlone() {
				return fmt.Errorf("entry %d: %w", e.Seq, ErrNotEventsOnly)
			}
			return pb.Delete(appendEventsKey(nil, e.Website, e.Seq), nil)
		})
		if err != nil {
			return err
		}
		if err := pb.DeleteRange(appendLogKey(nil, after+1), appendLogKey(nil, s.seq+1), nil); err != nil {
			return err
		}
		if err := pb.Set([]byte(keySeq), appendSeq(nil, after), nil); err != nil {
			return err
		}
		if err := h.check(pb.Commit(pebble.Sync)); err != nil {
			return fmt.Errorf("truncate the log after entry %d: %w", after, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.seq = after
	return nil
}

var errEmptyBatch = errors.New("store: an empty batch in a group")

// Sync makes every entry appended so far durable: after appends with
// sync false, as a bulk load makes them.
func (s *Store) Sync() error {
	return s.update(func(h *handle) error { return h.check(h.db.LogData(nil, pebble.Sync)) })
}

// count says what b will change; s.mu is held.
func (s *Store) count(b *Batch) (Applied, error) {
	var a Applied
	var err error
	if a.Added, a.Updated, a.Deleted, err = s.countKeys(productIDs(b.pkeys), productIDs(b.deletes), b.stored, func(id string) []byte { return appendProductIDKey(nil, b.Website, id) }); err != nil {
		return Applied{}, err
	}
	if a.ContentAdded, a.ContentUpdated, a.ContentDeleted, err = s.countKeys(contentIDs(b.ckeys), contentIDs(b.cdeletes), false, func(k string) []byte { return contentKey(b.Website, k) }); err != nil {
		return Applied{}, err
	}
	return a, nil
}

// productIDs are the ProductIDs of numbers, in order.
func productIDs(numbers []string) []string {
	ids := make([]string, len(numbers))
	for i, pn := range numbers {
		ids[i] = ProductID(pn)
	}
	return ids
}

// contentIDs are content keys ("<kind>/<id>") with ContentID for id, in
// order.
func contentIDs(keys []string) []string {
	ids := make([]string, len(keys))
	for i, k := range keys {
		kind, id, _ := strings.Cut(k, "/")
		ids[i] = kind + "/" + ContentID(id)
	}
	return ids
}

// countKeys says how many of the distinct keys put are new or replace a
// stored value, and how many of the distinct keys deleted were there
// (stored, or put by the same entry, which then counts only as deleted);
// key makes the state key; s.mu is held. putsStored says every key put
// is stored: only the keys deleted alone are read.
func (s *Store) countKeys(puts, deletes []string, putsStored bool, key func(string) []byte) (added, updated, deleted int, err error) {
	gone := make(map[string]bool, len(deletes))
	put := make(map[string]bool, len(puts))
	for _, k := range puts {
		put[k] = true
	}
	for _, k := range deletes {
		gone[k] = true
	}
	var names []string // the keys whether stored is read
	for k := range put {
		switch {
		case !putsStored:
			names = append(names, k)
		case gone[k]:
			deleted++
		default:
			updated++
		}
	}
	for k := range gone {
		if !put[k] {
			names = append(names, k)
		}
	}
	keys := make([][]byte, len(names))
	for i, k := range names {
		keys[i] = key(k)
	}
	stored, err := s.existing(keys)
	if err != nil {
		return 0, 0, 0, err
	}
	for i, k := range names {
		switch {
		case gone[k] && (put[k] || stored[i]):
			deleted++
		case gone[k]:
		case stored[i]:
			updated++
		default:
			added++
		}
	}
	return added, updated, deleted, nil
}

// existing reports which keys are stored.
func (s *Store) existing(keys [][]byte) ([]bool, error) {
	out := make([]bool, len(keys))
	return out, s.sweep(keys, func(i int, _ []byte) { out[i] = true })
}

// sweep calls found(i, value) for each of keys that is stored (value
// valid during the call only). It seeks one iterator through the keys in
// key order, so neighbouring keys reuse the blocks read for the one
// before: 100,000 point reads cost seconds, the sweep a fraction.
func (s *Store) sweep(keys [][]byte, found func(i int, value []byte)) error {
	if len(keys) == 0 {
		return nil
	}
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return bytes.Compare(keys[a], keys[b]) })
	h := s.acquire()
	defer s.release(h)
	it, err := h.db.NewIter(&pebble.IterOptions{LowerBound: keys[order[0]], UpperBound: append(slices.Clone(keys[order[len(order)-1]]), 0)})
	if err != nil {
		return err
	}
	defer it.Close()
	for _, i := range order {
		if it.SeekGE(keys[i]) && bytes.Equal(it.Key(), keys[i]) {
			found(i, it.Value())
		}
	}
	return it.Error()
}

// get is key's value, copied, or nil when it is absent.
func (s *Store) get(key []byte) ([]byte, error) {
	h := s.acquire()
	defer s.release(h)
	v, closer, err := h.db.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	return slices.Clone(v), nil
}

// appendEntry writes b as the next entry; s.mu is held.
func (s *Store) appendEntry(b *Batch, sync bool) (uint64, error) {
	return s.appendEntries([]*Batch{b}, sync)
}

// appendEntries writes bs as the log entries after s.seq and applies
// them, in one pebble batch; s.mu is held. It returns the first entry's
// sequence number.
func (s *Store) appendEntries(bs []*Batch, sync bool) (uint64, error) {
	first := s.seq + 1
	entries := make([][]byte, len(bs))
	audits := make([][]auditWrite, len(bs))
	auditLast, now := s.auditLast, s.clock()
	size := 64
	for i, b := range bs {
		entry, err := encodeEntry(b, first+uint64(i))
		if err != nil {
			return 0, err
		}
		entries[i] = entry
		if audits[i], auditLast, err = stampAudit(b, first+uint64(i), now, auditLast); err != nil {
			return 0, err
		}
		size += len(entry) + 64 + auditSize(audits[i])
		for _, k := range b.keys {
			size += len(k) + 64 // in the state
		}
		if len(b.events) > 0 {
			size += arrayLen(b.events) + 64 // in the state, not the entry
		}
		for k, p := range b.products {
			size += len(p) + len(b.pkeys[k]) + 64 // in the state
		}
		for _, c := range b.content {
			size += len(c) + 64
		}
	}
	last := first + uint64(len(bs)) - 1
	pseq, moved := map[string]uint64{}, map[string]uint64{}
	err := s.update(func(h *handle) error {
		pb := h.db.NewBatchWithSize(size) // grown once, not doubled and copied
		defer pb.Close()
		for i, b := range bs {
			seq := first + uint64(i)
			if err := pb.Set(appendLogKey(nil, seq), entries[i], nil); err != nil {
				return err
			}
			if err := applyTo(pb, b, seq); err != nil {
				return err
			}
			if err := writeAudit(pb, audits[i]); err != nil {
				return err
			}
			if err := writePosition(pb, b, moved); err != nil {
				return err
			}
			if len(b.products) > 0 || len(b.deletes) > 0 {
				pseq[b.Website] = seq
			}
		}
		if err := pb.Set([]byte(keySeq), appendSeq(nil, last), nil); err != nil {
			return err
		}
		for website, seq := range pseq {
			if err := pb.Set(productSeqKey(website), appendSeq(nil, seq), nil); err != nil {
				return err
			}
		}
		opts := pebble.NoSync
		if sync {
			opts = pebble.Sync
		}
		if err := h.check(pb.Commit(opts)); err != nil {
			return fmt.Errorf("commit entries %d to %d: %w", first, last, err)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	s.seq, s.auditLast = last, auditLast
	maps.Copy(s.pseq, pseq)
	maps.Copy(s.positions, moved)
	return first, nil
}

// encodeEntry is b's log entry, numbered seq: its JSON (Entry).
func encodeEntry(b *Batch, seq uint64) ([]byte, error) {
	var entry bytes.Buffer
	size := 64 + len(b.Website)
	for _, p := range b.products {
		size += len(p) + 1
	}
	for _, c := range b.content {
		size += len(c) + 1
	}
	for _, k := range b.deletes {
		size += len(k) + 3
	}
	entry.Grow(size) // the entry's JSON, grown once
	fmt.Fprintf(&entry, `{"seq":%d`, seq)
	if b.Website != "" {
		w, _ := json.Marshal(b.Website)
		entry.WriteString(`,"website":`)
		entry.Write(w)
	}
	writeRaw(&entry, "products", b.products)
	writeRaw(&entry, "content", b.content)
	if len(b.deletes) > 0 {
		d, _ := json.Marshal(b.deletes)
		entry.WriteString(`,"deletes":`)
		entry.Write(d)
	}
	if len(b.cdeletes) > 0 {
		d, _ := json.Marshal(b.cdeletes)
		entry.WriteString(`,"contentDeletes":`)
		entry.Write(d)
	}
	if b.config != nil {
		c, err := json.Marshal(b.config)
		if err != nil {
			return nil, fmt.Errorf("encode config: %w", err)
		}
		entry.WriteString(`,"config":`)
		entry.Write(c)
	}
	if len(b.events) > 0 {
		fmt.Fprintf(&entry, `,"eventCount":%d`, len(b.events))
	}
	writeRaw(&entry, "keys", b.keys)
	if len(b.keyRemovals) > 0 {
		d, _ := json.Marshal(b.keyRemovals)
		entry.WriteString(`,"keyRemovals":`)
		entry.Write(d)
	}
	if len(b.audit) > 0 {
		fmt.Fprintf(&entry, `,"auditCount":%d`, len(b.audit))
	}
	entry.WriteByte('}')
	return entry.Bytes(), nil
}

// writeRaw writes the member name of an entry: the JSON array of items;
// nothing when there are none.
func writeRaw(buf *bytes.Buffer, name string, items [][]byte) {
	if len(items) == 0 {
		return
	}
	buf.WriteString(`,"`)
	buf.WriteString(name)
	buf.WriteString(`":`)
	buf.Write(appendArray(buf.AvailableBuffer(), items))
}

// decodeEvents reads back the events of entry seq, as appendArray
// wrote them: a JSON array of events.
func decodeEvents(seq uint64, v []byte) ([]json.RawMessage, error) {
	var events []json.RawMessage
	if err := json.Unmarshal(v, &events); err != nil {
		return nil, fmt.Errorf("events of entry %d: %w", seq, errors.Join(ErrCorrupt, err))
	}
	return events, nil
}

// arrayLen is the length of appendArray's array of items.
func arrayLen(items [][]byte) int {
	n := 2 + max(len(items)-1, 0)
	for _, it := range items {
		n += len(it)
	}
	return n
}

// appendArray appends the JSON array of items, each JSON already.
func appendArray(dst []byte, items [][]byte) []byte {
	dst = append(dst, '[')
	for i, it := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, it...)
	}
	return append(dst, ']')
}

// applyTo is the applier: it turns entry seq's changes into state keys.
func applyTo(pb *pebble.Batch, b *Batch, seq uint64) error {
	if len(b.events) > 0 {
		// Written straight into the batch: an entry of a bulk load holds
		// 10,000 events, a megabyte or more.
		key := appendEventsKey(nil, b.Website, seq)
		op := pb.SetDeferred(len(key), arrayLen(b.events))
		copy(op.Key, key)
		appendArray(op.Value[:0], b.events)
		if err := op.Finish(); err != nil {
			return err
		}
	}
	for i, data := range b.products {
		if err := pb.Set(appendProductKey(nil, b.Website, b.pkeys[i]), data, nil); err != nil {
			return err
		}
	}
	for _, pn := range b.deletes {
		if err := pb.Delete(appendProductKey(nil, b.Website, pn), nil); err != nil {
			return err
		}
	}
	for i, data := range b.content {
		if err := pb.Set(contentKey(b.Website, b.ckeys[i]), data, nil); err != nil {
			return err
		}
	}
	for _, k := range b.cdeletes {
		if err := pb.Delete(contentKey(b.Website, k), nil); err != nil {
			return err
		}
	}
	if b.config != nil {
		data, err := json.Marshal(b.config)
		if err != nil {
			return err
		}
		if err := pb.Set([]byte(keyConfig), data, nil); err != nil {
			return err
		}
	}
	if b.secret != nil {
		if err := pb.Set([]byte(keySecret), b.secret, nil); err != nil {
			return err
		}
	}
	for i, data := range b.keys {
		if err := pb.Set(apiKeyKey(b.keyIDs[i]), data, nil); err != nil {
			return err
		}
	}
	for _, id := range b.keyRemovals {
		if err := pb.Delete(apiKeyKey(id), nil); err != nil {
			return err
		}
	}
	return nil
}

// ProductsRaw calls fn with every product of website's stored JSON, in
// key order; the bytes are valid during the call only. Indexing decodes
// them on every core instead of here.
func (s *Store) ProductsRaw(website string, fn func(raw []byte) error) error {
	return s.scan(productPrefix(website), func(_, v []byte) error { return fn(v) })
}

// Products streams website's stored products in product-number order.
func (s *Store) Products(website string, fn func(*catalog.Product) error) error {
	var p catalog.Product
	return s.scan(productPrefix(website), func(k, v []byte) error {
		p = catalog.Product{}
		if err := json.Unmarshal(v, &p); err != nil {
			return fmt.Errorf("decode product %s: %w", k, err)
		}
		return fn(&p)
	})
}

// Content streams website's stored content items.
func (s *Store) Content(website string, fn func(*catalog.Content) error) error {
	var c catalog.Content
	return s.scan(contentPrefix(website), func(k, v []byte) error {
		c = catalog.Content{}
		if err := json.Unmarshal(v, &c); err != nil {
			return fmt.Errorf("decode content %s: %w", k, err)
		}
		return fn(&c)
	})
}

// Product is the stored JSON of website's product numbered pn (compared
// by ProductID), or nil when there is none.
func (s *Store) Product(website, pn string) ([]byte, error) {
	return s.get(appendProductKey(nil, website, pn))
}

// HasContent says whether website has a content item stored.
func (s *Store) HasContent(website string, kind catalog.ContentKind, id string) (bool, error) {
	v, err := s.get(contentKey(website, string(kind)+"/"+id))
	return v != nil, err
}

// HasProducts says whether website has any product stored.
func (s *Store) HasProducts(website string) (bool, error) {
	found := false
	err := s.scan(productPrefix(website), func(_, _ []byte) error { found = true; return errStopScan })
	if errors.Is(err, errStopScan) {
		err = nil
	}
	return found, err
}

var errStopScan = errors.New("stop")

// Count is the number of website's stored products.
func (s *Store) Count(website string) (int, error) {
	n := 0
	err := s.scan(productPrefix(website), func(_, _ []byte) error { n++; return nil })
	return n, err
}

// Secret is the data directory's secret: 32 random bytes drawn and
// stored (synced) the first time it is asked for, the same ever after.
// It keys the hashes the log and the behaviour keep of customers' emails
// and ids (events.IdentityKey), so a copy of the directory without it
// names nobody; it never leaves the process.
func (s *Store) Secret() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, err := s.get([]byte(keySecret))
	switch {
	case err != nil:
		return nil, fmt.Errorf("read the secret: %w", err)
	case v != nil && len(v) != 32:
		return nil, corruptionErrorf("%s holds %d bytes, not 32", keySecret, len(v))
	case v != nil:
		return v, nil
	}
	v = make([]byte, 32)
	rand.Read(v) //nolint:errcheck // crypto/rand.Read does not fail
	if err := s.update(func(h *handle) error { return h.check(h.db.Set([]byte(keySecret), v, pebble.Sync)) }); err != nil {
		return nil, fmt.Errorf("store the secret: %w", err)
	}
	return v, nil
}

// Config is the stored configuration, or nil when none was set.
func (s *Store) Config() (*config.File, error) {
	v, err := s.get([]byte(keyConfig))
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	if v == nil {
		return nil, nil
	}
	var f config.File
	if err := json.Unmarshal(v, &f); err != nil {
		return nil, fmt.Errorf("decode stored config: %w", err)
	}
	return &f, nil
}

// ErrNoWebsite is Apply's answer to a batch that changes products or
// content without naming its website.
var ErrNoWebsite = errors.New("a batch that changes products or content names its website")

// Events streams the events of every website, each website's in log
// order (websites in key order, EventWebsites, then EventsAfter each):
// fn gets an entry's website, its sequence number and its events, valid
// during the call only. It reads only the events, not the rest of the
// log.
func (s *Store) Events(fn func(website string, seq uint64, events []json.RawMessage) error) error {
	websites, err := s.EventWebsites()
	if err != nil {
		return err
	}
	for _, w := range websites {
		if err := s.EventsAfter(w, 0, func(seq uint64, events []json.RawMessage) error { return fn(w, seq, events) }); err != nil {
			return err
		}
	}
	return nil
}

// SnapshotChunk is the most bytes of a snapshot one key holds.
const SnapshotChunk = 4 << 20

// PutSnapshot replaces website's behaviour snapshot with data, synced.
// A snapshot is derived state, not a log entry: a start that finds one
// folds only the events after the entry it names (EventsAfter).
func (s *Store) PutSnapshot(website string, data []byte) error {
	err := s.update(func(h *handle) error {
		pb := h.db.NewBatchWithSize(len(data) + 4096)
		defer pb.Close()
		p := snapshotPrefix(website)
		if err := pb.DeleteRange([]byte(p), prefixEnd(p), nil); err != nil {
			return err
		}
		for i := 0; i*SnapshotChunk < len(data); i++ {
			chunk := data[i*SnapshotChunk : min(len(data), (i+1)*SnapshotChunk)]
			if err := pb.Set(appendSnapshotKey(nil, website, uint32(i)), chunk, nil); err != nil {
				return err
			}
		}
		return h.check(pb.Commit(pebble.Sync))
	})
	if err != nil {
		return fmt.Errorf("save the behaviour snapshot of %s: %w", website, err)
	}
	return nil
}

// Snapshot is website's behaviour snapshot, nil when it has none.
func (s *Store) Snapshot(website string) ([]byte, error) {
	var out []byte
	next := uint32(0)
	err := s.scan(snapshotPrefix(website), func(k, v []byte) error {
		if !bytes.Equal(k, appendSnapshotKey(nil, website, next)) {
			return corruptionErrorf("snapshot key %q is not chunk %d of %s", k, next, website)
		}
		next++
		out = append(out, v...)
		return nil
	})
	return out, err
}

// EventWebsites are the websites with events in the log, in key order.
func (s *Store) EventWebsites() ([]string, error) {
	return s.websitesUnder(prefixEvents, func(k []byte) (string, error) {
		w, _, err := decodeEventsKey(k)
		return w, err
	})
}

// SnapshotWebsites are the websites with a behaviour snapshot, in key
// order: a website whose events were all compacted away (CompactEvents)
// has one and no events.
func (s *Store) SnapshotWebsites() ([]string, error) {
	return s.websitesUnder(prefixSnapshot, decodeSnapshotKey)
}

// websitesUnder are the websites of the keys under prefix, whose keys
// are prefix, a website, '/' and more; website reads a key's.
func (s *Store) websitesUnder(prefix string, website func(k []byte) (string, error)) ([]string, error) {
	h := s.acquire()
	defer s.release(h)
	it, err := h.db.NewIter(&pebble.IterOptions{LowerBound: []byte(prefix), UpperBound: prefixEnd(prefix)})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var out []string
	for ok := it.First(); ok; ok = it.SeekGE(prefixEnd(prefix + out[len(out)-1] + "/")) {
		w, err := website(it.Key())
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, it.Error()
}

// EventsAfter streams website's events of the log entries after entry
// after, in log order, as Events does.
func (s *Store) EventsAfter(website string, after uint64, fn func(seq uint64, events []json.RawMessage) error) error {
	h := s.acquire()
	defer s.release(h)
	it, err := h.db.NewIter(&pebble.IterOptions{LowerBound: appendEventsKey(nil, website, after+1), UpperBound: prefixEnd(prefixEvents + website + "/")})
	if err != nil {
		return err
	}
	defer it.Close()
	for it.First(); it.Valid(); it.Next() {
		w, seq, err := decodeEventsKey(it.Key())
		if err != nil {
			return err
		}
		if w != website {
			return corruptionErrorf("events key %q under website %s", it.Key(), website)
		}
		events, err := decodeEvents(seq, it.Value())
		if err != nil {
			return err
		}
		if err := fn(seq, events); err != nil {
			return err
		}
	}
	return it.Error()
}

// EntryEvents are the events log entry e logged, in order: those it
// holds itself (Events, as entries written before EventCount), else its
// EventCount events kept beside it; a count they do not match is a
// corruption error.
func (s *Store) EntryEvents(e *Entry) ([]json.RawMessage, error) {
	if e.Events != nil || e.EventCount == 0 {
		return e.Events, nil
	}
	v, err := s.get(appendEventsKey(nil, e.Website, e.Seq))
	if err != nil {
		return nil, err
	}
	events, err := decodeEvents(e.Seq, v)
	if err != nil {
		return nil, err
	}
	if len(events) != e.EventCount {
		return nil, corruptionErrorf("entry %d counts %d events, %d are kept", e.Seq, e.EventCount, len(events))
	}
	return events, nil
}

// Entries streams log entries with a sequence number above after; an
// entry's events are read apart (EntryEvents).
func (s *Store) Entries(after uint64, fn func(*Entry) error) error {
	return s.EntriesUpTo(after, math.MaxUint64, fn)
}

// EntriesUpTo is Entries of the entries up to sequence number upto.
func (s *Store) EntriesUpTo(after, upto uint64, fn func(*Entry) error) error {
	h := s.acquire()
	defer s.release(h)
	upper := prefixEnd(prefixLog)
	if upto < math.MaxUint64 {
		upper = appendLogKey(nil, upto+1)
	}
	it, err := h.db.NewIter(&pebble.IterOptions{LowerBound: appendLogKey(nil, after+1), UpperBound: upper})
	if err != nil {
		return err
	}
	defer it.Close()
	for it.First(); it.Valid(); it.Next() {
		seq, err := decodeLogKey(it.Key())
		if err != nil {
			return err
		}
		var e Entry
		if err := json.Unmarshal(it.Value(), &e); err != nil {
			return fmt.Errorf("decode log entry %d: %w", seq, errors.Join(ErrCorrupt, err))
		}
		if e.Seq != seq {
			return corruptionErrorf("log entry %d says it is %d", seq, e.Seq)
		}
		if err := fn(&e); err != nil {
			return err
		}
	}
	return it.Error()
}

func (s *Store) scan(prefix string, fn func(k, v []byte) error) error {
	h := s.acquire()
	defer s.release(h)
	return scanDB(h.db, prefix, fn)
}

// scanDB is scan of db.
func scanDB(db *pebble.DB, prefix string, fn func(k, v []byte) error) error {
	it, err := db.NewIter(&pebble.IterOptions{LowerBound: []byte(prefix), UpperBound: prefixEnd(prefix)})
	if err != nil {
		return err
	}
	defer it.Close()
	for it.First(); it.Valid(); it.Next() {
		if err := fn(it.Key(), it.Value()); err != nil {
			return err
		}
	}
	return it.Error()
}

// SegmentStamp says what a saved segment was built from: the log position
// of the last entry that changed what it indexes (ProductSeq for the
// product index) and a fingerprint of the settings that shape it (indexed
// fields, language). A mismatch means rebuild.
type SegmentStamp struct {
	Seq         uint64 `json:"seq"`
	Fingerprint string `json:"fingerprint"`
}

// storedStamp is a stamp as stored: with the generation it names.
type storedStamp struct {
	SegmentStamp
	Gen uint64 `json:"gen,omitempty"` // 0: saved before generations
}

// Stamp is the stamp of a saved segment, or ok false when none is saved.
func (s *Store) Stamp(name string) (stamp SegmentStamp, ok bool, err error) {
	st, ok, err := s.stamp(name)
	return st.SegmentStamp, ok, err
}

func (s *Store) stamp(name string) (st storedStamp, ok bool, err error) {
	v, err := s.get(segmentStampKey(name))
	if err != nil || v == nil {
		return st, false, err
	}
	if err := json.Unmarshal(v, &st); err != nil {
		return st, false, fmt.Errorf("decode segment stamp: %w", err)
	}
	return st, true, nil
}

// SegmentPrefix is the key prefix of the saved generation of a named
// segment, to load it from; its stamp (Stamp) says whether there is one.
func (s *Store) SegmentPrefix(name string) (string, error) {
	st, _, err := s.stamp(name)
	return segmentPrefix(name, st.Gen), err
}

// ErrStaleSegment is SaveSegment's answer to a segment older than the
// one saved (same fingerprint, an earlier position): nothing is written.
var ErrStaleSegment = errors.New("a newer segment is saved")

// SaveSegment replaces the named segment with what save writes and stamps
// it last: a crash midway leaves no stamp, so the next start rebuilds
// rather than loading half a segment. One save runs at a time, so two
// never mix their keys, and a save never moves a stamp back
// (ErrStaleSegment): a background save that finishes after a newer one
// leaves the newer. save writes its keys in ascending order, straight
// into a table that pebble ingests, so the segment is written once
// instead of passing through the write-ahead log, a memtable and
// compactions.
func (s *Store) SaveSegment(name string, stamp SegmentStamp, save func(w *SegmentWriter) error) error {
	s.segMu.Lock()
	defer s.segMu.Unlock()
	cur, ok, err := s.Stamp(name)
	if err != nil {
		return fmt.Errorf("save segment %s: %w", name, err)
	}
	if ok && cur.Fingerprint == stamp.Fingerprint && cur.Seq > stamp.Seq {
		return fmt.Errorf("save segment %s at %d: %w (at %d)", name, stamp.Seq, ErrStaleSegment, cur.Seq)
	}
	gen, _, err := s.readSeq(string(segmentGenKey(name)))
	if err != nil {
		return fmt.Errorf("save segment %s: %w", name, err)
	}
	gen++ // never reused: a save a crash cut short may have left its keys
	prefix := []byte(segmentPrefix(name, gen))
	if err := s.saveSegment(name, stamp, gen, prefix, save); err != nil {
		return fmt.Errorf("save segment %s: %w", name, diskErr(err))
	}
	// The older generations go: generation 0, and every one below gen.
	// Neither range reaches a later generation, so the next save's table
	// still lands at the bottom.
	old := segmentPrefix(name, 0)
	if err := s.update(func(h *handle) error {
		return h.check(errors.Join(h.db.DeleteRange([]byte(old), prefixEnd(old), pebble.NoSync),
			h.db.DeleteRange([]byte(prefixSegment+name+"@"), prefix, pebble.NoSync)))
	}); err != nil {
		return fmt.Errorf("save segment %s: drop older generations: %w", name, err)
	}
	return nil
}

// saveSegment is SaveSegment's save of generation gen, whose keys start
// with prefix, up to its stamp.
func (s *Store) saveSegment(name string, stamp SegmentStamp, gen uint64, prefix []byte, save func(w *SegmentWriter) error) error {
	if err := s.update(func(h *handle) error {
		start := h.db.NewBatch()
		defer start.Close()
		return h.check(errors.Join(start.Delete(segmentStampKey(name), nil), start.Set(segmentGenKey(name), appendSeq(nil, gen), nil), start.Commit(pebble.Sync)))
	}); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(s.dir, "segment-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	path := filepath.Join(tmp, "segment.sst")
	f, err := s.base.Create(path)
	if err != nil {
		return err
	}
	w := &SegmentWriter{prefix: prefix, tw: sstable.NewWriter(objstorageprovider.NewFileWritable(f), s.segmentTableOptions())}
	err = save(w)
	if cerr := w.tw.Close(); err == nil {
		err = cerr
	}
	if err == nil && w.n > 0 {
		err = s.update(func(h *handle) error { return h.db.Ingest([]string{path}) })
	}
	if err != nil {
		return err
	}
	sv, _ := json.Marshal(storedStamp{stamp, gen})
	return s.update(func(h *handle) error { return h.check(h.db.Set(segmentStampKey(name), sv, pebble.Sync)) })
}

// Prefix is the key prefix every key of the segment starts with.
func (w *SegmentWriter) Prefix() string { return string(w.prefix) }

// SegmentWriter streams a segment's keys into the table SaveSegment
// ingests.
type SegmentWriter struct {
	prefix []byte
	tw     *sstable.Writer
	n      int
}

// Set writes the segment's next key, which must sort after the last one.
func (w *SegmentWriter) Set(key, value []byte) error {
	if !bytes.HasPrefix(key, w.prefix) {
		return fmt.Errorf("key %q outside the segment %q", key, w.prefix)
	}
	w.n++
	return w.tw.Set(key, value)
}

// Scan calls fn for every key with prefix, in order. Values are valid only
// during fn.
func (s *Store) Scan(prefix []byte, fn func(k, v []byte) error) error {
	return s.scan(string(prefix), fn)
}

// SegmentBytes estimates the disk space of the saved indexes (pebble's
// estimate over their key range, after flushing the memtable so recent
// saves count), so benchmarks can report an index's size apart from the
// log and the catalog.
func (s *Store) SegmentBytes() int64 {
	var n uint64
	err := s.update(func(h *handle) error {
		if err := h.db.Flush(); err != nil {
			return err
		}
		var err error
		n, err = h.db.EstimateDiskUsage([]byte(prefixSegment), prefixEnd(prefixSegment))
		return err
	})
	if err != nil {
		return 0
	}
	return int64(n)
}
