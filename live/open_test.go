package live

import (
	"bytes"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/internal/expect"
	"github.com/aisle-search/aisle/store"
)

// logRecorder collects the messages a logger was given, in order, from
// any goroutine (the background saver logs too).
type logRecorder struct{ buf lockedBuffer }

func (r *logRecorder) logger() *slog.Logger { return slog.New(slog.NewTextHandler(&r.buf, nil)) }

var logMsg = regexp.MustCompile(`msg="([^"]*)"`)

// take returns the messages logged since the last take.
func (r *logRecorder) take() []string {
	var out []string
	for _, m := range logMsg.FindAllStringSubmatch(r.buf.take(), -1) {
		out = append(out, m[1])
	}
	return out
}

// lockedBuffer is a buffer safe to log into from several goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is what was written so far.
func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// take is what was written since the last take.
func (b *lockedBuffer) take() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.buf.String()
	b.buf.Reset()
	return s
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// storedKeys lists a generation's product numbers in doc order.
func storedKeys(g *engine.Generation) []string {
	var out []string
	for d := range uint32(g.Products.Len()) {
		out = append(out, g.Products.Key(d))
	}
	return out
}

// TestOpenLoadsOrRebuilds: "aisle serve loads the saved segment when its
// stamp still matches, and rebuilds it otherwise" (docs/architecture.md),
// the stamp being "the position of the last entry that changed a product
// and a fingerprint of the indexed fields and language", so content and
// configuration entries do not force a rebuild; "Restarting serve on the
// same directory serves the same catalog without importing again"
// (README.md). A saved segment that cannot be read is rebuilt, not served.
func TestOpenLoadsOrRebuilds(t *testing.T) {
	st := openStore(t)
	w := shopWebsite()
	var logs logRecorder
	if _, _, err := Import(st, w, analysis.English, sliceSource(shopProducts()), logs.logger(), nil); err != nil {
		t.Fatal(err)
	}
	logs.take()
	want := []string{"A100", "A200", "B100", "B200", "C100", "C200", "C300", "D100"}

	open := func(what string, w *config.Website, lang analysis.Language, msgs ...string) *engine.Generation {
		t.Helper()
		g, err := Open(st, w, lang, logs.logger())
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got := logs.take(); !slices.Equal(got, msgs) {
			t.Errorf("%s: logged %q, want %q", what, got, msgs)
		}
		if got := storedKeys(g); !slices.Equal(got, want) {
			t.Errorf("%s: products %v, want %v", what, got, want)
		}
		if g.Seq != st.Seq() {
			t.Errorf("%s: generation at %d, store at %d", what, g.Seq, st.Seq())
		}
		// A replay leaves the saved index as it was (Live saves later).
		stamp, ok, err := st.Stamp(productSegment(w))
		if !slices.Contains(msgs, "log replayed onto the saved index") && (err != nil || !ok || stamp != (store.SegmentStamp{Seq: st.ProductSeq(w.UUID), Fingerprint: fingerprint(w, lang)})) {
			t.Errorf("%s: saved stamp %+v %v %v", what, stamp, ok, err)
		}
		return g
	}
	built := []string{"index built", "index saved"}
	loaded := []string{"index loaded"}

	g := open("after the import", w, analysis.English, loaded...)
	res := shopSearch(t, g, `{"query":"cordless drill","key":"shop","products":{"count":5,"fields":["productNumber"]}}`)
	if got := productNumbers(t, res["products"].(map[string]any)["results"]); !slices.Equal(got, []string{"A100", "A200"}) {
		t.Errorf("search on the loaded index: %v", got)
	}
	open("again", w, analysis.English, loaded...)

	// Another indexed field changes the fingerprint: rebuilt once.
	w2 := shopWebsite()
	w2.IndexedFields = append(w2.IndexedFields, config.IndexedField{Name: "currency", Type: config.TypeKeyword})
	open("new indexed field", w2, analysis.English, built...)
	open("new indexed field again", w2, analysis.English, loaded...)
	open("back to the old fields", w, analysis.English, built...)
	open("another language", w, analysis.German, built...)
	open("back to English", w, analysis.English, built...)

	// Content and configuration entries leave the products as they were:
	// the saved index is loaded, and the content indexed anew.
	b := store.Batch{Website: shopUUID}
	appendBatch := func(fill func()) {
		t.Helper()
		b.Reset()
		fill()
		if _, err := st.Append(&b, true); err != nil {
			t.Fatal(err)
		}
	}
	appendBatch(func() {
		if err := b.PutContent(&catalog.Content{Kind: catalog.KindBrand, ID: "b-bosch", Title: "Bosch"}); err != nil {
			t.Fatal(err)
		}
	})
	g = open("after a content change", w, analysis.English, loaded...)
	res = shopSearch(t, g, `{"query":"bosch","key":"shop","brands":{"count":5}}`)
	if n := res["brands"].(map[string]any)["totalCount"]; n != float64(1) {
		t.Errorf("brands found after the change: %v", n)
	}
	appendBatch(func() { b.SetConfig(&config.File{Websites: []config.Website{*w}}) })
	open("after a configuration change", w, analysis.English, loaded...)

	// An entry that adds or deletes a product moves the position: the
	// saved index is loaded and the entries since replayed onto it (Open
	// does not save it: a running server's saver does), which answers as
	// a rebuild does.
	replayed := []string{"index loaded", "log replayed onto the saved index"}
	body := `{"query":"*","key":"shop","products":{"count":10,"fields":["productNumber","price","inStock"],"returnFilters":true}}`
	sameAsRebuild := func(what string, g *engine.Generation) {
		t.Helper()
		if got, want := answer(t, g, body), answer(t, freshBuild(t, st, w), body); !bytes.Equal(got, want) {
			t.Errorf("%s: the replayed index answers\n%s\nwhere a rebuild answers\n%s", what, got, want)
		}
	}
	appendBatch(func() {
		if err := b.PutProduct(&catalog.Product{ProductNumber: "E100", Title: "Extension cord"}); err != nil {
			t.Fatal(err)
		}
	})
	want = append(want, "E100")
	sameAsRebuild("after a product change", open("after a product change", w, analysis.English, replayed...))
	appendBatch(func() { b.DeleteProduct("E100") })
	want = want[:len(want)-1]
	sameAsRebuild("after a product delete", open("after a product delete", w, analysis.English, replayed...))
	open("after the delete, again", w, analysis.English, replayed...)

	// Column writes since the save (a price, twice, and stock) are
	// replayed onto the loaded index, which equals a rebuild; a new title
	// since is not a column write: rebuilt.
	setPrice := func(pn, patch string) {
		t.Helper()
		stored, err := st.Product(w.UUID, pn)
		if err != nil || stored == nil {
			t.Fatalf("%s: %q %v", pn, stored, err)
		}
		p, err := catalog.Patch(stored, []byte(patch))
		if err != nil {
			t.Fatal(err)
		}
		appendBatch(func() {
			if err := b.PutProduct(p); err != nil {
				t.Fatal(err)
			}
		})
	}
	setPrice("A100", `{"price":12.5}`)
	setPrice("B200", `{"inStock":false}`)
	setPrice("A100", `{"price":13.5}`)
	sameAsRebuild("after column writes", open("after column writes", w, analysis.English, replayed...))
	setPrice("A100", `{"title":"Renamed screwdriver"}`)
	sameAsRebuild("after a new title", open("after a new title", w, analysis.English, replayed...))

	// A saved segment under the right stamp that does not load.
	stamp, _, _ := st.Stamp(productSegment(w))
	if err := st.SaveSegment(productSegment(w), stamp, func(*store.SegmentWriter) error { return nil }); err != nil {
		t.Fatal(err)
	}
	open("unreadable saved index", w, analysis.English, "saved index unreadable: rebuilding", "index built", "index saved")
	open("repaired", w, analysis.English, loaded...)

	// A segment an older build saved, in another format: rebuilt, and
	// said so without a warning (expected once after an upgrade).
	stamp, _, _ = st.Stamp(productSegment(w))
	if err := st.SaveSegment(productSegment(w), stamp, func(sw *store.SegmentWriter) error {
		return sw.Set([]byte(sw.Prefix()+"meta"), []byte(`{"format":3,"n":0}`))
	}); err != nil {
		t.Fatal(err)
	}
	open("saved in another format", w, analysis.English, "saved index in another format: rebuilding", "index built", "index saved")
	open("rebuilt", w, analysis.English, loaded...)
}

// TestOpenEmptyStore: an empty data directory opens as an empty catalog,
// and a nil logger means the default one.
func TestOpenEmptyStore(t *testing.T) {
	st := openStore(t)
	var logs logRecorder
	g, err := Open(st, shopWebsite(), analysis.English, logs.logger())
	if err != nil {
		t.Fatal(err)
	}
	if got := logs.take(); !slices.Equal(got, []string{"index built", "index saved"}) {
		t.Errorf("logged %q", got)
	}
	if g.Products.Len() != 0 {
		t.Fatalf("%d products in an empty store", g.Products.Len())
	}
	res := shopSearch(t, g, `{"query":"*","key":"shop","products":{"count":5}}`)
	if n := res["products"].(map[string]any)["totalCount"]; n != float64(0) {
		t.Errorf("totalCount %v", n)
	}
	if _, err := Open(st, shopWebsite(), analysis.English, nil); err != nil {
		t.Fatalf("open with a nil logger: %v", err)
	}
}

// TestOpenLogsBuildRate: a rebuild logs its products and a rate that is
// the products over the time it logs (docs/benchmarks.md figures come
// from these lines); "indexing" progress lines only every 100,000.
func TestOpenLogsBuildRate(t *testing.T) {
	st := openStore(t)
	products := make([]catalog.Product, 3000)
	for i := range products {
		products[i] = catalog.Product{ProductNumber: "N" + strings.Repeat("0", 5-len(itoa(i))) + itoa(i), Title: "thing " + itoa(i%50)}
	}
	b := store.Batch{Website: shopUUID}
	for i := range products {
		if err := b.PutProduct(&products[i]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.Append(&b, true); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := Open(st, shopWebsite(), analysis.English, slog.New(slog.NewJSONHandler(&buf, nil))); err != nil {
		t.Fatal(err)
	}
	var built map[string]any
	lines := expect.Some(t, "log lines", strings.Split(strings.TrimSpace(buf.String()), "\n"))
	for _, line := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		if rec["msg"] == "indexing" {
			t.Errorf("a progress line for 3000 products: %s", line)
		}
		if rec["msg"] == "index built" {
			built = rec
		}
	}
	if built == nil || built["products"] != float64(3000) {
		t.Fatalf("no index built line with 3000 products: %s", buf.String())
	}
	// took is rounded to the millisecond: the rate lies between the
	// products over took plus half a millisecond and over took minus it.
	took := built["took"].(float64) / 1e9
	rate := built["products/s"].(float64)
	if lo := 3000 / (took + 0.0005); rate < lo-1 {
		t.Errorf("products/s %v, below 3000 / %vs", rate, took)
	}
	if took > 0.0005 {
		if hi := 3000 / (took - 0.0005); rate > hi+1 {
			t.Errorf("products/s %v, above 3000 / %vs", rate, took)
		}
	}
}

func itoa(i int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + i%10)}, b...)
		if i /= 10; i == 0 {
			return string(b)
		}
	}
}

// TestFingerprint: the stamp's fingerprint changes with the indexed
// fields and the language and nothing else (docs/architecture.md).
func TestFingerprint(t *testing.T) {
	w := shopWebsite()
	base := fingerprint(w, analysis.English)
	if len(base) != 16 || fingerprint(shopWebsite(), analysis.English) != base {
		t.Fatalf("fingerprint %q is not a stable 16-digit hex", base)
	}
	other := shopWebsite()
	other.Search, other.Name, other.APIKeys = nil, "renamed", []string{"k"}
	if fingerprint(other, analysis.English) != base {
		t.Error("search configurations changed the fingerprint")
	}
	sortable := shopWebsite()
	sortable.IndexedFields[0].Sortable = true
	for what, fp := range map[string]string{
		"language":       fingerprint(w, analysis.German),
		"sortable flag":  fingerprint(sortable, analysis.English),
		"no fields":      fingerprint(&config.Website{}, analysis.English),
		"fields reorder": fingerprint(&config.Website{IndexedFields: slices.Concat(w.IndexedFields[1:], w.IndexedFields[:1])}, analysis.English),
	} {
		if fp == base {
			t.Errorf("%s: same fingerprint", what)
		}
	}
}

// TestImportWithConfigStoresIt: "--config is stored in the data directory"
// and an import is "one atomic write" (docs/configuration.md, README.md):
// ImportWithConfig stores the configuration with the products, Import
// stores none; both serve the website, with a nil logger too.
func TestImportWithConfigStoresIt(t *testing.T) {
	cfg := &config.File{Websites: []config.Website{*shopWebsite()}}
	st := openStore(t)
	var calls []int
	g, stats, err := ImportWithConfig(st, cfg, &cfg.Websites[0], analysis.English, sliceSource(shopProducts()), nil, func(n int) { calls = append(calls, n) })
	if err != nil {
		t.Fatal(err)
	}
	stored, err := st.Config()
	if err != nil || stored == nil {
		t.Fatalf("stored config %v, %v", stored, err)
	}
	a, _ := json.Marshal(cfg)
	b, _ := json.Marshal(stored)
	if !bytes.Equal(a, b) {
		t.Errorf("stored config differs:\n%s\n%s", b, a)
	}
	if g.Website != &cfg.Websites[0] || g.Products.Len() != 8 {
		t.Errorf("serving %p with %d products", g.Website, g.Products.Len())
	}
	if !slices.Equal(calls, []int{8}) {
		t.Errorf("progress %v, want [8]", calls)
	}
	var size int64
	for _, p := range shopProducts() {
		b, _ := json.Marshal(&p)
		size += int64(len(b))
	}
	if stats.Products != 8 || stats.Bytes != size || stats.Rebuilt {
		t.Errorf("stats %+v, want 8 products, %d bytes, not rebuilt", stats, size)
	}

	plain := openStore(t)
	g, _, err = Import(plain, shopWebsite(), analysis.English, sliceSource(shopProducts()), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if stored, err := plain.Config(); err != nil || stored != nil {
		t.Errorf("Import stored a config: %v, %v", stored, err)
	}
	if g.Products.Len() != 8 || g.Seq != plain.Seq() {
		t.Errorf("%d products at %d, store at %d", g.Products.Len(), g.Seq, plain.Seq())
	}
}

// TestRebuildProgressEvery100000: a rebuild at start logs "indexing" at
// every 100,000 products, not at the build's other reports (every 10,000
// and the end) and not for an empty store's single report of 0.
func TestRebuildProgressEvery100000(t *testing.T) {
	var logs logRecorder
	progress := rebuildProgress(logs.logger())
	for _, done := range []int{0, 10000, 99999, 100000, 110000, 200000, 200001} {
		progress(done)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(logs.buf.String()), "\n") {
		_, attrs, _ := strings.Cut(line, "msg=")
		got = append(got, attrs)
	}
	want := []string{"indexing products=100000", "indexing products=200000"}
	if !slices.Equal(got, want) {
		t.Errorf("logged %q, want %q", got, want)
	}
}
