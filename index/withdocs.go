package index

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/analysis"
)

// Doc writes: WithDocs makes the segment with some docs removed and
// others added without indexing the rest again. A removed doc's id
// becomes a hole: it leaves every candidate set (All, the term bitmaps,
// the keyword and number columns) and its terms' doc counts, and stays
// in the base postings, where no candidate meets it. An added doc takes
// the next id whatever its key, its postings go to the tail arena, and
// Order ranks the docs in key order so ties break as a fresh build's do.
// The dictionary, the words and their doc counts, the field length
// means, the keys and every column come out as a fresh Build of the
// live docs would make them (index/withdocs_test.go holds it to that).
// Save writes the result compacted (Compact): doc ids in key order, no
// holes, as a fresh build of the same docs saves.

// DocSource gives the Doc a live doc of the segment was indexed from
// (an engine decodes it from the stored JSON): WithDocs analyses a
// removed doc again to find its terms and words, and reads the sort and
// keyword values it needs to place added docs among the others.
type DocSource func(doc uint32) (*Doc, error)

// ErrDocChange marks a removal or addition WithDocs cannot apply (a doc
// out of range or removed twice, a DocSource that disagrees with the
// segment): nothing is made.
var ErrDocChange = errors.New("invalid doc change")

// WithDocs returns the segment without the removed docs and with the
// added ones, analysed with an (the analyzer the segment was built
// with); s is unchanged and stays valid. An added doc's key must not be
// a live doc's, unless that doc is removed (an update), else
// ErrDuplicateKey.
func (s *Segment) WithDocs(an *analysis.Analyzer, removed []uint32, added []Doc, src DocSource) (*Segment, error) {
	w, err := s.newDocWrite(an, removed, added, src)
	if err != nil {
		return nil, err
	}
	out := *s
	out.n = s.n + w.add.n
	out.live = s.live - uint32(len(removed)) + w.add.n
	out.all = s.all.Clone()
	out.all.AndNot(w.goneBM)
	if w.add.n > 0 {
		out.all.AddRange(uint64(s.n), uint64(out.n))
	}
	out.all.RunOptimize()
	out.order = w.order
	if err := w.terms(s, &out); err != nil {
		return nil, err
	}
	w.fieldLens(s, &out)
	w.stored(s, &out)
	w.keys(s, &out)
	if err := w.columns(s, &out, src); err != nil {
		return nil, err
	}
	return &out, nil
}

// docWrite is one WithDocs call: the removed docs and the added ones,
// each built into a segment of their own (so their analysis is the
// builder's own), and where each lands in s.
type docWrite struct {
	an      *analysis.Analyzer
	gone    []uint64 // bitset of removed docs, over s's ids
	goneBM  *roaring.Bitmap
	removed []uint32 // ascending
	rem     *Segment // the removed docs, in key order
	add     *Segment // the added docs, in key order: s's doc s.n+i
	added   []*Doc   // the same, as given
	order   []uint32 // the result's Order
}

func (w *docWrite) isGone(doc uint32) bool {
	return int(doc/64) < len(w.gone) && w.gone[doc/64]&(1<<(doc%64)) != 0
}

func (s *Segment) newDocWrite(an *analysis.Analyzer, removed []uint32, added []Doc, src DocSource) (*docWrite, error) {
	w := &docWrite{an: an, gone: make([]uint64, (s.n+63)/64), goneBM: roaring.New(), removed: slices.Clone(removed)}
	slices.Sort(w.removed)
	rb := NewBuilder(an)
	for i, d := range w.removed {
		switch {
		case d >= s.n || !s.all.Contains(d):
			return nil, fmt.Errorf("%w: doc %d is not in the segment", ErrDocChange, d)
		case i > 0 && w.removed[i-1] == d:
			return nil, fmt.Errorf("%w: doc %d removed twice", ErrDocChange, d)
		}
		w.gone[d/64] |= 1 << (d % 64)
		doc, err := src(d)
		if err != nil {
			return nil, err
		}
		if doc.Key != s.Key(d) {
			return nil, fmt.Errorf("%w: doc %d is %q, its source says %q", ErrDocChange, d, s.Key(d), doc.Key)
		}
		if err := rb.Add(doc); err != nil {
			return nil, err
		}
	}
	w.goneBM.AddMany(w.removed)
	w.rem = rb.Build()
	for i := range added {
		w.added = append(w.added, &added[i])
	}
	slices.SortFunc(w.added, func(a, b *Doc) int { return strings.Compare(a.Key, b.Key) })
	ab := NewBuilder(an)
	for _, d := range w.added {
		fk := analysis.FoldString(d.Key)
		if old, ok := s.keyDoc.find(fk); ok && !w.isGone(old) && foldKey(s.Key(old)) == fk {
			return nil, fmt.Errorf("%w %q", ErrDuplicateKey, d.Key)
		}
		if err := ab.Add(d); err != nil {
			return nil, err
		}
	}
	w.add = ab.Build()
	w.order = s.orderWith(w)
	return w, nil
}

// orderWith is the key ranks of the result's docs, nil when its doc ids
// are in key order: s's were and every added key follows every live one.
func (s *Segment) orderWith(w *docWrite) []uint32 {
	k := int(w.add.n)
	live := s.live - uint32(len(w.removed))
	if s.order == nil && k == 0 {
		return nil
	}
	// s's surviving docs in key order.
	byRank := make([]uint32, 0, live)
	if s.order == nil {
		it := s.all.Iterator()
		for it.HasNext() {
			if d := it.Next(); !w.isGone(d) {
				byRank = append(byRank, d)
			}
		}
	} else {
		inv := make([]uint32, s.live)
		for d, r := range s.order {
			if r != math.MaxUint32 {
				inv[r] = uint32(d)
			}
		}
		for _, d := range inv {
			if !w.isGone(d) {
				byRank = append(byRank, d)
			}
		}
	}
	if s.order == nil && (len(byRank) == 0 || s.Key(byRank[len(byRank)-1]) < w.add.Key(0)) {
		return nil
	}
	order := make([]uint32, s.n+uint32(k))
	for i := range order {
		order[i] = math.MaxUint32
	}
	r, j := uint32(0), 0
	for i := 0; i < len(byRank) || j < k; r++ {
		if j < k && (i == len(byRank) || w.add.Key(uint32(j)) < s.Key(byRank[i])) {
			order[s.n+uint32(j)] = r
			j++
			continue
		}
		order[byRank[i]] = r
		i++
	}
	return order
}

// rank is doc's place in key order.
func (s *Segment) rank(doc uint32) uint32 {
	if s.order == nil {
		return doc
	}
	return s.order[doc]
}

// firstHolder is the doc of bm (not empty) first in key order, skipping
// the docs skip reports.
func (s *Segment) firstHolder(bm *roaring.Bitmap, skip func(uint32) bool) (uint32, bool) {
	if s.order == nil {
		if d := bm.Minimum(); skip == nil || !skip(d) {
			return d, true
		}
		it := bm.Iterator()
		for it.HasNext() {
			if d := it.Next(); !skip(d) {
				return d, true
			}
		}
		return 0, false
	}
	best, found := uint32(0), false
	it := bm.Iterator()
	for it.HasNext() {
		d := it.Next()
		if (skip == nil || !skip(d)) && (!found || s.order[d] < s.order[best]) {
			best, found = d, true
		}
	}
	return best, found
}

// termEdit is what a write does to one term: the removed docs holding it
// (by field) and the added docs' postings.
type termEdit struct {
	old     int32 // id in s, -1 for a term s lacks
	remDF   uint32
	remOf   FieldMask // fields where a removed doc holds it
	added   []FieldPosting
	addedDF uint32
}

// terms makes out's dictionary, postings, words and typo lists.
func (w *docWrite) terms(s, out *Segment) error {
	edits := map[string]*termEdit{}
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
	var fresh []string // terms s lacks, sorted
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

	// The dictionary: s's terms still held, merged with the fresh ones.
	// byOld finds an old term's edit without a lookup per term.
	byOld := make(map[int32]*termEdit, len(edits))
	for _, e := range edits {
		if e.old >= 0 {
			byOld[e.old] = e
		}
	}
	touched := make([]uint64, (s.terms.len()+63)/64)
	for id := range byOld {
		touched[id/64] |= 1 << (id % 64)
	}
	dropped := func(id int) (*termEdit, bool) {
		if touched[id/64]&(1<<(id%64)) == 0 {
			return nil, false
		}
		e := byOld[int32(id)]
		return e, s.post.df[id]-e.remDF+e.addedDF == 0
	}
	remap := make([]uint32, s.terms.len()) // old id → new id, MaxUint32 dropped
	total := s.terms.len() + len(fresh)
	out.terms = newDict(total, len(s.terms.text)+len(strings.Join(fresh, "")))
	p := postings{
		spanOff: make([]uint32, 1, total+1),
		spans:   make([]postSpan, 0, len(s.post.spans)+len(fresh)),
		docs:    s.post.docs,
		tfs:     s.post.tfs,
		df:      make([]uint32, 0, total),
		bitmaps: make([]*roaring.Bitmap, 0, total),
	}
	if out.live != out.n {
		p.live = out.all
	}
	var freshIDs []uint32 // new ids of the fresh terms, in order
	addTerm := func(str string, e *termEdit, old int) {
		out.terms.add(str)
		var spans []postSpan
		if old >= 0 {
			spans = s.post.spans[s.post.spanOff[old]:s.post.spanOff[old+1]]
		}
		df := uint32(0)
		if old >= 0 {
			df = s.post.df[old]
		}
		if e == nil { // untouched: its base spans as they are, its tail moved
			for _, sp := range spans {
				if sp.start&tailSpan != 0 {
					docs, tfs := s.post.spanDocs(sp)
					sp.start = uint32(len(p.tdocs)) | tailSpan
					p.tdocs, p.ttfs = append(p.tdocs, docs...), append(p.ttfs, tfs...)
				}
				p.spans = append(p.spans, sp)
			}
			p.spanOff = append(p.spanOff, uint32(len(p.spans)))
			p.df = append(p.df, df)
			p.bitmaps = append(p.bitmaps, s.post.bitmaps[old])
			return
		}
		df = df - e.remDF + e.addedDF
		// Base spans: kept while a live doc is in them.
		var tail [NumTextFields][2][]uint32 // per field: docs, tfs (as uint32)
		var tailTF [NumTextFields][]uint8
		for _, sp := range spans {
			docs, tfs := s.post.spanDocs(sp)
			if sp.start&tailSpan == 0 {
				if e.remOf.Has(sp.field) && !w.anyLive(s, docs) {
					continue
				}
				p.spans = append(p.spans, sp)
				continue
			}
			for i, d := range docs {
				if !w.isGone(d) {
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
		p.spanOff = append(p.spanOff, uint32(len(p.spans)))
		p.df = append(p.df, df)
		var bm *roaring.Bitmap
		if df >= bitmapMinDF {
			if old >= 0 && s.post.bitmaps[old] != nil {
				bm = s.post.bitmaps[old].Clone()
				bm.AndNot(w.goneBM)
				for _, fp := range e.added {
					bm.AddMany(fp.Docs)
				}
			} else {
				bm = roaring.New()
				for _, sp := range p.spans[p.spanOff[len(p.spanOff)-2]:] {
					docs, _ := p.spanDocs(sp)
					bm.AddMany(docs)
				}
				bm.And(out.all)
			}
			bm.RunOptimize()
		}
		p.bitmaps = append(p.bitmaps, bm)
	}
	j := 0
	for id := range s.terms.len() {
		str := s.terms.at(id)
		for j < len(fresh) && fresh[j] < str {
			freshIDs = append(freshIDs, uint32(out.terms.len()))
			addTerm(fresh[j], edits[fresh[j]], -1)
			j++
		}
		e, drop := dropped(id)
		if drop {
			remap[id] = math.MaxUint32
			continue
		}
		remap[id] = uint32(out.terms.len())
		addTerm(str, e, id)
	}
	for ; j < len(fresh); j++ {
		freshIDs = append(freshIDs, uint32(out.terms.len()))
		addTerm(fresh[j], edits[fresh[j]], -1)
	}
	p.dense = remapDense(s.post.dense, remap)
	p.setLiveDense(int(out.n))
	out.post = p
	out.byLen, out.typo = remapByLen(s.byLen, remap, freshIDs, fresh), newTypoHolder()
	w.words(s, out, remap)
	return nil
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

// fieldLens makes out's field lengths: s's, the added docs' after them,
// the sums without the removed docs'.
func (w *docWrite) fieldLens(s, out *Segment) {
	for f := range s.fieldLen {
		fl := make([]uint8, out.n)
		copy(fl, s.fieldLen[f])
		copy(fl[s.n:], w.add.fieldLen[f])
		out.fieldLen[f] = fl
		sum, cnt := s.lenSum[f], s.lenCnt[f]
		for _, d := range w.removed {
			if l := s.fieldLen[f][d]; l > 0 {
				sum -= uint64(l)
				cnt--
			}
		}
		out.lenSum[f], out.lenCnt[f] = sum+w.add.lenSum[f], cnt+w.add.lenCnt[f]
	}
	out.setAvgLens()
}

// stored makes out's stored docs: the added docs' JSON laid over s's,
// a removed doc's emptied.
func (w *docWrite) stored(s, out *Segment) {
	changes := make([]ColumnChange, 0, len(w.removed)+int(w.add.n))
	for _, d := range w.removed {
		changes = append(changes, ColumnChange{Doc: d, Stored: []byte{}})
	}
	for i := range w.add.n {
		changes = append(changes, ColumnChange{Doc: s.n + i, Stored: w.added[i].Stored,
			titles: w.add.stored.titleHashes(i), newTitle: true})
	}
	out.stored = s.stored.withDocs(changes, out.n)
}

// keys makes out's keys (a hole keeps its key, which no lookup reaches)
// and the key index: s's entries without the removed docs', merged with
// the added docs'. A doc's own key always finds it; an alternative key
// finds the first doc in key order that lists it.
func (w *docWrite) keys(s, out *Segment) {
	keys := newDict(int(out.n), len(s.keys.text)+len(w.add.keys.text))
	keys.text = append(keys.text, s.keys.text...)
	keys.off = append(keys.off[:0], s.keys.off...)
	keys.heads = append(keys.heads[:0], s.keys.heads...)
	for i := range w.add.n {
		keys.add(w.add.Key(i))
	}
	out.keys = keys
	// Each key's entries: the doc whose own key it is first, then the
	// docs listing it in key order.
	type entry struct {
		doc uint32
		own bool
	}
	var group []entry
	ki := keyIndex{keys: newDict(s.keyDoc.keys.len()+w.add.keyDoc.keys.len(), len(s.keyDoc.keys.text)+len(w.add.keyDoc.keys.text))}
	a, b := &s.keyDoc, &w.add.keyDoc
	i, j := 0, 0
	for i < a.keys.len() || j < b.keys.len() {
		var key string
		switch {
		case j == b.keys.len():
			key = a.keys.at(i)
		case i == a.keys.len():
			key = b.keys.at(j)
		default:
			key = min(a.keys.at(i), b.keys.at(j))
		}
		// The common case: one entry of s, not removed, nothing added.
		if i < a.keys.len() && a.keys.at(i) == key && (i+1 == a.keys.len() || a.keys.at(i+1) != key) &&
			(j == b.keys.len() || b.keys.at(j) != key) {
			if d := a.docs[i]; !w.isGone(d) {
				ki.keys.add(key)
				ki.docs = append(ki.docs, d)
			}
			i++
			continue
		}
		group = group[:0]
		for ; i < a.keys.len() && a.keys.at(i) == key; i++ {
			if d := a.docs[i]; !w.isGone(d) {
				group = append(group, entry{d, foldKey(s.Key(d)) == key})
			}
		}
		for ; j < b.keys.len() && b.keys.at(j) == key; j++ {
			d := b.docs[j]
			group = append(group, entry{s.n + d, foldKey(w.add.Key(d)) == key})
		}
		slices.SortFunc(group, func(x, y entry) int {
			if x.own != y.own {
				if x.own {
					return -1
				}
				return 1
			}
			return cmp.Compare(out.rank(x.doc), out.rank(y.doc))
		})
		for _, e := range group {
			ki.keys.add(key)
			ki.docs = append(ki.docs, e.doc)
		}
	}
	out.keyDoc = ki
}

// columns makes out's keyword, number and sort columns: each a removed
// or added doc has a value in is built again (as WithColumns does), the
// others extended to the new doc count.
func (w *docWrite) columns(s, out *Segment, src DocSource) error {
	changed := changeSet{byDoc: make(map[uint32]*ColumnChange, len(w.removed)+int(w.add.n)), bits: make([]uint64, (out.n+63)/64)}
	mark := func(c *ColumnChange) {
		changed.byDoc[c.Doc] = c
		changed.bits[c.Doc/64] |= 1 << (c.Doc % 64)
	}
	kwTouched, numTouched := map[string]bool{}, map[string]bool{}
	for _, d := range w.removed {
		mark(&ColumnChange{Doc: d})
		for name, k := range s.keyword {
			if k.offs[d+1] > k.offs[d] {
				kwTouched[name] = true
			}
		}
		for name, f := range s.numeric {
			if f.has.Contains(d) {
				numTouched[name] = true
			}
		}
	}
	addedDocs := w.addedDocs(s)
	for i := range addedDocs {
		c := &addedDocs[i]
		mark(c)
		for _, kv := range c.Keywords {
			kwTouched[kv.Field] = true
		}
		for _, nv := range c.Numbers {
			if !math.IsNaN(nv.Value) {
				numTouched[nv.Field] = true
			}
		}
	}
	ownKeywords := func(doc uint32) ([]KeywordValue, error) {
		d, err := src(doc)
		if err != nil {
			return nil, err
		}
		return d.Keywords, nil
	}
	out.keyword = make(map[string]*KeywordField, len(s.keyword)+len(kwTouched))
	for name, k := range s.keyword {
		if !kwTouched[name] {
			out.keyword[name] = k.extended(out.n)
		}
	}
	for name := range kwTouched {
		k, err := s.keywordWith(name, out.n, changed, out.rank, ownKeywords)
		if err != nil {
			return err
		}
		if k != nil {
			out.keyword[name] = k
		}
	}
	out.numeric = make(map[string]*NumericField, len(s.numeric)+len(numTouched))
	out.sorts = make(map[string][]uint32, len(s.sorts))
	for name, f := range s.numeric {
		if !numTouched[name] {
			out.numeric[name] = f.extended(out.n)
			out.sorts[name] = extendedRanks(s.sorts[name], out.n)
		}
	}
	for name := range numTouched {
		if f := s.numericWith(name, out.n, changed); f != nil {
			out.numeric[name] = f
			out.sorts[name] = numericRank(f, out.n)
		}
	}
	return w.textSorts(s, out, src)
}

// addedDocs is each added doc's column values as a change at its new
// id.
func (w *docWrite) addedDocs(s *Segment) []ColumnChange {
	out := make([]ColumnChange, len(w.added))
	for i, d := range w.added {
		out[i] = ColumnChange{Doc: s.n + uint32(i), Keywords: d.Keywords, Numbers: d.Numbers}
	}
	return out
}

// textSorts makes out's text sort ranks. A rank is a value's place among
// the distinct values the live docs hold: the values of s's docs are read
// (through src) only to place the added docs' values among them, by
// binary search over the ranks still held.
func (w *docWrite) textSorts(s, out *Segment, src DocSource) error {
	added := map[string][]string{} // field → each added doc's folded value ("" for none)
	for i, d := range w.added {
		for _, sv := range d.Sort {
			vals := added[sv.Field]
			if vals == nil {
				vals = make([]string, len(w.added))
				added[sv.Field] = vals
			}
			if vals[i] == "" {
				vals[i] = analysis.FoldString(sv.Value)
			}
		}
	}
	names := map[string]bool{}
	for name := range s.sorts {
		if s.numeric[name] == nil {
			names[name] = true
		}
	}
	for name := range added {
		names[name] = true
	}
	for name := range names {
		old := s.sorts[name]
		vals := added[name]
		touched := vals != nil
		for _, d := range w.removed {
			touched = touched || old != nil && old[d] != math.MaxUint32
		}
		if !touched {
			out.sorts[name] = extendedRanks(old, out.n)
			continue
		}
		ranks, err := w.textRanks(s, name, old, vals, out.n, src)
		if err != nil {
			return err
		}
		if ranks != nil {
			out.sorts[name] = ranks
		}
	}
	return nil
}

// textRanks is one text sort's ranks after the write; nil when no live
// doc has a value.
func (w *docWrite) textRanks(s *Segment, name string, old []uint32, added []string, n uint32, src DocSource) ([]uint32, error) {
	// The ranks still held, each with a doc holding it.
	var held []uint32 // ascending ranks
	var holder []uint32
	if old != nil {
		top := uint32(0)
		for _, r := range old {
			if r != math.MaxUint32 {
				top = max(top, r+1)
			}
		}
		holderOf := make([]uint32, top) // rank → 1 + a doc holding it
		for d, r := range old {
			if r != math.MaxUint32 && holderOf[r] == 0 && !w.isGone(uint32(d)) {
				holderOf[r] = uint32(d) + 1
			}
		}
		for r, h := range holderOf {
			if h != 0 {
				held = append(held, uint32(r))
				holder = append(holder, h-1)
			}
		}
	}
	valueOf := func(i int) (string, error) {
		d, err := src(holder[i])
		if err != nil {
			return "", err
		}
		for _, sv := range d.Sort {
			if sv.Field == name {
				return analysis.FoldString(sv.Value), nil
			}
		}
		return "", fmt.Errorf("%w: doc %d has no %s value, its rank says it has", ErrDocChange, holder[i], name)
	}
	// Each distinct added value's place among the held ranks: before
	// held[at], or equal to it.
	distinct := slices.Compact(slices.Sorted(slices.Values(slices.DeleteFunc(slices.Clone(added), func(v string) bool { return v == "" }))))
	type place struct {
		at    int
		equal bool
	}
	places := make([]place, len(distinct))
	for i, v := range distinct {
		lo, hi := 0, len(held)
		if i > 0 {
			lo = places[i-1].at
		}
		equal := false
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			hv, err := valueOf(m)
			if err != nil {
				return nil, err
			}
			if hv < v {
				lo = m + 1
			} else {
				hi = m
				equal = hv == v
			}
		}
		places[i] = place{lo, equal}
	}
	if len(held) == 0 && len(distinct) == 0 {
		return nil, nil
	}
	// New ranks: held ranks and fresh values merged.
	newHeld := make([]uint32, 0)
	if len(held) > 0 {
		newHeld = make([]uint32, held[len(held)-1]+1)
	}
	newAdded := make(map[string]uint32, len(distinct))
	r, j := uint32(0), 0
	for i := 0; i <= len(held); i++ {
		for j < len(distinct) && places[j].at == i {
			newAdded[distinct[j]] = r
			if !places[j].equal {
				r++
			}
			j++
		}
		if i < len(held) {
			newHeld[held[i]] = r
			r++
		}
	}
	ranks := make([]uint32, n)
	for d := range ranks {
		ranks[d] = math.MaxUint32
		if d < len(old) && old[d] != math.MaxUint32 && !w.isGone(uint32(d)) {
			ranks[d] = newHeld[old[d]]
		}
	}
	for i, v := range added {
		if v != "" {
			ranks[s.n+uint32(i)] = newAdded[v]
		}
	}
	return ranks, nil
}

// extendedRanks is ranks with n-len(ranks) docs without a value after.
func extendedRanks(ranks []uint32, n uint32) []uint32 {
	if ranks == nil || len(ranks) == int(n) {
		return ranks
	}
	out := make([]uint32, n)
	copy(out, ranks)
	for i := len(ranks); i < int(n); i++ {
		out[i] = math.MaxUint32
	}
	return out
}
