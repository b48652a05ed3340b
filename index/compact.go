package index

import (
	"cmp"
	"math"
	"slices"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
)

// Compact is the segment with its doc ids in key order and no holes, as
// a fresh Build of its docs numbers them: what Save writes. A segment
// without holes and in key order is returned as it is. Nothing is
// analysed again: the dictionary, the words, the doc counts and the
// keyword values are carried over, and every per-doc list renumbered.
func (s *Segment) Compact() *Segment {
	if s.order == nil && s.live == s.n {
		return s
	}
	// byNew[i] is the old id of the doc that becomes i; newID the reverse
	// (MaxUint32 for a hole).
	byNew := make([]uint32, 0, s.live)
	newID := make([]uint32, s.n)
	for i := range newID {
		newID[i] = math.MaxUint32
	}
	if s.order == nil {
		it := s.all.Iterator()
		for it.HasNext() {
			byNew = append(byNew, it.Next())
		}
	} else {
		byNew = byNew[:s.live]
		for d, r := range s.order {
			if r != math.MaxUint32 {
				byNew[r] = uint32(d)
			}
		}
	}
	for i, d := range byNew {
		newID[d] = uint32(i)
	}
	n := s.live
	out := &Segment{
		n: n, live: n, all: roaring.New(),
		terms: s.terms, surfaces: s.surfaces, surfaceTerm: s.surfaceTerm, surfaceDF: s.surfaceDF, byLen: s.byLen, typo: s.typo,
		avgLen: s.avgLen, lenSum: s.lenSum, lenCnt: s.lenCnt,
		keyword: make(map[string]*KeywordField, len(s.keyword)),
		numeric: make(map[string]*NumericField, len(s.numeric)),
		sorts:   make(map[string][]uint32, len(s.sorts)),
	}
	if n > 0 {
		out.all.AddRange(0, uint64(n))
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		out.post = s.post.compact(newID)
		out.post.buildDense(int(n))
	})
	wg.Go(func() {
		keys := make([]string, n)
		for i, d := range byNew {
			keys[i] = s.keys.at(int(d))
		}
		out.keys = packKeys(keys)
		out.keyDoc = keyIndex{keys: s.keyDoc.keys, docs: make([]uint32, len(s.keyDoc.docs))}
		for i, d := range s.keyDoc.docs {
			out.keyDoc.docs[i] = newID[d]
		}
		docs := make([][]byte, n)
		for i, d := range byNew {
			docs[i] = s.stored.doc(d)
		}
		out.stored = packDocs(docs)
		out.stored.dict, out.stored.dictData, out.stored.names = s.stored.dict, s.stored.dictData, s.stored.names
		for f := range s.fieldLen {
			out.fieldLen[f] = permute(s.fieldLen[f], byNew)
		}
	})
	var mu sync.Mutex
	for name, k := range s.keyword {
		wg.Go(func() {
			c := k.compact(byNew, newID)
			mu.Lock()
			out.keyword[name] = c
			mu.Unlock()
		})
	}
	for name, f := range s.numeric {
		wg.Go(func() {
			nb := &numBuilder{vals: permute(f.vals, byNew), has: make([]bool, n)}
			for i, d := range byNew {
				nb.has[i] = f.has.Contains(d)
			}
			c := nb.build(name, n)
			r := numericRank(c, n)
			mu.Lock()
			out.numeric[name], out.sorts[name] = c, r
			mu.Unlock()
		})
	}
	for name, r := range s.sorts {
		if s.numeric[name] == nil {
			wg.Go(func() {
				c := permute(r, byNew)
				mu.Lock()
				out.sorts[name] = c
				mu.Unlock()
			})
		}
	}
	wg.Wait()
	return out
}

// compact is p's lists renumbered by newID (MaxUint32 drops a doc), each
// field's base and tail docs in one span, all in one arena, as the
// builder lays them out.
func (p *postings) compact(newID []uint32) postings {
	terms := len(p.df)
	out := postings{
		spanOff: make([]uint32, 1, terms+1),
		spans:   make([]postSpan, 0, len(p.spans)),
		docs:    make([]uint32, 0, len(p.docs)+len(p.tdocs)),
		tfs:     make([]uint8, 0, len(p.docs)+len(p.tdocs)),
		df:      p.df,
		bitmaps: make([]*roaring.Bitmap, terms),
	}
	type posting struct {
		doc uint32
		tf  uint8
	}
	var byField [NumTextFields][]posting
	for id := range terms {
		for f := range byField {
			byField[f] = byField[f][:0]
		}
		for _, sp := range p.spans[p.spanOff[id]:p.spanOff[id+1]] {
			docs, tfs := p.spanDocs(sp)
			for i, d := range docs {
				if nd := newID[d]; nd != math.MaxUint32 {
					byField[sp.field] = append(byField[sp.field], posting{nd, tfs[i]})
				}
			}
		}
		for f := range byField {
			ps := byField[f]
			if len(ps) == 0 {
				continue
			}
			slices.SortFunc(ps, func(a, b posting) int { return cmp.Compare(a.doc, b.doc) })
			out.spans = append(out.spans, postSpan{start: uint32(len(out.docs)), n: uint32(len(ps)), field: TextField(f)})
			for _, x := range ps {
				out.docs = append(out.docs, x.doc)
				out.tfs = append(out.tfs, x.tf)
			}
		}
		out.spanOff = append(out.spanOff, uint32(len(out.spans)))
		if p.bitmaps[id] != nil {
			bm := roaring.New()
			for _, sp := range out.spans[out.spanOff[id]:out.spanOff[id+1]] {
				bm.AddMany(out.docs[sp.start : sp.start+sp.n])
			}
			bm.RunOptimize()
			out.bitmaps[id] = bm
		}
	}
	return out
}

// compact is k over the docs renumbered: byNew[i] is the old id of doc i,
// newID the reverse.
func (k *KeywordField) compact(byNew, newID []uint32) *KeywordField {
	out := *k
	out.offs = make([]uint32, 0, len(byNew)+1)
	out.vals = make([]uint32, 0, len(k.vals))
	docs := make([][]uint32, len(k.Values))
	for i, d := range byNew {
		out.offs = append(out.offs, uint32(len(out.vals)))
		for _, v := range k.DocValues(d) {
			out.vals = append(out.vals, v)
			docs[v] = append(docs[v], uint32(i))
		}
	}
	out.offs = append(out.offs, uint32(len(out.vals)))
	out.Bitmaps = make([]*roaring.Bitmap, len(k.Values))
	for v, ds := range docs {
		bm := roaring.New()
		bm.AddMany(ds)
		bm.RunOptimize()
		out.Bitmaps[v] = bm
	}
	out.initColumns()
	return &out
}
