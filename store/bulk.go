package store

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cockroachdb/pebble/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/sstable"
	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
)

// ErrBulkInProgress is returned by Append while a bulk write holds the
// log: its entries take the next sequence numbers.
var ErrBulkInProgress = errors.New("a bulk import is in progress")

// BulkWriter imports products as sorted tables that pebble ingests in one
// step at Commit. Through batches each product was written to pebble's
// write-ahead log, its memtable, a level-0 table and then rewritten by
// compactions, twice over (log entry and state); ingested, the log
// entries and the state are each written once, straight into the bottom
// level. The import is atomic: until Commit nothing is visible, and
// Abort or a crash leaves the store as it was.
//
// The products' JSON is held until Commit (the state is written in key
// order); log entries are compressed and written on their own goroutine
// while the caller goes on. While a bulk write is open, Append fails with
// ErrBulkInProgress.
type BulkWriter struct {
	st      *Store
	website string // whose products these are
	tmp     string
	opts    sstable.WriterOptions
	seq     uint64        // the entry being filled
	entry   *bytes.Buffer // its JSON
	inEnt   int
	items   []bulkItem
	closed  bool

	log     *sstable.Writer
	logq    chan logEntry // to the log's goroutine
	spare   chan *bytes.Buffer
	logDone chan error

	config []byte // the configuration Commit also stores, encoded; nil: none

	Count int   // products put
	Bytes int64 // their JSON size
}

type bulkItem struct {
	key string // the ProductID
	val []byte
	n   int // order put
}

type logEntry struct {
	seq  uint64
	data *bytes.Buffer
}

// NewBulkWriter starts a bulk import of website's products.
func (s *Store) NewBulkWriter(website string) (*BulkWriter, error) {
	if website == "" {
		return nil, ErrNoWebsite
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bulk {
		return nil, fmt.Errorf("bulk write to %s: %w", s.dir, ErrBulkInProgress)
	}
	if err := s.Unavailable(); err != nil {
		return nil, fmt.Errorf("bulk write to %s: %w", s.dir, err)
	}
	tmp, err := os.MkdirTemp(s.dir, "import-")
	if err != nil {
		return nil, fmt.Errorf("bulk write to %s: %w", s.dir, diskErr(err))
	}
	w := &BulkWriter{st: s, website: website, tmp: tmp, seq: s.seq + 1,
		opts: s.tableOptions()}
	if w.log, err = w.create("log.sst"); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	s.bulk = true
	// Two entry buffers: one filling, one being written.
	w.logq, w.spare, w.logDone = make(chan logEntry, 1), make(chan *bytes.Buffer, 2), make(chan error, 1)
	w.spare <- new(bytes.Buffer)
	w.entry = new(bytes.Buffer)
	go w.writeLog(w.logq, w.log)
	w.startEntry()
	return w, nil
}

// writeLog writes entries to the log table until q closes; after an
// error it drains the queue and reports the error. It takes q and log as
// arguments: finishLog clears the fields, maybe before this starts.
func (w *BulkWriter) writeLog(q <-chan logEntry, log *sstable.Writer) {
	var err error
	for e := range q {
		if err == nil {
			if err = log.Set(appendLogKey(nil, e.seq), e.data.Bytes()); err != nil {
				err = fmt.Errorf("bulk write: log entry %d: %w", e.seq, err)
			}
		}
		w.spare <- e.data
	}
	w.logDone <- err
}

// tableOptions are the options of the tables Aisle writes for pebble to
// ingest: the database's own for its bottom level, with blocks compressed
// on a goroutine of their own while the caller fills the next.
func (s *Store) tableOptions() sstable.WriterOptions {
	h := s.acquire()
	defer s.release(h)
	o := h.opts.MakeWriterOptions(6, h.db.FormatMajorVersion().MaxTableFormat())
	o.Parallelism = true
	return o
}

// segmentTableOptions are tableOptions without block compression: a
// segment's sections are compressed already (delta-coded postings, S2
// docs), so snappy bought little space and cost a second of CPU on each
// save and each load of a million products.
func (s *Store) segmentTableOptions() sstable.WriterOptions {
	o := s.tableOptions()
	o.Compression = sstable.NoCompression
	return o
}

func (w *BulkWriter) create(name string) (*sstable.Writer, error) {
	f, err := w.st.base.Create(filepath.Join(w.tmp, name))
	if err != nil {
		return nil, fmt.Errorf("bulk write: %w", err)
	}
	return sstable.NewWriter(objstorageprovider.NewFileWritable(f), w.opts), nil
}

func (w *BulkWriter) startEntry() {
	w.entry.Reset()
	site, _ := json.Marshal(w.website)
	fmt.Fprintf(w.entry, `{"seq":%d,"website":%s,"products":[`, w.seq, site)
	w.inEnt = 0
}

// Put adds a product by its number and JSON, as Batch.PutProduct encodes
// it. The writer keeps value, not a copy: it must not change until Commit
// or Abort returns.
func (w *BulkWriter) Put(key string, value []byte) error {
	if w.closed {
		return errors.New("bulk write: put after commit or abort")
	}
	w.items = append(w.items, bulkItem{ProductID(key), value, len(w.items)})
	if w.inEnt > 0 {
		w.entry.WriteByte(',')
	}
	w.entry.Write(value)
	w.inEnt++
	w.Count++
	w.Bytes += int64(len(value))
	if w.inEnt == BulkBatch {
		w.sendEntry(false)
		w.seq++
		w.startEntry()
	}
	return nil
}

// sendEntry closes the filled entry, with the configuration when it is
// the last, hands it to the log's goroutine and takes the spare buffer.
func (w *BulkWriter) sendEntry(last bool) {
	w.entry.WriteByte(']')
	if last && w.config != nil {
		w.entry.WriteString(`,"config":`)
		w.entry.Write(w.config)
	}
	w.entry.WriteByte('}')
	w.logq <- logEntry{w.seq, w.entry}
	w.entry = <-w.spare
}

// finishLog writes the last entry and waits for the log table.
func (w *BulkWriter) finishLog() error {
	if w.logq == nil {
		return nil
	}
	close(w.logq)
	w.logq = nil
	err := <-w.logDone
	if cerr := w.log.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("bulk write: %w", cerr)
	}
	w.log = nil
	return err
}

// SetConfig makes Commit also replace the stored configuration with f,
// in the last log entry and in the same atomic step as the products, so
// a failed import leaves the configuration as it was too.
func (w *BulkWriter) SetConfig(f *config.File) error {
	b, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("bulk write: encode config: %w", err)
	}
	w.config = b
	return nil
}

// PutProduct encodes p and adds it.
func (w *BulkWriter) PutProduct(p *catalog.Product) error {
	data, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encode product %s: %w", p.ProductNumber, err)
	}
	return w.Put(p.ProductNumber, data)
}

// Commit writes the state table (the last put of a product number wins)
// and ingests the log, the state, the configuration given to SetConfig
// and the new sequence number in one step, durably. When the disk
// refuses a write the error is ErrUnavailable, and nothing changed.
func (w *BulkWriter) Commit() error { return diskErr(w.commit()) }

func (w *BulkWriter) commit() error {
	if w.closed {
		return errors.New("bulk write: already committed or aborted")
	}
	defer w.Abort()
	last := w.seq - 1
	if w.inEnt > 0 || w.config != nil {
		w.sendEntry(true)
		last = w.seq
	}
	if err := w.finishLog(); err != nil {
		return err
	}
	if w.Count == 0 && w.config == nil {
		return nil
	}
	// Of equal keys the last put sorts last.
	slices.SortFunc(w.items, func(a, b bulkItem) int {
		if r := strings.Compare(a.key, b.key); r != 0 {
			return r
		}
		return cmp.Compare(a.n, b.n)
	})
	paths := []string{filepath.Join(w.tmp, "log.sst"), filepath.Join(w.tmp, "meta.sst")}
	if len(w.items) > 0 {
		state, err := w.create("state.sst")
		if err != nil {
			return err
		}
		key := make([]byte, 0, 64)
		for i, it := range w.items {
			if i+1 < len(w.items) && w.items[i+1].key == it.key {
				continue
			}
			key = appendProductIDKey(key[:0], w.website, it.key)
			if err := state.Set(key, it.val); err != nil {
				state.Close()
				return fmt.Errorf("bulk write: product %s: %w", it.key, err)
			}
		}
		if err := state.Close(); err != nil {
			return fmt.Errorf("bulk write: %w", err)
		}
		paths = append(paths, filepath.Join(w.tmp, "state.sst"))
	}
	meta, err := w.create("meta.sst")
	if err != nil {
		return err
	}
	if w.config != nil { // keyConfig sorts before keySeq
		if err := meta.Set([]byte(keyConfig), w.config); err != nil {
			meta.Close()
			return fmt.Errorf("bulk write: %w", err)
		}
	}
	// The product sequence key sorts before keySeq. An import of only a
	// configuration changes no product.
	if len(w.items) > 0 {
		if err := meta.Set(productSeqKey(w.website), appendSeq(nil, last)); err != nil {
			meta.Close()
			return fmt.Errorf("bulk write: %w", err)
		}
	}
	if err := meta.Set([]byte(keySeq), appendSeq(nil, last)); err != nil {
		meta.Close()
		return fmt.Errorf("bulk write: %w", err)
	}
	if err := meta.Close(); err != nil {
		return fmt.Errorf("bulk write: %w", err)
	}
	if err := w.st.update(func(h *handle) error { return h.db.Ingest(paths) }); err != nil {
		return fmt.Errorf("bulk write: ingest into %s: %w", w.st.dir, err)
	}
	w.st.mu.Lock()
	w.st.seq = last
	if len(w.items) > 0 {
		w.st.pseq[w.website] = last
	}
	w.st.mu.Unlock()
	return nil
}

// Abort drops what was put and releases the log; after Commit it only
// cleans up, so it can be deferred.
func (w *BulkWriter) Abort() {
	if w.closed {
		return
	}
	w.closed = true
	_ = w.finishLog() // dropped with the files
	os.RemoveAll(w.tmp)
	w.items = nil
	w.st.mu.Lock()
	w.st.bulk = false
	w.st.mu.Unlock()
}
