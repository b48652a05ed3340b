package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
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
func rebuildProgress(log *slog.Logger) Progress {
	return func(done int) {
		if done > 0 && done%rebuildEvery == 0 {
			log.Info("indexing", "products", done)
		}
	}
}

// Open makes the generation for the store's current state: it loads the
// saved product index when it was built at the store's ProductSeq (the
// last entry that changed a product: configuration and content entries
// since do not count) with the same indexed fields and language, and
// otherwise rebuilds and saves it. Content is indexed anew each time.
func Open(st *store.Store, w *config.Website, lang analysis.Language, log *slog.Logger) (*Generation, error) {
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
	if ok && saved == stamp {
		seg, err = index.Load(st, store.SegmentPrefix(name))
		if err != nil {
			log.Warn("saved index unreadable: rebuilding", "website", w.UUID, "err", err)
			seg = nil
		} else {
			log.Info("index loaded", "website", w.UUID, "products", seg.Len(), "took", time.Since(start).Round(time.Millisecond))
		}
	}
	if seg == nil {
		raw := func(fn func([]byte) error) error { return st.ProductsRaw(w.UUID, fn) }
		seg, err = IndexStoredProducts(w, analysis.New(lang), raw, rebuildProgress(log))
		if err != nil {
			return nil, err
		}
		took := time.Since(start)
		log.Info("index built", "website", w.UUID, "products", seg.Len(), "took", took.Round(time.Millisecond),
			"products/s", int(float64(seg.Len())/max(took.Seconds(), 1e-9)))
		if err := saveProducts(st, w, seg, stamp, log); err != nil {
			return nil, err
		}
	}
	g, err := Assemble(w, lang, seg, storedContent(st, w))
	if err != nil {
		return nil, err
	}
	g.Seq = st.Seq()
	return g, nil
}

// OpenAll is Open for every website of f, in f's order; def is the
// language of websites that set none.
func OpenAll(st *store.Store, f *config.File, def analysis.Language, log *slog.Logger) ([]*Generation, error) {
	gens := make([]*Generation, 0, len(f.Websites))
	for i := range f.Websites {
		w := &f.Websites[i]
		g, err := Open(st, w, w.Lang(def), log)
		if err != nil {
			return nil, fmt.Errorf("website %s: %w", w.UUID, err)
		}
		gens = append(gens, g)
	}
	return gens, nil
}

// saveProducts saves w's product segment under stamp.
func saveProducts(st *store.Store, w *config.Website, seg *index.Segment, stamp store.SegmentStamp, log *slog.Logger) error {
	start := time.Now()
	name := productSegment(w)
	if err := st.SaveSegment(name, stamp, func(sw *store.SegmentWriter) error {
		return seg.Save(sw, store.SegmentPrefix(name))
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
const indexAnalysis = 2
