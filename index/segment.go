package index

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"
)

// FieldPosting lists the docs where a term occurs in one text field, with
// its frequency there (capped at 255).
type FieldPosting struct {
	Field TextField
	Docs  []uint32
	TFs   []uint8
}

// Segment is one immutable catalog generation. Searches read it without
// locks; the next import builds a new one and swaps it in.
type Segment struct {
	n    uint32 // doc slots: ids run from 0 to n-1, holes included
	live uint32 // docs in all
	all  *roaring.Bitmap
	// order is each doc's rank in key order (MaxUint32 for a hole), nil
	// while doc ids are in key order themselves, as a Build leaves them:
	// docs added by WithDocs take the next ids whatever their keys.
	order []uint32

	terms dict // sorted; a term's id is its index
	post  postings

	surfaces    dict // sorted folded words, for prefix matching
	surfaceTerm []uint32
	surfaceDF   []uint32   // docs holding each word: WithDocs drops a word at 0
	byLen       [][]uint32 // non-numeric term ids by rune length, for typo matching
	// typo is byLen's typo index (typo.go), shared by segments that share
	// byLen; nil: none, typos are scanned for.
	typo *typoHolder

	fieldLen [NumTextFields][]uint8
	avgLen   [NumTextFields]float32
	// Per field, the sum of the docs' lengths and how many docs have the
	// field: avgLen is their quotient, kept exact as docs come and go.
	lenSum, lenCnt [NumTextFields]uint64

	stored storedDocs
	keys   dict     // external ids in doc order (not sorted)
	keyDoc keyIndex // folded ids and variants → doc

	keyword map[string]*KeywordField
	numeric map[string]*NumericField
	sorts   map[string][]uint32
}

// Len is the number of documents.
func (s *Segment) Len() int { return int(s.live) }

// Slots bounds the doc ids: every doc id is below it. It is Len unless
// docs were removed by WithDocs, which leaves their ids unused.
func (s *Segment) Slots() int { return int(s.n) }

// All is every doc id; callers must not modify it.
func (s *Segment) All() *roaring.Bitmap { return s.all }

// Order is each doc's rank in key order, for breaking ties as a fresh
// build does (by doc id, which it gives in key order), or nil when doc
// ids are in key order already. Read only.
func (s *Segment) Order() []uint32 { return s.order }

// AppendStored appends the JSON object of a doc to dst; hot paths reuse
// dst across docs.
func (s *Segment) AppendStored(dst []byte, doc uint32) []byte { return s.stored.appendDoc(dst, doc) }

// MemberNames is the top-level member names the segment's docs have
// (nil when not known: every name may be there).
func (s *Segment) MemberNames() *MemberNames { return s.stored.names }

// Stored is the JSON object of a doc, in a new slice.
func (s *Segment) Stored(doc uint32) []byte { return s.stored.appendDoc(nil, doc) }

// PrefetchStored reads the first byte of doc's stored entry and returns
// it, for a caller about to read the entries of several docs: touching
// them all first, in a loop with nothing else between, starts their
// loads together, so the misses overlap instead of following one another
// (a million products: the 20 entries of a search, each a miss to
// memory). The caller keeps a fold of the bytes where the compiler
// cannot drop it, or the loads go with it.
func (s *Segment) PrefetchStored(doc uint32) byte { return s.stored.prefetch(doc) }

// Key is a doc's external id.
func (s *Segment) Key(doc uint32) string { return s.keys.at(int(doc)) }

// DocByKey finds a doc by its folded external id or a variant's.
func (s *Segment) DocByKey(folded string) (uint32, bool) {
	return s.keyDoc.find(folded)
}

// Term looks up an indexed term.
func (s *Segment) Term(t string) (uint32, bool) {
	i, ok := s.terms.find(t)
	return uint32(i), ok
}

// Terms is the number of distinct terms.
func (s *Segment) Terms() int { return s.terms.len() }

// TermString is the text of a term id.
func (s *Segment) TermString(id uint32) string { return s.terms.at(int(id)) }

// TermDocs is the docs containing a term in any field. Frequent terms
// return the segment's bitmap, which callers must not modify; rare ones
// a new bitmap built from their postings.
func (s *Segment) TermDocs(id uint32) *roaring.Bitmap { return s.post.docBitmap(id) }

// TermIn reports whether a term occurs in any field of m.
func (s *Segment) TermIn(id uint32, m FieldMask) bool { return s.post.inFields(id, m) }

// TermDocsIn is the docs containing a term in a field of m. When every
// field the term occurs in is in m it is TermDocs(id), which callers must
// not modify; otherwise a new bitmap built from the postings of m's
// fields.
func (s *Segment) TermDocsIn(id uint32, m FieldMask) *roaring.Bitmap {
	return s.post.docBitmapIn(id, m)
}

// AddTermDocsIn adds the docs holding a term in a field of m to bm,
// with the docs a write removed: call KeepLive once after the last add.
// It spares a word of many routes a bitmap for each.
func (s *Segment) AddTermDocsIn(bm *roaring.Bitmap, id uint32, m FieldMask) {
	s.post.addDocsIn(bm, id, m)
}

// KeepLive drops from bm the docs a write removed (AddTermDocsIn).
func (s *Segment) KeepLive(bm *roaring.Bitmap) { s.post.keepLive(bm) }

// TermPostings appends a term's per-field postings, fields ascending, to
// dst: views into the segment, read only.
func (s *Segment) TermPostings(id uint32, dst []FieldPosting) []FieldPosting {
	return s.post.fieldPostings(id, dst)
}

// DocFreq is how many docs hold a term.
func (s *Segment) DocFreq(id uint32) uint64 { return uint64(s.post.df[id]) }

// FieldLen is a doc's token count in a field, capped at 255.
func (s *Segment) FieldLen(f TextField) []uint8 { return s.fieldLen[f] }

// AvgFieldLen is the mean token count of a field over docs that have it.
func (s *Segment) AvgFieldLen(f TextField) float32 { return s.avgLen[f] }

// PrefixTerms calls fn with the term id of every folded word starting with
// prefix, in word order, until fn returns false. A term reached by several
// words is reported once per word.
func (s *Segment) PrefixTerms(prefix string, fn func(term uint32) bool) {
	i := s.surfaces.lowerBound(prefix)
	for ; i < s.surfaces.len() && strings.HasPrefix(s.surfaces.at(i), prefix); i++ {
		if !fn(s.surfaceTerm[i]) {
			return
		}
	}
}

// TermsOfLen is the non-numeric term ids whose length in runes is n.
func (s *Segment) TermsOfLen(n int) []uint32 {
	if n < 0 || n >= len(s.byLen) {
		return nil
	}
	return s.byLen[n]
}

// Keyword is a keyword, boolean or hierarchy field, or nil.
func (s *Segment) Keyword(field string) *KeywordField { return s.keyword[field] }

// Numeric is a number or date field, or nil.
func (s *Segment) Numeric(field string) *NumericField { return s.numeric[field] }

// SortRank is a field's per-doc rank (ties share a rank; missing values
// rank last), or nil when the field is not sortable.
func (s *Segment) SortRank(field string) []uint32 { return s.sorts[field] }

// KeywordField holds one filterable field's values: a bitmap per value for
// filters and a per-doc value list for facet counting in one pass.
type KeywordField struct {
	Name      string
	Values    []string // display form, sorted
	Bitmaps   []*roaring.Bitmap
	Parent    []int32 // hierarchy parent value id, -1 at the top (nil otherwise)
	Depth     []uint8 // hierarchy depth, 1 at the top (nil otherwise)
	lookup    map[string]uint32
	offs      []uint32 // doc → vals[offs[doc]:offs[doc+1]]
	vals      []uint32
	single    bool     // at most one value per doc
	one       []uint16 // see ChainColumn
	deepFirst []uint32 // hierarchy value ids, deepest first
}

// NoValue16 marks a doc without a value in a 16-bit value column.
const NoValue16 = math.MaxUint16

// Lookup finds a value id by its folded form.
func (k *KeywordField) Lookup(folded string) (uint32, bool) {
	id, ok := k.lookup[folded]
	return id, ok
}

// DocValues is the value ids of a doc.
func (k *KeywordField) DocValues(doc uint32) []uint32 { return k.vals[k.offs[doc]:k.offs[doc+1]] }

// Single reports that no doc has more than one value, so counting can use
// one array read per doc.
func (k *KeywordField) Single() bool { return k.single }

// ChainColumn is, per doc, the one value whose hierarchy chain (the value
// and its ancestors through Parent; for a flat field the value alone) is
// exactly the doc's values; NoValue16 for a doc without values and
// Multi16 for one whose values are not such a chain, which counts from
// Column. Nil when the field has Multi16 values or more. Two bytes a doc
// keep a facet count over a large set in cache: a count tallies chain
// ends and AddChains spreads them to the ancestors.
func (k *KeywordField) ChainColumn() []uint16 { return k.one }

// Multi16 marks a doc whose values are not a single chain.
const Multi16 = math.MaxUint16 - 1

// AddChains adds per-chain-end tallies to counts: each value's tally goes
// to it and to every ancestor. ends is clobbered.
func (k *KeywordField) AddChains(counts, ends []uint32) {
	if k.Parent == nil {
		for v, n := range ends {
			counts[v] += n
		}
		return
	}
	for _, v := range k.deepFirst {
		n := ends[v]
		if n == 0 {
			continue
		}
		counts[v] += n
		if p := k.Parent[v]; p >= 0 {
			ends[p] += n
		}
	}
}

// initColumns derives the chain column from offs and vals.
func (k *KeywordField) initColumns() {
	k.one, k.deepFirst = nil, nil
	if len(k.Values) >= Multi16 || len(k.offs) == 0 {
		return
	}
	if k.Parent != nil {
		k.deepFirst = make([]uint32, len(k.Values))
		for i := range k.deepFirst {
			k.deepFirst[i] = uint32(i)
		}
		slices.SortStableFunc(k.deepFirst, func(a, b uint32) int { return int(k.Depth[b]) - int(k.Depth[a]) })
	} else if !k.single {
		return
	}
	n := len(k.offs) - 1
	k.one = make([]uint16, n)
	for d := range n {
		k.one[d] = k.chainEnd(k.vals[k.offs[d]:k.offs[d+1]])
	}
}

// chainEnd is the value whose chain is exactly vs, NoValue16 for none and
// Multi16 when vs is not one chain.
func (k *KeywordField) chainEnd(vs []uint32) uint16 {
	switch {
	case len(vs) == 0:
		return NoValue16
	case len(vs) == 1 && (k.Parent == nil || k.Parent[vs[0]] < 0):
		return uint16(vs[0])
	case k.Parent == nil:
		return Multi16
	}
	end := vs[0]
	for _, v := range vs[1:] {
		if k.Depth[v] > k.Depth[end] {
			end = v
		}
	}
	links := 0
	for p := int32(end); p >= 0; p = k.Parent[p] {
		if !slices.Contains(vs, uint32(p)) {
			return Multi16
		}
		links++
	}
	if links != len(vs) {
		return Multi16
	}
	return uint16(end)
}

// NumericField holds a number or date column with a sorted permutation and
// bucket bitmaps, so range filters cost a few ORs plus two partial buckets.
type NumericField struct {
	Name       string
	vals       []float64
	has        *roaring.Bitmap
	perm       []uint32 // docs with a value, sorted by value then doc
	sortedVals []float64
	buckets    []*roaring.Bitmap
	bucketSize int
	// Per bucket, its docs in doc order with their values, so the two
	// partial buckets of a range add sorted ids (roaring's fast path).
	bucketDocs [][]uint32
	bucketVals [][]float64
	// Per doc, its position in perm shifted right by qshift (NoValue16
	// without a value): a 2-byte column that settles most range checks
	// without reading the 8-byte values.
	qpos   []uint16
	qshift uint
}

// RangeCheck tests docs against [Min, Max] with the quantised position
// column first, reading the value itself only for docs in the two
// boundary quanta.
type RangeCheck struct {
	Min, Max float64
	qlo, qhi uint16
	empty    bool
	qpos     []uint16
	vals     []float64
}

// Check prepares a per-doc test of [min, max].
func (f *NumericField) Check(min, max float64) RangeCheck {
	c := RangeCheck{Min: min, Max: max, qpos: f.qpos, vals: f.vals}
	lo := sort.SearchFloat64s(f.sortedVals, min)
	hi := sort.Search(len(f.sortedVals), func(i int) bool { return f.sortedVals[i] > max })
	if lo >= hi {
		c.empty = true
		return c
	}
	c.qlo, c.qhi = uint16(lo>>f.qshift), uint16((hi-1)>>f.qshift)
	return c
}

// Contains reports whether doc has a value in the range.
func (c *RangeCheck) Contains(doc uint32) bool {
	if c.empty {
		return false
	}
	q := c.qpos[doc]
	if q > c.qlo && q < c.qhi {
		return true
	}
	if q < c.qlo || q > c.qhi { // NoValue16 is above every qhi
		return false
	}
	v := c.vals[doc]
	return v >= c.Min && v <= c.Max
}

// Value is a doc's value and whether it has one.
func (f *NumericField) Value(doc uint32) (float64, bool) {
	if f.qpos[doc] == NoValue16 {
		return 0, false
	}
	return f.vals[doc], true
}

// ValueAt is Value for any doc id: a doc past the column (added after
// it was built) has no value.
func (f *NumericField) ValueAt(doc uint32) (float64, bool) {
	if int(doc) >= len(f.qpos) {
		return 0, false
	}
	return f.Value(doc)
}

// Values is the dense column (0 where a doc has no value); with
// Quantised it lets loops read values without a call per doc.
func (f *NumericField) Values() []float64 { return f.vals }

// Quantised is each doc's position in value order shifted down to 16
// bits, NoValue16 without a value: equal quanta may hold different
// values, but a lower quantum never holds a higher value. Read only.
func (f *NumericField) Quantised() []uint16 { return f.qpos }

// Has is the docs that have a value; read only.
func (f *NumericField) Has() *roaring.Bitmap { return f.has }

// Sorted is the docs with a value in ascending value order, and their
// values; read only.
func (f *NumericField) Sorted() ([]uint32, []float64) { return f.perm, f.sortedVals }

// Range adds to dst every doc whose value lies in [min, max]. A range of
// more than half the docs with a value is made as those docs less the
// two ranges outside it, so its cost is bounded by half the column's
// buckets, not by the range.
func (f *NumericField) Range(min, max float64, dst *roaring.Bitmap) {
	lo := sort.SearchFloat64s(f.sortedVals, min)
	hi := sort.Search(len(f.sortedVals), func(i int) bool { return f.sortedVals[i] > max })
	if lo >= hi {
		return
	}
	if 2*(hi-lo) <= len(f.sortedVals) {
		f.rangeAt(lo, hi, min, max, dst)
		return
	}
	out := roaring.New()
	if lo > 0 {
		below := math.Nextafter(min, math.Inf(-1))
		f.rangeAt(0, lo, math.Inf(-1), below, out)
	}
	if hi < len(f.sortedVals) {
		above := math.Nextafter(max, math.Inf(1))
		f.rangeAt(hi, len(f.sortedVals), above, math.Inf(1), out)
	}
	in := f.has.Clone()
	in.AndNot(out)
	dst.Or(in)
}

// rangeAt adds to dst the docs at positions [lo, hi) of the sorted
// column, whose values are those in [min, max].
func (f *NumericField) rangeAt(lo, hi int, min, max float64, dst *roaring.Bitmap) {
	bs := f.bucketSize
	firstFull := (lo + bs - 1) / bs
	lastFull := hi / bs // exclusive
	if firstFull >= lastFull {
		// Within one or two buckets: scan them.
		for b := lo / bs; b <= (hi-1)/bs; b++ {
			f.partial(b, min, max, dst)
		}
		return
	}
	if lo < firstFull*bs {
		f.partial(firstFull-1, min, max, dst)
	}
	for b := firstFull; b < lastFull; b++ {
		dst.Or(f.buckets[b])
	}
	if lastFull*bs < hi {
		f.partial(lastFull, min, max, dst)
	}
}

// partial adds the docs of bucket b whose value lies in [min, max].
func (f *NumericField) partial(b int, min, max float64, dst *roaring.Bitmap) {
	docs, vals := f.bucketDocs[b], f.bucketVals[b]
	part := roaring.New()
	run := 0
	for i, v := range vals {
		if v >= min && v <= max {
			continue
		}
		if i > run {
			part.AddMany(docs[run:i])
		}
		run = i + 1
	}
	if run < len(docs) {
		part.AddMany(docs[run:])
	}
	dst.Or(part)
}

// Column is the per-doc value lists (doc d holds vals[offs[d]:offs[d+1]]),
// for counting loops that must not call per doc; read only.
func (k *KeywordField) Column() (offs, vals []uint32) { return k.offs, k.vals }

// Surfaces is how many folded words (unstemmed) the segment holds.
func (s *Segment) Surfaces() int { return s.surfaces.len() }

// Surface is folded word i (in sorted order) and its term.
func (s *Segment) Surface(i int) (word string, term uint32) {
	return s.surfaces.at(i), s.surfaceTerm[i]
}

// TitleHashes is doc's title words' hashes in order, 2 bytes a word,
// little endian: terms, TitleHash of each token's term as the title
// field indexes it, and forms, of each token's form
// (analysis.Analyzer.Form). Views into the segment, read only.
func (s *Segment) TitleHashes(doc uint32) (terms, forms []byte) {
	b := s.stored.titleHashes(doc)
	return b[:len(b)/2], b[len(b)/2:]
}

// SameText reports whether o holds s's text as s does, shared: the same
// postings, field lengths, docs and key order (o derived from s by
// column changes, WithColumns). What is computed from those alone, as
// impact lists are, holds for both.
func (s *Segment) SameText(o *Segment) bool {
	if s == o {
		return true
	}
	if s.n != o.n || s.live != o.live || s.all != o.all || s.avgLen != o.avgLen || !sameSlice(s.order, o.order) {
		return false
	}
	for f := range s.fieldLen {
		if !sameSlice(s.fieldLen[f], o.fieldLen[f]) {
			return false
		}
	}
	p, q := &s.post, &o.post
	return sameSlice(p.spanOff, q.spanOff) && sameSlice(p.spans, q.spans) && sameSlice(p.docs, q.docs) &&
		sameSlice(p.tdocs, q.tdocs) && sameSlice(p.df, q.df) && p.live == q.live
}

// sameSlice reports whether a and b are one slice: the same array and
// length.
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && unsafe.SliceData(a) == unsafe.SliceData(b)
}
