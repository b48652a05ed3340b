package live

import (
	"errors"
	"testing"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
)

// TestStoreConfig: a stopped directory's configuration is checked as a
// served one's (an invalid file, a template that does not compile) and
// a refused one changes nothing; a valid one is stored, synced, and is
// what the store then serves.
func TestStoreConfig(t *testing.T) {
	st := openStore(t)
	bad := shopWebsite()
	bad.Search[0].Versions[0].Template = "{{.Query"
	for _, f := range []*config.File{{}, {Websites: []config.Website{*bad}}} {
		var e *engine.Error
		if _, err := StoreConfig(st, f, analysis.English); !errors.As(err, &e) || e.Kind != engine.KindInvalid {
			t.Errorf("%d websites: %v, want an invalid-config error", len(f.Websites), err)
		}
	}
	if st.Seq() != 0 {
		t.Fatalf("refused configurations appended %d entries", st.Seq())
	}
	f := &config.File{Websites: []config.Website{*shopWebsite()}}
	seq, err := StoreConfig(st, f, analysis.English)
	if err != nil || seq != st.Seq() || seq == 0 {
		t.Fatalf("StoreConfig: entry %d, %v; the store is at %d", seq, err, st.Seq())
	}
	if got, err := st.Config(); err != nil || got == nil || len(got.Websites) != 1 || got.Websites[0].UUID != shopUUID {
		t.Errorf("stored %+v, %v", got, err)
	}
}
