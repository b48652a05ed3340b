package index

import (
	"errors"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/analysis"
)

// keysOf is the keys of a set of docs, sorted.
func keysOf(s *Segment, bm *roaring.Bitmap) []string {
	var out []string
	it := bm.Iterator()
	for it.HasNext() {
		out = append(out, s.Key(it.Next()))
	}
	slices.Sort(out)
	return out
}

// sameAnswers fails unless got (made by WithDocs, its ids in any order)
// answers every read as want (a fresh build) does, doc by doc through
// the keys: the doc sets, counts, postings, words, typo lists, field
// lengths, keys, columns, sort ranks and key order.
func sameAnswers(t *testing.T, what string, got, want *Segment) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s: %s", what, fmt.Sprintf(format, args...))
	}
	if got.Len() != want.Len() || got.All().GetCardinality() != uint64(want.Len()) {
		fail("%d docs (%d in All), want %d", got.Len(), got.All().GetCardinality(), want.Len())
	}
	if g, w := keysOf(got, got.All()), keysOf(want, want.All()); !slices.Equal(g, w) {
		fail("docs %v, want %v", g, w)
	}
	gotDoc := map[string]uint32{}
	it := got.All().Iterator()
	for it.HasNext() {
		d := it.Next()
		gotDoc[got.Key(d)] = d
	}
	for wd := range uint32(want.Len()) {
		key := want.Key(wd)
		gd := gotDoc[key]
		// Ranks order the docs as the keys do; holes may leave gaps.
		if wd > 0 && got.rank(gd) <= got.rank(gotDoc[want.Key(wd-1)]) {
			fail("%s ranks %d in key order, after %s at %d", key, got.rank(gd), want.Key(wd-1), got.rank(gotDoc[want.Key(wd-1)]))
		}
		if g, w := got.Stored(gd), want.Stored(wd); string(g) != string(w) {
			fail("%s stored %q, want %q", key, g, w)
		}
		for f := range NumTextFields {
			if g, w := got.FieldLen(f)[gd], want.FieldLen(f)[wd]; g != w {
				fail("%s field %d length %d, want %d", key, f, g, w)
			}
		}
	}
	if got.avgLen != want.avgLen || got.lenSum != want.lenSum || got.lenCnt != want.lenCnt {
		fail("mean lengths %v (%v/%v), want %v (%v/%v)", got.avgLen, got.lenSum, got.lenCnt, want.avgLen, want.lenSum, want.lenCnt)
	}

	// Terms: the same dictionary, so the same ids.
	if got.Terms() != want.Terms() {
		fail("%d terms, want %d", got.Terms(), want.Terms())
	}
	var gp, wp []FieldPosting
	for id := range uint32(want.Terms()) {
		term := want.TermString(id)
		if got.TermString(id) != term {
			fail("term %d is %q, want %q", id, got.TermString(id), term)
		}
		if got.DocFreq(id) != want.DocFreq(id) || (got.post.bitmaps[id] == nil) != (want.post.bitmaps[id] == nil) {
			fail("term %q in %d docs (bitmap %v), want %d (%v)", term, got.DocFreq(id), got.post.bitmaps[id] != nil, want.DocFreq(id), want.post.bitmaps[id] != nil)
		}
		if g, w := keysOf(got, got.TermDocs(id)), keysOf(want, want.TermDocs(id)); !slices.Equal(g, w) {
			fail("term %q docs %v, want %v", term, g, w)
		}
		for f := range NumTextFields {
			m := FieldMask(1) << f
			if got.TermIn(id, m) != want.TermIn(id, m) {
				fail("term %q in field %d: %v, want %v", term, f, got.TermIn(id, m), want.TermIn(id, m))
			}
			if g, w := keysOf(got, got.TermDocsIn(id, m)), keysOf(want, want.TermDocsIn(id, m)); !slices.Equal(g, w) {
				fail("term %q docs in field %d %v, want %v", term, f, g, w)
			}
		}
		// Postings: per field, the live docs' frequencies.
		tfs := func(s *Segment, posts []FieldPosting) map[string]uint8 {
			out := map[string]uint8{}
			for _, fp := range posts {
				for i, d := range fp.Docs {
					if s.All().Contains(d) {
						k := fmt.Sprint(fp.Field, "/", s.Key(d))
						if _, dup := out[k]; dup {
							fail("term %q lists %s twice", term, k)
						}
						out[k] = fp.TFs[i]
					}
				}
			}
			return out
		}
		gp, wp = got.TermPostings(id, gp[:0]), want.TermPostings(id, wp[:0])
		if g, w := tfs(got, gp), tfs(want, wp); !maps.Equal(g, w) {
			fail("term %q postings %v, want %v", term, g, w)
		}
	}
	if !slices.Equal(got.surfaces.off, want.surfaces.off) || string(got.surfaces.text) != string(want.surfaces.text) ||
		!slices.Equal(got.surfaceTerm, want.surfaceTerm) || !slices.Equal(got.surfaceDF, want.surfaceDF) {
		for i := range min(got.surfaces.len(), want.surfaces.len()) {
			if got.surfaces.at(i) != want.surfaces.at(i) || got.surfaceTerm[i] != want.surfaceTerm[i] || got.surfaceDF[i] != want.surfaceDF[i] {
				fail("word %d is %q → %d in %d docs, want %q → %d in %d", i, got.surfaces.at(i), got.surfaceTerm[i], got.surfaceDF[i],
					want.surfaces.at(i), want.surfaceTerm[i], want.surfaceDF[i])
			}
		}
		fail("%d words, want %d", got.surfaces.len(), want.surfaces.len())
	}
	for l := range max(len(got.byLen), len(want.byLen)) {
		if !slices.Equal(got.TermsOfLen(l), want.TermsOfLen(l)) {
			fail("terms of length %d: %v, want %v", l, got.TermsOfLen(l), want.TermsOfLen(l))
		}
	}

	// Keys: every folded key and alternative lists the same docs in the
	// same order (the first is the one found).
	if got.keyDoc.keys.len() != want.keyDoc.keys.len() {
		fail("%d keys indexed, want %d", got.keyDoc.keys.len(), want.keyDoc.keys.len())
	}
	for i := range want.keyDoc.keys.len() {
		k := want.keyDoc.keys.at(i)
		if gk, gd, wd := got.keyDoc.keys.at(i), got.keyDoc.docs[i], want.keyDoc.docs[i]; gk != k || got.Key(gd) != want.Key(wd) {
			fail("key entry %d is %q → %q, want %q → %q", i, gk, got.Key(gd), k, want.Key(wd))
		}
		gd, _ := got.DocByKey(k)
		wd, _ := want.DocByKey(k)
		if got.Key(gd) != want.Key(wd) {
			fail("key %q finds %q, want %q", k, got.Key(gd), want.Key(wd))
		}
	}

	// Columns.
	if g, w := slices.Sorted(maps.Keys(got.keyword)), slices.Sorted(maps.Keys(want.keyword)); !slices.Equal(g, w) {
		fail("keyword fields %v, want %v", g, w)
	}
	for name, wk := range want.keyword {
		gk := got.keyword[name]
		if !slices.Equal(gk.Values, wk.Values) || !slices.Equal(gk.Parent, wk.Parent) || !slices.Equal(gk.Depth, wk.Depth) ||
			gk.single != wk.single || !maps.Equal(gk.lookup, wk.lookup) || (gk.one == nil) != (wk.one == nil) {
			fail("keyword %s values %q (single %v), want %q (%v)", name, gk.Values, gk.single, wk.Values, wk.single)
		}
		for v := range wk.Values {
			if g, w := keysOf(got, gk.Bitmaps[v]), keysOf(want, wk.Bitmaps[v]); !slices.Equal(g, w) {
				fail("keyword %s value %q docs %v, want %v", name, wk.Values[v], g, w)
			}
		}
		for wd := range uint32(want.Len()) {
			gd := gotDoc[want.Key(wd)]
			if !slices.Equal(gk.DocValues(gd), wk.DocValues(wd)) || wk.one != nil && gk.one[gd] != wk.one[wd] {
				fail("keyword %s of %s: %v, want %v", name, want.Key(wd), gk.DocValues(gd), wk.DocValues(wd))
			}
		}
	}
	if g, w := slices.Sorted(maps.Keys(got.numeric)), slices.Sorted(maps.Keys(want.numeric)); !slices.Equal(g, w) {
		fail("number fields %v, want %v", g, w)
	}
	for name, wf := range want.numeric {
		gf := got.numeric[name]
		if _, gv := gf.Sorted(); !slices.Equal(gv, wf.sortedVals) {
			fail("number %s sorted values %v, want %v", name, gv, wf.sortedVals)
		}
		for wd := range uint32(want.Len()) {
			gd := gotDoc[want.Key(wd)]
			gv, gh := gf.Value(gd)
			wv, wh := wf.Value(wd)
			if gv != wv || gh != wh {
				fail("number %s of %s: %v %v, want %v %v", name, want.Key(wd), gv, gh, wv, wh)
			}
		}
		for _, rg := range [][2]float64{{-20, 0}, {0, 50}, {10.5, 10.5}, {-1e9, 1e9}} {
			g, w := roaring.New(), roaring.New()
			gf.Range(rg[0], rg[1], g)
			wf.Range(rg[0], rg[1], w)
			if !slices.Equal(keysOf(got, g), keysOf(want, w)) {
				fail("number %s range %v: %v, want %v", name, rg, keysOf(got, g), keysOf(want, w))
			}
		}
	}
	if g, w := slices.Sorted(maps.Keys(got.sorts)), slices.Sorted(maps.Keys(want.sorts)); !slices.Equal(g, w) {
		fail("sort fields %v, want %v", g, w)
	}
	for name, wr := range want.sorts {
		gr := got.sorts[name]
		for wd := range uint32(want.Len()) {
			if gd := gotDoc[want.Key(wd)]; gr[gd] != wr[wd] {
				fail("sort %s rank of %s: %d, want %d", name, want.Key(wd), gr[gd], wr[wd])
			}
		}
	}
}

// drawDocWrites draws a round of doc writes over docs (in key order):
// removals, updates (a key kept, another doc's content) and new keys
// before, among and after the others.
func drawDocWrites(r *rand.Rand, docs, pool []Doc, round int) (removed []string, added []Doc) {
	picked := map[string]bool{}
	for range 1 + r.IntN(12) {
		picked[docs[r.IntN(len(docs))].Key] = true
	}
	for _, k := range slices.Sorted(maps.Keys(picked)) {
		removed = append(removed, k)
		if r.IntN(3) > 0 { // an update
			d := pool[r.IntN(len(pool))]
			d.Key = k
			added = append(added, d)
		}
	}
	for i := range r.IntN(10) {
		d := pool[r.IntN(len(pool))]
		d.Key = fmt.Sprintf("%s-%02d-%02d", []string{"A", "N", "Pz", "q", "zz", "Ö"}[r.IntN(6)], round, i)
		d.AltKeys = nil
		if r.IntN(4) == 0 {
			d.AltKeys = []string{fmt.Sprintf("Shared-%d", r.IntN(5)), "V-00007"}
		}
		added = append(added, d)
	}
	// Display forms in another case, so which doc holds a value first in
	// key order decides its display.
	for i := range added {
		if r.IntN(3) == 0 {
			kws := slices.Clone(added[i].Keywords)
			for j := range kws {
				if r.IntN(2) == 0 {
					kws[j].Value = strings.ToUpper(kws[j].Value)
				} else {
					kws[j].Value = strings.ToLower(kws[j].Value)
				}
			}
			added[i].Keywords = kws
		}
	}
	// Words no other doc has, and a new sort value and keyword value.
	if len(added) > 0 && r.IntN(2) == 0 {
		d := &added[0]
		d.Text[FieldTitle] = append(slices.Clone(d.Text[FieldTitle]), fmt.Sprintf("novel%d novelties", round))
		d.Sort = []SortValue{{"title", fmt.Sprintf("m%02d", round)}}
		d.Keywords = append(slices.Clone(d.Keywords), KeywordValue{"brand", fmt.Sprintf("Brand%d", round)})
	}
	return removed, added
}

// applyDocWrites is docs (in key order) after a round.
func applyDocWrites(docs []Doc, removed []string, added []Doc) []Doc {
	out := slices.DeleteFunc(slices.Clone(docs), func(d Doc) bool { return slices.Contains(removed, d.Key) })
	out = append(out, added...)
	slices.SortFunc(out, func(a, b Doc) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// sourceOf is a DocSource reading docs (the segment's docs) by key.
func sourceOf(s *Segment, docs []Doc) DocSource {
	byKey := map[string]*Doc{}
	for i := range docs {
		byKey[docs[i].Key] = &docs[i]
	}
	return func(doc uint32) (*Doc, error) {
		d, ok := byKey[s.Key(doc)]
		if !ok {
			return nil, fmt.Errorf("no doc %q", s.Key(doc))
		}
		return d, nil
	}
}

// TestWithDocsEqualsFreshBuild: round after round of removals, updates
// and new keys, each applied to the last round's segment (holes and
// tails on holes and tails, a column update on top now and then), the
// segment answers as a fresh build of the same docs does, compacts and
// saves to the same bytes, loads back, and leaves the segment it came
// from unchanged.
func TestWithDocsEqualsFreshBuild(t *testing.T) {
	for seed := range uint64(*withDocsSeeds) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) { withDocsRounds(t, seed) })
	}
}

var withDocsSeeds = flag.Int("withdocs.seeds", 4, "random write sequences TestWithDocsEqualsFreshBuild runs")

func withDocsRounds(t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(7, 8+seed))
	docs := randomCorpus(3, 600)
	pool := randomCorpus(4, 300)
	slices.SortFunc(docs, func(a, b Doc) int { return strings.Compare(a.Key, b.Key) })
	an := analysis.New(analysis.English)
	s := buildInKeyOrder(t, docs)
	for round := range 40 {
		removed, added := drawDocWrites(r, docs, pool, round)
		var ids []uint32
		for _, k := range removed {
			d, ok := s.DocByKey(analysis.FoldString(k))
			if !ok || s.Key(d) != k {
				t.Fatalf("round %d: %q not found", round, k)
			}
			ids = append(ids, d)
		}
		before := &memKV{m: map[string][]byte{}}
		if err := s.Save(before, "x/"); err != nil {
			t.Fatal(err)
		}
		u, err := s.WithDocs(an, ids, added, sourceOf(s, docs))
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		next := applyDocWrites(docs, removed, added)
		what := fmt.Sprintf("round %d (%d removed, %d added)", round, len(removed), len(added))
		fresh := buildInKeyOrder(t, next)
		sameAnswers(t, what, u, fresh)
		sameSegment(t, what+", compacted", u.Compact(), fresh)
		after := &memKV{m: map[string][]byte{}}
		if err := s.Save(after, "x/"); err != nil {
			t.Fatal(err)
		}
		if !maps.EqualFunc(before.m, after.m, func(a, b []byte) bool { return string(a) == string(b) }) {
			t.Fatalf("%s: the old segment changed", what)
		}
		docs, s = next, u
		switch round % 5 {
		case 2: // a column update on the written segment
			changes := changeColumns(r, docs, 1+r.IntN(10))
			for i := range changes {
				d, _ := s.DocByKey(analysis.FoldString(docs[changes[i].Doc].Key))
				changes[i].Doc = d
			}
			byDoc := sourceOf(s, docs)
			u, err := s.WithColumns(changes, func(doc uint32) ([]KeywordValue, error) {
				d, err := byDoc(doc)
				if err != nil {
					return nil, err
				}
				return d.Keywords, nil
			})
			if err != nil {
				t.Fatalf("%s, columns: %v", what, err)
			}
			for _, c := range changes {
				i := slices.IndexFunc(docs, func(d Doc) bool { return d.Key == s.Key(c.Doc) })
				docs[i].Keywords, docs[i].Numbers, docs[i].Stored = c.Keywords, c.Numbers, c.Stored
			}
			s = u
			sameAnswers(t, what+", columns", s, buildInKeyOrder(t, docs))
		case 4: // saved and loaded: the next round starts compact
			kv := &memKV{m: map[string][]byte{}}
			if err := s.Save(kv, "x/"); err != nil {
				t.Fatal(err)
			}
			if s, err = Load(kv, "x/"); err != nil {
				t.Fatalf("%s: load: %v", what, err)
			}
			sameAnswers(t, what+", loaded", s, fresh)
		}
	}
}

// TestWithDocsRefuses: a doc out of range, removed twice or already a
// hole, a source that disagrees, and a key taken by a live doc are
// refused, and nothing is made.
func TestWithDocsRefuses(t *testing.T) {
	docs := randomCorpus(3, 60)
	slices.SortFunc(docs, func(a, b Doc) int { return strings.Compare(a.Key, b.Key) })
	an := analysis.New(analysis.English)
	s := buildInKeyOrder(t, docs)
	src := sourceOf(s, docs)
	u, err := s.WithDocs(an, []uint32{3}, nil, src)
	if err != nil {
		t.Fatal(err)
	}
	liar := func(doc uint32) (*Doc, error) { d := docs[(doc+1)%60]; return &d, nil }
	for _, tc := range []struct {
		name    string
		seg     *Segment
		removed []uint32
		added   []Doc
		src     DocSource
		want    error
	}{
		{"a doc past the last", s, []uint32{60}, nil, src, ErrDocChange},
		{"a doc removed twice", s, []uint32{4, 4}, nil, src, ErrDocChange},
		{"a hole", u, []uint32{3}, nil, src, ErrDocChange},
		{"a source naming another doc", s, []uint32{5}, nil, liar, ErrDocChange},
		{"a live doc's key", s, nil, []Doc{{Key: docs[7].Key}}, src, ErrDuplicateKey},
		{"a key twice", s, nil, []Doc{{Key: "new"}, {Key: "new"}}, src, ErrDuplicateKey},
		{"a source failing", s, []uint32{5}, nil, func(uint32) (*Doc, error) { return nil, errBoom }, errBoom},
	} {
		if _, err := tc.seg.WithDocs(an, tc.removed, tc.added, tc.src); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	// An update: the removed doc's key is free again.
	if _, err := s.WithDocs(an, []uint32{7}, []Doc{{Key: docs[7].Key, Stored: []byte("{}")}}, src); err != nil {
		t.Errorf("an update: %v", err)
	}
}

var errBoom = errors.New("boom")

// TestWithDocsEmptiedField: a term whose only doc in one field is removed
// is no longer in that field (TermIn, TermDocsIn, the postings), though
// it stays in another; a word only the removed doc held leaves.
func TestWithDocsEmptiedField(t *testing.T) {
	docs := make([]Doc, 3)
	for i, text := range []string{"alpha drill", "drill", "beta"} {
		docs[i] = Doc{Key: fmt.Sprint("k", i), Stored: []byte("{}")}
		docs[i].Text[FieldTitle] = []string{text}
	}
	docs[2].Text[FieldDescription] = []string{"alpha alphas"}
	an := analysis.New(analysis.English)
	s := buildInKeyOrder(t, docs)
	u, err := s.WithDocs(an, []uint32{2}, nil, sourceOf(s, docs))
	if err != nil {
		t.Fatal(err)
	}
	id, ok := u.Term("alpha")
	if !ok {
		t.Fatal("alpha gone from the title too")
	}
	desc := FieldMask(1) << FieldDescription
	if u.TermIn(id, desc) || !u.TermDocsIn(id, desc).IsEmpty() || len(u.TermPostings(id, nil)) != 1 {
		t.Errorf("alpha still in the description: %v %v %v", u.TermIn(id, desc), u.TermDocsIn(id, desc), u.TermPostings(id, nil))
	}
	if _, ok := u.surfaces.find("alphas"); ok {
		t.Error("the word alphas outlived its only doc")
	}
	if _, ok := u.Term("beta"); ok {
		t.Error("the term beta outlived its only doc")
	}
	sameAnswers(t, "k2 removed", u, buildInKeyOrder(t, docs[:2]))
}

// BenchmarkWithDocs: at 100,000 docs, one doc replaced by a new version
// (a new title), one new doc added, and one doc added on top of a tail
// of 1,000 earlier writes.
func BenchmarkWithDocs(b *testing.B) {
	docs := randomCorpus(4, 100000)
	slices.SortFunc(docs, func(a, c Doc) int { return strings.Compare(a.Key, c.Key) })
	an := analysis.New(analysis.English)
	s := buildInKeyOrder(b, docs)
	byKey := map[string]*Doc{}
	for i := range docs {
		byKey[docs[i].Key] = &docs[i]
	}
	renamed := docs[500]
	renamed.Text[FieldTitle] = []string{"Renamed cordless thing"}
	fresh := docs[700]
	fresh.Key = "N-new"
	src := tailSrc(s, byKey)
	b.Run("replace", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.WithDocs(an, []uint32{500}, []Doc{renamed}, src); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("add", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.WithDocs(an, nil, []Doc{fresh}, src); err != nil {
				b.Fatal(err)
			}
		}
	})
	tail := s
	for i := range 1000 {
		d := docs[i*7]
		d.Key = fmt.Sprintf("T-%04d", i)
		byKey[d.Key] = &d
		var err error
		if tail, err = tail.WithDocs(an, nil, []Doc{d}, tailSrc(tail, byKey)); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("add after 1000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := tail.WithDocs(an, nil, []Doc{fresh}, tailSrc(tail, byKey)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// tailSrc is a DocSource of s reading docs by key.
func tailSrc(s *Segment, byKey map[string]*Doc) DocSource {
	return func(doc uint32) (*Doc, error) { return byKey[s.Key(doc)], nil }
}

// TestWithDocsDisplayForms: a value's display form is its first holder's
// in key order, as in a fresh build: an added doc before the first
// holder brings its own form, and removing the first holder hands the
// display to the next holder's form.
func TestWithDocsDisplayForms(t *testing.T) {
	mk := func(key, brand string) Doc {
		d := Doc{Key: key, Stored: []byte("{}"), Keywords: []KeywordValue{{"brand", brand}, {"flag", "yes"}}}
		d.Text[FieldTitle] = []string{"drill"}
		return d
	}
	docs := []Doc{mk("k1", "Makita"), mk("k2", "makita"), mk("k3", "Bosch")}
	an := analysis.New(analysis.English)
	s := buildInKeyOrder(t, docs)
	for _, tc := range []struct {
		name    string
		removed []uint32
		added   []Doc
	}{
		{"an added doc first in key order", nil, []Doc{mk("a0", "MAKITA")}},
		{"an added doc later in key order", nil, []Doc{mk("z9", "MAKITA")}},
		{"the first holder removed", []uint32{0}, nil},
		{"the first holder replaced in another form", []uint32{0}, []Doc{mk("k1", "MAKITA")}},
	} {
		var removedKeys []string
		for _, d := range tc.removed {
			removedKeys = append(removedKeys, s.Key(d))
		}
		u, err := s.WithDocs(an, tc.removed, tc.added, sourceOf(s, docs))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		sameAnswers(t, tc.name, u, buildInKeyOrder(t, applyDocWrites(docs, removedKeys, tc.added)))
	}
}

// TestWithDocsEmptiedFieldOverWrites: a field's list emptied over two
// writes (its first doc removed by one, its last by the next) is dropped
// from the term as well: the hole the first write left is no live doc.
func TestWithDocsEmptiedFieldOverWrites(t *testing.T) {
	docs := make([]Doc, 3)
	for i := range docs {
		docs[i] = Doc{Key: fmt.Sprint("k", i), Stored: []byte("{}")}
		docs[i].Text[FieldTitle] = []string{"alpha drill"}
	}
	docs[1].Text[FieldDescription] = []string{"alpha"}
	docs[2].Text[FieldDescription] = []string{"alpha"}
	an := analysis.New(analysis.English)
	s := buildInKeyOrder(t, docs)
	u, err := s.WithDocs(an, []uint32{1}, nil, sourceOf(s, docs))
	if err != nil {
		t.Fatal(err)
	}
	v, err := u.WithDocs(an, []uint32{2}, nil, sourceOf(u, docs))
	if err != nil {
		t.Fatal(err)
	}
	sameAnswers(t, "k1 then k2 removed", v, buildInKeyOrder(t, docs[:1]))
}
