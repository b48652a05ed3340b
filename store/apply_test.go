package store

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/catalog"
)

// TestApplyCounts: Apply says how many products an entry added, updated
// and deleted, by product number: a number put twice counts once, a
// delete of an absent product counts nothing, and a product put and
// deleted by one entry counts as deleted only if it was there before.
func TestApplyCounts(t *testing.T) {
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var b Batch
	put := func(pns ...string) {
		for _, pn := range pns {
			if err := b.PutProduct(&catalog.Product{ProductNumber: pn, Title: pn}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name                    string
		fill                    func()
		added, updated, deleted int
	}{
		{"new products", func() { put("A", "B", "C") }, 3, 0, 0},
		{"one new, one again, one twice", func() { put("D", "A", "B", "B") }, 1, 2, 0},
		{"deletes, one absent, one twice", func() { b.DeleteProduct("C"); b.DeleteProduct("Z"); b.DeleteProduct("C") }, 0, 0, 1},
		{"put and deleted in one entry", func() { put("E", "A"); b.DeleteProduct("E"); b.DeleteProduct("A") }, 0, 0, 2},
		{"configuration and content only", func() {
			b.PutContent(&catalog.Content{Kind: catalog.KindBrand, ID: "b", Title: "B"})
		}, 0, 0, 0},
	} {
		b.Reset()
		tc.fill()
		a, err := st.Apply(&b, true)
		if err != nil {
			t.Fatal(err)
		}
		if a.Seq != st.Seq() || a.Added != tc.added || a.Updated != tc.updated || a.Deleted != tc.deleted {
			t.Errorf("%s: %+v, want added %d, updated %d, deleted %d at %d", tc.name, a, tc.added, tc.updated, tc.deleted, st.Seq())
		}
	}
	if n, _ := st.Count(); n != 2 { // B and D
		t.Errorf("%d products stored, want 2", n)
	}
}

// TestApplyMerges: a partial upsert sees the product as stored, or as put
// earlier in the entry, and what it returns is stored and logged; an
// error from any merge leaves the store and the batch as they were.
func TestApplyMerges(t *testing.T) {
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var b Batch
	b.PutProduct(&catalog.Product{ProductNumber: "A", Title: "old"})
	if _, err := st.Apply(&b, true); err != nil {
		t.Fatal(err)
	}
	var seen []string
	rename := func(to string) func([]byte) ([]byte, error) {
		return func(stored []byte) ([]byte, error) {
			seen = append(seen, string(stored))
			if stored == nil {
				return []byte(`{"productNumber":"` + to + `","title":"` + to + `"}`), nil
			}
			return bytes.Replace(stored, []byte(`"title":"`), []byte(`"title":"`+to+`-`), 1), nil
		}
	}
	b.Reset()
	b.MergeProduct("A", rename("x"))
	b.PutProduct(&catalog.Product{ProductNumber: "B", Title: "b"})
	b.MergeProduct("B", rename("y"))
	b.MergeProduct("N", rename("N"))
	a, err := st.Apply(&b, true)
	if err != nil {
		t.Fatal(err)
	}
	if a.Added != 2 || a.Updated != 1 {
		t.Errorf("%+v, want 2 added (B, N) and 1 updated (A)", a)
	}
	if len(seen) != 3 || !strings.Contains(seen[0], `"title":"old"`) || !strings.Contains(seen[1], `"title":"b"`) || seen[2] != "" {
		t.Errorf("merges saw %q", seen)
	}
	titles := map[string]string{}
	st.Products(func(p *catalog.Product) error { titles[p.ProductNumber] = p.Title; return nil })
	if titles["A"] != "x-old" || titles["B"] != "y-b" || titles["N"] != "N" {
		t.Errorf("stored titles %v", titles)
	}
	var logged string
	st.Entries(a.Seq-1, func(e *Entry) error {
		for _, p := range e.Products {
			logged += string(p)
		}
		return nil
	})
	if !strings.Contains(logged, `"title":"x-old"`) || !strings.Contains(logged, `"title":"y-b"`) {
		t.Errorf("the log holds %s, want the merged products", logged)
	}

	// A failing merge: nothing is appended, and the batch can be retried.
	boom := errors.New("boom")
	b.Reset()
	b.PutProduct(&catalog.Product{ProductNumber: "C", Title: "c"})
	fail := true
	b.MergeProduct("A", func(stored []byte) ([]byte, error) {
		if fail {
			return nil, boom
		}
		return stored, nil
	})
	seq := st.Seq()
	if _, err := st.Apply(&b, true); !errors.Is(err, boom) || st.Seq() != seq {
		t.Fatalf("a failing merge: %v, seq %d → %d", err, seq, st.Seq())
	}
	if n, _ := st.Count(); n != 3 {
		t.Errorf("%d products after a failed entry, want 3", n)
	}
	fail = false
	if a, err := st.Apply(&b, true); err != nil || a.Added != 1 || a.Updated != 1 {
		t.Errorf("the same batch again: %+v %v", a, err)
	}
}

// TestApplyContent: content items are counted as products are, deletes
// of them are applied and logged.
func TestApplyContent(t *testing.T) {
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var b Batch
	brand := func(id string) *catalog.Content { return &catalog.Content{Kind: catalog.KindBrand, ID: id, Title: id} }
	b.PutContent(brand("b1"))
	b.PutContent(brand("b2"))
	if a, err := st.Apply(&b, true); err != nil || a.ContentAdded != 2 || a.Added != 0 {
		t.Fatalf("two brands: %+v %v", a, err)
	}
	b.Reset()
	b.PutContent(brand("b1"))
	b.DeleteContent(catalog.KindBrand, "b2")
	b.DeleteContent(catalog.KindBrand, "b3")
	b.DeleteContent(catalog.KindCategory, "b1")
	a, err := st.Apply(&b, true)
	if err != nil || a.ContentUpdated != 1 || a.ContentDeleted != 1 || a.ContentAdded != 0 {
		t.Fatalf("update b1, delete b2 (and two absent): %+v %v", a, err)
	}
	var ids []string
	st.Content(func(c *catalog.Content) error { ids = append(ids, string(c.Kind)+"/"+c.ID); return nil })
	if strings.Join(ids, " ") != "brands/b1" {
		t.Errorf("content stored: %v", ids)
	}
	var logged []string
	st.Entries(a.Seq-1, func(e *Entry) error { logged = e.ContentDeletes; return nil })
	if strings.Join(logged, " ") != "brands/b2 brands/b3 categories/b1" {
		t.Errorf("the log's content deletes: %v", logged)
	}
}
