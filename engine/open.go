package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/store"
)

// productSegment names the product index in the store.
const productSegment = "products"

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
	stamp := store.SegmentStamp{Seq: st.ProductSeq(), Fingerprint: fingerprint(w, lang)}
	var seg *index.Segment
	saved, ok, err := st.Stamp(productSegment)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	if ok && saved == stamp {
		seg, err = index.Load(st, store.SegmentPrefix(productSegment))
		if err != nil {
			log.Warn("saved index unreadable: rebuilding", "err", err)
			seg = nil
		} else {
			log.Info("index loaded", "products", seg.Len(), "took", time.Since(start).Round(time.Millisecond))
		}
	}
	if seg == nil {
		seg, err = IndexStoredProducts(w, analysis.New(lang), st.ProductsRaw, rebuildProgress(log))
		if err != nil {
			return nil, err
		}
		took := time.Since(start)
		log.Info("index built", "products", seg.Len(), "took", took.Round(time.Millisecond),
			"products/s", int(float64(seg.Len())/max(took.Seconds(), 1e-9)))
		if err := saveProducts(st, seg, stamp, log); err != nil {
			return nil, err
		}
	}
	g, err := Assemble(w, lang, seg, st.Content)
	if err != nil {
		return nil, err
	}
	g.Seq = st.Seq()
	return g, nil
}

// saveProducts saves the product segment under stamp.
func saveProducts(st *store.Store, seg *index.Segment, stamp store.SegmentStamp, log *slog.Logger) error {
	start := time.Now()
	if err := st.SaveSegment(productSegment, stamp, func(sw *store.SegmentWriter) error {
		return seg.Save(sw, store.SegmentPrefix(productSegment))
	}); err != nil {
		return err
	}
	log.Info("index saved", "took", time.Since(start).Round(time.Millisecond))
	return nil
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
