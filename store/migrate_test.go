package store

import (
	"fmt"
	"testing"

	"github.com/cockroachdb/pebble"
	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
)

// TestMigrateProductIDs: a layout-2 store (products keyed by their exact
// number) opens as layout 3: every product keyed by its ProductID, and of
// two numbers that fold alike the one a log entry put last is kept (the
// store a case-colliding write left unservable serves again). A migration
// cut short (some products moved, layout still 2) finishes on the next
// Open.
func TestMigrateProductIDs(t *testing.T) {
	for _, partial := range []bool{false, true} {
		dir := t.TempDir()
		db, err := pebble.Open(dir, rawOptions())
		if err != nil {
			t.Fatal(err)
		}
		put := func(key, pn, title string) {
			v := fmt.Sprintf(`{"productNumber":%q,"title":%q}`, pn, title)
			db.Set([]byte("p/"+testSite+"/"+key), []byte(v), pebble.Sync)
		}
		entry := func(seq uint64, pns ...string) {
			e := fmt.Sprintf(`{"seq":%d,"website":%q,"products":[`, seq, testSite)
			for i, pn := range pns {
				if i > 0 {
					e += ","
				}
				e += fmt.Sprintf(`{"productNumber":%q}`, pn)
			}
			db.Set(appendLogKey(nil, seq), []byte(e+"]}"), pebble.Sync)
		}
		entry(1, "sec-a", "AI-1", "b-2")
		entry(2, "SEC-Ä")
		put("SEC-Ä", "SEC-Ä", "later")
		put("sec-a", "sec-a", "earlier")
		put("AI-1", "AI-1", "upper")
		put("b-2", "b-2", "lower")
		if partial {
			db.Delete([]byte("p/"+testSite+"/AI-1"), pebble.Sync)
			put("ai-1", "AI-1", "upper")
		}
		for _, id := range []string{"Acme", "acme", "ÉLAN", "Zeta"} {
			db.Set([]byte("c/"+testSite+"/brands/"+id), fmt.Appendf(nil, `{"kind":"brands","id":%q,"title":%q}`, id, id), pebble.Sync)
		}
		db.Set([]byte(keySeq), appendSeq(nil, 2), pebble.Sync)
		db.Set(productSeqKey(testSite), appendSeq(nil, 2), pebble.Sync)
		db.Set([]byte(keyLayout), appendSeq(nil, 2), pebble.Sync)
		db.Close()

		st, err := Open(dir)
		if err != nil {
			t.Fatalf("partial %v: open a layout-2 store: %v", partial, err)
		}
		var got []string
		err = st.scan(prefixProduct, func(k, v []byte) error {
			var p catalog.Product
			if err := json.Unmarshal(v, &p); err != nil {
				return err
			}
			got = append(got, string(k[len(prefixProduct)+len(testSite)+1:])+"="+p.ProductNumber+" "+p.Title)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		want := "[ai-1=AI-1 upper b-2=b-2 lower sec-a=SEC-Ä later]"
		if fmt.Sprint(got) != want {
			t.Errorf("partial %v: stored %q, want %s", partial, got, want)
		}
		var items []string
		st.Content(testSite, func(c *catalog.Content) error { items = append(items, c.ID); return nil })
		if want := "[acme ÉLAN Zeta]"; fmt.Sprint(items) != want {
			t.Errorf("partial %v: content %q, want %s (of Acme and acme the greatest id)", partial, items, want)
		}
		if ok, _ := st.HasContent(testSite, catalog.KindBrand, "ELAN"); !ok {
			t.Errorf("partial %v: brand ÉLAN not found as ELAN", partial)
		}
		st.Close()
		if layout, ok, err := readLayout(dir); err != nil || !ok || layout != Layout {
			t.Errorf("partial %v: layout %d %v %v after the migration, want %d", partial, layout, ok, err, Layout)
		}
	}
}

// readLayout reads the layout stamp of the closed store in dir.
func readLayout(dir string) (uint64, bool, error) {
	st, err := Open(dir)
	if err != nil {
		return 0, false, err
	}
	defer st.Close()
	return st.readSeq(keyLayout)
}
