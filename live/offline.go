package live

import (
	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/store"
)

// StoreConfig stores f, synced, as the configuration of a data
// directory no server has open (aisle serve --config before it serves,
// aisle tune's draft, a benchmark's setup), checked first as
// Writer.SetConfig checks it: f.Validate, and every website compiled
// (engine.CheckWebsite) in its language, def when it names none. A file
// it refuses changes nothing. It answers the entry's log position. A
// served directory takes a configuration through Writer.SetConfig.
func StoreConfig(st *store.Store, f *config.File, def analysis.Language) (uint64, error) {
	if err := f.Validate(); err != nil {
		return 0, engine.Invalid("config", "%v; nothing changed", err)
	}
	for i := range f.Websites {
		w := &f.Websites[i]
		if err := engine.CheckWebsite(w, w.Lang(def)); err != nil {
			return 0, engine.Invalid("config", "websites[%d]: %v; nothing changed", i, err)
		}
	}
	var b store.Batch
	b.SetConfig(f)
	return st.Append(&b, true)
}
