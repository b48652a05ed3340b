package live

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/store"
)

// productSegment names a website's product index in the store.
func productSegment(w *config.Website) string { return w.UUID + "/products" }

// rebuildEvery is how often, in products, a rebuild at start logs its
// progress: every 100,000, which is a few seconds apart.
const rebuildEvery = 100000

// rebuildProgress logs a rebuild's progress at every rebuildEvery
// products (the build reports every 10,000 and at the end).
func rebuildProgress(log *slog.Logger) engine.Progress {
	return func(done int) {
		if done > 0 && done%rebuildEvery == 0 {
			log.Info("indexing", "products", done)
		}
	}
}

// Open makes the generation for the store's current state: it loads the
// saved product index when it was built at the store's ProductSeq (the
// last entry that changed a product: configuration and content entries
// since do not count) with the same indexed fields and language; when it
// was saved earlier (Live saves in the background), it loads it and
// replays the product writes logged since (productLog.replay); without
// a saved index it rebuilds and saves it. Content is indexed anew each
// time.
func Open(st *store.Store, w *config.Website, lang analysis.Language, log *slog.Logger) (*engine.Generation, error) {
	if log == nil {
		log = slog.Default()
	}
	stamp := store.SegmentStamp{Seq: st.ProductSeq(w.UUID), Fingerprint: fingerprint(w, lang)}
	var seg *index.Segment
	name := productSegment(w)
	saved, ok, err := st.Stamp(name)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	behind := ok && saved.Fingerprint == stamp.Fingerprint && saved.Seq < stamp.Seq
	var log1 *productLog
	if behind {
		if log1, err = readProductLog(st, w, saved.Seq, math.MaxUint64); err != nil {
			return nil, err
		}
	}
	if ok && saved == stamp || behind {
		var prefix string
		if prefix, err = st.SegmentPrefix(name); err == nil {
			seg, err = index.Load(st, prefix)
		}
		switch {
		case errors.Is(err, index.ErrFormat): // an older build's: expected once after an upgrade
			log.Info("saved index in another format: rebuilding", "website", w.UUID, "err", err)
			seg = nil
		case err != nil:
			log.Warn("saved index unreadable: rebuilding", "website", w.UUID, "err", err)
			seg = nil
		default:
			log.Info("index loaded", "website", w.UUID, "products", seg.Len(), "took", time.Since(start).Round(time.Millisecond))
		}
	}
	unsaved := false // the log replayed onto the saved index
	if seg != nil && behind {
		replayed, err := log1.replay(w, lang, seg)
		if err != nil {
			log.Warn("replaying the log onto the saved index failed: rebuilding", "website", w.UUID, "err", err)
		} else {
			log.Info("log replayed onto the saved index", "website", w.UUID, "entries", log1.entries, "products", len(log1.writes.order), "took", time.Since(start).Round(time.Millisecond))
			unsaved = true
		}
		seg = replayed
	}
	if seg == nil {
		if seg, err = rebuildProducts(st, w, lang, stamp, log); err != nil {
			return nil, err
		}
	}
	g, err := engine.Assemble(w, lang, seg, storedContent(st, w))
	if err != nil {
		return nil, err
	}
	g.WarmLists()
	g.Seq, g.ProductSeq = st.Seq(), st.ProductSeq(w.UUID)
	g.Unsaved = unsaved
	return g, nil
}

// productLog is a website's product writes since a saved index, each
// product's last.
type productLog struct {
	writes  *productWrites
	entries int
}

// readProductLog reads website w's product entries after log position
// after, up to position upto.
func readProductLog(st *store.Store, w *config.Website, after, upto uint64) (*productLog, error) {
	pl := &productLog{writes: newProductWrites()}
	var numbers []string
	var data [][]byte
	err := st.EntriesUpTo(after, upto, func(e *store.Entry) error {
		if e.Website != w.UUID || len(e.Products)+len(e.Deletes) == 0 {
			return nil
		}
		pl.entries++
		numbers, data = numbers[:0], data[:0]
		for _, raw := range e.Products {
			var head struct {
				ProductNumber string `json:"productNumber"`
			}
			if err := json.Unmarshal(raw, &head); err != nil {
				return fmt.Errorf("log entry %d: %w", e.Seq, err)
			}
			numbers, data = append(numbers, head.ProductNumber), append(data, raw)
		}
		pl.writes.entry(numbers, data, e.Deletes)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return pl, nil
}

// replay applies the log to seg: as column writes when every write is
// one (judged against seg), else as doc writes.
func (pl *productLog) replay(w *config.Website, lang analysis.Language, seg *index.Segment) (*index.Segment, error) {
	g := engine.ProductsOf(w, lang, seg)
	if numbers, data, puts := pl.writes.puts(); puts {
		changes, ok, err := columnChanges(g, numbers, data, patchesPerWorker, false)
		if err != nil {
			return nil, err
		}
		if ok {
			return seg.WithColumns(changes, docKeywords(g))
		}
	}
	return productsWith(g, pl.writes)
}

// rebuildProducts indexes w's stored products and saves the index under
// stamp.
func rebuildProducts(st *store.Store, w *config.Website, lang analysis.Language, stamp store.SegmentStamp, log *slog.Logger) (*index.Segment, error) {
	start := time.Now()
	raw := func(fn func([]byte) error) error { return st.ProductsRaw(w.UUID, fn) }
	seg, err := engine.IndexStoredProducts(w, analysis.New(lang), raw, rebuildProgress(log))
	if err != nil {
		return nil, err
	}
	took := time.Since(start)
	log.Info("index built", "website", w.UUID, "products", seg.Len(), "took", took.Round(time.Millisecond),
		"products/s", int(float64(seg.Len())/max(took.Seconds(), 1e-9)))
	if err := saveProducts(st, w, seg, stamp, log, nil); err != nil {
		return nil, err
	}
	return seg, nil
}

// Rebuild is Open without loading the saved index: the product index
// is built from the store and saved (Live, after an entry that changes
// more than columns).
func Rebuild(st *store.Store, w *config.Website, lang analysis.Language, log *slog.Logger) (*engine.Generation, error) {
	if log == nil {
		log = slog.Default()
	}
	stamp := store.SegmentStamp{Seq: st.ProductSeq(w.UUID), Fingerprint: fingerprint(w, lang)}
	seg, err := rebuildProducts(st, w, lang, stamp, log)
	if err != nil {
		return nil, err
	}
	g, err := engine.Assemble(w, lang, seg, storedContent(st, w))
	if err != nil {
		return nil, err
	}
	g.WarmLists()
	g.Seq, g.ProductSeq = st.Seq(), stamp.Seq
	return g, nil
}

// OpenAll is Open for every website of f, in f's order; def is the
// language of websites that set none. The first website that fails to
// open fails it.
func OpenAll(st *store.Store, f *config.File, def analysis.Language, log *slog.Logger) ([]*engine.Generation, error) {
	gens, failed := OpenEach(st, f, def, log, nil)
	if len(failed) > 0 {
		return nil, failed[0]
	}
	return gens, nil
}

// OpenEach is Open for every website of f, going on past a website that
// fails: the generations of those that opened, in f's order, and the
// failures, in f's order too. progress, when set, is called after each
// website with how many are done, opened or failed.
func OpenEach(st *store.Store, f *config.File, def analysis.Language, log *slog.Logger, progress func(done int)) ([]*engine.Generation, []engine.WebsiteFailure) {
	gens := make([]*engine.Generation, 0, len(f.Websites))
	var failed []engine.WebsiteFailure
	for i := range f.Websites {
		w := &f.Websites[i]
		g, err := Open(st, w, w.Lang(def), log)
		if err != nil {
			failed = append(failed, engine.WebsiteFailure{UUID: w.UUID, Err: err})
		} else {
			gens = append(gens, g)
		}
		if progress != nil {
			progress(i + 1)
		}
	}
	return gens, failed
}

// saveProducts saves w's product segment under stamp.
func saveProducts(st *store.Store, w *config.Website, seg *index.Segment, stamp store.SegmentStamp, log *slog.Logger, pace *pacer) error {
	start := time.Now()
	name := productSegment(w)
	if err := st.SaveSegment(name, stamp, func(sw *store.SegmentWriter) error {
		return seg.Save(pacedWriter{sw, pace}, sw.Prefix())
	}); err != nil {
		return err
	}
	log.Info("index saved", "website", w.UUID, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// storedContent streams w's content items from st.
func storedContent(st *store.Store, w *config.Website) func(fn func(*catalog.Content) error) error {
	return func(fn func(*catalog.Content) error) error { return st.Content(w.UUID, fn) }
}

// fingerprint identifies the settings a product index depends on.
func fingerprint(w *config.Website, lang analysis.Language) string {
	b, _ := json.Marshal(struct { // plain data: cannot fail
		Fields []config.IndexedField
		Lang   analysis.Language
		V      int
	}{w.IndexedFields, lang, indexAnalysis})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// indexAnalysis changes whenever what the index holds does without its
// settings changing (the analyzer's tokens, the extracted fields), so old
// saved indexes are rebuilt rather than served stale. The segment's own
// layout is index.FormatVersion, which Load checks.
const indexAnalysis = 3
