package index

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/analysis"
)

// Builder accumulates docs into the next generation. It is not safe for
// concurrent use; Build hands back an immutable Segment, its doc ids in
// key order whatever order the docs were added in.
type Builder struct {
	an *analysis.Analyzer

	terms   map[string]uint32
	termStr []string
	// Postings are recorded in doc order, one entry per term a field
	// holds, and inverted by term at Build: appending to each term's own
	// list touched a different cache line for every word of every
	// product, which cost more than the rest of adding it.
	recs   []recChunk
	nrec   int
	docRec []uint32 // doc d's records start at docRec[d]
	// docOrder, set by orderByKey, is the doc added docOrder[d] for each
	// new doc id d; the records keep the ids docs were added under.
	docOrder []uint32
	// surfaces maps folded words to word ids; words with a digit have a
	// map of their own. Those are mostly product numbers, new with every
	// product: two million of them beside the common words made each
	// lookup of a common word a cache miss, three times slower.
	surfaces    map[string]uint32
	numSurfaces map[string]uint32 // words with an ASCII digit
	// Per word id: its term, how many docs hold it, and 1 + the last doc
	// counted (so a word repeated in a doc counts once).
	surfTerm []uint32
	surfDF   []uint32
	surfLast []uint32
	surfForm []uint16 // TitleHash of the word's form (analysis.Analyzer.Form)

	fieldLen [NumTextFields][]uint8

	arena  byteArena
	stored [][]byte
	// titles is each doc's title hashes, its words' terms' then their
	// forms' (stored_entry.go), termHash each term's, and title and
	// titleForm the doc being added's.
	titles    [][]byte
	termHash  []uint16
	title     []byte
	titleForm []byte

	keys   []string
	keyDoc map[string]uint32 // folded own key → doc
	alts   []keyID           // folded alternative key, doc: every one listed

	keyword map[string]*kwBuilder
	numeric map[string]*numBuilder
	sorts   map[string]*sortBuilder

	tf   []termCount
	seen []uint32 // by term id: 1 + index in tf while a field is added
	prep Prepared
}

type kwBuilder struct {
	values  []string // display, by id
	lookup  map[string]uint32
	docVals [][]uint32 // per value: docs
	offs    []uint32
	vals    []uint32
}

type numBuilder struct {
	vals []float64
	has  []bool
}

type sortBuilder struct{ vals []string }

// NewBuilder starts an empty generation analysed with an.
func NewBuilder(an *analysis.Analyzer) *Builder {
	return &Builder{
		an:          an,
		terms:       make(map[string]uint32),
		surfaces:    make(map[string]uint32),
		numSurfaces: make(map[string]uint32),
		keyDoc:      make(map[string]uint32),
		keyword:     make(map[string]*kwBuilder),
		numeric:     make(map[string]*numBuilder),
		sorts:       make(map[string]*sortBuilder),
	}
}

// Prepared is a doc's analysis: folded tokens per text field and folded
// keyword values. Prepare fills it off the builder's goroutine, so imports
// tokenize on every core while one goroutine owns the dictionaries.
type Prepared struct {
	buf   []byte
	toks  [NumTextFields][]preparedTok
	kwEnd []int32
	sorts []string // folded sort values
}

type preparedTok struct {
	end     int32
	numeric bool
}

// Prepare analyses d into p. It reads only the builder's analyzer, so any
// number of goroutines may call it while another calls AddPrepared.
func (b *Builder) Prepare(d *Doc, p *Prepared) {
	p.buf = p.buf[:0]
	for f := range p.toks {
		toks := p.toks[f][:0]
		for _, t := range d.Text[f] {
			b.an.Each(t, func(folded []byte, numeric bool, _ int) {
				p.buf = append(p.buf, folded...)
				toks = append(toks, preparedTok{end: int32(len(p.buf)), numeric: numeric})
			})
		}
		p.toks[f] = toks
	}
	p.kwEnd = p.kwEnd[:0]
	for _, kv := range d.Keywords {
		p.buf = analysis.Fold(p.buf, kv.Value)
		p.kwEnd = append(p.kwEnd, int32(len(p.buf)))
	}
	p.sorts = p.sorts[:0]
	for _, sv := range d.Sort {
		p.sorts = append(p.sorts, analysis.FoldString(sv.Value))
	}
}

// ErrDuplicateKey is returned when a doc's key is taken: the caller
// decides whether the later doc replaces the earlier (as a store does) and
// builds again.
var ErrDuplicateKey = errors.New("duplicate key")

// Add indexes one doc. A key seen before is an error: callers dedupe
// upserts before building.
func (b *Builder) Add(d *Doc) error {
	b.Prepare(d, &b.prep)
	return b.AddPrepared(d, &b.prep)
}

// AddPrepared indexes d, analysed by Prepare.
func (b *Builder) AddPrepared(d *Doc, p *Prepared) error {
	doc := uint32(len(b.keys))
	if doc == math.MaxUint32 {
		return fmt.Errorf("index full at %d docs", doc)
	}
	toks := 0
	for f := range p.toks {
		toks += len(p.toks[f])
	}
	if b.nrec+toks >= tailSpan {
		return fmt.Errorf("index full at %d postings", b.nrec)
	}
	fk := analysis.FoldString(d.Key)
	if _, taken := b.keyDoc[fk]; taken {
		return fmt.Errorf("%w %q", ErrDuplicateKey, d.Key)
	}
	b.keyDoc[fk] = doc
	for _, k := range d.AltKeys {
		if fa := analysis.FoldString(k); fa != fk {
			b.alts = append(b.alts, keyID{fa, doc})
		}
	}
	b.keys = append(b.keys, d.Key)
	if d.KeepStored {
		b.stored = append(b.stored, d.Stored)
	} else {
		b.stored = append(b.stored, b.arena.copy(d.Stored))
	}

	b.docRec = append(b.docRec, uint32(b.nrec))
	start := 0
	b.title, b.titleForm = b.title[:0], b.titleForm[:0]
	for f := TextField(0); f < NumTextFields; f++ {
		start = b.addText(doc, f, p.buf, start, p.toks[f])
	}
	b.title = append(b.title, b.titleForm...)
	b.titles = append(b.titles, b.arena.copy(b.title))
	for i, kv := range d.Keywords {
		end := int(p.kwEnd[i])
		b.addKeyword(doc, kv, p.buf[start:end])
		start = end
	}
	for _, nv := range d.Numbers {
		nb := b.numeric[nv.Field]
		if nb == nil {
			nb = &numBuilder{}
			b.numeric[nv.Field] = nb
		}
		for len(nb.vals) <= int(doc) {
			nb.vals = append(nb.vals, 0)
			nb.has = append(nb.has, false)
		}
		if !nb.has[doc] && !math.IsNaN(nv.Value) {
			nb.vals[doc], nb.has[doc] = nv.Value, true
		}
	}
	for i, sv := range d.Sort {
		sb := b.sorts[sv.Field]
		if sb == nil {
			sb = &sortBuilder{}
			b.sorts[sv.Field] = sb
		}
		for len(sb.vals) <= int(doc) {
			sb.vals = append(sb.vals, "")
		}
		sb.vals[doc] = p.sorts[i]
	}
	return nil
}

// addText posts a field's tokens, which start at buf[start:]; it returns
// where the next field's tokens start.
func (b *Builder) addText(doc uint32, f TextField, buf []byte, start int, toks []preparedTok) int {
	b.tf = b.tf[:0]
	for _, tk := range toks {
		folded := buf[start:tk.end]
		start = int(tk.end)
		// Which map holds a word depends on its bytes only, so the two
		// never share a key.
		num := hasDigit(folded)
		surfaces := b.surfaces
		if num {
			surfaces = b.numSurfaces
		}
		sid, ok := surfaces[string(folded)]
		var id uint32
		if ok {
			id = b.surfTerm[sid]
		} else {
			surface := string(folded)
			// A word with an ASCII digit is its own term (never stemmed),
			// and no stem has one: only the other words need the terms
			// map.
			if num {
				id = b.newTerm(surface)
			} else {
				term := surface
				if !tk.numeric {
					term = b.an.StemOnce(surface)
				}
				if id, ok = b.terms[term]; !ok {
					id = b.newTerm(term)
					b.terms[term] = id
				}
			}
			sid = uint32(len(b.surfTerm))
			b.surfTerm = append(b.surfTerm, id)
			b.surfForm = append(b.surfForm, TitleHash(b.an.Form(surface)))
			b.surfDF = append(b.surfDF, 0)
			b.surfLast = append(b.surfLast, 0)
			surfaces[surface] = sid
		}
		if b.surfLast[sid] != doc+1 {
			b.surfLast[sid] = doc + 1
			b.surfDF[sid]++
		}
		if f == FieldTitle {
			b.title = appendTitleHash(b.title, b.termHash[id])
			b.titleForm = appendTitleHash(b.titleForm, b.surfForm[sid])
		}
		// seen[id] is 1 + the term's place in tf for this field, so a
		// long description counts its words without rescanning tf.
		if k := b.seen[id]; k != 0 {
			b.tf[k-1].n++
		} else {
			b.tf = append(b.tf, termCount{id, 1})
			b.seen[id] = uint32(len(b.tf))
		}
	}
	for _, tc := range b.tf {
		b.seen[tc.id] = 0
	}
	for len(b.fieldLen[f]) <= int(doc) {
		b.fieldLen[f] = append(b.fieldLen[f], 0)
	}
	b.fieldLen[f][doc] = uint8(min(len(toks), 255))
	for _, tc := range b.tf {
		if len(b.recs) == 0 || len(b.recs[len(b.recs)-1].term) == recChunkLen {
			b.recs = append(b.recs, recChunk{make([]uint32, 0, recChunkLen), make([]uint16, 0, recChunkLen)})
		}
		c := &b.recs[len(b.recs)-1]
		c.term = append(c.term, tc.id)
		c.ft = append(c.ft, uint16(f)<<8|uint16(min(tc.n, 255)))
	}
	b.nrec += len(b.tf)
	return start
}

func (b *Builder) newTerm(term string) uint32 {
	id := uint32(len(b.termStr))
	b.termStr = append(b.termStr, term)
	b.termHash = append(b.termHash, TitleHash(term))
	b.seen = append(b.seen, 0)
	return id
}

// recChunk holds postings records, term and field<<8|tf; chunks of a
// fixed size grow without copying what came before.
type recChunk struct {
	term []uint32
	ft   []uint16
}

const recChunkLen = 1 << 16

type termCount struct {
	id uint32
	n  uint32
}

func (b *Builder) addKeyword(doc uint32, kv KeywordValue, folded []byte) {
	kb := b.keyword[kv.Field]
	if kb == nil {
		kb = &kwBuilder{lookup: make(map[string]uint32)}
		b.keyword[kv.Field] = kb
	}
	id, ok := kb.lookup[string(folded)]
	if !ok {
		id = uint32(len(kb.values))
		kb.lookup[string(folded)] = id
		kb.values = append(kb.values, kv.Value)
		kb.docVals = append(kb.docVals, nil)
	}
	// offs tracks docs: close every doc up to this one.
	for len(kb.offs) <= int(doc) {
		kb.offs = append(kb.offs, uint32(len(kb.vals)))
	}
	for _, v := range kb.vals[kb.offs[doc]:] {
		if v == id {
			return
		}
	}
	kb.vals = append(kb.vals, id)
	kb.docVals[id] = append(kb.docVals[id], doc)
}

// Build freezes the docs added so far into a Segment. The builder must not
// be used afterwards. Its parts (dictionary and postings, stored docs,
// keys, columns, sort ranks) are independent, so they build on every core.
func (b *Builder) Build() *Segment {
	b.orderByKey()
	n := uint32(len(b.keys))
	s := &Segment{
		n:       n,
		live:    n,
		all:     roaring.New(),
		keyword: make(map[string]*KeywordField, len(b.keyword)),
		numeric: make(map[string]*NumericField, len(b.numeric)),
		sorts:   make(map[string][]uint32),
	}
	if n > 0 {
		s.all.AddRange(0, uint64(n))
	}
	var wg sync.WaitGroup
	run := func(f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}
	run(func() { s.stored = compressDocs(b.stored, b.titles) })
	run(func() { s.keys, s.keyDoc = packKeys(b.keys), newKeyIndex(sortedIDs(b.keyDoc), b.alts) })
	run(func() { b.buildTerms(s) })
	run(func() {
		b.buildFieldLens(s, n)
		for name, kb := range b.keyword {
			s.keyword[name] = kb.build(name, n)
		}
	})
	numRanks := make(map[string][]uint32, len(b.numeric))
	run(func() {
		for name, nb := range b.numeric {
			nf := nb.build(name, n)
			s.numeric[name] = nf
			numRanks[name] = numericRank(nf, n)
		}
	})
	textRanks := make(map[string][]uint32, len(b.sorts))
	var mu sync.Mutex
	for name, sb := range b.sorts {
		run(func() {
			r := textRank(sb.vals, n)
			mu.Lock()
			textRanks[name] = r
			mu.Unlock()
		})
	}
	wg.Wait()
	maps.Copy(s.sorts, numRanks)
	maps.Copy(s.sorts, textRanks)
	return s
}

// orderByKey numbers the docs in their keys' byte order, the order a
// rebuild from the store reads them in, so doc ids (which break ties and
// order unsorted listings) do not depend on the order a feed came in.
func (b *Builder) orderByKey() {
	n := len(b.keys)
	if slices.IsSorted(b.keys) {
		return
	}
	// Keys are distinct: a repeated one is refused when added.
	byKey := make([]keyID, n)
	for i, k := range b.keys {
		byKey[i] = keyID{k, uint32(i)}
	}
	sortKeyIDs(byKey)
	inv := make([]uint32, n) // new id → id added under
	for i, k := range byKey {
		inv[i] = k.id
	}
	perm := make([]uint32, n) // id added under → new id
	for nw, old := range inv {
		perm[old] = uint32(nw)
	}
	b.docOrder = inv
	// The parts are independent: renumber them on every core.
	var wg sync.WaitGroup
	wg.Go(func() {
		b.keys = permute(b.keys, inv)
		b.stored = permute(b.stored, inv)
		b.titles = permute(b.titles, inv)
		for f := range b.fieldLen {
			if len(b.fieldLen[f]) > 0 {
				b.fieldLen[f] = permute(padded(b.fieldLen[f], n), inv)
			}
		}
		for _, nb := range b.numeric {
			nb.vals = permute(padded(nb.vals, n), inv)
			nb.has = permute(padded(nb.has, n), inv)
		}
		for _, sb := range b.sorts {
			sb.vals = permute(padded(sb.vals, n), inv)
		}
	})
	wg.Go(func() {
		for k, d := range b.keyDoc {
			b.keyDoc[k] = perm[d]
		}
		for i := range b.alts {
			b.alts[i].id = perm[b.alts[i].id]
		}
	})
	for _, kb := range b.keyword {
		wg.Go(func() {
			for len(kb.offs) <= n {
				kb.offs = append(kb.offs, uint32(len(kb.vals)))
			}
			offs, vals := make([]uint32, 0, n+1), make([]uint32, 0, len(kb.vals))
			for _, old := range inv {
				offs = append(offs, uint32(len(vals)))
				vals = append(vals, kb.vals[kb.offs[old]:kb.offs[old+1]]...)
			}
			kb.offs, kb.vals = append(offs, uint32(len(vals))), vals
			for _, docs := range kb.docVals {
				for i, d := range docs {
					docs[i] = perm[d]
				}
				slices.Sort(docs)
			}
		})
	}
	wg.Wait()
}

// permute is s reordered: element i of the result is s[order[i]].
func permute[T any](s []T, order []uint32) []T {
	out := make([]T, len(order))
	for i, o := range order {
		out[i] = s[o]
	}
	return out
}

// padded is s extended with zero values to n elements.
func padded[T any](s []T, n int) []T {
	for len(s) < n {
		var zero T
		s = append(s, zero)
	}
	return s
}

// buildTerms lays out the dictionary, the postings and the words.
func (b *Builder) buildTerms(s *Segment) {
	// Words with a digit are their own terms, and most of either list:
	// they are sorted once, beside the other words and terms, and merged
	// into both.
	var nums []keyID // word ids
	var wg sync.WaitGroup
	wg.Go(func() { nums = sortedIDs(b.numSurfaces) })
	wordTerms, words := sortedIDs(b.terms), sortedIDs(b.surfaces)
	wg.Wait()
	order := make([]uint32, 0, len(b.termStr))
	textBytes := mergeIDs(wordTerms, nums, func(k keyID) {
		if hasDigit(k.key) {
			k.id = b.surfTerm[k.id] // a word with a digit is its term
		}
		order = append(order, k.id)
	})
	remap := make([]uint32, len(order))
	s.terms = newDict(len(order), textBytes)
	for newID, old := range order {
		remap[old] = uint32(newID)
		t := b.termStr[old]
		s.terms.add(t)
		if hasDigit(t) {
			continue
		}
		l := utf8.RuneCountInString(t)
		for len(s.byLen) <= l {
			s.byLen = append(s.byLen, nil)
		}
		s.byLen[l] = append(s.byLen[l], uint32(newID))
	}
	s.typo = newTypoHolder()
	wg.Go(func() {
		n := len(words) + len(nums)
		s.surfaceTerm = make([]uint32, 0, n)
		s.surfaceDF = make([]uint32, 0, n)
		var all []keyID
		all = slices.Grow(all, n)
		textBytes := mergeIDs(words, nums, func(k keyID) { all = append(all, k) })
		s.surfaces = newDict(n, textBytes)
		for _, k := range all {
			s.surfaces.add(k.key)
			s.surfaceTerm = append(s.surfaceTerm, remap[b.surfTerm[k.id]])
			s.surfaceDF = append(s.surfaceDF, b.surfDF[k.id])
		}
	})
	s.post = b.invert(order)
	s.post.buildDense(int(s.n))
	wg.Wait()
}

type keyID struct {
	key string
	id  uint32
}

// sortedIDs is a map's entries sorted by key.
func sortedIDs(m map[string]uint32) []keyID {
	out := make([]keyID, 0, len(m))
	for k, id := range m {
		out = append(out, keyID{k, id})
	}
	sortKeyIDs(out)
	return out
}

// sortKeyIDs sorts by key, then id.
func sortKeyIDs(s []keyID) {
	slices.SortFunc(s, func(a, b keyID) int {
		if r := strings.Compare(a.key, b.key); r != 0 {
			return r
		}
		return cmp.Compare(a.id, b.id)
	})
}

// mergeIDs calls fn with the entries of two sorted lists in order and
// returns their keys' total length.
func mergeIDs(a, b []keyID, fn func(keyID)) int {
	total := 0
	for len(a) > 0 || len(b) > 0 {
		var k keyID
		if len(b) == 0 || len(a) > 0 && a[0].key < b[0].key {
			k, a = a[0], a[1:]
		} else {
			k, b = b[0], b[1:]
		}
		total += len(k.key)
		fn(k)
	}
	return total
}

// invert turns the records into postings laid out in the order of the
// sorted terms: a count per term and field, their offsets, then one pass
// over the records in doc order dropping each into place (so every list
// comes out sorted by doc). Terms in 32 docs or more keep a bitmap.
func (b *Builder) invert(order []uint32) postings {
	const nf = int(NumTextFields)
	n := b.nrec
	cur := make([]uint32, len(b.termStr)*nf) // counts, then write positions
	for _, c := range b.recs {
		for i, t := range c.term {
			cur[int(t)*nf+int(c.ft[i]>>8)]++
		}
	}
	p := postings{
		spanOff: make([]uint32, 1, len(order)+1),
		docs:    make([]uint32, n),
		tfs:     make([]uint8, n),
		df:      make([]uint32, len(order)),
		bitmaps: make([]*roaring.Bitmap, len(order)),
	}
	pos := uint32(0)
	for _, old := range order {
		for f := range nf {
			k := int(old)*nf + f
			if c := cur[k]; c > 0 {
				p.spans = append(p.spans, postSpan{start: pos, n: c, field: TextField(f)})
				cur[k] = pos
				pos += c
			}
		}
		p.spanOff = append(p.spanOff, uint32(len(p.spans)))
	}
	docRec := append(b.docRec, uint32(n))
	for d := range len(docRec) - 1 {
		old := d
		if b.docOrder != nil {
			old = int(b.docOrder[d])
		}
		for r := docRec[old]; r < docRec[old+1]; r++ {
			c := &b.recs[r/recChunkLen]
			i := r % recChunkLen
			ft := c.ft[i]
			k := int(c.term[i])*nf + int(ft>>8)
			at := cur[k]
			cur[k] = at + 1
			p.docs[at], p.tfs[at] = uint32(d), uint8(ft)
		}
	}
	b.recs, b.docRec, b.docOrder = nil, nil, nil
	for id := range order {
		spans := p.spans[p.spanOff[id]:p.spanOff[id+1]]
		total := uint32(0)
		for _, sp := range spans {
			total += sp.n
		}
		if len(spans) == 1 && total < bitmapMinDF {
			p.df[id] = total // one field: no doc twice
			continue
		}
		bm := roaring.New()
		for _, sp := range spans {
			bm.AddMany(p.docs[sp.start : sp.start+sp.n])
		}
		df := uint32(bm.GetCardinality())
		p.df[id] = df
		if df >= bitmapMinDF {
			bm.RunOptimize()
			p.bitmaps[id] = bm
		}
	}
	return p
}

// buildFieldLens pads the field lengths to n docs and averages them.
func (b *Builder) buildFieldLens(s *Segment, n uint32) {
	for f := range b.fieldLen {
		fl := b.fieldLen[f]
		for len(fl) < int(n) {
			fl = append(fl, 0)
		}
		s.fieldLen[f] = fl
	}
	s.sumFieldLens()
}

// sumFieldLens sets lenSum, lenCnt and avgLen from the field lengths of
// the docs in all.
func (s *Segment) sumFieldLens() {
	for f := range s.fieldLen {
		var sum, cnt uint64
		fl := s.fieldLen[f]
		if s.live == s.n {
			for _, l := range fl {
				if l > 0 {
					sum += uint64(l)
					cnt++
				}
			}
		} else {
			it := s.all.Iterator()
			for it.HasNext() {
				if l := fl[it.Next()]; l > 0 {
					sum += uint64(l)
					cnt++
				}
			}
		}
		s.lenSum[f], s.lenCnt[f] = sum, cnt
	}
	s.setAvgLens()
}

// setAvgLens derives avgLen from lenSum and lenCnt: 1 for a field no doc
// has.
func (s *Segment) setAvgLens() {
	for f := range s.avgLen {
		if s.lenCnt[f] > 0 {
			s.avgLen[f] = float32(float64(s.lenSum[f]) / float64(s.lenCnt[f]))
		} else {
			s.avgLen[f] = 1
		}
	}
}

// packKeys packs keys, in their order, into a dict.
func packKeys(keys []string) dict {
	total := 0
	for _, k := range keys {
		total += len(k)
	}
	d := newDict(len(keys), total)
	for _, k := range keys {
		d.add(k)
	}
	return d
}

func hasDigit[S string | []byte](s S) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			return true
		}
	}
	return false
}

func (kb *kwBuilder) build(name string, n uint32) *KeywordField {
	for len(kb.offs) <= int(n) {
		kb.offs = append(kb.offs, uint32(len(kb.vals)))
	}
	// Sort values by display form; remap ids.
	order := make([]uint32, len(kb.values))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, c uint32) int {
		if r := strings.Compare(kb.values[a], kb.values[c]); r != 0 {
			return r
		}
		return int(a) - int(c)
	})
	remap := make([]uint32, len(order))
	k := &KeywordField{
		Name:    name,
		Values:  make([]string, len(order)),
		Bitmaps: make([]*roaring.Bitmap, len(order)),
		lookup:  make(map[string]uint32, len(order)),
		offs:    kb.offs,
		vals:    kb.vals,
		single:  true,
	}
	for newID, old := range order {
		remap[old] = uint32(newID)
		k.Values[newID] = kb.values[old]
		bm := roaring.New()
		bm.AddMany(kb.docVals[old])
		bm.RunOptimize()
		k.Bitmaps[newID] = bm
	}
	for f, id := range kb.lookup {
		k.lookup[f] = remap[id]
	}
	for i, v := range k.vals {
		k.vals[i] = remap[v]
	}
	for d := uint32(0); d < n; d++ {
		if k.offs[d+1]-k.offs[d] > 1 {
			k.single = false
			break
		}
	}
	k.initHierarchy()
	k.initColumns()
	return k
}

// initHierarchy links hierarchy values to their parents, for drill-down
// facets.
func (k *KeywordField) initHierarchy() {
	if !isHierarchy(k.Values) {
		return
	}
	k.Parent = make([]int32, len(k.Values))
	k.Depth = make([]uint8, len(k.Values))
	for i, v := range k.Values {
		k.Depth[i] = uint8(min(strings.Count(v, "$"), 255))
		k.Parent[i] = -1
		trimmed := strings.TrimSuffix(v, "$")
		if j := strings.LastIndexByte(trimmed, '$'); j >= 0 {
			if p, ok := k.lookup[foldKey(v[:j+1])]; ok {
				k.Parent[i] = int32(p)
			}
		}
	}
}

func foldKey(s string) string { return analysis.FoldString(s) }

// isHierarchy tells hierarchy fields by their values: every one ends in $.
func isHierarchy(vals []string) bool {
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if !strings.HasSuffix(v, "$") {
			return false
		}
	}
	return true
}

const targetBuckets = 64

func (nb *numBuilder) build(name string, n uint32) *NumericField {
	for len(nb.vals) < int(n) {
		nb.vals = append(nb.vals, 0)
		nb.has = append(nb.has, false)
	}
	f := &NumericField{Name: name, vals: nb.vals, has: roaring.New()}
	have := 0
	for _, h := range nb.has {
		if h {
			have++
		}
	}
	f.perm = makeHuge[uint32](0, have)
	for d, h := range nb.has {
		if h {
			f.perm = append(f.perm, uint32(d))
		}
	}
	f.has.AddMany(f.perm)
	f.has.RunOptimize()
	sortByValue(f.perm, f.vals) // ascending docs into byValue's order
	f.finish(n)
	return f
}

// byValue orders docs by their value, then by doc id: perm's order.
func (f *NumericField) byValue(a, c uint32) int {
	va, vc := f.vals[a], f.vals[c]
	switch {
	case va < vc:
		return -1
	case va > vc:
		return 1
	}
	return cmp.Compare(a, c)
}

// finish derives the sorted values, quantised positions and buckets
// from vals and perm.
func (f *NumericField) finish(n uint32) { f.finishFrom(nil, n) }

// finishFrom is finish reusing old's buckets that hold the same docs with
// the same values (a column update moves few docs).
func (f *NumericField) finishFrom(old *NumericField, n uint32) {
	f.sortedVals = makeHuge[float64](len(f.perm), len(f.perm))
	for i, d := range f.perm {
		f.sortedVals[i] = f.vals[d]
	}
	f.qpos = makeHuge[uint16](int(n), int(n))
	for len(f.perm)>>f.qshift >= NoValue16 {
		f.qshift++
	}
	for i := range f.qpos {
		f.qpos[i] = NoValue16
	}
	for i, d := range f.perm {
		f.qpos[d] = uint16(i >> f.qshift)
	}
	f.bucketSize = max(len(f.perm)/targetBuckets, 1024)
	for lo := 0; lo < len(f.perm); lo += f.bucketSize {
		hi := min(lo+f.bucketSize, len(f.perm))
		if b := lo / f.bucketSize; old != nil && old.bucketSize == f.bucketSize && b < len(old.buckets) && hi <= len(old.perm) &&
			slices.Equal(old.perm[lo:hi], f.perm[lo:hi]) && slices.Equal(old.sortedVals[lo:hi], f.sortedVals[lo:hi]) {
			f.keepBucket(old, b)
			continue
		}
		f.addBucket(lo, hi)
	}
}

func numericRank(f *NumericField, n uint32) []uint32 {
	rank := makeHuge[uint32](int(n), int(n))
	for i := range rank {
		rank[i] = math.MaxUint32
	}
	var r uint32
	for i, d := range f.perm {
		if i > 0 && f.sortedVals[i] != f.sortedVals[i-1] {
			r++
		}
		rank[d] = r
	}
	return rank
}

func textRank(vals []string, n uint32) []uint32 {
	for len(vals) < int(n) {
		vals = append(vals, "")
	}
	// Sorting the strings beside their docs reads them in order, where
	// sorting doc ids by their strings jumped around memory.
	order := make([]keyID, 0, n)
	for d := uint32(0); d < n; d++ {
		if vals[d] != "" {
			order = append(order, keyID{vals[d], d})
		}
	}
	sortKeyIDs(order)
	rank := makeHuge[uint32](int(n), int(n))
	for i := range rank {
		rank[i] = math.MaxUint32
	}
	var r uint32
	for i, k := range order {
		if i > 0 && k.key != order[i-1].key {
			r++
		}
		rank[k.id] = r
	}
	return rank
}
