package index

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/analysis"
)

// The steps of a doc write's terms (withdocs_terms.go), each on a few
// docs of one-word terms; TestWithDocsEqualsFreshBuild holds their sum
// to a fresh build.

// termDoc is a doc with title words and, when desc is not "",
// description words.
func termDoc(key, title, desc string) Doc {
	d := Doc{Key: key, Stored: []byte("{}")}
	d.Text[FieldTitle] = []string{title}
	if desc != "" {
		d.Text[FieldDescription] = []string{desc}
	}
	return d
}

// titleDocs is n docs "k00", "k01"... titled title.
func titleDocs(n int, title string) []Doc {
	docs := make([]Doc, n)
	for i := range docs {
		docs[i] = termDoc(fmt.Sprintf("k%02d", i), title, "")
	}
	return docs
}

// docWrites is docs built, then each write applied with WithDocs: the
// segment and its docs.
func docWrites(t *testing.T, docs []Doc, writes ...docWriteOf) (*Segment, []Doc) {
	t.Helper()
	s := buildInKeyOrder(t, docs)
	for _, wr := range writes {
		removed := make([]uint32, len(wr.removed))
		for i, k := range wr.removed {
			removed[i] = liveDoc(t, s, k)
		}
		var err error
		if s, err = s.WithDocs(analysis.New(analysis.English), removed, wr.added, sourceOf(s, docs)); err != nil {
			t.Fatal(err)
		}
		docs = applyDocWrites(docs, wr.removed, wr.added)
	}
	return s, docs
}

// docWriteOf is a write: the keys removed, the docs added.
type docWriteOf struct {
	removed []string
	added   []Doc
}

// liveDoc is the live doc of s whose key is key.
func liveDoc(t *testing.T, s *Segment, key string) uint32 {
	t.Helper()
	it := s.All().Iterator()
	for it.HasNext() {
		if d := it.Next(); s.Key(d) == key {
			return d
		}
	}
	t.Fatalf("no live doc %q", key)
	return 0
}

// startWrite is the docWrite of wr on s (of docs) and its outline, the
// terms not yet made.
func startWrite(t *testing.T, s *Segment, docs []Doc, wr docWriteOf) (*docWrite, *Segment) {
	t.Helper()
	removed := make([]uint32, len(wr.removed))
	for i, k := range wr.removed {
		removed[i] = liveDoc(t, s, k)
	}
	w, err := s.newDocWrite(analysis.New(analysis.English), removed, wr.added, sourceOf(s, docs))
	if err != nil {
		t.Fatal(err)
	}
	return w, w.outline(s)
}

// describeEdit is an edit as its term's old form, the removed docs'
// count and fields, and the added docs' count and postings.
func describeEdit(s *Segment, e *termEdit) string {
	old := "-"
	if e.old >= 0 {
		old = s.terms.at(int(e.old))
	}
	var fields []string
	for f := range NumTextFields {
		if e.remOf.Has(f) {
			fields = append(fields, f.String())
		}
	}
	out := fmt.Sprintf("old %s; removed %d %v; added %d", old, e.remDF, fields, e.addedDF)
	for _, fp := range e.added {
		out += fmt.Sprintf(" %s:%v tf%v", fp.Field, fp.Docs, fp.TFs)
	}
	return out
}

// docRanges is ascending docs as runs: "0-2,4".
func docRanges(docs []uint32) string {
	var parts []string
	for i := 0; i < len(docs); {
		j := i
		for j+1 < len(docs) && docs[j+1] == docs[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, fmt.Sprint(docs[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", docs[i], docs[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// describeTerm is term i of p: its spans (tail ones marked), each with
// its field, docs and frequencies when not all 1; its doc count; its
// bitmap's docs, "-" for none.
func describeTerm(p *postings, i int) string {
	var spans []string
	for _, sp := range p.spans[p.spanOff[i]:p.spanOff[i+1]] {
		docs, tfs := p.spanDocs(sp)
		s := fmt.Sprintf("%s:%s", sp.field, docRanges(docs))
		if sp.start&tailSpan != 0 {
			s = "tail " + s
		}
		if slices.ContainsFunc(tfs, func(tf uint8) bool { return tf != 1 }) {
			s += fmt.Sprint(" tf", tfs)
		}
		spans = append(spans, s)
	}
	bm := "-"
	if b := p.bitmaps[i]; b != nil {
		bm = docRanges(b.ToArray())
	}
	return fmt.Sprintf("%s; df %d; bitmap %s", strings.Join(spans, " "), p.df[i], bm)
}

// TestTermEdits: termEdits finds each term a removed or added doc holds,
// its id in s, the removed docs' count and fields, and the added docs'
// postings at their new ids; the terms s lacks, sorted; and refuses a
// removed doc holding a term s lacks.
func TestTermEdits(t *testing.T) {
	docs := []Doc{termDoc("k1", "red drill", ""), termDoc("k2", "red saw", "red"), termDoc("k3", "blue hose", "")}
	s := buildInKeyOrder(t, docs)
	for _, tc := range []struct {
		name    string
		write   docWriteOf
		source  []Doc // the docs the DocSource reads: docs when nil
		want    map[string]string
		fresh   []string
		wantErr error
	}{
		{name: "a doc removed", write: docWriteOf{removed: []string{"k2"}}, want: map[string]string{
			"red": "old red; removed 1 [title description]; added 0",
			"saw": "old saw; removed 1 [title]; added 0",
		}},
		{name: "a doc added, of a term of s and a fresh one", write: docWriteOf{added: []Doc{termDoc("k4", "red lamp", "")}}, want: map[string]string{
			"red":  "old red; removed 0 []; added 1 title:[3] tf[1]",
			"lamp": "old -; removed 0 []; added 1 title:[3] tf[1]",
		}, fresh: []string{"lamp"}},
		{name: "a doc updated", write: docWriteOf{removed: []string{"k1"}, added: []Doc{termDoc("k1", "drill press press", "drill")}}, want: map[string]string{
			"drill": "old drill; removed 1 [title]; added 1 title:[3] tf[1] description:[3] tf[1]",
			"red":   "old red; removed 1 [title]; added 0",
			"press": "old -; removed 0 []; added 1 title:[3] tf[2]",
		}, fresh: []string{"press"}},
		{name: "fresh terms sorted, added docs in key order", write: docWriteOf{added: []Doc{termDoc("k5", "zebra acorn", ""), termDoc("k4", "mango", "")}}, want: map[string]string{
			"acorn": "old -; removed 0 []; added 1 title:[4] tf[1]",
			"mango": "old -; removed 0 []; added 1 title:[3] tf[1]",
			"zebra": "old -; removed 0 []; added 1 title:[4] tf[1]",
		}, fresh: []string{"acorn", "mango", "zebra"}},
		{name: "a removed doc with a term s lacks", write: docWriteOf{removed: []string{"k1"}},
			source: []Doc{termDoc("k1", "green drill", ""), docs[1], docs[2]}, wantErr: ErrDocChange},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := docs
			if tc.source != nil {
				src = tc.source
			}
			w, _ := startWrite(t, s, src, tc.write)
			edits, fresh, err := w.termEdits(s)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			got := map[string]string{}
			for term, e := range edits {
				got[term] = describeEdit(s, e)
			}
			for _, term := range slices.Sorted(maps.Keys(tc.want)) {
				if got[term] != tc.want[term] {
					t.Errorf("%s: %q, want %q", term, got[term], tc.want[term])
				}
			}
			if len(got) != len(tc.want) || !slices.Equal(fresh, tc.fresh) {
				t.Errorf("edits %q, fresh %q; want %d edits, fresh %q", got, fresh, len(tc.want), tc.fresh)
			}
		})
	}
}

// TestOldEdits: an edit is found by its term's id in s, every other id
// finds none (across the bitset's words).
func TestOldEdits(t *testing.T) {
	for _, tc := range []struct {
		name  string
		olds  []int32 // -1: a fresh term's
		terms int
	}{
		{"none", nil, 10},
		{"one", []int32{3}, 10},
		{"at the words' edges", []int32{0, 63, 64, 127, 128}, 130},
		{"a fresh one beside", []int32{-1, 5}, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			edits := map[string]*termEdit{}
			for i, old := range tc.olds {
				edits[fmt.Sprint(i)] = &termEdit{old: old}
			}
			o := newOldEdits(edits, tc.terms)
			for id := range tc.terms {
				e := o.at(id)
				switch want := slices.Contains(tc.olds, int32(id)); {
				case want && (e == nil || e.old != int32(id)):
					t.Errorf("term %d: edit %v, want its own", id, e)
				case !want && e != nil:
					t.Errorf("term %d: edit of %d, want none", id, e.old)
				}
			}
		})
	}
}

// TestTermMergeOrder: merge lays out s's terms and the fresh ones in
// order, drops a term no live doc holds, and remaps s's ids.
func TestTermMergeOrder(t *testing.T) {
	docs := []Doc{termDoc("k1", "blue drill", ""), termDoc("k2", "red saw", ""), termDoc("k3", "red hose", "")}
	s := buildInKeyOrder(t, docs)
	for _, tc := range []struct {
		name    string
		write   docWriteOf
		want    []string // out's terms
		dropped []string // s's terms left out
		fresh   []string // at freshIDs
	}{
		{"a doc of s's terms added", docWriteOf{added: []Doc{termDoc("k4", "red drill", "")}},
			[]string{"blue", "drill", "hose", "red", "saw"}, nil, nil},
		{"fresh terms before, among and after", docWriteOf{added: []Doc{termDoc("k4", "acorn cedar zebra", "")}},
			[]string{"acorn", "blue", "cedar", "drill", "hose", "red", "saw", "zebra"}, nil, []string{"acorn", "cedar", "zebra"}},
		{"the terms of a removed doc alone dropped", docWriteOf{removed: []string{"k1"}},
			[]string{"hose", "red", "saw"}, []string{"blue", "drill"}, nil},
		{"a term of a removed doc an added one holds kept", docWriteOf{removed: []string{"k1"}, added: []Doc{termDoc("k4", "drill", "")}},
			[]string{"drill", "hose", "red", "saw"}, []string{"blue"}, nil},
		{"a term held by a removed doc and a live one kept", docWriteOf{removed: []string{"k2"}},
			[]string{"blue", "drill", "hose", "red"}, []string{"saw"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, out := startWrite(t, s, docs, tc.write)
			edits, fresh, err := w.termEdits(s)
			if err != nil {
				t.Fatal(err)
			}
			m := newTermMerge(w, s, out, fresh)
			m.merge(newOldEdits(edits, s.terms.len()), edits, fresh)
			var got, dropped, freshAt []string
			for id := range out.terms.len() {
				got = append(got, out.terms.at(id))
			}
			for id, r := range m.remap {
				switch {
				case r == ^uint32(0):
					dropped = append(dropped, s.terms.at(id))
				case out.terms.at(int(r)) != s.terms.at(id):
					t.Errorf("%s remapped to %d, %s", s.terms.at(id), r, out.terms.at(int(r)))
				}
			}
			for _, id := range m.freshIDs {
				freshAt = append(freshAt, out.terms.at(int(id)))
			}
			if !slices.Equal(got, tc.want) || !slices.Equal(dropped, tc.dropped) || !slices.Equal(freshAt, tc.fresh) {
				t.Errorf("terms %q, dropped %q, fresh %q; want %q, %q, %q", got, dropped, freshAt, tc.want, tc.dropped, tc.fresh)
			}
			if len(m.p.df) != len(tc.want) || len(m.p.spanOff) != len(tc.want)+1 || len(m.p.bitmaps) != len(tc.want) {
				t.Errorf("postings of %d terms (%d span offsets, %d bitmaps), want %d", len(m.p.df), len(m.p.spanOff), len(m.p.bitmaps), len(tc.want))
			}
		})
	}
}

// TestTermMergeKeep: a term the write leaves alone keeps its base spans
// and its doc count and bitmap; its tail spans are copied to out's tail
// arena, one term's after another's.
func TestTermMergeKeep(t *testing.T) {
	// red: base title k1 k2, description k2, tail title k3 (twice);
	// hose: tail title k3 k4; drill: base only.
	s, docs := docWrites(t, []Doc{termDoc("k1", "red drill", ""), termDoc("k2", "red saw", "red")},
		docWriteOf{added: []Doc{termDoc("k3", "red red hose", "")}},
		docWriteOf{added: []Doc{termDoc("k4", "hose", "")}})
	for _, tc := range []struct {
		name string
		keep []string
		want []string
	}{
		{"base spans only", []string{"drill"}, []string{"title:0; df 1; bitmap -"}},
		{"base and tail spans", []string{"red"}, []string{"title:0-1 description:1 tail title:2 tf[2]; df 3; bitmap -"}},
		{"tail spans only", []string{"hose"}, []string{"tail title:2-3; df 2; bitmap -"}},
		{"a tail after another's", []string{"hose", "red"}, []string{
			"tail title:2-3; df 2; bitmap -",
			"title:0-1 description:1 tail title:2 tf[2]; df 3; bitmap -",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, out := startWrite(t, s, docs, docWriteOf{added: []Doc{termDoc("k5", "lamp", "")}})
			m := newTermMerge(w, s, out, nil)
			var got []string
			for i, term := range tc.keep {
				id, ok := s.terms.find(term)
				if !ok {
					t.Fatalf("no term %q", term)
				}
				if want := describeTerm(&s.post, id); !strings.HasPrefix(tc.want[i], strings.Split(want, ";")[0]) {
					t.Fatalf("the fixture: %s is %q in s", term, want)
				}
				m.keep(id)
				got = append(got, describeTerm(&m.p, i))
				if m.p.bitmaps[i] != s.post.bitmaps[id] {
					t.Errorf("%s: bitmap not s's", term)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("kept %q, want %q", got, tc.want)
			}
		})
	}
}

// TestTermMergeEdit: an edited term keeps the base spans a live doc is
// still in (holes and all) and drops the others of the removed docs'
// fields; its tail is s's tail docs the write keeps and the added docs',
// one span per field; it keeps a bitmap from bitmapMinDF docs, s's
// edited when s kept one, else made from the spans without the holes.
func TestTermMergeEdit(t *testing.T) {
	for _, tc := range []struct {
		name   string
		docs   []Doc
		before []docWriteOf // writes making s
		write  docWriteOf
		term   string
		want   string
	}{
		{name: "a removed doc alone in its field's base span: the span dropped",
			docs: []Doc{termDoc("k1", "red drill", ""), termDoc("k2", "saw", "red")}, write: docWriteOf{removed: []string{"k2"}},
			term: "red", want: "title:0; df 1; bitmap -"},
		{name: "a removed doc beside a live one: the span kept, the doc a hole",
			docs: []Doc{termDoc("k1", "red", ""), termDoc("k2", "red", "")}, write: docWriteOf{removed: []string{"k1"}},
			term: "red", want: "title:0-1; df 1; bitmap -"},
		{name: "the tail: removed docs out, added docs in, by field",
			docs: []Doc{termDoc("k1", "red", "")}, before: []docWriteOf{{added: []Doc{termDoc("k2", "red", ""), termDoc("k3", "red", "")}}},
			write: docWriteOf{removed: []string{"k2"}, added: []Doc{termDoc("k4", "red red", "red")}},
			term:  "red", want: "title:0 tail title:2-3 tf[1 2] tail description:3; df 3; bitmap -"},
		{name: "a fresh term",
			docs: []Doc{termDoc("k1", "red", "")}, write: docWriteOf{added: []Doc{termDoc("k2", "lamp", "lamp")}},
			term: "lamp", want: "tail title:1 tail description:1; df 1; bitmap -"},
		{name: "s's bitmap less the removed doc, plus the added",
			docs: titleDocs(40, "red"), write: docWriteOf{removed: []string{"k03"}, added: []Doc{termDoc("n1", "red", "")}},
			term: "red", want: "title:0-39 tail title:40; df 40; bitmap 0-2,4-40"},
		{name: "below bitmapMinDF: no bitmap",
			docs: titleDocs(bitmapMinDF, "red"), write: docWriteOf{removed: []string{"k03"}},
			term: "red", want: fmt.Sprintf("title:0-%d; df %d; bitmap -", bitmapMinDF-1, bitmapMinDF-1)},
		{name: "a bitmap made from the spans, the holes left out",
			docs: titleDocs(bitmapMinDF+1, "red"), before: []docWriteOf{{removed: []string{"k00", "k01"}}},
			write: docWriteOf{added: []Doc{termDoc("n1", "red", "")}},
			term:  "red", want: fmt.Sprintf("title:0-%d tail title:%[2]d; df %[1]d; bitmap 2-%[2]d", bitmapMinDF, bitmapMinDF+1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, docs := docWrites(t, tc.docs, tc.before...)
			w, out := startWrite(t, s, docs, tc.write)
			edits, fresh, err := w.termEdits(s)
			if err != nil {
				t.Fatal(err)
			}
			e := edits[tc.term]
			if e == nil {
				t.Fatalf("no edit of %q", tc.term)
			}
			m := newTermMerge(w, s, out, fresh)
			m.edit(e, int(e.old))
			if got := describeTerm(&m.p, 0); got != tc.want {
				t.Errorf("%s: %q, want %q", tc.term, got, tc.want)
			}
		})
	}
}
