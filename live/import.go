package live

import (
	"log/slog"
	"sync"
	"time"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/store"
)

// ImportStats is what an import did and how long each part took.
type ImportStats struct {
	Products int   // products in the feed
	Bytes    int64 // their JSON
	// Feed is the pass over the feed: encoding, tokenizing and adding
	// each product to the bulk write and the dictionary.
	Feed time.Duration
	// Index is committing the store and building and saving the index.
	Index time.Duration
	// Rebuilt says the index was built again from the store after the
	// commit instead of in the feed's pass: the store held products
	// already, or the feed repeated a product number.
	Rebuilt bool
}

// Import writes a feed of products into the store in one atomic bulk
// write and returns the generation serving the result. On a store without
// products (a first import) it indexes the feed in the same pass, keeping
// the JSON the store writes as the stored documents, so each product is
// encoded once and never read back; otherwise the website is opened
// after the commit as a start opens it (Open: the saved index with the
// import's entries replayed onto it, or a rebuild).
func Import(st *store.Store, w *config.Website, lang analysis.Language, products func(fn func(*catalog.Product) error) error, log *slog.Logger, progress engine.Progress) (*engine.Generation, ImportStats, error) {
	return importFeed(st, w, nil, lang, products, log, progress)
}

// ImportWithConfig is Import into cfg's website w, storing cfg in the
// same atomic write as the products: a failed import leaves the stored
// configuration as it was too.
func ImportWithConfig(st *store.Store, cfg *config.File, w *config.Website, lang analysis.Language, products func(fn func(*catalog.Product) error) error, log *slog.Logger, progress engine.Progress) (*engine.Generation, ImportStats, error) {
	return importFeed(st, w, cfg, lang, products, log, progress)
}

// importFeed is Import, storing cfg with the products when it is not nil.
func importFeed(st *store.Store, w *config.Website, cfg *config.File, lang analysis.Language, products func(fn func(*catalog.Product) error) error, log *slog.Logger, progress engine.Progress) (*engine.Generation, ImportStats, error) {
	var stats ImportStats
	if log == nil {
		log = slog.Default()
	}
	has, err := st.HasProducts(w.UUID)
	if err != nil {
		return nil, stats, err
	}
	bw, err := st.NewBulkWriter(w.UUID)
	if err != nil {
		return nil, stats, err
	}
	defer bw.Abort()
	if cfg != nil {
		if err := bw.SetConfig(cfg); err != nil {
			return nil, stats, err
		}
	}
	start := time.Now()
	var an *analysis.Analyzer // a first import indexes as it writes
	if !has {
		an = analysis.New(lang)
	}
	built, err := engine.IndexKeeping(w, an, products, progress, bw.Put)
	stats.Products, stats.Bytes = bw.Count, bw.Bytes
	if err != nil {
		return nil, stats, err
	}
	stats.Feed = time.Since(start)
	log.Info("feed read: committing the store and building the index", "products", stats.Products,
		"took", stats.Feed.Round(time.Millisecond))
	start = time.Now()
	if built == nil {
		stats.Rebuilt = true
		if err := bw.Commit(); err != nil {
			return nil, stats, err
		}
		g, err := Open(st, w, lang, log)
		stats.Index = time.Since(start)
		return g, stats, err
	}
	// The store's tables and the segment read the same JSON: lay them
	// out side by side.
	var seg *index.Segment
	var wg sync.WaitGroup
	wg.Go(func() { seg = built() })
	err = bw.Commit()
	wg.Wait()
	if err != nil {
		return nil, stats, err
	}
	log.Info("index built", "products", seg.Len(), "took", time.Since(start).Round(time.Millisecond))
	stamp := store.SegmentStamp{Seq: st.ProductSeq(w.UUID), Fingerprint: fingerprint(w, lang)}
	if err := saveProducts(st, w, seg, stamp, log, nil); err != nil {
		return nil, stats, err
	}
	g, err := engine.Assemble(w, lang, seg, storedContent(st, w))
	if err != nil {
		return nil, stats, err
	}
	g.WarmLists()
	g.Seq, g.ProductSeq = st.Seq(), st.ProductSeq(w.UUID)
	stats.Index = time.Since(start)
	return g, stats, nil
}
