package index

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

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
	out := w.outline(s)
	if err := w.terms(s, out); err != nil {
		return nil, err
	}
	w.fieldLens(s, out)
	w.stored(s, out)
	w.keys(s, out)
	if err := w.columns(s, out, src); err != nil {
		return nil, err
	}
	return out, nil
}

// outline is the result as far as the doc ids go: s with the write's
// doc count, live docs and key order; its terms, lengths, stored docs,
// keys and columns still s's.
func (w *docWrite) outline(s *Segment) *Segment {
	out := *s
	out.n = s.n + w.add.n
	out.live = s.live - uint32(len(w.removed)) + w.add.n
	out.all = s.all.Clone()
	out.all.AndNot(w.goneBM)
	if w.add.n > 0 {
		out.all.AddRange(uint64(s.n), uint64(out.n))
	}
	out.all.RunOptimize()
	out.order = w.order
	return &out
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
