package live

import (
	"errors"
	"slices"
	"testing"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/store"
)

// TestLiveNumbersFoldAlike: a product number and a content id are
// compared folded on the write side as search compares them: an upsert
// under another spelling replaces the product (whichever write path:
// one put, a put and a column change, two spellings in one batch) and
// the index serves the one product, under the number last written; a
// content id likewise.
func TestLiveNumbersFoldAlike(t *testing.T) {
	st, eng, live, _ := liveShop(t)
	search := func(q string) []string {
		t.Helper()
		res := shopSearch(t, current(t, eng), `{"query":"`+q+`","key":"shop","products":{"count":20,"fields":["productNumber","price"]}}`)
		return productNumbers(t, res["products"].(map[string]any)["results"])
	}
	put := func(ps ...catalog.Product) store.Applied {
		t.Helper()
		b := store.Batch{}
		for i := range ps {
			b.PutProduct(&ps[i])
		}
		a, err := live.Apply(shopUUID, &b)
		if err != nil {
			t.Fatalf("put %v: %v", ps, err)
		}
		return a
	}
	if a := put(catalog.Product{ProductNumber: "SEC-Ä", Title: "Security Lamp", Price: 5}); a.Added != 1 {
		t.Errorf("SEC-Ä: %+v", a)
	}
	if a := put(catalog.Product{ProductNumber: "sec-a", Title: "Security Lamp", Price: 5}); a.Updated != 1 || a.Added != 0 {
		t.Errorf("sec-a over SEC-Ä: %+v, want updated 1", a)
	}
	if got := search("security"); !slices.Equal(got, []string{"sec-a"}) {
		t.Errorf("security finds %v, want sec-a alone", got)
	}
	// Only the price differs, under a third spelling: not a column
	// change, since the number the product is shown under changes.
	if a := put(catalog.Product{ProductNumber: "SEC-A", Title: "Security Lamp", Price: 6}); a.Updated != 1 {
		t.Errorf("SEC-A: %+v", a)
	}
	if got := search("security"); !slices.Equal(got, []string{"SEC-A"}) {
		t.Errorf("security finds %v, want SEC-A alone", got)
	}
	if a := put(catalog.Product{ProductNumber: "X-Ø", Title: "Xylophone"}, catalog.Product{ProductNumber: "x-o", Title: "Xylophone"}); a.Added != 1 {
		t.Errorf("X-Ø and x-o in one batch: %+v, want added 1", a)
	}
	if got := search("xylophone"); !slices.Equal(got, []string{"x-o"}) {
		t.Errorf("xylophone finds %v, want x-o alone", got)
	}
	if n, _ := st.Count(shopUUID); n != current(t, eng).Products.Len() {
		t.Errorf("the store holds %d products, the index %d", n, current(t, eng).Products.Len())
	}

	b := store.Batch{}
	b.PutContent(&catalog.Content{Kind: catalog.KindBrand, ID: "Acme", Title: "Acme"})
	if _, err := live.Apply(shopUUID, &b); err != nil {
		t.Fatal(err)
	}
	b = store.Batch{}
	b.PutContent(&catalog.Content{Kind: catalog.KindBrand, ID: "acme", Title: "Acme Tools"})
	if a, err := live.Apply(shopUUID, &b); err != nil || a.ContentUpdated != 1 {
		t.Fatalf("acme over Acme: %+v %v, want updated 1", a, err)
	}
	res := shopSearch(t, current(t, eng), `{"query":"acme","key":"shop","brands":{"count":5}}`)
	if n := res["brands"].(map[string]any)["totalCount"]; n != float64(1) {
		t.Errorf("brands found for acme: %v, want 1", n)
	}
	if a, err := live.DeleteContent(shopUUID, catalog.KindBrand, "ACME"); err != nil || a.ContentDeleted != 1 {
		t.Errorf("delete ACME: %+v %v", a, err)
	}
}

// TestLiveRefusesBeforeLogging: a batch the index could not serve (a
// product or content item that does not decode, an item of no kind) is
// refused as invalid before it is logged: the log and the served
// generation stay as they were.
func TestLiveRefusesBeforeLogging(t *testing.T) {
	st, eng, live, _ := liveShop(t)
	for name, fill := range map[string]func(*store.Batch){
		"a product that does not decode": func(b *store.Batch) {
			b.PutProductJSON("P-1", []byte(`{"productNumber":"P-1","title":"t","price":"ten"}`))
		},
		"a product beside one that does not decode": func(b *store.Batch) {
			b.PutProductJSON("P-2", []byte(`{"productNumber":"P-2","title":"t"}`))
			b.DeleteProduct("A100")
			b.PutProductJSON("P-1", []byte(`{"productNumber":"P-1","title":["t"]}`))
		},
		"a content item of no kind": func(b *store.Batch) {
			b.PutContent(&catalog.Content{Kind: "gadgets", ID: "g1", Title: "t"})
		},
	} {
		seq, before := st.Seq(), current(t, eng)
		var b store.Batch
		fill(&b)
		_, err := live.Apply(shopUUID, &b)
		var e *engine.Error
		if !errors.As(err, &e) || e.Kind != engine.KindInvalid || st.Seq() != seq || current(t, eng).Seq != before.Seq {
			t.Errorf("%s: %v, seq %d → %d; want invalid and nothing logged", name, err, seq, st.Seq())
		}
	}
}
