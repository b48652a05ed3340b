package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/internal/background"
	"github.com/aisle-search/aisle/store"
)

// TestLiveApplySearchableOnReturn: a write through Live is searchable as
// soon as Apply returns, while searches run beside it on the generation
// they started with; neither a product nor a content entry rebuilds the
// product index; a failed entry changes nothing.
func TestLiveApplySearchableOnReturn(t *testing.T) {
	st, eng, live, logs := liveShop(t)
	search := func(q string) []string {
		t.Helper()
		res := shopSearch(t, current(t, eng), `{"query":"`+q+`","key":"shop","products":{"count":20,"fields":["productNumber"]}}`)
		return productNumbers(t, res["products"].(map[string]any)["results"])
	}

	// Searches beside the writes, with the race detector watching.
	var stop atomic.Bool
	var wg sync.WaitGroup
	var searched atomic.Int64
	wg.Go(func() {
		for !stop.Load() {
			if _, err := eng.Search(context.Background(), shopRequest(t, `{"query":"drill","key":"shop"}`), ""); err != nil {
				t.Error(err)
				return
			}
			searched.Add(1)
		}
	})
	defer func() {
		stop.Store(true)
		wg.Wait()
		if searched.Load() == 0 {
			t.Error("no search ran beside the writes")
		}
	}()

	if got := search("screwdriver"); !slices.Equal(got, []string{"A100"}) {
		t.Fatalf("screwdriver finds %v before the put", got)
	}
	logs.take()
	b := store.Batch{Website: shopUUID}
	b.PutProduct(&catalog.Product{ProductNumber: "E100", Title: "Cordless Screwdriver", Price: 59})
	a, err := live.Apply(shopUUID, &b)
	if err != nil || a.Added != 1 || a.Seq != st.Seq() {
		t.Fatalf("put: %+v %v", a, err)
	}
	if got := search("screwdriver"); !slices.Equal(got, []string{"E100", "A100"}) {
		t.Errorf("screwdriver finds %v right after the put, want the new E100 first (by title), then A100 (by keywords)", got)
	}
	// The saver may save in the background at any time ("index saved");
	// every write logs its "admin change".
	notSaves := func(msgs []string) []string {
		return slices.DeleteFunc(msgs, func(m string) bool { return m == "index saved" || m == "admin change" })
	}
	if got := notSaves(logs.take()); len(got) != 0 {
		t.Errorf("a product entry logged %q, want nothing: the index in memory takes it", got)
	}

	b.Reset()
	b.DeleteProduct("A100")
	if a, err := live.Apply(shopUUID, &b); err != nil || a.Deleted != 1 {
		t.Fatalf("delete: %+v %v", a, err)
	}
	if got := search("cordless drill"); slices.Contains(got, "A100") {
		t.Errorf("cordless drill still finds the deleted A100: %v", got)
	}

	b.Reset()
	b.PutContent(&catalog.Content{Kind: catalog.KindBrand, ID: "b-makita", Title: "Makita"})
	logs.take()
	if _, err := live.Apply(shopUUID, &b); err != nil {
		t.Fatal(err)
	}
	if got := notSaves(logs.take()); len(got) != 0 {
		t.Errorf("a content entry logged %q, want nothing: the product index in memory serves on", got)
	}
	res := shopSearch(t, current(t, eng), `{"query":"makita","key":"shop","brands":{"count":5}}`)
	if n := res["brands"].(map[string]any)["totalCount"]; n != float64(1) {
		t.Errorf("brands found after the content entry: %v", n)
	}

	// A failing entry: nothing stored, the same generation served.
	before, seq := current(t, eng), st.Seq()
	bulk, err := st.NewBulkWriter(shopUUID) // holds the log: Apply fails
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	b.PutProduct(&catalog.Product{ProductNumber: "F100", Title: "Fan"})
	_, err = live.Apply(shopUUID, &b)
	bulk.Abort()
	// (A background save may swap in its compacted index meanwhile: the
	// same entries, so it is told apart by them, not by the pointer.)
	after := current(t, eng)
	if !errors.Is(err, store.ErrBulkInProgress) || st.Seq() != seq || after.Seq != before.Seq || after.ProductSeq != before.ProductSeq {
		t.Errorf("a failing entry: %v; seq %d → %d; generation at entry %d, was %d", err, seq, st.Seq(), after.Seq, before.Seq)
	}
}

// TestLivePatchProducts: partial products change only their members, in
// one entry; a patch naming no product, or making an invalid one, stops
// the whole entry, and errors carry the patch's label.
func TestLivePatchProducts(t *testing.T) {
	st, eng, live, _ := liveShop(t)
	label := func(i int) string { return "row " + string(rune('1'+i)) }
	a, _, err := live.PatchProducts(shopUUID, [][]byte{[]byte(`{"productNumber":"b100","price":7}`), []byte(`{"productNumber":"B100","inStock":false}`)}, label, false)
	if err != nil || a.Updated != 1 {
		t.Fatalf("two patches of B100: %+v %v", a, err)
	}
	res := shopSearch(t, current(t, eng), `{"query":"garden hose","key":"shop","products":{"count":1,"fields":["productNumber","title","price","inStock"]}}`)
	hit := res["products"].(map[string]any)["results"].([]any)[0].(map[string]any)
	if hit["productNumber"] != "B100" || hit["title"] != "Garden Hose 20m" || hit["price"] != 7.0 || hit["inStock"] != false {
		t.Errorf("B100 after its patches: %v", hit)
	}
	seq := st.Seq()
	for _, tc := range []struct {
		patches []string
		says    string
	}{
		{[]string{`{"productNumber":"B100","price":8}`, `{"productNumber":"Z9","price":1}`}, `row 2: no product "Z9" to update`},
		{[]string{`{"price":1}`}, "row 1: a partial update is a JSON object naming its product"},
		{[]string{`{"productNumber":"B100","price":8}`, `{"productNumber":"C100","title":""}`}, `row 2: field "title"`},
	} {
		var raws [][]byte
		for _, p := range tc.patches {
			raws = append(raws, []byte(p))
		}
		_, _, err := live.PatchProducts(shopUUID, raws, label, false)
		var e *engine.Error
		if !errors.As(err, &e) || e.Kind != engine.KindInvalid || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%v: %v, want an invalid-request error saying %q", tc.patches, err, tc.says)
		}
	}
	if st.Seq() != seq {
		t.Errorf("refused patches appended entries: seq %d → %d", seq, st.Seq())
	}

	// allowErrors: the bad patches are listed, the others applied, and a
	// later patch of a product sees an earlier one of the same batch.
	a, rejected, err := live.PatchProducts(shopUUID, [][]byte{
		[]byte(`{"productNumber":"C100","price":800}`),
		[]byte(`{"productNumber":"Z9","price":1}`),
		[]byte(`{"productNumber":"C100","title":""}`),
		[]byte(`{"productNumber":"C100","inStock":true}`),
	}, label, true)
	if err != nil || a.Updated != 1 || len(rejected) != 2 || rejected[0].Row != "row 2" || rejected[1].Row != "row 3" ||
		!strings.Contains(rejected[0].Message, `no product "Z9"`) || !strings.Contains(rejected[1].Message, `field "title"`) {
		t.Fatalf("allowErrors: %+v, rejected %+v, %v", a, rejected, err)
	}
	res = shopSearch(t, current(t, eng), `{"query":"leather sofa","key":"shop","products":{"count":1,"fields":["productNumber","price","inStock"]}}`)
	hit = res["products"].(map[string]any)["results"].([]any)[0].(map[string]any)
	if hit["productNumber"] != "C100" || hit["price"] != 800.0 || hit["inStock"] != true {
		t.Errorf("C100 after its allowed patches: %v", hit)
	}
	seq = st.Seq()
	if a, rejected, err := live.PatchProducts(shopUUID, [][]byte{[]byte(`{"productNumber":"Z9"}`)}, label, true); err != nil || len(rejected) != 1 || a.Seq != seq || st.Seq() != seq {
		t.Errorf("allowErrors with every patch bad: %+v %v %v; seq %d → %d", a, rejected, err, seq, st.Seq())
	}
}

// TestLiveDeleteContent: a content item is deleted by kind and id, and
// an unknown one is NotFound with nothing appended.
func TestLiveDeleteContent(t *testing.T) {
	st, eng, live, _ := liveShop(t)
	b := store.Batch{Website: shopUUID}
	b.PutContent(&catalog.Content{Kind: catalog.KindBrand, ID: "b-makita", Title: "Makita"})
	if _, err := live.Apply(shopUUID, &b); err != nil {
		t.Fatal(err)
	}
	seq := st.Seq()
	var e *engine.Error
	if _, err := live.DeleteContent(shopUUID, catalog.KindCategory, "b-makita"); !errors.As(err, &e) || e.Kind != engine.KindNotFound || st.Seq() != seq {
		t.Errorf("delete under another kind: %v, seq %d → %d", err, seq, st.Seq())
	}
	if a, err := live.DeleteContent(shopUUID, catalog.KindBrand, "b-makita"); err != nil || a.ContentDeleted != 1 {
		t.Fatalf("delete: %+v %v", a, err)
	}
	res := shopSearch(t, current(t, eng), `{"query":"makita","key":"shop","brands":{"count":5}}`)
	if n := res["brands"].(map[string]any)["totalCount"]; n != float64(0) {
		t.Errorf("brands found after the delete: %v", n)
	}
}

// liveShop imports the shop fixture into a store and serves it with
// writes on; logs records what the engine logs.
func liveShop(t *testing.T) (*store.Store, *engine.Engine, *Writer, *logRecorder) {
	t.Helper()
	st := openStore(t)
	w := shopWebsite()
	logs := &logRecorder{}
	g, _, err := Import(st, w, analysis.English, sliceSource(shopProducts()), logs.logger(), nil)
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New("", g)
	live := New(st, eng, analysis.English, logs.logger())
	t.Cleanup(live.Close) // before the store closes
	return st, eng, live, logs
}

// TestLiveSetConfig: a configuration is checked before it is stored (an
// invalid one, or one whose templates do not compile, changes nothing),
// then served at once; new indexed fields rebuild the product index.
func TestLiveSetConfig(t *testing.T) {
	st, eng, live, logs := liveShop(t)
	seq, before := st.Seq(), current(t, eng)
	bad := shopWebsite()
	bad.Search[0].Versions[0].Template = "{{.Query"
	for _, f := range []*config.File{{}, {Websites: []config.Website{*bad}}} {
		var e *engine.Error
		if _, err := live.SetConfig(f); !errors.As(err, &e) || e.Kind != engine.KindInvalid || !strings.Contains(err.Error(), "nothing changed") {
			t.Errorf("%d websites: %v, want an invalid-config error", len(f.Websites), err)
		}
	}
	if st.Seq() != seq || current(t, eng) != before {
		t.Fatalf("refused configurations changed the store (%d → %d) or the generation", seq, st.Seq())
	}
	w := shopWebsite()
	w.Search[0].Key = "renamed"
	w.IndexedFields = append(w.IndexedFields, config.IndexedField{Name: "currency", Type: config.TypeKeyword})
	logs.take()
	if _, err := live.SetConfig(&config.File{Websites: []config.Website{*w}}); err != nil {
		t.Fatal(err)
	}
	if got := logs.take(); !slices.Equal(got, []string{"index built", "index saved", "admin change"}) {
		t.Errorf("new indexed fields logged %q, want a rebuild", got)
	}
	if _, err := eng.Search(context.Background(), shopRequest(t, `{"query":"drill","key":"renamed"}`), ""); err != nil {
		t.Errorf("the renamed key: %v", err)
	}
	if _, err := eng.Search(context.Background(), shopRequest(t, `{"query":"drill","key":"shop"}`), ""); err == nil {
		t.Error("the old key still answers")
	}
	if g, err := live.Website(shopUUID); err != nil || g.Website.Search[0].Key != "renamed" {
		t.Errorf("Live serves %v, %v", g, err)
	}
}

// current is the test shop's current generation.
func current(t *testing.T, eng *engine.Engine) *engine.Generation {
	t.Helper()
	g, ok := eng.Website(shopUUID)
	if !ok {
		t.Fatal("the shop is not served")
	}
	return g
}

// TestLiveWebsitesApart: a configuration with a second website serves it
// at once; writes to one website are searchable under its key only, the
// same product number lives in both, a delete in one leaves the other's,
// and an unknown website is NotFound. Dropping the website from the
// configuration stops serving its key.
func TestLiveWebsitesApart(t *testing.T) {
	st, eng, live, _ := liveShop(t)
	const other = "00000000-0000-4000-8000-00000000a002"
	b2 := shopWebsite()
	b2.UUID, b2.Language = other, "de"
	for i := range b2.Search {
		b2.Search[i].Key += "-b"
	}
	if _, err := live.SetConfig(&config.File{Websites: []config.Website{*shopWebsite(), *b2}}); err != nil {
		t.Fatal(err)
	}
	numbers := func(key, q string) []string {
		t.Helper()
		res, err := eng.Search(context.Background(), shopRequest(t, `{"query":"`+q+`","key":"`+key+`","products":{"count":20,"fields":["productNumber"]}}`), "")
		if err != nil {
			t.Fatalf("%s %q: %v", key, q, err)
		}
		var body map[string]any
		if err := json.Unmarshal(res.AppendJSON(nil), &body); err != nil {
			t.Fatal(err)
		}
		return productNumbers(t, body["products"].(map[string]any)["results"])
	}
	if got := numbers("shop-b", "*"); len(got) != 0 {
		t.Fatalf("the new website serves %v, want nothing yet", got)
	}
	b := store.Batch{}
	b.PutProduct(&catalog.Product{ProductNumber: "A100", Title: "Zeppelin kite", Price: 5})
	if a, err := live.Apply(other, &b); err != nil || a.Added != 1 {
		t.Fatalf("put into the second website: %+v %v", a, err)
	}
	if got := numbers("shop-b", "zeppelin"); !slices.Equal(got, []string{"A100"}) {
		t.Errorf("shop-b zeppelin finds %v", got)
	}
	if got := numbers("shop", "zeppelin"); len(got) != 0 {
		t.Errorf("the first website finds the second's product: %v", got)
	}
	if _, err := live.DeleteProduct(other, "A100"); err != nil {
		t.Fatal(err)
	}
	if got := numbers("shop", "screwdriver"); !slices.Equal(got, []string{"A100"}) {
		t.Errorf("deleting the second website's A100 touched the first's: screwdriver finds %v", got)
	}
	if g, _ := live.Website(other); g.Analyzer().Stem("kinder") != "kind" {
		t.Errorf("the second website stems kinder as %q, want German's kind", g.Analyzer().Stem("kinder"))
	}
	var e *engine.Error
	if _, err := live.Apply("00000000-0000-4000-8000-00000000dead", &b); !errors.As(err, &e) || e.Kind != engine.KindNotFound || e.Field != "websiteUuid" {
		t.Errorf("an unknown website: %v", err)
	}
	if _, err := live.SetConfig(&config.File{Websites: []config.Website{*shopWebsite()}}); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Search(context.Background(), shopRequest(t, `{"query":"*","key":"shop-b"}`), ""); !errors.As(err, &e) || e.Kind != engine.KindNotFound {
		t.Errorf("the dropped website's key: %v", err)
	}
	if n, _ := st.Count(shopUUID); n != len(shopProducts()) {
		t.Errorf("the first website holds %d products", n)
	}
}

// TestLiveColumnWrites: a price and stock update of existing products is
// served by a column update, not a rebuild (nothing is indexed or
// loaded), keeps the impact lists, equals a fresh build of the stored
// state, and is saved in the background, so a restart loads it as it
// is; a new title still rebuilds.
func TestLiveColumnWrites(t *testing.T) {
	st, eng, live, logs := liveShop(t)
	logs.take()
	label := func(i int) string { return "row" }
	before := current(t, eng)
	if _, _, err := live.PatchProducts(shopUUID, [][]byte{[]byte(`{"productNumber":"B100","price":7,"inStock":false}`), []byte(`{"productNumber":"A100","price":99}`)}, label, false); err != nil {
		t.Fatal(err)
	}
	if got := logs.take(); slices.Contains(got, "index built") || slices.Contains(got, "index loaded") {
		t.Errorf("a price and stock update logged %q: it rebuilt or loaded the index", got)
	}
	// The text is the same: the impact lists and term weights carry over
	// (engine's TestRankedDocsKeptAcrossColumnWrites holds that).
	_ = before
	w := current(t, eng).Website
	for _, body := range []string{
		`{"query":"*","key":"shop","products":{"count":20,"fields":["productNumber","price","inStock"],"sorting":["price desc"],"returnFilters":true}}`,
		`{"query":"hose","key":"shop","products":{"count":5,"filters":["inStock:true"],"returnFilters":true}}`,
	} {
		if got, want := answer(t, current(t, eng), body), answer(t, freshBuild(t, st, w), body); !bytes.Equal(got, want) {
			t.Errorf("after the column write, %s answers\n%s\nwhere a fresh build answers\n%s", body, got, want)
		}
	}
	live.Close() // the background save is done
	stamp, _, err := st.Stamp(productSegment(w))
	if err != nil || stamp.Seq != st.ProductSeq(shopUUID) {
		t.Errorf("saved stamp %+v %v, want the column write's position %d", stamp, err, st.ProductSeq(shopUUID))
	}
	logs.take()
	if _, err := Open(st, w, analysis.English, logs.logger()); err != nil {
		t.Fatal(err)
	}
	if got := logs.take(); !slices.Equal(got, []string{"index loaded"}) {
		t.Errorf("a restart after the saved column write logged %q", got)
	}
}

// TestLivePatchProductsOnEveryCore: the products of a batch are merged in
// parallel, each product's patches in order, and the rejected rows are
// listed in batch order, as a merge on one core gives.
func TestLivePatchProductsOnEveryCore(t *testing.T) {
	_, eng, live, _ := liveShop(t)
	live.patchesPerWorker = 1
	var patches [][]byte
	for round := range 20 {
		for _, pn := range []string{"A100", "B100", "C100", "D100", "A200"} {
			patches = append(patches, fmt.Appendf(nil, `{"productNumber":%q,"price":%d}`, pn, 10+round))
		}
		patches = append(patches, []byte(`{"productNumber":"C100","title":""}`), fmt.Appendf(nil, `{"productNumber":"Z%d","price":1}`, round))
	}
	_, rejected, err := live.PatchProducts(shopUUID, patches, func(i int) string { return fmt.Sprint(i) }, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(rejected) != 40 || rejected[0].Row != "5" || rejected[1].Row != "6" || rejected[39].Row != "139" {
		t.Errorf("rejected %d rows, first %+v, last %+v", len(rejected), rejected[0], rejected[len(rejected)-1])
	}
	res := shopSearch(t, current(t, eng), `{"query":"*","key":"shop","products":{"count":20,"fields":["productNumber","price"],"filters":["price:29"]}}`)
	if got := productNumbers(t, res["products"].(map[string]any)["results"]); len(got) != 5 {
		t.Errorf("the last price of every product is 29: %v", got)
	}
}

// TestSaverSavesTheNewest: a write queues its index for saving in place
// of the one queued before (saving the older after it would move the
// saved stamp back), and a configuration change, which opens every
// website whose indexed fields or language changed anew, drops the
// queued save (Open rebuilds and saves), while one that keeps them keeps
// its product index and the save queued for it.
func TestSaverSavesTheNewest(t *testing.T) {
	st, eng, live, _ := liveShop(t)
	live.save.mu.Lock()
	live.save.running = true // no loop: the queue is only looked at
	live.save.mu.Unlock()
	g := current(t, eng)
	live.saveLater(g)
	b := store.Batch{}
	b.PutProduct(&catalog.Product{ProductNumber: "N1", Title: "New thing"}) // a doc write
	if _, err := live.Apply(shopUUID, &b); err != nil {
		t.Fatal(err)
	}
	live.save.mu.Lock()
	queued := live.save.pending[shopUUID]
	live.save.mu.Unlock()
	if queued == nil || queued.ProductSeq != st.ProductSeq(shopUUID) || queued != current(t, eng) {
		t.Errorf("queued %v, want the generation of the write", queued)
	}
	// A change that keeps the indexed fields keeps the product index:
	// the queued save is of the index served.
	same := *g.Website
	same.Name = "Renamed"
	if _, err := live.SetConfig(&config.File{Websites: []config.Website{same}}); err != nil {
		t.Fatal(err)
	}
	live.save.mu.Lock()
	queued = live.save.pending[shopUUID]
	live.save.mu.Unlock()
	if queued == nil || queued.Products != current(t, eng).Products || current(t, eng).Website.Name != "Renamed" {
		t.Errorf("queued %v, want a save of the product index served", queued)
	}
	// One that changes them opens the website anew.
	changed := same
	changed.IndexedFields = append(slices.Clone(same.IndexedFields), config.IndexedField{Name: "extraData.new", Type: config.TypeKeyword})
	if _, err := live.SetConfig(&config.File{Websites: []config.Website{changed}}); err != nil {
		t.Fatal(err)
	}
	live.save.mu.Lock()
	queued = live.save.pending[shopUUID]
	live.save.running = false
	live.save.mu.Unlock()
	if queued == current(t, eng) || current(t, eng).Products == g.Products {
		t.Errorf("after a change of indexed fields the queued save is %p (the served generation %p, rebuilt and saved by Open, needs none)", queued, current(t, eng))
	}
}

// TestSaverServesTheCompactedIndex: after a background save, the served
// product index is the compacted one (no holes, ids in key order), with
// the writes made since the saved generation replayed onto it, and it
// answers as the index it replaces did.
func TestSaverServesTheCompactedIndex(t *testing.T) {
	st, eng, live, _ := liveShop(t)
	b := store.Batch{}
	b.PutProduct(&catalog.Product{ProductNumber: "A000", Title: "First drill", Price: 5}) // before every key
	b.DeleteProduct("B100")
	if _, err := live.Apply(shopUUID, &b); err != nil {
		t.Fatal(err)
	}
	dirty := current(t, eng)
	if dirty.Products.Order() == nil || dirty.Products.Slots() == dirty.Products.Len() {
		t.Fatalf("the write left no holes or tail: %d docs of %d slots, order %v", dirty.Products.Len(), dirty.Products.Slots(), dirty.Products.Order())
	}
	body := `{"query":"drill","key":"shop","products":{"count":10,"fields":["productNumber","price"],"returnFilters":true}}`
	want := answer(t, dirty, body)
	// A write after the save was queued, replayed onto the compacted index.
	b.Reset()
	b.PutProduct(&catalog.Product{ProductNumber: "Z999", Title: "Last drill", Price: 7})
	if _, err := live.Apply(shopUUID, &b); err != nil {
		t.Fatal(err)
	}
	want2 := answer(t, current(t, eng), body)
	// As the saver does once it saved the first write's index.
	live.rebase(dirty, dirty.Products.Compact(), fingerprint(dirty.Website, dirty.Website.Lang(analysis.English)))
	g := current(t, eng)
	if g.Products.Order() != nil || g.Products.Slots() != g.Products.Len() {
		t.Errorf("served index not compacted: %d docs of %d slots, order %v", g.Products.Len(), g.Products.Slots(), g.Products.Order() != nil)
	}
	if got := answer(t, g, body); !bytes.Equal(got, want2) {
		t.Errorf("the compacted index answers\n%s\nwhere the index it replaced answered\n%s", got, want2)
	}
	if bytes.Equal(want, want2) {
		t.Error("the second write changed no answer: the test proves nothing")
	}
	if g.ProductSeq != st.ProductSeq(shopUUID) {
		t.Errorf("served at %d, store at %d", g.ProductSeq, st.ProductSeq(shopUUID))
	}
	live.Close() // the saver's own save and hand-over
	if got := answer(t, current(t, eng), body); !bytes.Equal(got, want2) {
		t.Errorf("after the save, the index answers\n%s\nwhere it answered\n%s", got, want2)
	}
}

// TestLiveWritesInTheBackground: a product write makes its new index on
// a background thread, its batch merged and compared on background
// threads too (package background), so the searches beside it keep the
// cores; the saver saves on one.
func TestLiveWritesInTheBackground(t *testing.T) {
	_, eng, live, _ := liveShop(t)
	live.patchesPerWorker = 1
	live.save.mu.Lock()
	live.save.running = true // no saver thread yet: only the writes' are counted
	live.save.mu.Unlock()
	before := background.Started()
	if _, _, err := live.DeleteProducts(shopUUID, []string{"A100"}); err != nil {
		t.Fatal(err)
	}
	if n := background.Started() - before; n != 1 {
		t.Errorf("a delete started %d background threads, want 1 (the new index)", n)
	}
	for _, c := range []struct {
		name  string
		write func() error
	}{
		{"a partial update of 2 products", func() error { // the merge's threads and the new index's
			patches := [][]byte{[]byte(`{"productNumber":"B100","price":7}`), []byte(`{"productNumber":"C100","price":8}`)}
			_, _, err := live.PatchProducts(shopUUID, patches, func(i int) string { return fmt.Sprint(i) }, false)
			return err
		}},
		{"an upsert of 2 products", func() error { // the column comparison's threads and the new index's
			b := store.Batch{}
			b.PutProduct(&catalog.Product{ProductNumber: "N1", Title: "New thing"})
			b.PutProduct(&catalog.Product{ProductNumber: "N2", Title: "Other thing"})
			_, err := live.Apply(shopUUID, &b)
			return err
		}},
	} {
		before := background.Started()
		if err := c.write(); err != nil {
			t.Fatal(err)
		}
		want := uint64(min(background.Cores(), 2) + 1)
		if n := background.Started() - before; n != want {
			t.Errorf("%s started %d background threads, want %d", c.name, n, want)
		}
	}
	live.save.mu.Lock()
	live.save.running = false
	live.save.mu.Unlock()
	before = background.Started()
	live.saveLater(current(t, eng))
	if n := background.Started() - before; n != 1 {
		t.Errorf("a queued save started %d background threads, want 1 (the saver)", n)
	}
}
