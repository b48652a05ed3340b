package ranking

import (
	"fmt"
	"slices"
	"testing"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/index"
)

// fieldSegment holds docs whose words sit in different text fields: a
// word is found only through the fields a version searches.
func fieldSegment(t *testing.T) *index.Segment {
	t.Helper()
	b := index.NewBuilder(an)
	for i, d := range []struct{ title, brand, desc, extra string }{
		{"Exercise Mat", "Northbound", "", "grey"},                  // 0: grey only in extraData
		{"Grey Exercise Mat", "Northbound", "", ""},                 // 1: grey in the title
		{"Yoga Block", "", "a sturdy block in graphite", "granite"}, // 2: graphite in the description
		{"Table Lamp", "", "", "bedside"},                           // 3: bedside only in extraData
		{"Cordless Drill", "", "", "cushioned"},                     // 4
	} {
		doc := index.Doc{Key: fmt.Sprintf("SKU-%d", i), Stored: []byte("{}")}
		doc.Text[index.FieldTitle] = []string{d.title}
		doc.Text[index.FieldBrand] = []string{d.brand}
		doc.Text[index.FieldDescription] = []string{d.desc}
		doc.Text[index.FieldExtra] = []string{d.extra}
		if err := b.Add(&doc); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

// TestWordsMatchOnlyInSearchedFields: docs/configuration.md, `fields` are
// the "searchable text fields": a word matches a product only through a
// field the version lists, and a word found only in other fields is no
// route at all (exact, prefix, typo or synonym). Zero Options.Fields is
// every field.
func TestWordsMatchOnlyInSearchedFields(t *testing.T) {
	seg := fieldSegment(t)
	titleOnly := index.FieldTitle.Mask() | index.FieldBrand.Mask()
	withExtra := titleOnly | index.FieldExtra.Mask()
	syn, err := NewSynonyms(an, []config.Synonym{{From: "slate", Terms: []string{"graphite"}}, {From: "cushion", Terms: []string{"bedside lamp"}}})
	if err != nil {
		t.Fatal(err)
	}
	match := func(phrase string, fields index.FieldMask) []string {
		q := Parse(seg, an, phrase, Options{PrefixLast: true, Synonyms: syn, Fields: fields})
		all, _, _ := Match(seg, &q)
		var out []string
		for _, d := range all.ToArray() {
			out = append(out, seg.Key(d))
		}
		return out
	}
	for _, tc := range []struct {
		phrase string
		fields index.FieldMask
		want   []string
	}{
		{"grey", titleOnly, []string{"SKU-1"}},              // the extraData grey is not searched
		{"grey", withExtra, []string{"SKU-0", "SKU-1"}},     // listed: both
		{"grey", 0, []string{"SKU-0", "SKU-1"}},             // zero: every field
		{"grey mat", titleOnly, []string{"SKU-0", "SKU-1"}}, // relaxed: mat matches SKU-0 by title
		{"graphite", titleOnly, nil},                        // description not searched: no match
		{"graphite", titleOnly | index.FieldDescription.Mask(), []string{"SKU-2"}},
		{"graphit", titleOnly, nil},            // nor a prefix of it
		{"graphitr", titleOnly, nil},           // nor a typo of it
		{"gran", titleOnly, nil},               // granite only in extraData: no prefix
		{"gran", withExtra, []string{"SKU-2"}}, // listed: prefix
		{"slate", titleOnly, nil},              // nor a synonym target
		{"slate", titleOnly | index.FieldDescription.Mask(), []string{"SKU-2"}},
		{"cushion", titleOnly, nil},                        // a phrase target needs every term searched
		{"cushion", withExtra, []string{"SKU-3", "SKU-4"}}, // the phrase finds SKU-3, the stem of cushioned SKU-4
	} {
		if got := match(tc.phrase, tc.fields); !slices.Equal(got, tc.want) {
			t.Errorf("%q in fields %07b: matched %v, want %v", tc.phrase, tc.fields, got, tc.want)
		}
	}
}

// TestUnsearchedExactWordLeavesTypoRoutes: a word whose only exact term
// or prefix completion sits in an unsearched field has no exact or prefix
// match, so its typo routes to searched words are tried (docs/decisions.md: "Typo routes are tried only
// when a word has no exact or prefix match").
func TestUnsearchedExactWordLeavesTypoRoutes(t *testing.T) {
	b := index.NewBuilder(an)
	for i, d := range []struct{ title, extra string }{
		{"Walnut Bookcase", ""},
		{"Oak Shelf", "walnet"}, // the misspelling exists, but only in extraData
		{"Table Lamp", "lampzilla"},
	} {
		doc := index.Doc{Key: fmt.Sprintf("SKU-%d", i), Stored: []byte("{}")}
		doc.Text[index.FieldTitle] = []string{d.title}
		doc.Text[index.FieldExtra] = []string{d.extra}
		if err := b.Add(&doc); err != nil {
			t.Fatal(err)
		}
	}
	seg := b.Build()
	q := Parse(seg, an, "walnet ", Options{Fields: index.FieldTitle.Mask()})
	all, _, _ := Match(seg, &q)
	if got := all.ToArray(); !slices.Equal(got, []uint32{0}) {
		t.Fatalf("walnet over titles matched docs %v, want the walnut bookcase (doc 0) by typo", got)
	}
	q = Parse(seg, an, "walnet ", Options{})
	all, _, _ = Match(seg, &q)
	if got := all.ToArray(); !slices.Equal(got, []uint32{1}) {
		t.Fatalf("walnet over every field matched docs %v, want only the exact doc 1", got)
	}
	// Nor is a prefix completion found only in an unsearched field a
	// prefix match: lampz still gets its typo route to lamp.
	q = Parse(seg, an, "lampz", Options{PrefixLast: true, Fields: index.FieldTitle.Mask()})
	all, _, _ = Match(seg, &q)
	if got := all.ToArray(); !slices.Equal(got, []uint32{2}) {
		t.Fatalf("lampz over titles matched docs %v, want the table lamp (doc 2) by typo", got)
	}
}

// TestUnsearchedTermsTakeNoTypoSlot: the typo routes a word may take are
// capped (16), so terms of unsearched fields must not use them up; here
// sixteen extraData-only words sort before the one title word within an
// edit of the query.
func TestUnsearchedTermsTakeNoTypoSlot(t *testing.T) {
	b := index.NewBuilder(an)
	add := func(key, title, extra string) {
		doc := index.Doc{Key: key, Stored: []byte("{}")}
		doc.Text[index.FieldTitle] = []string{title}
		doc.Text[index.FieldExtra] = []string{extra}
		if err := b.Add(&doc); err != nil {
			t.Fatal(err)
		}
	}
	for c := 'a'; c < 'a'+maxTypoExp; c++ {
		add("X-"+string(c), "widget", "zzzz"+string(c))
	}
	add("T", "zzzzr", "")
	seg := b.Build()
	q := Parse(seg, an, "zzzzq ", Options{Fields: index.FieldTitle.Mask()})
	all, _, _ := Match(seg, &q)
	if got := all.ToArray(); len(got) != 1 || seg.Key(got[0]) != "T" {
		t.Fatalf("zzzzq over titles matched %v, want the one title within an edit", got)
	}
}
