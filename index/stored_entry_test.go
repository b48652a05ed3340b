package index

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/internal/jsonscan"
)

// wantTitleHashes is the oracle for TitleHashes: the title's tokens
// analysed one by one, each term hashed, and each folded word's form.
func wantTitleHashes(an *analysis.Analyzer, d *Doc) (terms, forms []byte) {
	for _, title := range d.Text[FieldTitle] {
		for _, tk := range an.Analyze(nil, title) {
			terms = appendTitleHash(terms, TitleHash(tk.Term))
			forms = appendTitleHash(forms, TitleHash(an.Form(tk.Folded)))
		}
	}
	return terms, forms
}

// TestTitleHashesFollowTheDocs: every doc's title hashes are those of
// its title, and its member offsets those of its JSON, after a shuffled build (docs renumbered by key), a save and
// a load, a WithDocs that removes, replaces and adds docs, a column
// change (which keeps the title), and a compaction.
func TestTitleHashesFollowTheDocs(t *testing.T) {
	an := analysis.New(analysis.English)
	r := rand.New(rand.NewPCG(5, 9))
	words := strings.Fields("Cordless Drills drill 18V 2x4 Lamps lamp shades Garden hose hoses Müller 1/2 in. steel")
	title := func() string {
		var b []string
		for range r.IntN(9) {
			b = append(b, words[r.IntN(len(words))])
		}
		return strings.Join(b, " ")
	}
	doc := func(key string) Doc {
		stored := fmt.Appendf(nil, `{"productNumber":%q, "n":[%d,{"a":"}"}]}`, key, r.IntN(100))
		if r.IntN(3) == 0 { // a name written with an escape, and one only some docs have
			stored = fmt.Appendf(nil, `{"productNumber":%q,"\u0062rand":"B","n":[%d]}`, key, r.IntN(100))
		}
		return Doc{Key: key, Stored: stored,
			Text: [NumTextFields][]string{FieldTitle: {title()}, FieldDescription: {title()}}}
	}
	var docs []Doc
	for _, i := range r.Perm(400) {
		docs = append(docs, doc(fmt.Sprintf("P%04d", i)))
	}
	byKey := map[string]*Doc{}
	check := func(name string, s *Segment) {
		t.Helper()
		words := 0
		names := map[string]int{} // the live docs' top-level names, counted
		for d := range uint32(s.Slots()) {
			if !s.All().Contains(d) {
				continue
			}
			var top map[string]json.RawMessage
			if err := json.Unmarshal(byKey[s.Key(d)].Stored, &top); err != nil {
				t.Fatal(err)
			}
			for k := range top {
				names[k]++
			}
			want, wantForms := wantTitleHashes(an, byKey[s.Key(d)])
			if got, forms := s.TitleHashes(d); !bytes.Equal(got, want) || !bytes.Equal(forms, wantForms) {
				t.Fatalf("%s: doc %d (%s): title hashes %x and forms %x, want %x and %x", name, d, s.Key(d), got, forms, want, wantForms)
			}
			words += len(want) / 2
			if got, want := s.Stored(d), byKey[s.Key(d)].Stored; !bytes.Equal(got, want) {
				t.Fatalf("%s: doc %d: stored %s, want %s", name, d, got, want)
			}
			// The member offsets, and the JSON decoded a piece at a time.
			var rd StoredReader
			s.ReadStored(&rd, d)
			wantStarts, _ := jsonscan.MemberStarts(nil, byKey[s.Key(d)].Stored)
			if !slices.Equal(rd.Starts, wantStarts) || len(wantStarts) < 2 {
				t.Fatalf("%s: doc %d: member offsets %v, want %v", name, d, rd.Starts, wantStarts)
			}
			checkReader(t, &rd, byKey[s.Key(d)].Stored, r)
		}
		if words < s.Len() {
			t.Fatalf("%s: %d title words in %d docs: too few to test", name, words, s.Len())
		}
		if got := s.MemberNames().Counts(); !maps.Equal(got, names) {
			t.Fatalf("%s: member names %v, want %v", name, got, names)
		}
		for k := range names {
			if !s.MemberNames().Has(k) {
				t.Fatalf("%s: no member name %q", name, k)
			}
		}
		if s.MemberNames().Has("missing") {
			t.Fatalf("%s: a member name no doc has", name)
		}
	}
	for i := range docs {
		byKey[docs[i].Key] = &docs[i]
	}
	seg := buildTest(t, docs)
	if seg.stored.dict == nil {
		t.Fatal("the docs are not compressed: the readers' decoding goes untested")
	}
	check("built", seg)
	loaded := saveAndLoad(t, seg)
	check("loaded", loaded)
	// Remove 20 docs, replace 20 (new titles), add 20.
	var removed []uint32
	var added []Doc
	for d := uint32(0); d < 40; d++ {
		removed = append(removed, d*7)
		if d%2 == 0 {
			added = append(added, doc(loaded.Key(d*7)))
		}
	}
	for i := range 20 {
		added = append(added, doc(fmt.Sprintf("N%03d", i)))
	}
	src := sourceOf(loaded, docs)
	written, err := loaded.WithDocs(an, removed, added, src)
	if err != nil {
		t.Fatal(err)
	}
	for i := range added {
		byKey[added[i].Key] = &added[i]
	}
	check("after WithDocs", written)
	// A column change: new stored JSON, the same title.
	d := uint32(3)
	k := written.Key(d)
	changed := *byKey[k]
	changed.Stored = fmt.Appendf(nil, `{"productNumber":%q,"price":9,"inStock":true}`, k)
	cols, err := written.WithColumns([]ColumnChange{{Doc: d, Stored: changed.Stored}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	byKey[k] = &changed
	check("after a column change", cols)
	check("compacted", cols.Compact())
}

// TestSameText: a column change keeps a segment's text, shared; a doc
// write, a compaction and another build do not.
func TestSameText(t *testing.T) {
	docs := make([]Doc, 50)
	for i := range docs {
		docs[i] = Doc{Key: fmt.Sprintf("P%02d", i*2), Stored: []byte(`{"a":1}`), Text: [NumTextFields][]string{FieldTitle: {"red lamp"}}}
	}
	seg := buildTest(t, docs)
	cols, err := seg.WithColumns([]ColumnChange{{Doc: 3, Stored: []byte(`{"a":2}`)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	written, err := seg.WithDocs(analysis.New(analysis.English), []uint32{4}, nil, sourceOf(seg, docs))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		o    *Segment
		want bool
	}{
		{"itself", seg, true},
		{"a column change", cols, true},
		{"a doc removed", written, false},
		{"compacted", written.Compact(), false},
		{"built again", buildTest(t, docs), false},
	} {
		if got := seg.SameText(tc.o); got != tc.want {
			t.Errorf("%s: SameText %v, want %v", tc.name, got, tc.want)
		}
	}
}
