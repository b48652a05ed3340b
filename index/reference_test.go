package index

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/internal/expect"
)

// reference is what a segment built from a set of docs must answer,
// computed from the docs with plain maps and sorts. It shares no code with
// the builder but the analyzer, whose tokens, folding and stems are
// package analysis's contract (tested there).
type reference struct {
	n        int
	keys     []string // by doc id: the keys in byte order
	stored   [][]byte
	ownKey   map[string]uint32   // folded key → its doc
	altKey   map[string][]uint32 // folded alternative key → the docs listing it
	terms    map[string]*refTerm
	words    map[string]string // folded word → its term
	fieldLen [NumTextFields][]int
	keyword  map[string]*refKeyword
	numeric  map[string]*refNumeric
	sorts    map[string][]string // folded sort key by doc, "" without one
}

type refTerm struct {
	tf    [NumTextFields]map[uint32]int // occurrences per doc
	ascii bool                          // holds an ASCII digit
	num   bool                          // the analyzer calls it numeric
}

type refKeyword struct {
	display map[string]string   // folded → the display form added first
	docs    map[string][]uint32 // folded → its docs, ascending
	byDoc   []map[string]bool   // doc → its folded values
}

type refNumeric struct {
	val []float64
	has []bool
}

func fold(s string) string { return analysis.FoldString(s) }

func asciiDigit(s string) bool {
	return strings.ContainsAny(s, "0123456789")
}

// newReference models a segment built from docs added in the order given.
func newReference(an *analysis.Analyzer, added []Doc) *reference {
	n := len(added)
	byKey := make([]int, n) // doc id → index in added
	for i := range byKey {
		byKey[i] = i
	}
	slices.SortFunc(byKey, func(a, b int) int { return strings.Compare(added[a].Key, added[b].Key) })
	id := make([]uint32, n) // index in added → doc id
	ref := &reference{
		n: n, keys: make([]string, n), stored: make([][]byte, n),
		ownKey: map[string]uint32{}, altKey: map[string][]uint32{},
		terms: map[string]*refTerm{}, words: map[string]string{},
		keyword: map[string]*refKeyword{}, numeric: map[string]*refNumeric{}, sorts: map[string][]string{},
	}
	for d, i := range byKey {
		id[i] = uint32(d)
		ref.keys[d], ref.stored[d] = added[i].Key, slices.Clone(added[i].Stored)
	}
	for f := range ref.fieldLen {
		ref.fieldLen[f] = make([]int, n)
	}
	for i := range added {
		doc, d := &added[i], id[i]
		ref.ownKey[fold(doc.Key)] = d
		for _, k := range doc.AltKeys {
			if fk := fold(k); !slices.Contains(ref.altKey[fk], d) {
				ref.altKey[fk] = append(ref.altKey[fk], d)
			}
		}
		for f, texts := range doc.Text {
			for _, text := range texts {
				for _, tk := range an.Analyze(nil, text) {
					ref.fieldLen[f][d]++
					ref.words[tk.Folded] = tk.Term
					rt := ref.terms[tk.Term]
					if rt == nil {
						rt = &refTerm{ascii: asciiDigit(tk.Term), num: tk.Numeric}
						for f := range rt.tf {
							rt.tf[f] = map[uint32]int{}
						}
						ref.terms[tk.Term] = rt
					}
					rt.tf[f][d]++
				}
			}
		}
		for _, kv := range doc.Keywords {
			rk := ref.keyword[kv.Field]
			if rk == nil {
				rk = &refKeyword{display: map[string]string{}, docs: map[string][]uint32{}, byDoc: make([]map[string]bool, n)}
				ref.keyword[kv.Field] = rk
			}
			fv := fold(kv.Value)
			if _, ok := rk.display[fv]; !ok {
				rk.display[fv] = kv.Value
			}
			if rk.byDoc[d] == nil {
				rk.byDoc[d] = map[string]bool{}
			}
			if !rk.byDoc[d][fv] {
				rk.byDoc[d][fv] = true
				rk.docs[fv] = append(rk.docs[fv], d)
			}
		}
		for _, nv := range doc.Numbers {
			rn := ref.numeric[nv.Field]
			if rn == nil {
				rn = &refNumeric{val: make([]float64, n), has: make([]bool, n)}
				ref.numeric[nv.Field] = rn
			}
			if !rn.has[d] && !math.IsNaN(nv.Value) {
				rn.val[d], rn.has[d] = nv.Value, true
			}
		}
		for _, sv := range doc.Sort {
			if ref.sorts[sv.Field] == nil {
				ref.sorts[sv.Field] = make([]string, n)
			}
			ref.sorts[sv.Field][d] = fold(sv.Value)
		}
	}
	for _, rk := range ref.keyword {
		for _, docs := range rk.docs {
			slices.Sort(docs)
		}
	}
	return ref
}

// docByKey is the doc a folded id must find: the doc whose own key it is,
// else the first in key order of the docs listing it as an alternative.
func (ref *reference) docByKey(folded string) (own uint32, alts []uint32, ok bool) {
	if d, ok := ref.ownKey[folded]; ok {
		return d, nil, true
	}
	alts = ref.altKey[folded]
	return 0, alts, len(alts) > 0
}

// checkSegment compares every observable of s with ref, one subtest per
// part, so a failure names the part that differs.
func checkSegment(t *testing.T, s *Segment, ref *reference) {
	t.Helper()
	if s.Len() != ref.n {
		t.Fatalf("Len %d, want %d", s.Len(), ref.n)
	}
	all := roaring.New()
	all.AddRange(0, uint64(ref.n))
	if !s.All().Equals(all) {
		t.Fatalf("All has %d docs, want 0..%d", s.All().GetCardinality(), ref.n)
	}
	t.Run("docs", func(t *testing.T) { checkDocs(t, s, ref) })
	t.Run("terms", func(t *testing.T) { checkTerms(t, s, ref) })
	t.Run("words", func(t *testing.T) { checkWords(t, s, ref) })
	t.Run("lengths", func(t *testing.T) { checkLengths(t, s, ref) })
	t.Run("keywords", func(t *testing.T) { checkKeywords(t, s, ref) })
	t.Run("numbers", func(t *testing.T) { checkNumbers(t, s, ref) })
	t.Run("sorts", func(t *testing.T) { checkSorts(t, s, ref) })
}

// checkDocs: keys in byte order, stored JSON byte for byte (appended after
// what dst held), DocByKey by folded key and alternative key.
func checkDocs(t *testing.T, s *Segment, ref *reference) {
	buf := []byte("kept:")
	for d := range uint32(ref.n) {
		if got := s.Key(d); got != ref.keys[d] {
			t.Fatalf("Key(%d) = %q, want %q", d, got, ref.keys[d])
		}
		if got := s.Stored(d); !bytes.Equal(got, ref.stored[d]) {
			t.Fatalf("Stored(%d) = %q, want %q", d, got, ref.stored[d])
		}
		buf = s.AppendStored(buf[:5], d)
		if want := append([]byte("kept:"), ref.stored[d]...); !bytes.Equal(buf, want) {
			t.Fatalf("AppendStored(kept:, %d) = %q, want %q", d, buf, want)
		}
	}
	keys := 0
	for fk := range ref.ownKey {
		keys++
		want, _, _ := ref.docByKey(fk)
		if got, ok := s.DocByKey(fk); !ok || got != want {
			t.Fatalf("DocByKey(%q) = %d, %v; want its own doc %d", fk, got, ok, want)
		}
	}
	alts := expect.Counter{What: "alternative keys that are nobody's own key", Min: 10}
	for fk, docs := range ref.altKey {
		own, _, _ := ref.docByKey(fk)
		got, ok := s.DocByKey(fk)
		switch _, isOwn := ref.ownKey[fk]; {
		case !ok:
			t.Fatalf("alternative key %q not found", fk)
		case isOwn && got != own:
			t.Fatalf("DocByKey(%q) = %d: an alternative key took the key of doc %d", fk, got, own)
		case !isOwn && got != slices.Min(docs):
			t.Fatalf("DocByKey(%q) = %d, want the first in key order of the docs listing it %v", fk, got, docs)
		case !isOwn:
			alts.N++
		}
	}
	alts.Check(t)
	for _, absent := range []string{"", "no-such-key", "p-", "v-99999"} {
		if d, ok := s.DocByKey(absent); ok {
			t.Fatalf("DocByKey(%q) found doc %d", absent, d)
		}
	}
	if keys != ref.n {
		t.Fatalf("%d distinct folded keys for %d docs", keys, ref.n)
	}
}

// wantPostings is a term's postings as the reference has them: fields
// ascending, docs ascending, frequencies capped at 255.
func (rt *refTerm) wantPostings() (posts []FieldPosting, docs *roaring.Bitmap) {
	docs = roaring.New()
	for f, tf := range rt.tf {
		if len(tf) == 0 {
			continue
		}
		fp := FieldPosting{Field: TextField(f)}
		for d := range tf {
			fp.Docs = append(fp.Docs, d)
		}
		slices.Sort(fp.Docs)
		for _, d := range fp.Docs {
			fp.TFs = append(fp.TFs, uint8(min(tf[d], 255)))
			docs.Add(d)
		}
		posts = append(posts, fp)
	}
	return posts, docs
}

// checkTerms: every term found, its postings, doc frequency and docs; a
// kept bitmap exactly for terms in 32 docs or more (docs/architecture.md:
// "Terms in 32 or more docs also keep a roaring bitmap of their docs";
// TermDocs: "Frequent terms return the segment's bitmap ... rare ones a new
// bitmap").
func checkTerms(t *testing.T, s *Segment, ref *reference) {
	names := expect.Some(t, "reference terms", sortedNames(ref.terms))
	if s.Terms() != len(names) {
		t.Fatalf("Terms() = %d, want %d", s.Terms(), len(names))
	}
	seen := make([]bool, len(names))
	sentinel := FieldPosting{Field: NumTextFields}
	var posts []FieldPosting
	kept, rare := 0, 0
	for _, term := range names {
		id, ok := s.Term(term)
		if !ok {
			t.Fatalf("Term(%q) not found", term)
		}
		if int(id) >= len(seen) || seen[id] {
			t.Fatalf("Term(%q) = %d: out of range or shared", term, id)
		}
		seen[id] = true
		if got := s.TermString(id); got != term {
			t.Fatalf("TermString(%d) = %q, want %q", id, got, term)
		}
		want, docs := ref.terms[term].wantPostings()
		posts = s.TermPostings(id, append(posts[:0], sentinel))
		if posts[0].Field != sentinel.Field || len(posts[0].Docs) != 0 {
			t.Fatalf("TermPostings(%q) overwrote dst", term)
		}
		if !equalPostings(posts[1:], want) {
			t.Fatalf("TermPostings(%q) = %v, want %v", term, posts[1:], want)
		}
		if got := s.DocFreq(id); got != docs.GetCardinality() {
			t.Fatalf("DocFreq(%q) = %d, want %d", term, got, docs.GetCardinality())
		}
		if got := s.TermDocs(id); !got.Equals(docs) {
			t.Fatalf("TermDocs(%q) = %v, want %v", term, got.ToArray(), docs.ToArray())
		}
		frequent := docs.GetCardinality() >= bitmapMinDF
		first, again := s.TermDocs(id), s.TermDocs(id)
		if same := first == again; same != frequent {
			t.Fatalf("TermDocs(%q) in %d docs: the segment's own bitmap %v, want %v", term, docs.GetCardinality(), same, frequent)
		}
		if frequent {
			kept++
		} else {
			rare++
		}
		checkTermInFields(t, s, id, term, want, first)
	}
	if kept < 2 || rare < 2 {
		t.Fatalf("%d frequent and %d rare terms: the corpus does not reach both sides of the bitmap threshold", kept, rare)
	}
	for word, term := range ref.words {
		if _, isTerm := ref.terms[word]; word != term && !isTerm {
			if id, ok := s.Term(word); ok {
				t.Fatalf("Term(%q) = %d, but the word is indexed as %q", word, id, term)
			}
		}
	}
	for _, absent := range []string{"", "~", "zzzzzz", "b"} {
		if id, ok := s.Term(absent); ok {
			t.Fatalf("Term(%q) = %d, not indexed", absent, id)
		}
	}
	// TermsOfLen: "the non-numeric term ids whose length in runes is n".
	// A term the analyzer calls numeric without an ASCII digit (Arabic-
	// Indic digits) may or may not be listed (see the report).
	must, may := map[int][]uint32{}, map[uint32]bool{}
	longest := 0
	for term, rt := range ref.terms {
		id, _ := s.Term(term)
		l := utf8.RuneCountInString(term)
		longest = max(longest, l)
		switch {
		case !rt.num:
			must[l] = append(must[l], id)
			may[id] = true
		case !rt.ascii:
			may[id] = true
		}
	}
	listed := 0
	for l := -2; l <= longest+2; l++ {
		got := s.TermsOfLen(l)
		for _, id := range got {
			if !may[id] || utf8.RuneCountInString(s.TermString(id)) != l {
				t.Fatalf("TermsOfLen(%d) lists %q", l, s.TermString(id))
			}
		}
		for _, id := range must[l] {
			if !slices.Contains(got, id) {
				t.Fatalf("TermsOfLen(%d) misses %q", l, s.TermString(id))
			}
		}
		if len(got) != len(slices.Compact(slices.Sorted(slices.Values(got)))) {
			t.Fatalf("TermsOfLen(%d) lists a term twice", l)
		}
		listed += len(got)
	}
	if listed == 0 || len(must) == 0 {
		t.Fatal("no term of any length listed")
	}
}

// checkTermInFields: TermIn and TermDocsIn see a term's postings in the
// fields of a mask only; with every field the term is in asked, TermDocsIn
// is TermDocs itself (segment.go TermDocsIn: "When every field the term
// occurs in is in m it is TermDocs(id)").
func checkTermInFields(t *testing.T, s *Segment, id uint32, term string, posts []FieldPosting, own *roaring.Bitmap) {
	t.Helper()
	var in FieldMask
	for _, fp := range posts {
		in |= fp.Field.Mask()
	}
	masks := []FieldMask{0, AllFields, in, in &^ posts[0].Field.Mask(), ^in & AllFields, FieldTitle.Mask() | FieldExtra.Mask()}
	for f := range NumTextFields {
		masks = append(masks, f.Mask(), AllFields&^f.Mask())
	}
	for _, m := range masks {
		want := roaring.New()
		for _, fp := range posts {
			if m.Has(fp.Field) {
				want.AddMany(fp.Docs)
			}
		}
		if got := s.TermIn(id, m); got != !want.IsEmpty() {
			t.Fatalf("TermIn(%q, %07b) = %v, want %v", term, m, got, !want.IsEmpty())
		}
		got := s.TermDocsIn(id, m)
		if !got.Equals(want) {
			t.Fatalf("TermDocsIn(%q, %07b) = %v, want %v", term, m, got.ToArray(), want.ToArray())
		}
		if m&in == in && own.GetCardinality() >= bitmapMinDF && got != own {
			t.Fatalf("TermDocsIn(%q, %07b) over every field of the term is not TermDocs", term, m)
		}
	}
}

func equalPostings(a, b []FieldPosting) bool {
	return slices.EqualFunc(a, b, func(x, y FieldPosting) bool {
		return x.Field == y.Field && slices.Equal(x.Docs, y.Docs) && slices.Equal(x.TFs, y.TFs)
	})
}

// checkWords: PrefixTerms reports, in word order, the term of every folded
// word starting with the prefix, and stops when fn returns false.
func checkWords(t *testing.T, s *Segment, ref *reference) {
	words := expect.Some(t, "reference words", sortedNames(ref.words))
	prefixes := map[string]bool{"": true, "~": true, "zzzz": true, "\xff": true}
	for i, w := range words {
		for l := 1; l <= min(2, len(w)); l++ {
			prefixes[w[:l]] = true
		}
		if i%17 == 0 {
			prefixes[w] = true
			prefixes[w+"a"] = true
		}
	}
	matched := expect.Counter{What: "prefixes that match several words", Min: 20}
	for p := range prefixes {
		var want []uint32
		for _, w := range words {
			if strings.HasPrefix(w, p) {
				id, _ := s.Term(ref.words[w])
				want = append(want, id)
			}
		}
		var got []uint32
		s.PrefixTerms(p, func(id uint32) bool { got = append(got, id); return true })
		if !slices.Equal(got, want) {
			t.Fatalf("PrefixTerms(%q) = %d terms %v, want %d %v", p, len(got), got, len(want), want)
		}
		if len(want) > 1 {
			matched.N++
			var first []uint32
			s.PrefixTerms(p, func(id uint32) bool { first = append(first, id); return len(first) < 2 })
			if !slices.Equal(first, want[:2]) {
				t.Fatalf("PrefixTerms(%q) stopping after 2 reported %v", p, first)
			}
		}
	}
	matched.Check(t)
}

// checkLengths: FieldLen is a doc's token count capped at 255; AvgFieldLen
// the mean over docs that have the field (1 when none does).
func checkLengths(t *testing.T, s *Segment, ref *reference) {
	capped, absent := 0, 0
	for f := range NumTextFields {
		got := s.FieldLen(f)
		if len(got) != ref.n {
			t.Fatalf("FieldLen(%v) has %d docs, want %d", f, len(got), ref.n)
		}
		var sum, cnt float64
		for d, l := range ref.fieldLen[f] {
			want := min(l, 255)
			if int(got[d]) != want {
				t.Fatalf("FieldLen(%v)[%d] = %d, want %d", f, d, got[d], want)
			}
			if want > 0 {
				sum += float64(want)
				cnt++
			}
			if l > 255 {
				capped++
			}
			if l == 0 {
				absent++
			}
		}
		want := float32(1)
		if cnt > 0 {
			want = float32(sum / cnt)
		}
		if got := s.AvgFieldLen(f); math.Abs(float64(got-want)) > 1e-5*float64(want) {
			t.Fatalf("AvgFieldLen(%v) = %v, want %v", f, got, want)
		}
	}
	if capped == 0 || absent == 0 {
		t.Fatalf("%d capped and %d absent field lengths: the corpus misses a case", capped, absent)
	}
}

// checkKeywords: values sorted by display form and found by their folded
// form, a bitmap per value, each doc's values, Single, the hierarchy
// links, the chain column and AddChains (docs/architecture.md, Index).
func checkKeywords(t *testing.T, s *Segment, ref *reference) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, name := range expect.Some(t, "keyword fields", sortedNames(ref.keyword)) {
		rk := ref.keyword[name]
		k := s.Keyword(name)
		if k == nil {
			t.Fatalf("Keyword(%q) is nil", name)
		}
		var want []string
		for _, v := range rk.display {
			want = append(want, v)
		}
		slices.Sort(want)
		if !slices.Equal(k.Values, want) {
			t.Fatalf("%s values %q, want %q", name, k.Values, want)
		}
		ids := map[string]uint32{}
		for id, v := range k.Values {
			got, ok := k.Lookup(fold(v))
			if !ok || got != uint32(id) {
				t.Fatalf("%s Lookup(%q) = %d, %v; want %d", name, fold(v), got, ok, id)
			}
			ids[fold(v)] = got
			if bm := k.Bitmaps[id]; !slices.Equal(bm.ToArray(), rk.docs[fold(v)]) {
				t.Fatalf("%s %q docs %v, want %v", name, v, bm.ToArray(), rk.docs[fold(v)])
			}
		}
		if len(k.Bitmaps) != len(want) {
			t.Fatalf("%s has %d bitmaps for %d values", name, len(k.Bitmaps), len(want))
		}
		if _, ok := k.Lookup("no such value"); ok {
			t.Fatalf("%s found a value it does not have", name)
		}
		single := true
		offs, vals := k.Column()
		if len(offs) != ref.n+1 {
			t.Fatalf("%s column has %d offsets for %d docs", name, len(offs), ref.n)
		}
		for d := range uint32(ref.n) {
			var wantIDs []uint32
			for fv := range rk.byDoc[d] {
				wantIDs = append(wantIDs, ids[fv])
			}
			slices.Sort(wantIDs)
			got := k.DocValues(d)
			if !slices.Equal(slices.Sorted(slices.Values(got)), wantIDs) {
				t.Fatalf("%s DocValues(%d) = %v, want %v", name, d, got, wantIDs)
			}
			if !slices.Equal(vals[offs[d]:offs[d+1]], got) {
				t.Fatalf("%s Column for doc %d = %v, DocValues %v", name, d, vals[offs[d]:offs[d+1]], got)
			}
			single = single && len(wantIDs) <= 1
		}
		if k.Single() != single {
			t.Fatalf("%s Single() = %v, want %v", name, k.Single(), single)
		}
		// Hierarchy: every value ends in $; a value's parent is the value
		// one level up, when there is one; depth is the levels.
		hier := true
		for _, v := range k.Values {
			hier = hier && strings.HasSuffix(v, "$")
		}
		parent := make([]int32, len(k.Values))
		for id, v := range k.Values {
			parent[id] = -1
			if !hier {
				continue
			}
			levels := strings.Split(strings.TrimSuffix(v, "$"), "$")
			up := strings.Join(levels[:len(levels)-1], "$") + "$"
			if p, ok := ids[fold(up)]; ok && len(levels) > 1 {
				parent[id] = int32(p)
			}
			if k.Parent[id] != parent[id] || int(k.Depth[id]) != len(levels) {
				t.Fatalf("%s %q: parent %d depth %d, want %d %d", name, v, k.Parent[id], k.Depth[id], parent[id], len(levels))
			}
		}
		if !hier && (k.Parent != nil || k.Depth != nil) {
			t.Fatalf("flat field %s has hierarchy links", name)
		}
		chain := func(v uint32) []uint32 {
			c := []uint32{v}
			for p := parent[v]; p >= 0; p = parent[p] {
				c = append(c, uint32(p))
			}
			slices.Sort(c)
			return c
		}
		col := k.ChainColumn()
		if !hier && !single {
			if col != nil {
				t.Fatalf("%s: a chain column for a flat field with several values a doc", name)
			}
		} else {
			if len(col) != ref.n {
				t.Fatalf("%s chain column has %d docs, want %d", name, len(col), ref.n)
			}
			for d := range uint32(ref.n) {
				dv := slices.Sorted(slices.Values(k.DocValues(d)))
				want := uint16(Multi16)
				if len(dv) == 0 {
					want = NoValue16
				}
				for _, v := range dv {
					if slices.Equal(chain(v), dv) {
						want = uint16(v)
					}
				}
				if col[d] != want {
					t.Fatalf("%s chain column doc %d (values %v) = %d, want %d", name, d, dv, col[d], want)
				}
			}
		}
		// AddChains adds each value's tally to it and to every ancestor.
		for range 3 {
			ends, counts := make([]uint32, len(k.Values)), make([]uint32, len(k.Values))
			want := make([]uint32, len(k.Values))
			for v := range ends {
				counts[v] = uint32(r.IntN(3))
				want[v] += counts[v]
				if r.IntN(4) != 0 {
					ends[v] = uint32(r.IntN(50))
				}
				for _, a := range chain(uint32(v)) {
					want[a] += ends[v]
				}
			}
			k.AddChains(counts, ends)
			if !slices.Equal(counts, want) {
				t.Fatalf("%s AddChains = %v, want %v", name, counts, want)
			}
		}
	}
	if k := s.Keyword("no-such-field"); k != nil {
		t.Fatal("Keyword of an unknown field is not nil")
	}
}

// checkNumbers: values and Has, docs in value order (ties by doc id), the
// quantised column, and Range and Check against a scan of every doc at
// the values' exact bounds.
func checkNumbers(t *testing.T, s *Segment, ref *reference) {
	for _, name := range expect.Some(t, "number fields", sortedNames(ref.numeric)) {
		rn := ref.numeric[name]
		f := s.Numeric(name)
		if f == nil {
			t.Fatalf("Numeric(%q) is nil", name)
		}
		checkNumericField(t, f, rn.val, rn.has, nil)
	}
	if s.Numeric("no-such-field") != nil {
		t.Fatal("Numeric of an unknown field is not nil")
	}
}

// checkNumericField checks f against a column of values (vals[d] counts
// only where has[d]), its ranges at the given bounds or, for nil, at
// rangeBounds.
func checkNumericField(t *testing.T, f *NumericField, vals []float64, has []bool, ranges [][2]float64) {
	t.Helper()
	n := len(vals)
	column := f.Values()
	if len(column) != n || len(f.Quantised()) != n {
		t.Fatalf("%s: %d values and %d quanta for %d docs", f.Name, len(column), len(f.Quantised()), n)
	}
	var withValue []uint32
	for d := range uint32(n) {
		v, ok := f.Value(d)
		switch {
		case ok != has[d]:
			t.Fatalf("%s Value(%d) present %v, want %v", f.Name, d, ok, has[d])
		case ok && v != vals[d]:
			t.Fatalf("%s Value(%d) = %v, want %v", f.Name, d, v, vals[d])
		case ok && column[d] != vals[d], !ok && column[d] != 0:
			t.Fatalf("%s Values()[%d] = %v (present %v)", f.Name, d, column[d], ok)
		}
		if ok {
			withValue = append(withValue, d)
		}
	}
	expect.Some(t, f.Name+" docs with a value", withValue)
	if got := f.Has().ToArray(); !slices.Equal(got, withValue) {
		t.Fatalf("%s Has() = %d docs, want %d", f.Name, len(got), len(withValue))
	}
	order := slices.Clone(withValue)
	slices.SortFunc(order, func(a, b uint32) int { return cmp.Or(cmp.Compare(vals[a], vals[b]), cmp.Compare(a, b)) })
	perm, sorted := f.Sorted()
	if !slices.Equal(perm, order) {
		t.Fatalf("%s Sorted docs differ from the value order (ties by doc id)", f.Name)
	}
	for i, d := range order {
		if sorted[i] != vals[d] {
			t.Fatalf("%s Sorted value %d = %v, want %v", f.Name, i, sorted[i], vals[d])
		}
	}
	// Quantised: position in value order shifted right by one shift for
	// the column, NoValue16 without a value; the shift keeps every
	// position under NoValue16 and wastes no more than one bit.
	q := f.Quantised()
	shift := -1
	for sh := 0; sh < 64 && shift < 0; sh++ {
		if int(q[order[len(order)-1]]) == (len(order)-1)>>sh {
			shift = sh
		}
	}
	last := len(order) - 1
	if shift < 0 || last>>shift >= NoValue16 || shift > 0 && last>>shift < NoValue16/2 {
		t.Fatalf("%s quantised: last position %d holds %d", f.Name, last, q[order[last]])
	}
	for i, d := range order {
		if int(q[d]) != i>>shift {
			t.Fatalf("%s Quantised()[%d] = %d, want position %d >> %d", f.Name, d, q[d], i, shift)
		}
	}
	for d := range n {
		if !has[d] && q[d] != NoValue16 {
			t.Fatalf("%s Quantised()[%d] = %d without a value", f.Name, d, q[d])
		}
	}
	if ranges == nil {
		ranges = rangeBounds(sorted)
	}
	checkRanges(t, f, vals, has, ranges)
}

// rangeBounds is ranges at and around the values at the ends, the middle
// and the edges of 1024-value runs (the smallest bucket): each value as
// an exact bound and the next float either side, ranges below and above
// every value, and reversed ones.
func rangeBounds(sorted []float64) [][2]float64 {
	last := len(sorted) - 1
	pos := []int{0, 1, 2, 3, last - 2, last - 1, last, last / 2, last/2 + 1}
	for b := 1024; b < last; b += 1024 {
		pos = append(pos, b-2, b-1, b, b+1)
	}
	inf := math.Inf(1)
	rs := [][2]float64{{-inf, inf}, {-inf, math.Nextafter(sorted[0], -inf)}, {math.Nextafter(sorted[last], inf), inf}, {sorted[last], sorted[0] - 1}}
	for i, p := range pos {
		p = min(max(p, 0), last)
		lo := sorted[p]
		rs = append(rs, [2]float64{lo, lo}, [2]float64{-inf, lo}, [2]float64{lo, inf})
		for _, q := range pos[i+1:] {
			q = min(max(q, 0), last)
			hi := sorted[q]
			lo, hi := min(lo, hi), max(lo, hi)
			rs = append(rs, [2]float64{lo, hi}, [2]float64{math.Nextafter(lo, inf), hi}, [2]float64{lo, math.Nextafter(hi, -inf)}, [2]float64{hi, lo})
		}
	}
	return rs
}

// checkRanges compares Range (which adds to dst) and Check with a scan.
func checkRanges(t *testing.T, f *NumericField, vals []float64, has []bool, ranges [][2]float64) {
	t.Helper()
	const sentinel = math.MaxUint32 - 1
	nonEmpty, empty := 0, 0
	var want []uint32
	got := roaring.New()
	for _, r := range ranges {
		lo, hi := r[0], r[1]
		want = want[:0]
		c := f.Check(lo, hi)
		for d := range uint32(len(vals)) {
			in := has[d] && vals[d] >= lo && vals[d] <= hi
			if in {
				want = append(want, d)
			}
			if c.Contains(d) != in {
				t.Fatalf("%s Check(%v, %v).Contains(%d) (value %v, present %v) = %v", f.Name, lo, hi, d, vals[d], has[d], !in)
			}
		}
		got.Clear()
		got.Add(sentinel)
		f.Range(lo, hi, got)
		if !got.Contains(sentinel) {
			t.Fatalf("%s Range(%v, %v) dropped what dst held", f.Name, lo, hi)
		}
		got.Remove(sentinel)
		if !slices.Equal(got.ToArray(), want) {
			t.Fatalf("%s Range(%v, %v) = %d docs, want %d", f.Name, lo, hi, got.GetCardinality(), len(want))
		}
		if len(want) > 0 {
			nonEmpty++
		} else {
			empty++
		}
	}
	if nonEmpty < 10 || empty < 3 {
		t.Fatalf("%d ranges with docs, %d without: too few to check", nonEmpty, empty)
	}
}

// checkSorts: SortRank orders docs by their (folded) key, ties sharing a
// rank, docs without a value after every doc with one (segment.go
// SortRank); numeric fields rank by value.
func checkSorts(t *testing.T, s *Segment, ref *reference) {
	fields := 0
	for name, keys := range ref.sorts {
		fields++
		checkRanks(t, name, s.SortRank(name), ref.n, func(d uint32) bool { return keys[d] != "" },
			func(a, b uint32) int { return strings.Compare(keys[a], keys[b]) })
	}
	for name, rn := range ref.numeric {
		fields++
		checkRanks(t, name, s.SortRank(name), ref.n, func(d uint32) bool { return rn.has[d] },
			func(a, b uint32) int { return cmp.Compare(rn.val[a], rn.val[b]) })
	}
	if fields < 3 {
		t.Fatalf("%d sortable fields", fields)
	}
	for name := range ref.keyword {
		if _, isSort := ref.sorts[name]; !isSort && s.SortRank(name) != nil {
			t.Fatalf("keyword field %s has sort ranks", name)
		}
	}
}

func checkRanks(t *testing.T, name string, rank []uint32, n int, has func(uint32) bool, compare func(a, b uint32) int) {
	t.Helper()
	if len(rank) != n {
		t.Fatalf("SortRank(%s) has %d docs, want %d", name, len(rank), n)
	}
	var present, missing []uint32
	for d := range uint32(n) {
		if has(d) {
			present = append(present, d)
		} else {
			missing = append(missing, d)
		}
	}
	expect.Some(t, name+" docs with a sort value", present)
	expect.Some(t, name+" docs without a sort value", missing)
	slices.SortFunc(present, compare)
	ties := 0
	for i := 1; i < len(present); i++ {
		a, b := present[i-1], present[i]
		c := compare(a, b)
		switch {
		case c == 0 && rank[a] != rank[b]:
			t.Fatalf("SortRank(%s): tied docs %d and %d rank %d and %d", name, a, b, rank[a], rank[b])
		case c < 0 && rank[a] >= rank[b]:
			t.Fatalf("SortRank(%s): doc %d ranks %d, not before doc %d's %d", name, a, rank[a], b, rank[b])
		case c == 0:
			ties++
		}
	}
	top := rank[present[len(present)-1]]
	for _, d := range missing {
		if rank[d] != rank[missing[0]] || rank[d] <= top {
			t.Fatalf("SortRank(%s): doc %d without a value ranks %d, docs with one up to %d", name, d, rank[d], top)
		}
	}
	if ties == 0 {
		t.Fatalf("SortRank(%s): no ties to check", name)
	}
}

// randomCorpus is n docs with every case the segment distinguishes:
// stems, words with ASCII and other digits, a word in every doc, terms in
// exactly 31 and 32 docs, in one field and in several, a word repeated
// past the 255 cap, keys that fold together with alternative keys, flat
// single- and multi-valued keyword fields, a hierarchy with chains,
// broken chains and an orphan, numbers with ties, NaN and repeats, text
// sort keys with ties and gaps, and fields whose names prefix others'.
func randomCorpus(seed uint64, n int) []Doc {
	r := rand.New(rand.NewPCG(seed, 99))
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	words := []string{"drill", "drills", "Drilling", "cordless", "hammer", "HAMMERS", "lamp", "lamps", "sofa", "couch",
		"table", "tables", "Søstrene", "café", "cafés", "running", "runner", "blue", "Édith", "edith", "x00", "v9",
		"zx81", "12.5", "SC-141", "٣٤", "a1b2", "ก9", "zz99"}
	brands := []string{"Makita", "Bosch", "Müller", "Søstrene"}
	colors := []string{"Red", "Blue", "Green", "Grey", "Ærø"}
	paths := [][]string{
		{"Home$", "Home$Lamps$"}, {"Tools$"}, {"Tools$", "Tools$Power$"},
		{"Tools$", "Tools$Power$", "Tools$Power$Drills$"}, {"Tools$", "Tools$Hand$"},
		{"Yard$Hoses$"},                    // no Yard$ anywhere: an orphan, its own chain
		{"Tools$Hand$"},                    // a child without its parent: not a chain
		{"Home$", "Home$Lamps$", "Tools$"}, // two chains
		{"Tools$Power$Drills$", "Tools$"},  // a level missing
		{"Home$Lamps$", "Home$", "Home$"},  // repeated, out of order
		{"$", "$Lamps$"},                   // an empty top level: value 0
		{"$Lamps$"},                        // a child of value 0 without it: not a chain
		{},
	}
	docs := make([]Doc, n)
	for i := range docs {
		d := &docs[i]
		switch {
		case i%10 == 0:
			d.Key = fmt.Sprintf("Å-%05d", i)
		case i%3 == 0:
			d.Key = fmt.Sprintf("p-%05d", i)
		default:
			d.Key = fmt.Sprintf("P-%05d", i)
		}
		if i%7 == 0 {
			d.AltKeys = append(d.AltKeys, fmt.Sprintf("V-%05d", i))
		}
		if i%11 == 0 && i+1 < n { // another doc's own key, differently cased
			d.AltKeys = append(d.AltKeys, strings.ToLower(fmt.Sprintf("P-%05d", i+1)), d.Key)
		}
		if i%13 == 0 {
			d.AltKeys = append(d.AltKeys, fmt.Sprintf("Shared-%d", i%5))
		}
		if i%29 != 0 {
			d.Stored = fmt.Appendf(nil, `{"productNumber":%q,"title":"Cordless drill %d","url":"https://shop.example/p/%d"}`, d.Key, i, i)
		}
		d.KeepStored = i%2 == 0

		title := []string{pick(words), pick(words)}
		switch {
		case i < 32:
			title = append(title, "kappa")
		case i < 63:
			title = append(title, "lambda")
		}
		if i%50 == 0 {
			title = append(title, "sigma")
		}
		if i%150 == 0 { // with its category docs: a rare term in two fields
			title = append(title, "tau")
		}
		d.Text[FieldTitle] = []string{strings.Join(title, " ")}
		if i%4 == 0 {
			d.Text[FieldTitle] = append(d.Text[FieldTitle], pick(words))
		}
		if i%9 != 0 {
			b := pick(brands)
			d.Text[FieldBrand] = []string{b}
			d.Keywords = append(d.Keywords, KeywordValue{"brand", b})
		}
		if i%3 != 0 {
			var desc []string
			for range r.IntN(8) {
				desc = append(desc, pick(words))
			}
			if i%60 == 1 || i%150 == 50 { // 50, 200, ...: docs with sigma in the title
				desc = append(desc, "sigma")
			}
			if i%400 == 5 {
				desc = append(desc, strings.Repeat("echo ", 300))
			}
			d.Text[FieldDescription] = []string{strings.Join(desc, " ")}
		}
		d.Text[FieldProductNumber] = []string{d.Key}
		d.Text[FieldExtra] = []string{"aisle"}

		path := paths[r.IntN(len(paths))]
		if i%10 == 0 {
			path = nil
		}
		for _, p := range path {
			d.Keywords = append(d.Keywords, KeywordValue{"cat", p})
		}
		if len(path) > 0 {
			d.Text[FieldCategory] = []string{strings.ReplaceAll(path[len(path)-1], "$", " ")}
		}
		if i%300 == 0 {
			d.Text[FieldCategory] = append(d.Text[FieldCategory], "tau")
		}
		if i%10 != 0 { // the keys last in byte order have no colour
			nc := r.IntN(4)
			if i == 1 { // the first key in byte order holds one colour
				nc = 1
			}
			for range nc {
				c := pick(colors)
				d.Keywords = append(d.Keywords, KeywordValue{"color", c}, KeywordValue{"color", c})
			}
		}
		d.Keywords = append(d.Keywords, KeywordValue{"flag", []string{"yes", "no"}[i%2]})

		if i%5 != 0 {
			v := float64(r.IntN(400))/4 - 20
			switch {
			case i%19 == 0:
				d.Numbers = append(d.Numbers, NumberValue{"price", math.NaN()})
			case i%17 == 0:
				d.Numbers = append(d.Numbers, NumberValue{"price", v}, NumberValue{"price", v + 1})
			}
			d.Numbers = append(d.Numbers, NumberValue{"price", v})
		}
		if i%23 == 0 {
			d.Numbers = append(d.Numbers, NumberValue{"price", math.NaN()})
		}
		if i%2 == 0 {
			d.Numbers = append(d.Numbers, NumberValue{"price2", float64(i % 700)})
		}
		if i%4 != 0 {
			d.Numbers = append(d.Numbers, NumberValue{"date", 1.6e9 + float64(r.IntN(1_000_000))})
		}

		switch {
		case i%16 == 1:
			d.Sort = append(d.Sort, SortValue{"title", ""})
		case i%8 != 0:
			d.Sort = append(d.Sort, SortValue{"title", pick(words) + " " + pick(words)})
		}
		if i%3 == 1 {
			d.Sort = append(d.Sort, SortValue{"title2", pick(brands)})
		}
	}
	return docs
}

// buildShuffled adds docs in a shuffled order and builds.
func buildShuffled(t testing.TB, docs []Doc, seed uint64) (*Segment, *reference) {
	t.Helper()
	added := slices.Clone(docs)
	rand.New(rand.NewPCG(seed, 1)).Shuffle(len(added), func(i, j int) { added[i], added[j] = added[j], added[i] })
	an := analysis.New(analysis.English)
	b := NewBuilder(an)
	for i := range added {
		if err := b.Add(&added[i]); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build(), newReference(an, added)
}

// TestSegmentMatchesReference builds a random catalog (docs added in a
// shuffled order, so ids come from the keys: docs/architecture.md "Dense
// uint32 doc ids in product-number (key byte) order") and compares every
// observable of the segment with the reference model; then the same for
// the segment saved and loaded back (docs/architecture.md: "aisle serve
// loads the saved segment"), and the loaded segment saves to the same
// bytes.
func TestSegmentMatchesReference(t *testing.T) {
	docs := randomCorpus(1, 2600)
	s, ref := buildShuffled(t, docs, 2)
	t.Run("built", func(t *testing.T) { checkSegment(t, s, ref) })
	saved := &memKV{m: map[string][]byte{}}
	if err := s.Save(saved, "x/"); err != nil {
		t.Fatal(err)
	}
	l, err := Load(saved, "x/")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("loaded", func(t *testing.T) { checkSegment(t, l, ref) })
	again := &memKV{m: map[string][]byte{}}
	if err := l.Save(again, "x/"); err != nil {
		t.Fatal(err)
	}
	for _, k := range expect.Some(t, "saved keys", sortedNames(saved.m)) {
		if !bytes.Equal(again.m[k], saved.m[k]) {
			t.Fatalf("key %q saves differently once loaded", k)
		}
	}
	if len(again.m) != len(saved.m) {
		t.Fatalf("the loaded segment saves %d keys, the built one %d", len(again.m), len(saved.m))
	}
}
