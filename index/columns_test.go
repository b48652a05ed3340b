package index

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aisle-search/aisle/analysis"
)

// buildInKeyOrder builds docs added in key order, as a rebuild from the
// store adds them: the fresh build a column update must equal.
func buildInKeyOrder(t testing.TB, docs []Doc) *Segment {
	t.Helper()
	sorted := slices.Clone(docs)
	slices.SortFunc(sorted, func(a, b Doc) int { return strings.Compare(a.Key, b.Key) })
	b := NewBuilder(analysis.New(analysis.English))
	for i := range sorted {
		if err := b.Add(&sorted[i]); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

// sameSegment fails unless a and b answer alike: every key Save writes is
// equal but the stored docs, which are compared decoded (each segment
// compresses them with a dictionary of its own), and the dictionary.
func sameSegment(t *testing.T, what string, got, want *Segment) {
	t.Helper()
	g, w := &memKV{m: map[string][]byte{}}, &memKV{m: map[string][]byte{}}
	if err := got.Save(g, "x/"); err != nil {
		t.Fatal(err)
	}
	if err := want.Save(w, "x/"); err != nil {
		t.Fatal(err)
	}
	skip := func(k string) bool { return strings.HasPrefix(k, "x/"+kDoc) || k == "x/"+kDict }
	// The meta's stored size depends on the compression, as the docs do.
	for _, kv := range []*memKV{g, w} {
		var m map[string]any
		if err := json.Unmarshal(kv.m["x/"+kMeta], &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "storedBytes")
		kv.m["x/"+kMeta], _ = json.Marshal(m)
	}
	for _, k := range sortedNames(w.m) {
		if !skip(k) && !bytes.Equal(g.m[k], w.m[k]) {
			t.Fatalf("%s: key %q differs from a fresh build's:\ngot  %.300q\nwant %.300q", what, k, g.m[k], w.m[k])
		}
	}
	for _, k := range sortedNames(g.m) {
		if _, ok := w.m[k]; !ok && !skip(k) {
			t.Fatalf("%s: key %q is not in a fresh build", what, k)
		}
	}
	if got.Len() != want.Len() {
		t.Fatalf("%s: %d docs, want %d", what, got.Len(), want.Len())
	}
	for d := range uint32(want.Len()) {
		if got.Key(d) != want.Key(d) || !bytes.Equal(got.Stored(d), want.Stored(d)) {
			t.Fatalf("%s: doc %d is %s %q, want %s %q", what, d, got.Key(d), got.Stored(d), want.Key(d), want.Stored(d))
		}
	}
}

// changeColumns gives k random docs of docs (in key order) new keyword
// and number values and stored JSON, drawn so every kind of column change
// happens: values swapped with another doc's, a value dropped, a new
// value, a display form in another case, a number moved or removed.
func changeColumns(r *rand.Rand, docs []Doc, k int) []ColumnChange {
	var changes []ColumnChange
	// Half among the first docs, which hold most values first and so set
	// their display forms.
	picked := map[int]bool{}
	for len(picked) < k {
		if r.IntN(2) == 0 {
			picked[r.IntN(min(30, len(docs)))] = true
		} else {
			picked[r.IntN(len(docs))] = true
		}
	}
	order := slices.Sorted(maps.Keys(picked))
	r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	for _, d := range order {
		src := &docs[r.IntN(len(docs))]
		kws := slices.Clone(docs[d].Keywords)
		nums := slices.Clone(docs[d].Numbers)
		switch r.IntN(8) {
		case 0:
			kws, nums = slices.Clone(src.Keywords), slices.Clone(src.Numbers)
		case 1:
			if len(kws) > 0 {
				kws = slices.Delete(kws, 0, 1)
			}
		case 2:
			kws = append(kws, KeywordValue{"brand", fmt.Sprintf("Brand %d", r.IntN(3))})
		case 3:
			for i := range kws {
				kws[i].Value = strings.ToUpper(kws[i].Value)
			}
		case 4:
			nums = append([]NumberValue{{"price", float64(r.IntN(100))}}, nums...)
		case 5:
			nums = nil
		case 6:
			kws = append(kws, KeywordValue{"stock", []string{"true", "false"}[r.IntN(2)]})
		case 7:
			if len(kws) > 0 {
				kws = kws[:len(kws)-1]
			}
		}
		stored := fmt.Appendf(nil, `{"productNumber":%q,"price":%d}`, docs[d].Key, r.IntN(1000))
		changes = append(changes, ColumnChange{Doc: uint32(d), Keywords: kws, Numbers: nums, Stored: stored})
	}
	return changes
}

// applyColumns is docs (in key order) with changes made.
func applyColumns(docs []Doc, changes []ColumnChange) []Doc {
	out := slices.Clone(docs)
	for _, c := range changes {
		d := &out[c.Doc]
		d.Keywords, d.Numbers, d.Stored = c.Keywords, c.Numbers, c.Stored
	}
	return out
}

// TestWithColumnsEqualsFreshBuild: round after round of random column
// changes, the updated segment equals a fresh build of the changed docs
// (every saved key, every stored doc, every observable of the reference
// model), saves and loads back to the same, and leaves the segment it
// came from as it was.
func TestWithColumnsEqualsFreshBuild(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	docs := randomCorpus(3, 900)
	slices.SortFunc(docs, func(a, b Doc) int { return strings.Compare(a.Key, b.Key) })
	// Mixed display forms of one value, so which doc holds it first
	// decides its display.
	for i := range docs {
		kws := slices.Clone(docs[i].Keywords)
		for j := range kws {
			switch r.IntN(3) {
			case 0:
				kws[j].Value = strings.ToUpper(kws[j].Value)
			case 1:
				kws[j].Value = strings.ToLower(kws[j].Value)
			}
		}
		docs[i].Keywords = kws
	}
	s := buildInKeyOrder(t, docs)
	an := analysis.New(analysis.English)
	for round := range 12 {
		before := &memKV{m: map[string][]byte{}}
		if err := s.Save(before, "x/"); err != nil {
			t.Fatal(err)
		}
		changes := changeColumns(r, docs, 1+r.IntN(25))
		cur := docs
		u, err := s.WithColumns(changes, func(doc uint32) ([]KeywordValue, error) { return cur[doc].Keywords, nil })
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		docs = applyColumns(docs, changes)
		what := fmt.Sprintf("round %d (%d changes)", round, len(changes))
		sameSegment(t, what, u, buildInKeyOrder(t, docs))
		checkSegment(t, u, newReference(an, docs))
		after := &memKV{m: map[string][]byte{}}
		if err := s.Save(after, "x/"); err != nil {
			t.Fatal(err)
		}
		for k, v := range before.m {
			if !bytes.Equal(after.m[k], v) {
				t.Fatalf("%s: the old segment changed at %q", what, k)
			}
		}
		saved := &memKV{m: map[string][]byte{}}
		if err := u.Save(saved, "x/"); err != nil {
			t.Fatal(err)
		}
		l, err := Load(saved, "x/")
		if err != nil {
			t.Fatalf("%s: load: %v", what, err)
		}
		sameSegment(t, what+", loaded", l, u)
		s = u
		if round%4 == 3 {
			s = l // later rounds start from a loaded segment too
		}
	}
}

// TestWithColumnsRefuses: a doc out of range or changed twice is an
// ErrColumnChange, and a display form that must come from a doc's own
// values needs DocKeywords.
func TestWithColumnsRefuses(t *testing.T) {
	docs := []Doc{
		{Key: "A", Keywords: []KeywordValue{{"brand", "MAKITA"}}, Stored: []byte(`{}`)},
		{Key: "B", Keywords: []KeywordValue{{"brand", "Makita"}}, Stored: []byte(`{}`)},
	}
	for i := range docs {
		docs[i].Text[FieldTitle] = []string{"drill"}
	}
	s := buildInKeyOrder(t, docs)
	for _, changes := range [][]ColumnChange{{{Doc: 2}}, {{Doc: 0}, {Doc: 0}}} {
		if _, err := s.WithColumns(changes, nil); !errors.Is(err, ErrColumnChange) {
			t.Errorf("%+v: %v, want ErrColumnChange", changes, err)
		}
	}
	// A loses MAKITA: B's own form, Makita, is the display now.
	drop := []ColumnChange{{Doc: 0, Stored: []byte(`{}`)}}
	if _, err := s.WithColumns(drop, nil); !errors.Is(err, ErrColumnChange) {
		t.Errorf("without DocKeywords: %v, want ErrColumnChange", err)
	}
	u, err := s.WithColumns(drop, func(doc uint32) ([]KeywordValue, error) { return docs[doc].Keywords, nil })
	if err != nil {
		t.Fatal(err)
	}
	if v := u.Keyword("brand").Values; !slices.Equal(v, []string{"Makita"}) {
		t.Errorf("brand values %q, want B's Makita", v)
	}
}

// BenchmarkWithColumns: one price change at 100,000 docs, against the
// fresh build it replaces.
func BenchmarkWithColumns(b *testing.B) {
	docs := randomCorpus(4, 100000)
	slices.SortFunc(docs, func(a, c Doc) int { return strings.Compare(a.Key, c.Key) })
	s := buildInKeyOrder(b, docs)
	c := []ColumnChange{{Doc: 500, Keywords: docs[500].Keywords, Numbers: []NumberValue{{"price", 12.5}}, Stored: docs[500].Stored}}
	b.Run("WithColumns", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.WithColumns(c, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Build", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buildInKeyOrder(b, docs)
		}
	})
}

// TestWithColumnsDisplayForms: a value's display form is the first doc's
// (in key order) that holds it, as in a fresh build: a first holder that
// changes only the case of its value changes the display; one that
// drops the value hands it to the next holder's own form.
func TestWithColumnsDisplayForms(t *testing.T) {
	docs := []Doc{
		{Key: "A", Keywords: []KeywordValue{{"brand", "MAKITA"}}, Stored: []byte(`{"a":1}`)},
		{Key: "B", Keywords: []KeywordValue{{"brand", "Makita"}}, Stored: []byte(`{"b":1}`)},
		{Key: "C", Keywords: []KeywordValue{{"brand", "makita"}}, Stored: []byte(`{"c":1}`)},
	}
	for i := range docs {
		docs[i].Text[FieldTitle] = []string{"drill"}
	}
	s := buildInKeyOrder(t, docs)
	for _, tc := range []struct {
		name   string
		change ColumnChange
		want   string
	}{
		{"the first holder recases", ColumnChange{Doc: 0, Keywords: []KeywordValue{{"brand", "MaKiTa"}}, Stored: []byte(`{}`)}, "MaKiTa"},
		{"the first holder drops it", ColumnChange{Doc: 0, Stored: []byte(`{}`)}, "Makita"},
		{"a later holder recases", ColumnChange{Doc: 1, Keywords: []KeywordValue{{"brand", "mAKITA"}}, Stored: []byte(`{}`)}, "MAKITA"},
	} {
		u, err := s.WithColumns([]ColumnChange{tc.change}, func(doc uint32) ([]KeywordValue, error) { return docs[doc].Keywords, nil })
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if v := u.Keyword("brand").Values; !slices.Equal(v, []string{tc.want}) {
			t.Errorf("%s: brand values %q, want %q", tc.name, v, tc.want)
		}
		sameSegment(t, tc.name, u, buildInKeyOrder(t, applyColumns(docs, []ColumnChange{tc.change})))
	}
}

// TestStoredOverlayFlattens: past overlayMax replaced docs the stored docs
// are laid out again, every doc as the overlay had it, each keeping its
// title hashes through the column changes, the member names counted.
func TestStoredOverlayFlattens(t *testing.T) {
	raw := make([][]byte, 10000)
	for i := range raw {
		raw[i] = fmt.Appendf(nil, `{"productNumber":"P%05d","title":"thing %d","url":"https://shop.example/p/%d"}`, i, i, i)
	}
	titles := testTitleHashes(len(raw))
	sd := compressDocs(raw, titles)
	var changes []ColumnChange
	for d := range uint32(overlayMax(len(raw)) + 1) {
		changes = append(changes, ColumnChange{Doc: d, Stored: fmt.Appendf(nil, `{"new":%d,"title":"a longer title than the one it replaces"}`, d)})
	}
	out := sd.withDocs(changes[:10], uint32(len(raw)))
	if out.over.size() != 10 {
		t.Fatalf("10 changes: overlay of %d", out.over.size())
	}
	out = out.withDocs(changes[10:], uint32(len(raw)))
	if out.over != nil {
		t.Fatalf("%d changes: overlay of %d, want it flattened", len(changes), out.over.size())
	}
	if cap(out.data) != len(out.data) {
		t.Errorf("flattened into %d bytes of an arena of %d: want it sized exactly (growing copies every doc again)", len(out.data), cap(out.data))
	}
	for d := range uint32(len(raw)) {
		want := raw[d]
		if int(d) < len(changes) {
			want = changes[d].Stored
		}
		if got := out.appendDoc(nil, d); !bytes.Equal(got, want) {
			t.Fatalf("doc %d: %s, want %s", d, got, want)
		}
		if got := out.titleHashes(d); !bytes.Equal(got, titles[d]) {
			t.Fatalf("doc %d: title hashes %x, want %x", d, got, titles[d])
		}
	}
	n := len(changes)
	want := map[string]int{"new": n, "title": len(raw), "productNumber": len(raw) - n, "url": len(raw) - n}
	if got := out.names.Counts(); !maps.Equal(got, want) {
		t.Errorf("flattened: member names %v, want %v", got, want)
	}
}

// testTitleHashes is n docs' title hashes, terms' then forms': doc i
// has i%5 words.
func testTitleHashes(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		for w := range i % 5 {
			out[i] = appendTitleHash(out[i], uint16(i*7+w))
		}
		for w := range i % 5 {
			out[i] = appendTitleHash(out[i], uint16(i*11+w))
		}
	}
	return out
}

// TestWithColumnsNumericBuckets: with several buckets (over 65,536 docs
// with a value), a column update rebuilds the buckets it moves docs
// through and keeps the others, and ranges answer as a scan does: a doc
// moved far, one that keeps its place with a new value, one that loses
// its value, one that gains one.
func TestWithColumnsNumericBuckets(t *testing.T) {
	const n = 70000
	docs := make([]Doc, n)
	vals, has := make([]float64, n), make([]bool, n)
	for i := range docs {
		docs[i] = Doc{Key: fmt.Sprintf("P%06d", i), Stored: []byte(`{}`)}
		docs[i].Text[FieldTitle] = []string{"thing"}
		if i%50 != 7 {
			vals[i], has[i] = float64(i%1000)*2, true // even values: room between
			docs[i].Numbers = []NumberValue{{"price", vals[i]}}
		}
	}
	s := buildInKeyOrder(t, docs)
	type set struct {
		doc int
		v   float64
		ok  bool
	}
	for round, sets := range [][]set{
		{{3, 1990, true}},                   // 6 → 1990: moves far
		{{69005, 10.5, true}},               // 10 → 10.5: the last 10, so the same place
		{{1003, 6.5, true}, {20, 0, false}}, // 6 → 6.5; 40 → no value
		{{7, 3, true}},                      // had none
		{{1000, 4, true}, {1002, 0, true}},  // 0 and 4 swap: the same values in order, other docs
	} {
		var changes []ColumnChange
		var bounds []float64
		for _, st := range sets {
			bounds = append(bounds, vals[st.doc], st.v)
			vals[st.doc], has[st.doc] = st.v, st.ok
			c := ColumnChange{Doc: uint32(st.doc), Stored: []byte(`{}`)}
			if st.ok {
				c.Numbers = []NumberValue{{"price", st.v}}
			}
			changes = append(changes, c)
		}
		var err error
		if s, err = s.WithColumns(changes, nil); err != nil {
			t.Fatal(err)
		}
		ranges := [][2]float64{{math.Inf(-1), math.Inf(1)}, {0, 100}, {500, 900}, {1000, 1500}, {1990, 1998}, {2, 2}, {11, 11}, // some docs
			{-10, -5}, {3000, 4000}, {1998.5, 1999}, {9, 9}} // none
		for _, b := range bounds {
			ranges = append(ranges, [2]float64{b, b}, [2]float64{math.Inf(-1), b}, [2]float64{b, math.Inf(1)}, [2]float64{b - 1, b + 1})
		}
		t.Run(fmt.Sprint("round ", round), func(t *testing.T) { checkRanges(t, s.Numeric("price"), vals, has, ranges) })
	}
}

// TestStoredOverlayVersions: docs derived one from another share one
// overlay, and each sees its own version of every doc, before and after
// later writes; a write derived from a doc set that is not the newest
// (a sibling) sees its parent's docs, not the sibling's; readers run
// beside the writes (the race detector watches).
func TestStoredOverlayVersions(t *testing.T) {
	raw := make([][]byte, 100)
	for i := range raw {
		raw[i] = fmt.Appendf(nil, `{"productNumber":"P%03d","title":"thing %d"}`, i, i)
	}
	sd := compressDocs(raw, testTitleHashes(len(raw)))
	put := func(doc uint32, s string) ColumnChange { return ColumnChange{Doc: doc, Stored: []byte(s)} }
	want := func(name string, sd storedDocs, docs map[uint32]string) {
		t.Helper()
		for d := range uint32(sd.count()) {
			w, ok := docs[d]
			if !ok {
				w = string(raw[d])
			}
			if got := sd.appendDoc(nil, d); string(got) != w {
				t.Errorf("%s: doc %d is %s, want %s", name, d, got, w)
			}
		}
	}
	stop := make(chan struct{})
	var readers sync.WaitGroup
	a := sd.withDocs([]ColumnChange{put(1, `{"a":1}`)}, 100)
	readers.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				a.appendDoc(nil, 1)
				a.appendDoc(nil, 2)
			}
		}
	})
	b := a.withDocs([]ColumnChange{put(1, `{"b":1}`), put(2, `{"b":2}`)}, 100)
	c := a.withDocs([]ColumnChange{put(2, `{"c":2}`)}, 100) // a sibling of b
	d := b.withDocs([]ColumnChange{put(100, `{"d":100}`)}, 101)
	close(stop)
	readers.Wait()
	want("the base", sd, nil)
	want("a", a, map[uint32]string{1: `{"a":1}`})
	want("b", b, map[uint32]string{1: `{"b":1}`, 2: `{"b":2}`})
	want("c, b's sibling", c, map[uint32]string{1: `{"a":1}`, 2: `{"c":2}`})
	want("d, one doc more", d, map[uint32]string{1: `{"b":1}`, 2: `{"b":2}`, 100: `{"d":100}`})
	if b.count() != 100 || d.count() != 101 {
		t.Errorf("b holds %d docs, d %d: want 100 and 101", b.count(), d.count())
	}
	if a.over != b.over || c.over == b.over {
		t.Errorf("b should share a's overlay, and c (not derived from the newest) have its own")
	}
}
