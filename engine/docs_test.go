package engine

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/internal/expect"
	"github.com/aisle-search/aisle/internal/golden"
)

// dumpDoc writes what productDoc or contentDoc extracted, one value a
// line, in the order the index receives them.
func dumpDoc(d *index.Doc) string {
	var b strings.Builder
	fmt.Fprintf(&b, "key %q alt %q keepStored %v\n", d.Key, d.AltKeys, d.KeepStored)
	for f := range index.NumTextFields {
		for _, v := range d.Text[f] {
			fmt.Fprintf(&b, "text %s: %q\n", f, v)
		}
	}
	for _, k := range d.Keywords {
		fmt.Fprintf(&b, "keyword %s = %q\n", k.Field, k.Value)
	}
	for _, n := range d.Numbers {
		fmt.Fprintf(&b, "number %s = %s\n", n.Field, strconv.FormatFloat(n.Value, 'f', -1, 64))
	}
	for _, s := range d.Sort {
		fmt.Fprintf(&b, "sort %s = %q\n", s.Field, s.Value)
	}
	return b.String()
}

// TestProductDocExtraction pins which product members become which text
// fields, keyword values (hierarchy paths as every prefix "a$", "a$b$",
// docs/architecture.md), numbers and dates (unix seconds), sort values
// and alternative keys (variant numbers, which "also find the product
// exactly", docs/configuration.md), for every product of the shop
// fixture under its indexed fields, with one Doc reused as the pipeline
// reuses it.
func TestProductDocExtraction(t *testing.T) {
	w := shopWebsite()
	products := shopProducts()
	var reused index.Doc
	var out strings.Builder
	for i := range expect.Some(t, "products", products) {
		p := &products[i]
		if err := ProductDoc(p, w.IndexedFields, nil, &reused); err != nil {
			t.Fatal(err)
		}
		var fresh index.Doc
		if err := ProductDoc(p, w.IndexedFields, nil, &fresh); err != nil {
			t.Fatal(err)
		}
		if a, b := dumpDoc(&reused), dumpDoc(&fresh); a != b {
			t.Errorf("%s: a reused Doc keeps values of the last product:\n%s\nfresh:\n%s", p.ProductNumber, a, b)
		}
		want, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fresh.Stored, want) {
			t.Errorf("%s: stored %s, want the product's JSON %s", p.ProductNumber, fresh.Stored, want)
		}
		fmt.Fprintf(&out, "== %s\n%s", p.ProductNumber, dumpDoc(&reused))
	}
	golden.Check(t, "docs.txt", []byte(out.String()))
}

// TestProductDocKeepsGivenJSON: "stored is p's JSON when the caller has
// it already (it is encoded otherwise)" (engine/docs.go): the given bytes
// are the stored document, and the builder must copy them.
func TestProductDocKeepsGivenJSON(t *testing.T) {
	p := shopProducts()[6]
	raw := []byte(`{"productNumber":"C300","title":"Oak Table","price":350}`)
	var d index.Doc
	if err := ProductDoc(&p, nil, raw, &d); err != nil {
		t.Fatal(err)
	}
	if &d.Stored[0] != &raw[0] || len(d.Stored) != len(raw) || d.KeepStored {
		t.Fatalf("stored %s keep %v, want the given bytes, not kept", d.Stored, d.KeepStored)
	}
}

// TestProductFieldValues covers the indexed-field rules one at a time:
// extraData booleans read true/yes/1 and false/no/0 in any case and
// nothing else; previousPrice only when set; hierarchy values only from
// "hierarchies" and dates only from "created"; a text field gives a sort
// value only when sortable and not empty.
func TestProductFieldValues(t *testing.T) {
	p := &catalog.Product{ProductNumber: "X1", Title: "Thing", Price: 0, GroupingKey: "", URL: "https://u",
		Currency: "SEK", Hierarchies: [][]string{{"A", "B"}},
		ExtraData:     map[string]string{"a": "TRUE", "b": "Yes", "c": "1", "d": "false", "e": "NO", "f": "0", "g": "maybe", "h": "", "s": ""},
		ExtraDataList: map[string][]string{"l": {"x", "y"}}, ExtraDataNumber: map[string]float64{"zero": 0}}
	fields := []config.IndexedField{
		{Name: "extraData.a", Type: config.TypeBoolean}, {Name: "extraData.b", Type: config.TypeBoolean},
		{Name: "extraData.c", Type: config.TypeBoolean}, {Name: "extraData.d", Type: config.TypeBoolean},
		{Name: "extraData.e", Type: config.TypeBoolean}, {Name: "extraData.f", Type: config.TypeBoolean},
		{Name: "extraData.g", Type: config.TypeBoolean}, {Name: "extraData.h", Type: config.TypeBoolean},
		{Name: "extraData.missing", Type: config.TypeBoolean}, {Name: "groupingKey", Type: config.TypeBoolean},
		{Name: "price", Type: config.TypeNumber}, {Name: "previousPrice", Type: config.TypeNumber},
		{Name: "extraDataNumber.zero", Type: config.TypeNumber}, {Name: "extraDataNumber.missing", Type: config.TypeNumber},
		{Name: "title", Type: config.TypeNumber},
		{Name: "extraDataList.l", Type: config.TypeHierarchy}, {Name: "hierarchies", Type: config.TypeHierarchy},
		{Name: "extraDataNumber.zero", Type: config.TypeDate}, {Name: "created", Type: config.TypeDate},
		{Name: "title", Type: config.TypeText}, {Name: "title", Type: config.TypeText, Sortable: true},
		{Name: "extraData.s", Type: config.TypeText, Sortable: true}, {Name: "extraData.none", Type: config.TypeText, Sortable: true},
		{Name: "title", Type: config.TypeKeyword}, {Name: "currency", Type: config.TypeKeyword}, {Name: "url", Type: config.TypeKeyword},
		{Name: "groupingKey", Type: config.TypeKeyword}, {Name: "extraDataList.l", Type: config.TypeKeyword},
		{Name: "extraData.h", Type: config.TypeKeyword}, {Name: "description", Type: config.TypeKeyword},
	}
	var d index.Doc
	if err := ProductDoc(p, fields, nil, &d); err != nil {
		t.Fatal(err)
	}
	got := dumpDoc(&d)
	want := `key "X1" alt [] keepStored true
text title: "Thing"
text hierarchies: "A"
text hierarchies: "B"
text productNumber: "X1"
text extraData: "TRUE"
text extraData: "Yes"
text extraData: "1"
text extraData: "false"
text extraData: "NO"
text extraData: "0"
text extraData: "maybe"
text extraData: ""
text extraData: ""
text extraData: "x"
text extraData: "y"
keyword extraData.a = "true"
keyword extraData.b = "true"
keyword extraData.c = "true"
keyword extraData.d = "false"
keyword extraData.e = "false"
keyword extraData.f = "false"
keyword hierarchies = "A$"
keyword hierarchies = "A$B$"
keyword title = "Thing"
keyword currency = "SEK"
keyword url = "https://u"
keyword extraDataList.l = "x"
keyword extraDataList.l = "y"
number price = 0
number extraDataNumber.zero = 0
sort title = "Thing"
`
	if got != want {
		t.Errorf("extracted:\n%s\nwant:\n%s", got, want)
	}
}

// TestSortedKeys: extraData values enter the text field in key order, so
// a product indexes the same whatever its map's order.
func TestSortedKeys(t *testing.T) {
	m := map[string]int{}
	var want []string
	for i := range 40 {
		k := fmt.Sprintf("k%02d", (i*17)%40)
		m[k] = i
		want = append(want, k)
	}
	slices.Sort(want)
	for range 5 {
		if got := sortedKeys(m); !slices.Equal(got, want) {
			t.Fatalf("sortedKeys = %v, want %v", got, want)
		}
	}
	if got := sortedKeys(map[string]int{}); got != nil {
		t.Fatalf("sortedKeys of an empty map = %v", got)
	}
}

// TestContentDocExtraction: content items are searched by title,
// hierarchy, keywords and description, filterable as "hierarchy" by every
// prefix, and stored as results show them ("title, description, url,
// keywords, hierarchy, imgUrl, extraData", docs/decisions.md "Content
// results").
func TestContentDocExtraction(t *testing.T) {
	var out strings.Builder
	var d index.Doc
	content := shopContent()
	for i := range expect.Some(t, "content", content) {
		c := &content[i]
		if err := ContentDoc(c, &d); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "== %s %s\nstored %s\n%s", c.Kind, c.ID, d.Stored, dumpDoc(&d))
	}
	golden.Check(t, "content-docs.txt", []byte(out.String()))
}
