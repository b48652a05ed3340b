package engine_test

import (
	"log/slog"

	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/internal/testshop"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/ranking"
	"github.com/aisle-search/aisle/store"
)

// What the read side keeps across the write side's generations.

// openStore is a store in a test's temporary directory.
func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestRankedDocsKeptAcrossColumnWrites: a price write keeps the docs and
// their numbers and text, so the rankings resolved and the impact lists
// stay; a new product or a delete makes docs anew, and so a new cache.
func TestRankedDocsKeptAcrossColumnWrites(t *testing.T) {
	st := openStore(t)
	quiet := slog.New(slog.DiscardHandler)
	g, _, err := live.Import(st, testshop.Website(), analysis.English, testshop.Source(testshop.Products()), quiet, nil)
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New("", g)
	w := live.New(st, eng, analysis.English, quiet)
	t.Cleanup(w.Close) // before the store closes
	current := func() *engine.Generation {
		g, _ := eng.Website(testshop.UUID)
		return g
	}
	first := current()
	before := engine.RankedCache(first)
	patch := [][]byte{[]byte(`{"productNumber":"A100","price":77}`)}
	if _, _, err := w.PatchProducts(testshop.UUID, patch, func(i int) string { return "row" }, false); err != nil {
		t.Fatal(err)
	}
	if engine.RankedCache(current()) != before {
		t.Error("a price write made a new ranked cache")
	}
	if n, same := engine.SameImpacts(first, current()); n == 0 || !same {
		t.Errorf("a price write kept %d impact lists: shared %v", n, same)
	}
	b := store.Batch{}
	if err := b.PutProduct(&catalog.Product{ProductNumber: "NEW-1", Title: "New thing"}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Apply(testshop.UUID, &b); err != nil {
		t.Fatal(err)
	}
	if engine.RankedCache(current()) == before {
		t.Error("a new product kept the ranked cache")
	}
}

// TestRankedIndexAfterDocWrites: a product deleted and one added leave
// the index with a hole and a tail (doc ids up to Slots, not Len); a
// filtered ranking read through its index by doc finds the new product.
func TestRankedIndexAfterDocWrites(t *testing.T) {
	st := openStore(t)
	quiet := slog.New(slog.DiscardHandler)
	g, _, err := live.Import(st, testshop.Website(), analysis.English, testshop.Source(testshop.Products()), quiet, nil)
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New("", g)
	w := live.New(st, eng, analysis.English, quiet)
	t.Cleanup(w.Close) // before the store closes
	first := testshop.Products()[0].ProductNumber
	if _, err := w.RemoveProduct(testshop.UUID, first); err != nil {
		t.Fatal(err)
	}
	b := store.Batch{}
	if err := b.PutProduct(&catalog.Product{ProductNumber: "NEW-1", Title: "New thing"}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Apply(testshop.UUID, &b); err != nil {
		t.Fatal(err)
	}
	cur, _ := eng.Website(testshop.UUID)
	d, ok := cur.Doc("NEW-1")
	if !ok || int(d) < cur.Products.Len() {
		t.Fatalf("the new product is doc %d of %d live docs: the index has no tail past Len", d, cur.Products.Len())
	}
	got := engine.RankedAllowed(cur, []behaviour.Scored{{ProductNumber: "NEW-1", Score: 1}}, roaring.BitmapOf(d))
	if len(got) != 1 || got[0] != d {
		t.Errorf("the ranked new product read through the index: %v, want [%d]", got, d)
	}
}

// TestImportAndOpenWarmTheLists: a generation that Import builds or Open
// loads has its live versions build every long list in the background,
// unasked: a server's first searches of common words find them ready.
func TestImportAndOpenWarmTheLists(t *testing.T) {
	cfg := demo.Config()
	w := &cfg.Websites[0]
	st := openStore(t)
	quiet := slog.New(slog.DiscardHandler)
	imported, _, err := live.Import(st, w, analysis.English, testshop.Source(demo.Catalog(3000, 11)), quiet, nil)
	if err != nil {
		t.Fatal(err)
	}
	opened, err := live.Open(st, w, analysis.English, quiet)
	if err != nil {
		t.Fatal(err)
	}
	for name, g := range map[string]*engine.Generation{"imported": imported, "opened": opened} {
		ai, ok := g.Products.Term("ai") // every demo product number is AI-…
		if !ok || g.Products.DocFreq(ai) < ranking.ImpactMinDocs {
			t.Fatalf("%s: no term in %d docs or more to warm", name, ranking.ImpactMinDocs)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			built, err := engine.ListBuilt(g, "demo", ai)
			if err != nil {
				t.Fatal(err)
			}
			if built {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the list of a term in %d docs was not built unasked", name, g.Products.DocFreq(ai))
			}
			time.Sleep(time.Millisecond)
		}
	}
}
