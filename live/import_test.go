package live

import (
	"bytes"
	"log/slog"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/store"
)

// keyedPostings is a term's docs by product number, so segments whose doc
// ids differ can be compared.
func keyedPostings(s *index.Segment, term string) []string {
	id, ok := s.Term(term)
	if !ok {
		return nil
	}
	var keys []string
	for _, fp := range s.TermPostings(id, nil) {
		for i, d := range fp.Docs {
			keys = append(keys, fp.Field.String()+":"+s.Key(d)+":"+string(rune('0'+fp.TFs[i])))
		}
	}
	slices.Sort(keys)
	return keys
}

// TestImportIndexesInOnePass imports a shuffled feed into an empty store:
// the index built in the feed's pass must hold what a rebuild from the
// store holds, be saved for the next start, and a second import must
// rebuild from the whole store.
func TestImportIndexesInOnePass(t *testing.T) {
	cfg := demo.Config()
	w := &cfg.Websites[0]
	products := demo.Catalog(3000, 11)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(products), func(i, j int) { products[i], products[j] = products[j], products[i] })
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	quiet := slog.New(slog.DiscardHandler)
	g, stats, err := Import(st, w, analysis.English, sliceSource(products), quiet, nil)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Rebuilt || stats.Products != 3000 || g.Products.Len() != 3000 || g.Seq != st.Seq() {
		t.Fatalf("stats %+v, %d docs, seq %d/%d", stats, g.Products.Len(), g.Seq, st.Seq())
	}
	rebuilt, err := engine.IndexStoredProducts(w, analysis.New(analysis.English), func(fn func([]byte) error) error { return st.ProductsRaw(w.UUID, fn) }, nil)
	if err != nil {
		t.Fatal(err)
	}
	inPass := g.Products
	if inPass.Terms() != rebuilt.Terms() {
		t.Fatalf("%d terms in the pass, %d rebuilt", inPass.Terms(), rebuilt.Terms())
	}
	// Both number docs in product-number order, whatever the feed's.
	for doc := range uint32(inPass.Len()) {
		if inPass.Key(doc) != rebuilt.Key(doc) || !bytes.Equal(inPass.Stored(doc), rebuilt.Stored(doc)) {
			t.Fatalf("doc %d: %s in the pass, %s rebuilt", doc, inPass.Key(doc), rebuilt.Key(doc))
		}
	}
	for id := range uint32(rebuilt.Terms()) {
		term := rebuilt.TermString(id)
		if a, b := keyedPostings(inPass, term), keyedPostings(rebuilt, term); !slices.Equal(a, b) {
			t.Fatalf("term %s: %d postings in the pass, %d rebuilt", term, len(a), len(b))
		}
	}
	for _, f := range []string{"brand", "hierarchies"} {
		a, b := inPass.Keyword(f), rebuilt.Keyword(f)
		if !slices.Equal(a.Values, b.Values) {
			t.Fatalf("%s values differ", f)
		}
		for v := range a.Values {
			if a.Bitmaps[v].GetCardinality() != b.Bitmaps[v].GetCardinality() {
				t.Fatalf("%s %s: %d docs in the pass, %d rebuilt", f, a.Values[v], a.Bitmaps[v].GetCardinality(), b.Bitmaps[v].GetCardinality())
			}
		}
	}

	// The next start loads what the import saved.
	var logs bytes.Buffer
	if _, err := Open(st, w, analysis.English, slog.New(slog.NewTextHandler(&logs, nil))); err != nil || !bytes.Contains(logs.Bytes(), []byte("index loaded")) {
		t.Fatalf("open after import: %v\n%s", err, logs.String())
	}

	// A second import updates one product and adds one: the store held
	// products, so the index is rebuilt from all of them.
	more := []catalog.Product{products[7], products[0]}
	more[0].Title = "Zanzibar edition"
	more[1].ProductNumber = "NEW-1"
	g, stats, err = Import(st, w, analysis.English, sliceSource(more), quiet, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !stats.Rebuilt || g.Products.Len() != 3001 || keyedPostings(g.Products, "zanzibar") == nil {
		t.Fatalf("second import: stats %+v, %d docs", stats, g.Products.Len())
	}
}

// TestImportRepeatedProduct keeps the feed's last write of a product
// number, as the store does, by rebuilding after the commit.
func TestImportRepeatedProduct(t *testing.T) {
	cfg := demo.Config()
	w := &cfg.Websites[0]
	products := demo.Catalog(1200, 3)
	products[1100] = products[40]
	products[1100].Title = "Zanzibar edition"
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g, stats, err := Import(st, w, analysis.English, sliceSource(products), slog.New(slog.DiscardHandler), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !stats.Rebuilt || stats.Products != 1200 || g.Products.Len() != 1199 {
		t.Fatalf("stats %+v, %d docs", stats, g.Products.Len())
	}
	if got := keyedPostings(g.Products, "zanzibar"); len(got) != 1 {
		t.Fatalf("zanzibar postings %v", got)
	}
}
