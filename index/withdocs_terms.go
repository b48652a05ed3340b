package index

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/RoaringBitmap/roaring/v2"
)

// The terms of a doc write (WithDocs): what the write does to each term
// (termEdits), then out's dictionary and postings made in one pass over
// s's terms with the fresh ones merged in (termMerge), each term kept,
// edited or dropped; then the typo lists and the words, remapped to the
// new term ids.

// termEdit is what a write does to one term: the removed docs holding it
// (by field) and the added docs' postings.
type termEdit struct {
	old     int32 // id in s, -1 for a term s lacks
	remDF   uint32
	remOf   FieldMask // fields where a removed doc holds it
	added   []FieldPosting
	addedDF uint32
}

// newDF is the term's doc count after the write, given its count in s
// (0 for a term s lacks).
func (e *termEdit) newDF(df uint32) uint32 { return df - e.remDF + e.addedDF }

// terms makes out's dictionary, postings, words and typo lists.
func (w *docWrite) terms(s, out *Segment) error {
	edits, fresh, err := w.termEdits(s)
	if err != nil {
		return err
	}
	m := newTermMerge(w, s, out, fresh)
	m.merge(newOldEdits(edits, s.terms.len()), edits, fresh)
	m.p.dense = remapDense(s.post.dense, m.remap)
	m.p.setLiveDense(int(out.n))
	out.post = m.p
	out.byLen, out.typo = remapByLen(s.byLen, m.remap, m.freshIDs, fresh), newTypoHolder()
	w.words(s, out, m.remap)
	return nil
}

// termEdits is the edit of every term a removed or added doc holds, by
// the term, and the terms s lacks (fresh), sorted.
func (w *docWrite) termEdits(s *Segment) (edits map[string]*termEdit, fresh []string, err error) {
	edits = map[string]*termEdit{}
	if err := w.removedTerms(s, edits); err != nil {
		return nil, nil, err
	}
	return edits, w.addedTerms(s, edits), nil
}

// removedTerms adds to edits the removed docs' terms: each one's id in
// s, how many removed docs hold it and in which fields. A removed doc
// holding a term s lacks is ErrDocChange (its DocSource disagrees with
// the segment).
func (w *docWrite) removedTerms(s *Segment, edits map[string]*termEdit) error {
	var posts []FieldPosting
	for t := range w.rem.terms.len() {
		str := w.rem.terms.at(t)
		id, ok := s.terms.find(str)
		if !ok {
			return fmt.Errorf("%w: a removed doc holds %q, which the segment lacks", ErrDocChange, str)
		}
		e := &termEdit{old: int32(id), remDF: w.rem.post.df[t]}
		posts = w.rem.TermPostings(uint32(t), posts[:0])
		for _, fp := range posts {
			e.remOf |= 1 << fp.Field
		}
		edits[str] = e
	}
	return nil
}

// addedTerms adds the added docs' postings (at their ids in out) to
// edits and returns the terms s lacks, sorted (the added segment's
// dictionary is).
func (w *docWrite) addedTerms(s *Segment, edits map[string]*termEdit) []string {
	var fresh []string
	for t := range w.add.terms.len() {
		str := w.add.terms.at(t)
		e := edits[str]
		if e == nil {
			e = &termEdit{old: -1}
			if id, ok := s.terms.find(str); ok {
				e.old = int32(id)
			} else {
				fresh = append(fresh, str)
			}
			edits[str] = e
		}
		e.addedDF = w.add.post.df[t]
		for _, fp := range w.add.TermPostings(uint32(t), nil) {
			docs := make([]uint32, len(fp.Docs))
			for i, d := range fp.Docs {
				docs[i] = s.n + d
			}
			e.added = append(e.added, FieldPosting{Field: fp.Field, Docs: docs, TFs: fp.TFs})
		}
	}
	return fresh
}

// oldEdits finds the edit of s's term by its id, with a bit test rather
// than a lookup for each term no edit touches.
type oldEdits struct {
	byOld   map[int32]*termEdit
	touched []uint64 // bitset over s's term ids
}

// newOldEdits indexes the edits of s's terms (of terms terms) by id.
func newOldEdits(edits map[string]*termEdit, terms int) oldEdits {
	o := oldEdits{byOld: make(map[int32]*termEdit, len(edits)), touched: make([]uint64, (terms+63)/64)}
	for _, e := range edits {
		if e.old >= 0 {
			o.byOld[e.old] = e
		}
	}
	for id := range o.byOld {
		o.touched[id/64] |= 1 << (id % 64)
	}
	return o
}

// at is the edit of s's term id, nil when the write leaves it alone.
func (o *oldEdits) at(id int) *termEdit {
	if o.touched[id/64]&(1<<(id%64)) == 0 {
		return nil
	}
	return o.byOld[int32(id)]
}

// termMerge makes out's dictionary and postings from s's: s's terms in
// order with the fresh ones merged in, each kept (untouched), edited, or
// dropped (no live doc holds it any more).
type termMerge struct {
	w        *docWrite
	s, out   *Segment
	p        postings // out's, being made
	remap    []uint32 // s's term id → out's, MaxUint32 when dropped
	freshIDs []uint32 // out's ids of the fresh terms, in order
}

// newTermMerge starts out's dictionary and postings, sized for s's terms
// and the fresh ones. The base arena is s's, shared: a kept span points
// into it unchanged; tail spans are written to out's tail arena.
func newTermMerge(w *docWrite, s, out *Segment, fresh []string) termMerge {
	total := s.terms.len() + len(fresh)
	out.terms = newDict(total, len(s.terms.text)+len(strings.Join(fresh, "")))
	m := termMerge{w: w, s: s, out: out, remap: make([]uint32, s.terms.len()), p: postings{
		spanOff: make([]uint32, 1, total+1),
		spans:   make([]postSpan, 0, len(s.post.spans)+len(fresh)),
		docs:    s.post.docs,
		tfs:     s.post.tfs,
		df:      make([]uint32, 0, total),
		bitmaps: make([]*roaring.Bitmap, 0, total),
	}}
	if out.live != out.n {
		m.p.live = out.all
	}
	return m
}

// merge adds every term of out in order: s's terms (edits by oldEdits)
// and the fresh ones (edits by the term) between them.
func (m *termMerge) merge(old oldEdits, edits map[string]*termEdit, fresh []string) {
	j := 0
	for id := range m.s.terms.len() {
		str := m.s.terms.at(id)
		for j < len(fresh) && fresh[j] < str {
			m.addFresh(fresh[j], edits[fresh[j]])
			j++
		}
		e := old.at(id)
		if e != nil && e.newDF(m.s.post.df[id]) == 0 {
			m.remap[id] = math.MaxUint32
			continue
		}
		m.remap[id] = uint32(m.out.terms.len())
		m.out.terms.add(str)
		if e == nil {
			m.keep(id)
		} else {
			m.edit(e, id)
		}
	}
	for ; j < len(fresh); j++ {
		m.addFresh(fresh[j], edits[fresh[j]])
	}
}

// addFresh adds a term s lacks, its postings the added docs'.
func (m *termMerge) addFresh(str string, e *termEdit) {
	m.freshIDs = append(m.freshIDs, uint32(m.out.terms.len()))
	m.out.terms.add(str)
	m.edit(e, -1)
}

// keep adds s's term old, which the write leaves alone: its base spans
// as they are, its tail spans' docs moved to out's tail arena, its doc
// count and bitmap s's.
func (m *termMerge) keep(old int) {
	s, p := m.s, &m.p
	for _, sp := range s.post.spans[s.post.spanOff[old]:s.post.spanOff[old+1]] {
		if sp.start&tailSpan != 0 {
			docs, tfs := s.post.spanDocs(sp)
			sp.start = uint32(len(p.tdocs)) | tailSpan
			p.tdocs, p.ttfs = append(p.tdocs, docs...), append(p.ttfs, tfs...)
		}
		p.spans = append(p.spans, sp)
	}
	p.spanOff = append(p.spanOff, uint32(len(p.spans)))
	p.df = append(p.df, s.post.df[old])
	p.bitmaps = append(p.bitmaps, s.post.bitmaps[old])
}

// edit adds a term the write changes: s's term old (-1 for a fresh one)
// with e applied to its spans, doc count and bitmap.
func (m *termMerge) edit(e *termEdit, old int) {
	var spans []postSpan
	df := uint32(0)
	if old >= 0 {
		spans = m.s.post.spans[m.s.post.spanOff[old]:m.s.post.spanOff[old+1]]
		df = m.s.post.df[old]
	}
	df = e.newDF(df)
	from := len(m.p.spans)
	m.editSpans(e, spans)
	m.p.spanOff = append(m.p.spanOff, uint32(len(m.p.spans)))
	m.p.df = append(m.p.df, df)
	m.p.bitmaps = append(m.p.bitmaps, m.editBitmap(e, old, df, m.p.spans[from:]))
}

// editSpans appends an edited term's spans: of s's spans (spans), the
// base ones a live doc is still in, as they are; then one tail span per
// field, of s's tail docs the write keeps and the added docs.
func (m *termMerge) editSpans(e *termEdit, spans []postSpan) {
	s, p := m.s, &m.p
	var tail [NumTextFields][2][]uint32 // per field: docs, tfs (as uint32)
	var tailTF [NumTextFields][]uint8
	for _, sp := range spans {
		docs, tfs := s.post.spanDocs(sp)
		if sp.start&tailSpan == 0 {
			if e.remOf.Has(sp.field) && !m.w.anyLive(s, docs) {
				continue
			}
			p.spans = append(p.spans, sp)
			continue
		}
		for i, d := range docs {
			if !m.w.isGone(d) {
				tail[sp.field][0] = append(tail[sp.field][0], d)
				tailTF[sp.field] = append(tailTF[sp.field], tfs[i])
			}
		}
	}
	for _, fp := range e.added {
		tail[fp.Field][0] = append(tail[fp.Field][0], fp.Docs...)
		tailTF[fp.Field] = append(tailTF[fp.Field], fp.TFs...)
	}
	for f := range tail {
		if docs := tail[f][0]; len(docs) > 0 {
			p.spans = append(p.spans, postSpan{start: uint32(len(p.tdocs)) | tailSpan, n: uint32(len(docs)), field: TextField(f)})
			p.tdocs, p.ttfs = append(p.tdocs, docs...), append(p.ttfs, tailTF[f]...)
		}
	}
}

// editBitmap is an edited term's docs bitmap, nil below bitmapMinDF
// docs: s's without the removed docs and with the added ones when s kept
// one, else made from the term's new spans (a doc of a kept base span
// may be a hole: only out's docs count).
func (m *termMerge) editBitmap(e *termEdit, old int, df uint32, spans []postSpan) *roaring.Bitmap {
	if df < bitmapMinDF {
		return nil
	}
	var bm *roaring.Bitmap
	if old >= 0 && m.s.post.bitmaps[old] != nil {
		bm = m.s.post.bitmaps[old].Clone()
		bm.AndNot(m.w.goneBM)
		for _, fp := range e.added {
			bm.AddMany(fp.Docs)
		}
	} else {
		bm = roaring.New()
		for _, sp := range spans {
			docs, _ := m.p.spanDocs(sp)
			bm.AddMany(docs)
		}
		bm.And(m.out.all)
	}
	bm.RunOptimize()
	return bm
}

// anyLive reports whether a removed doc's base list still holds a live
// doc: one this write keeps that is not a hole of an earlier write.
func (w *docWrite) anyLive(s *Segment, docs []uint32) bool {
	for _, d := range docs {
		if !w.isGone(d) && s.all.Contains(d) {
			return true
		}
	}
	return false
}

// remapByLen is the typo lists with old ids remapped (dropped ones
// left out) and the fresh terms merged in.
func remapByLen(old [][]uint32, remap, freshIDs []uint32, fresh []string) [][]uint32 {
	out := make([][]uint32, len(old))
	for l, ids := range old {
		list := make([]uint32, 0, len(ids))
		for _, id := range ids {
			if r := remap[id]; r != math.MaxUint32 {
				list = append(list, r)
			}
		}
		out[l] = list
	}
	for i, t := range fresh {
		if hasDigit(t) {
			continue
		}
		l := utf8.RuneCountInString(t)
		for len(out) <= l {
			out = append(out, nil)
		}
		ids := out[l]
		at, _ := slices.BinarySearch(ids, freshIDs[i])
		out[l] = slices.Insert(ids, at, freshIDs[i])
	}
	for len(out) > 0 && len(out[len(out)-1]) == 0 {
		out = out[:len(out)-1]
	}
	return out
}

// words makes out's words: s's with the removed docs' counts taken off
// (a word at 0 leaves) and the added docs' words merged in, each pointing
// to its term's new id.
func (w *docWrite) words(s, out *Segment, remap []uint32) {
	delta := map[int]int64{} // by s's word id
	for i := range w.rem.surfaces.len() {
		if id, ok := s.surfaces.find(w.rem.surfaces.at(i)); ok {
			delta[id] -= int64(w.rem.surfaceDF[i])
		}
	}
	type freshWord struct {
		word string
		term uint32
		df   uint32
	}
	var fresh []freshWord
	for i := range w.add.surfaces.len() {
		word := w.add.surfaces.at(i)
		if id, ok := s.surfaces.find(word); ok {
			delta[id] += int64(w.add.surfaceDF[i])
			continue
		}
		id, _ := out.terms.find(w.add.terms.at(int(w.add.surfaceTerm[i])))
		fresh = append(fresh, freshWord{word, uint32(id), w.add.surfaceDF[i]})
	}
	n := s.surfaces.len() + len(fresh)
	out.surfaces = newDict(n, len(s.surfaces.text))
	out.surfaceTerm = make([]uint32, 0, n)
	out.surfaceDF = make([]uint32, 0, n)
	add := func(word string, term, df uint32) {
		out.surfaces.add(word)
		out.surfaceTerm = append(out.surfaceTerm, term)
		out.surfaceDF = append(out.surfaceDF, df)
	}
	j := 0
	for i := range s.surfaces.len() {
		word := s.surfaces.at(i)
		for j < len(fresh) && fresh[j].word < word {
			add(fresh[j].word, fresh[j].term, fresh[j].df)
			j++
		}
		df := int64(s.surfaceDF[i])
		if len(delta) > 0 {
			df += delta[i]
		}
		if df <= 0 {
			continue
		}
		add(word, remap[s.surfaceTerm[i]], uint32(df))
	}
	for ; j < len(fresh); j++ {
		add(fresh[j].word, fresh[j].term, fresh[j].df)
	}
}
