package engine

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/internal/testshop"
)

// demoGeneration is n demo products (demo.Each with seed), each passed
// through edit first when it is set, built under the English demo
// website.
func demoGeneration(t testing.TB, n int, seed uint64, edit func(*catalog.Product)) *Generation {
	t.Helper()
	w := demo.EnglishConfig()
	g, err := Build(&w, analysis.English, Source{Products: func(fn func(*catalog.Product) error) error {
		return demo.Each(n, seed, func(p *catalog.Product) error {
			if edit != nil {
				edit(p)
			}
			return fn(p)
		})
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// sliceSource feeds a product slice to a build.
func sliceSource(products []catalog.Product) func(fn func(*catalog.Product) error) error {
	return testshop.Source(products)
}

func TestParallelBuildMatchesSerial(t *testing.T) {
	cfg := demo.Config()
	w := &cfg.Websites[0]
	an := analysis.New(analysis.English)
	products := demo.Catalog(3000, 5)
	par, err := IndexProducts(w, an, sliceSource(products), nil)
	if err != nil {
		t.Fatal(err)
	}
	b := index.NewBuilder(an)
	var d index.Doc
	for i := range products {
		if err := ProductDoc(&products[i], w.IndexedFields, nil, &d); err != nil {
			t.Fatal(err)
		}
		if err := b.Add(&d); err != nil {
			t.Fatal(err)
		}
	}
	ser := b.Build()
	if par.Len() != ser.Len() {
		t.Fatalf("parallel %d docs, serial %d", par.Len(), ser.Len())
	}
	for doc := uint32(0); doc < uint32(par.Len()); doc++ {
		if par.Key(doc) != ser.Key(doc) || string(par.Stored(doc)) != string(ser.Stored(doc)) {
			t.Fatalf("doc %d: %s vs %s", doc, par.Key(doc), ser.Key(doc))
		}
	}
	for _, term := range []string{"drill", "lamp", "sofa", "red"} {
		pi, ok1 := par.Term(term)
		si, ok2 := ser.Term(term)
		if ok1 != ok2 || ok1 && !par.TermDocs(pi).Equals(ser.TermDocs(si)) {
			t.Fatalf("term %s differs", term)
		}
	}
}

// TestStoredBuildMatchesDecoded indexes the store's raw JSON, decoded on
// the workers, and the decoded products: the segments must agree, and a
// broken stored product must fail the build with its position.
func TestStoredBuildMatchesDecoded(t *testing.T) {
	cfg := demo.Config()
	w := &cfg.Websites[0]
	an := analysis.New(analysis.English)
	products := demo.Catalog(2000, 9)
	raws := make([][]byte, len(products))
	for i := range products {
		var err error
		if raws[i], err = json.Marshal(&products[i]); err != nil {
			t.Fatal(err)
		}
	}
	rawSource := func(raws [][]byte) RawProducts {
		return func(fn func([]byte) error) error {
			for _, r := range raws {
				if err := fn(slices.Clone(r)); err != nil {
					return err
				}
			}
			return nil
		}
	}
	fromRaw, err := IndexStoredProducts(w, an, rawSource(raws), nil)
	if err != nil {
		t.Fatal(err)
	}
	decoded, err := IndexProducts(w, an, sliceSource(products), nil)
	if err != nil {
		t.Fatal(err)
	}
	if fromRaw.Len() != decoded.Len() || fromRaw.Terms() != decoded.Terms() {
		t.Fatalf("raw build %d docs %d terms, decoded %d docs %d terms", fromRaw.Len(), fromRaw.Terms(), decoded.Len(), decoded.Terms())
	}
	for doc := uint32(0); doc < uint32(decoded.Len()); doc++ {
		if fromRaw.Key(doc) != decoded.Key(doc) || string(fromRaw.Stored(doc)) != string(raws[doc]) {
			t.Fatalf("doc %d differs", doc)
		}
	}
	for id := range uint32(decoded.Terms()) {
		if fromRaw.TermString(id) != decoded.TermString(id) || !fromRaw.TermDocs(id).Equals(decoded.TermDocs(id)) {
			t.Fatalf("term %d (%s) differs", id, decoded.TermString(id))
		}
	}
	broken := slices.Clone(raws)
	broken[1234] = []byte(`{"productNumber":`)
	if _, err := IndexStoredProducts(w, an, rawSource(broken), nil); err == nil || !strings.Contains(err.Error(), "stored product 1235") {
		t.Fatalf("broken stored product: %v", err)
	}
}

func TestParallelBuildErrors(t *testing.T) {
	cfg := demo.Config()
	an := analysis.New(analysis.English)
	products := demo.Catalog(2000, 5)
	products[1500].ProductNumber = products[3].ProductNumber
	_, err := IndexProducts(&cfg.Websites[0], an, sliceSource(products), nil)
	if err == nil || !strings.Contains(err.Error(), "duplicate key") {
		t.Fatalf("duplicate product number: %v", err)
	}
	boom := errors.New("feed broke")
	_, err = IndexProducts(&cfg.Websites[0], an, func(fn func(*catalog.Product) error) error {
		for i := range 700 {
			if err := fn(&products[i]); err != nil {
				return err
			}
		}
		return boom
	}, nil)
	if !errors.Is(err, boom) {
		t.Fatalf("source error: %v", err)
	}
}

// TestConcurrentSearches runs searches from many goroutines on one
// generation: pooled scratch and the once-computed initial content must
// give every caller the answer a lone caller gets (run with -race).
func TestConcurrentSearches(t *testing.T) {
	cfg := demo.Config()
	products := demo.Catalog(3000, 9)
	g, err := Build(&cfg.Websites[0], analysis.English, Source{Products: sliceSource(products)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	key := "demo"
	queries := []string{"lamp", "drill", "*", "zzqqxx", "black chair", "sofaa"}
	search := func(q string) string {
		c := 10
		res, err := g.Search(&SearchRequest{Query: &q, Key: &key, Products: &ProductSettings{ContentSettings: ContentSettings{PageSettings: PageSettings{Count: &c}, Filters: []string{"price:1,500"}}, ReturnFilters: true}})
		if err != nil {
			t.Error(err)
			return ""
		}
		return string(res.AppendJSON(nil))
	}
	want := map[string]string{}
	for _, q := range queries {
		want[q] = search(q)
	}
	done := make(chan struct{})
	for w := range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range 30 {
				q := queries[(w+i)%len(queries)]
				if got := search(q); got != want[q] {
					t.Errorf("%q answered differently under concurrency", q)
					return
				}
			}
		}()
	}
	for range 8 {
		<-done
	}
}
