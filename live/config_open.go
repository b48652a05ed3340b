package live

import (
	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
)

// openEach is OpenEach for a new configuration f of the served
// websites, reusing what serves them: a website whose indexed fields
// and language are unchanged keeps its product index, and only its
// configuration and content are assembled anew (a synonym, a facet, a
// box: milliseconds, whatever the catalog's size); the others, and new
// websites, are opened (Open: their saved index, or a rebuild). l.mu is
// held.
func (l *Writer) openEach(f *config.File) ([]*engine.Generation, []engine.WebsiteFailure) {
	gens := make([]*engine.Generation, 0, len(f.Websites))
	var failed []engine.WebsiteFailure
	for i := range f.Websites {
		w := &f.Websites[i]
		lang := w.Lang(l.lang)
		g, err := l.reassemble(w, lang)
		if g == nil && err == nil {
			l.save.forget(w.UUID) // Open saves what it rebuilds
			g, err = Open(l.st, w, lang, l.log)
		}
		if err != nil {
			failed = append(failed, engine.WebsiteFailure{UUID: w.UUID, Err: err})
			continue
		}
		gens = append(gens, g)
	}
	return gens, failed
}

// reassemble is the generation of website w on the product index it is
// served with, when its indexed fields and language (what the index
// holds) are unchanged; nil when it must be opened instead.
func (l *Writer) reassemble(w *config.Website, lang analysis.Language) (*engine.Generation, error) {
	cur, ok := l.eng.Website(w.UUID)
	if !ok || fingerprint(cur.Website, cur.Website.Lang(l.lang)) != fingerprint(w, lang) {
		return nil, nil
	}
	g, err := engine.Assemble(w, lang, cur.Products, storedContent(l.st, w))
	if err != nil {
		return nil, err
	}
	g.ShareLists(cur)
	g.WarmLists()
	g.Seq, g.ProductSeq, g.Unsaved = cur.Seq, cur.ProductSeq, cur.Unsaved
	return g, nil
}
