package index

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/analysis"
)

// TestTermDocsInFields: a term's docs restricted to a set of text fields
// (a version's searchable fields), for frequent terms (kept bitmap) and
// rare ones (built from postings) alike.
func TestTermDocsInFields(t *testing.T) {
	b := NewBuilder(analysis.New(analysis.English))
	// "oak" is in the title of even docs and in extraData of docs divisible
	// by 3; 90 docs make it a frequent term with a kept bitmap. "teak" is
	// rare: title of doc 1, extraData of doc 2.
	for i := range 90 {
		d := Doc{Key: fmt.Sprintf("K-%03d", i), Stored: []byte("{}")}
		var title, extra []string
		if i%2 == 0 {
			title = append(title, "oak")
		}
		if i%3 == 0 {
			extra = append(extra, "oak")
		}
		switch i {
		case 1:
			title = append(title, "teak")
		case 2:
			extra = append(extra, "teak")
		}
		d.Text[FieldTitle] = []string{strings.Join(title, " ")}
		d.Text[FieldExtra] = []string{strings.Join(extra, " ")}
		if err := b.Add(&d); err != nil {
			t.Fatal(err)
		}
	}
	seg := b.Build()
	want := func(keep func(i int) bool) []uint32 {
		var out []uint32
		for i := range 90 {
			if keep(i) {
				out = append(out, uint32(i))
			}
		}
		return out
	}
	title, extra := FieldTitle.Mask(), FieldExtra.Mask()
	for _, tc := range []struct {
		term   string
		fields FieldMask
		want   []uint32
	}{
		{"oak", title, want(func(i int) bool { return i%2 == 0 })},
		{"oak", extra, want(func(i int) bool { return i%3 == 0 })},
		{"oak", title | extra, want(func(i int) bool { return i%2 == 0 || i%3 == 0 })},
		{"oak", AllFields, want(func(i int) bool { return i%2 == 0 || i%3 == 0 })},
		{"oak", FieldBrand.Mask(), nil},
		{"teak", title, []uint32{1}},
		{"teak", extra, []uint32{2}},
		{"teak", AllFields, []uint32{1, 2}},
		{"teak", FieldDescription.Mask(), nil},
	} {
		id, ok := seg.Term(tc.term)
		if !ok {
			t.Fatalf("no term %q", tc.term)
		}
		got := seg.TermDocsIn(id, tc.fields).ToArray()
		if !slices.Equal(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
			t.Errorf("TermDocsIn(%s, %07b) = %v, want %v", tc.term, tc.fields, got, tc.want)
		}
		if in := seg.TermIn(id, tc.fields); in != (len(tc.want) > 0) {
			t.Errorf("TermIn(%s, %07b) = %v", tc.term, tc.fields, in)
		}
	}
	// All its fields asked: the term's own bitmap, not a copy.
	id, _ := seg.Term("oak")
	if seg.TermDocsIn(id, AllFields) != seg.TermDocs(id) {
		t.Error("TermDocsIn over every field copied the kept bitmap")
	}
}
