package store

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/catalog"
)

// TestApplyCounts: Apply says how many products an entry added, updated
// and deleted, by product number: a number put twice counts once, a
// delete of an absent product counts nothing, and a product put and
// deleted by one entry counts as deleted only if it was there before.
func TestApplyCounts(t *testing.T) {
	st := openTemp(t)
	b := Batch{Website: testSite}
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
		// The caller's word is taken: Q is not stored, and is not read.
		{"products vouched stored", func() { put("B", "Q"); b.ProductsStored() }, 0, 2, 0},
		{"vouched, one put and deleted, one deleted alone", func() {
			put("D")
			b.ProductsStored()
			b.DeleteProduct("D")
			b.DeleteProduct("Z")
		}, 0, 0, 1},
		{"a reset batch vouches nothing", func() { put("R") }, 1, 0, 0},
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
	if n, _ := st.Count(testSite); n != 3 { // B, Q and R
		t.Errorf("%d products stored, want 3", n)
	}
}

// TestPutProductJSON: a product put as JSON is stored and logged as
// given, and counted as PutProduct's are; Product reads it back.
func TestPutProductJSON(t *testing.T) {
	st := openTemp(t)
	b := Batch{Website: testSite}
	data := []byte(`{"productNumber":"A","title":"merged"}`)
	b.PutProductJSON("A", data)
	a, err := st.Apply(&b, true)
	if err != nil || a.Added != 1 {
		t.Fatalf("%+v %v", a, err)
	}
	if got, err := st.Product(testSite, "A"); err != nil || string(got) != string(data) {
		t.Errorf("Product(A) = %s, %v", got, err)
	}
	if got, err := st.Product(testSite, "a"); err != nil || string(got) != string(data) {
		t.Errorf("Product(a) = %s, %v: numbers compare by ProductID", got, err)
	}
	var logged string
	st.Entries(0, func(e *Entry) error { logged = string(e.Products[0]); return nil })
	if logged != string(data) {
		t.Errorf("logged %s", logged)
	}
}

// TestApplyContent: content items are counted as products are, deletes
// of them are applied and logged.
func TestApplyContent(t *testing.T) {
	st := openTemp(t)
	b := Batch{Website: testSite}
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
	st.Content(testSite, func(c *catalog.Content) error { ids = append(ids, string(c.Kind)+"/"+c.ID); return nil })
	if strings.Join(ids, " ") != "brands/b1" {
		t.Errorf("content stored: %v", ids)
	}
	var logged []string
	st.Entries(a.Seq-1, func(e *Entry) error { logged = e.ContentDeletes; return nil })
	if strings.Join(logged, " ") != "brands/b2 brands/b3 categories/b1" {
		t.Errorf("the log's content deletes: %v", logged)
	}
}

// TestWebsitesAreApart: two websites may hold the same product number and
// content id; each reads, counts and deletes only its own.
func TestWebsitesAreApart(t *testing.T) {
	st := openTemp(t)
	const other = "00000000-0000-4000-8000-000000000002"
	for _, site := range []string{testSite, other} {
		b := Batch{Website: site}
		b.PutProduct(&catalog.Product{ProductNumber: "P1", Title: "from " + site})
		b.PutContent(&catalog.Content{Kind: catalog.KindBrand, ID: "b1", Title: "B"})
		if a, err := st.Apply(&b, true); err != nil || a.Added != 1 || a.ContentAdded != 1 {
			t.Fatalf("%s: %+v, %v; want one product and one item added", site, a, err)
		}
	}
	del := Batch{Website: testSite}
	del.DeleteProduct("P1")
	del.DeleteContent(catalog.KindBrand, "b1")
	if a, err := st.Apply(&del, true); err != nil || a.Deleted != 1 || a.ContentDeleted != 1 {
		t.Fatalf("delete: %+v, %v", a, err)
	}
	var titles []string
	for _, site := range []string{testSite, other} {
		st.Products(site, func(p *catalog.Product) error { titles = append(titles, p.Title); return nil })
	}
	has, _ := st.HasContent(other, catalog.KindBrand, "b1")
	gone, _ := st.HasContent(testSite, catalog.KindBrand, "b1")
	if len(titles) != 1 || titles[0] != "from "+other || !has || gone {
		t.Errorf("after deleting %s's: products %q, other's brand %v, deleted brand %v", testSite, titles, has, gone)
	}
	if got := st.ProductWebsites(); fmt.Sprint(got) != fmt.Sprint([]string{testSite, other}) {
		t.Errorf("ProductWebsites %q", got)
	}
	var sites []string
	st.Entries(0, func(e *Entry) error { sites = append(sites, e.Website); return nil })
	if fmt.Sprint(sites) != fmt.Sprint([]string{testSite, other, testSite}) {
		t.Errorf("entries name websites %q", sites)
	}
}

// TestExistingSweeps: the sweep finds each stored key, whatever order
// the keys come in, and no other.
func TestExistingSweeps(t *testing.T) {
	st := openTemp(t)
	b := Batch{Website: testSite}
	for _, pn := range []string{"B", "A", "C"} {
		b.PutProduct(&catalog.Product{ProductNumber: pn, Title: "t " + pn})
	}
	if _, err := st.Apply(&b, true); err != nil {
		t.Fatal(err)
	}
	numbers := []string{"C", "Z", "A", "a", "B", "D"}
	keys := make([][]byte, len(numbers))
	for i, pn := range numbers {
		keys[i] = appendProductKey(nil, testSite, pn)
	}
	got, err := st.existing(keys)
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, false, true, true, true, false}; !slices.Equal(got, want) {
		t.Errorf("%q: %v, want %v", numbers, got, want)
	}
}

// TestProductIdentity: numbers that fold alike (case, accents) name one
// product in the state: an upsert under another spelling replaces it
// (counted as an update) and the product takes the spelling last put;
// one entry putting both spellings adds one product; a delete under
// either spelling removes it.
func TestProductIdentity(t *testing.T) {
	st := openTemp(t)
	apply := func(b *Batch) Applied {
		t.Helper()
		b.Website = testSite
		a, err := st.Apply(b, true)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	var b Batch
	b.PutProduct(&catalog.Product{ProductNumber: "SEC-Ä", Title: "first"})
	if a := apply(&b); a.Added != 1 {
		t.Errorf("SEC-Ä: %+v, want added 1", a)
	}
	b = Batch{}
	b.PutProduct(&catalog.Product{ProductNumber: "sec-a", Title: "second"})
	if a := apply(&b); a.Added != 0 || a.Updated != 1 {
		t.Errorf("sec-a over SEC-Ä: %+v, want updated 1", a)
	}
	var numbers []string
	st.Products(testSite, func(p *catalog.Product) error { numbers = append(numbers, p.ProductNumber+" "+p.Title); return nil })
	if fmt.Sprint(numbers) != "[sec-a second]" {
		t.Errorf("stored %q, want sec-a alone", numbers)
	}
	b = Batch{}
	b.PutProduct(&catalog.Product{ProductNumber: "X-Ø", Title: "x1"})
	b.PutProduct(&catalog.Product{ProductNumber: "x-o", Title: "x2"})
	if a := apply(&b); a.Added != 1 || a.Updated != 0 {
		t.Errorf("X-Ø and x-o in one entry: %+v, want added 1", a)
	}
	if got, _ := st.Product(testSite, "X-O"); !strings.Contains(string(got), `"x2"`) {
		t.Errorf("X-O reads %s, want the last put", got)
	}
	b = Batch{}
	b.DeleteProduct("SEC-Ä")
	if a := apply(&b); a.Deleted != 1 {
		t.Errorf("delete SEC-Ä: %+v, want deleted 1", a)
	}
	if n, _ := st.Count(testSite); n != 1 {
		t.Errorf("%d products left, want x-o alone", n)
	}
}

// TestEntriesUpTo: the entries after one position up to another, in
// order, the bounds apart; up to the highest position, all after it.
func TestEntriesUpTo(t *testing.T) {
	st := openTemp(t)
	for i := range 5 {
		b := Batch{Website: testSite}
		if err := b.PutProduct(&catalog.Product{ProductNumber: fmt.Sprint("P", i), Title: "t"}); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Apply(&b, false); err != nil {
			t.Fatal(err)
		}
	}
	last := st.Seq()
	for _, tc := range []struct{ after, upto, first, n uint64 }{
		{last - 4, last - 1, last - 3, 3},
		{last - 2, last - 2, 0, 0},
		{last - 2, math.MaxUint64, last - 1, 2},
	} {
		var seqs []uint64
		if err := st.EntriesUpTo(tc.after, tc.upto, func(e *Entry) error { seqs = append(seqs, e.Seq); return nil }); err != nil {
			t.Fatal(err)
		}
		if uint64(len(seqs)) != tc.n || tc.n > 0 && (seqs[0] != tc.first || seqs[len(seqs)-1] != tc.first+tc.n-1) {
			t.Errorf("after %d up to %d: %v, want %d from %d", tc.after, tc.upto, seqs, tc.n, tc.first)
		}
	}
}
