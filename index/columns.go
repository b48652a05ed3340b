package index

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/analysis"
)

// Column updates: a change to a doc that leaves its text, keys and sort
// values as they were (a price, stock or sale feed) changes only its
// keyword and number values and its stored JSON. WithColumns makes the
// segment of the changed docs from the current one without indexing
// anything again: the dictionary, postings, words, field lengths, keys
// and text sort ranks are shared, each column a change touches is built
// again from its per-doc values with the builder's own code, and the new
// stored JSON is laid over the old. The result answers every read as a
// fresh Build of the changed docs does (index/columns_test.go holds it to
// that, section by section of Save).

// ColumnChange is a doc's new column values: every keyword and number
// value it has after the change (as Doc carries them) and its new stored
// JSON. Its text, keys and sort values must be unchanged: the caller
// checks that, since only it can compare them.
type ColumnChange struct {
	Doc      uint32
	Keywords []KeywordValue
	Numbers  []NumberValue
	Stored   []byte
	// titles, when newTitle, are the doc's title hashes, terms' then
	// forms' (a doc WithDocs adds); otherwise the doc keeps its own: a
	// column change leaves the title as it was.
	titles   []byte
	newTitle bool
}

// DocKeywords gives a doc's keyword values as they are now (from its
// stored JSON): WithColumns asks for one only when a change leaves a
// keyword value whose display form the segment does not hold, because
// the doc that set it lost it and the next doc holding it decides.
type DocKeywords func(doc uint32) ([]KeywordValue, error)

// ErrColumnChange marks changes WithColumns cannot apply (a doc out of
// range, a doc changed twice): nothing is made.
var ErrColumnChange = errors.New("invalid column change")

// WithColumns returns the segment with changes applied; s is unchanged
// and stays valid. docKeywords may be nil when no change removes a
// keyword value from the doc that first held it.
func (s *Segment) WithColumns(changes []ColumnChange, docKeywords DocKeywords) (*Segment, error) {
	changed := changeSet{byDoc: make(map[uint32]*ColumnChange, len(changes)), bits: make([]uint64, (s.n+63)/64)}
	for i := range changes {
		c := &changes[i]
		if c.Doc >= s.n {
			return nil, fmt.Errorf("%w: doc %d of %d", ErrColumnChange, c.Doc, s.n)
		}
		if changed.has(c.Doc) {
			return nil, fmt.Errorf("%w: doc %d changed twice", ErrColumnChange, c.Doc)
		}
		changed.byDoc[c.Doc] = c
		changed.bits[c.Doc/64] |= 1 << (c.Doc % 64)
	}
	out := *s
	out.stored = s.stored.withDocs(changes, s.n)
	out.keyword = maps.Clone(s.keyword)
	out.numeric = maps.Clone(s.numeric)
	out.sorts = maps.Clone(s.sorts)

	// The fields whose values a change changes.
	kwFields, numFields := map[string]bool{}, map[string]bool{}
	for i := range changes {
		c := &changes[i]
		names := map[string]bool{}
		for _, kv := range c.Keywords {
			names[kv.Field] = true
		}
		for name, k := range s.keyword {
			if k.offs[c.Doc+1] > k.offs[c.Doc] {
				names[name] = true
			}
		}
		for name := range names {
			if !s.keywordSame(name, c) {
				kwFields[name] = true
			}
		}
		names = map[string]bool{}
		for _, nv := range c.Numbers {
			names[nv.Field] = true
		}
		for name, f := range s.numeric {
			if f.has.Contains(c.Doc) {
				names[name] = true
			}
		}
		for name := range names {
			if !s.numberSame(name, c) {
				numFields[name] = true
			}
		}
	}
	for name := range kwFields {
		k, err := s.keywordWith(name, s.n, changed, s.rank, docKeywords)
		if err != nil {
			return nil, err
		}
		if k == nil {
			delete(out.keyword, name)
		} else {
			out.keyword[name] = k
		}
	}
	for name := range numFields {
		f := s.numericWith(name, s.n, changed)
		if f == nil {
			delete(out.numeric, name)
			delete(out.sorts, name)
			continue
		}
		out.numeric[name] = f
		out.sorts[name] = numericRank(f, s.n)
	}
	return &out, nil
}

// keywordWith is keyword field name over n docs with the changed docs'
// values in place of theirs: patched when it can be (patchKeyword), else
// built again (rebuildKeyword); nil when no doc has a value.
func (s *Segment) keywordWith(name string, n uint32, changed changeSet, rank func(uint32) uint32, docKeywords DocKeywords) (*KeywordField, error) {
	if k, ok := s.patchKeyword(name, n, changed, rank); ok {
		return k, nil
	}
	return s.rebuildKeyword(name, n, changed, rank, docKeywords)
}

// numericWith is numeric field name over n docs with the changed docs'
// values in place of theirs: patched when it can be (patchNumeric), else
// derived again (rebuildNumeric); nil when no doc has a value.
func (s *Segment) numericWith(name string, n uint32, changed changeSet) *NumericField {
	if f, ok := s.patchNumeric(name, n, changed); ok {
		return f
	}
	return s.rebuildNumeric(name, n, changed)
}

// number is the change's value of numeric field name, and whether it
// has one (a NaN is none, as the builder takes it; the first value
// counts).
func (c *ColumnChange) number(name string) (float64, bool) {
	for _, nv := range c.Numbers {
		if nv.Field == name && !math.IsNaN(nv.Value) {
			return nv.Value, true
		}
	}
	return 0, false
}

// rebuildKeyword builds keyword field name again from its per-doc values
// over n docs, the changed docs' new ones in place of theirs, as the
// builder would have added them; nil when no doc has a value. A value's
// display form is the one of the first doc holding it in key order
// (rank gives each doc's place in it after the change), as a fresh
// build's: docKeywords reads an unchanged doc's own form when the doc
// that set the display lost the value.
func (s *Segment) rebuildKeyword(name string, n uint32, changed changeSet, rank func(uint32) uint32, docKeywords DocKeywords) (*KeywordField, error) {
	old := s.keyword[name]
	// The changed docs' forms, the first in key order kept.
	type form struct {
		rank    uint32
		display string
	}
	firstChanged := map[string]form{}
	var folded []byte
	for d, c := range changed.byDoc {
		r := rank(d)
		for _, kv := range c.Keywords {
			if kv.Field != name {
				continue
			}
			folded = analysis.Fold(folded[:0], kv.Value)
			if f, ok := firstChanged[string(folded)]; !ok || r < f.rank {
				firstChanged[string(folded)] = form{r, kv.Value}
			}
		}
	}
	var oldFolded []string // old value id → its folded form
	if old != nil {
		oldFolded = make([]string, len(old.Values))
		for f, id := range old.lookup {
			oldFolded[id] = f
		}
	}
	// display is a value's form: of the first unchanged doc holding it,
	// unless a changed doc comes first.
	display := func(f string) (string, error) {
		fc, inChanged := firstChanged[f]
		id, inOld := uint32(0), false
		if old != nil {
			id, inOld = old.lookup[f]
		}
		if !inOld {
			return fc.display, nil
		}
		first, _ := s.firstHolder(old.Bitmaps[id], nil)
		keep, found := first, !changed.has(first)
		if !found {
			keep, found = s.firstHolder(old.Bitmaps[id], changed.has)
		}
		if !found || inChanged && fc.rank < rank(keep) {
			return fc.display, nil
		}
		if keep == first {
			return old.Values[id], nil
		}
		return ownDisplay(docKeywords, keep, name, f)
	}
	kb := &kwBuilder{lookup: make(map[string]uint32)}
	var remap []uint32 // old value id → kb id + 1 (0: not seen yet)
	if old != nil {
		remap = make([]uint32, len(old.Values))
	}
	for d := range n {
		if changed.has(d) {
			for _, kv := range changed.byDoc[d].Keywords {
				if kv.Field != name {
					continue
				}
				folded = analysis.Fold(folded[:0], kv.Value)
				if id, ok := kb.lookup[string(folded)]; ok {
					kb.addID(d, id)
					continue
				}
				disp, err := display(string(folded))
				if err != nil {
					return nil, err
				}
				kb.add(d, disp, folded)
			}
			continue
		}
		if old == nil {
			continue
		}
		for _, id := range old.DocValues(d) {
			if remap[id] == 0 {
				if kid, ok := kb.lookup[oldFolded[id]]; ok {
					remap[id] = kid + 1 // a changed doc before this one set it
				} else {
					disp, err := display(oldFolded[id])
					if err != nil {
						return nil, err
					}
					remap[id] = kb.add(d, disp, []byte(oldFolded[id])) + 1
				}
			}
			kb.addID(d, remap[id]-1)
		}
	}
	if len(kb.values) == 0 {
		return nil, nil
	}
	return kb.build(name, n), nil
}

// ownDisplay is doc's own form of the keyword value folded in field name.
func ownDisplay(docKeywords DocKeywords, doc uint32, name, folded string) (string, error) {
	if docKeywords == nil {
		return "", fmt.Errorf("%w: doc %d's form of %s value %q is needed and no DocKeywords was given", ErrColumnChange, doc, name, folded)
	}
	kvs, err := docKeywords(doc)
	if err != nil {
		return "", err
	}
	for _, kv := range kvs {
		if kv.Field == name && analysis.FoldString(kv.Value) == folded {
			return kv.Value, nil
		}
	}
	return "", fmt.Errorf("%w: doc %d has no %s value %q", ErrColumnChange, doc, name, folded)
}

// add posts a value to doc as addKeyword does and returns its id.
func (kb *kwBuilder) add(doc uint32, display string, folded []byte) uint32 {
	id, ok := kb.lookup[string(folded)]
	if !ok {
		id = uint32(len(kb.values))
		kb.lookup[string(folded)] = id
		kb.values = append(kb.values, display)
		kb.docVals = append(kb.docVals, nil)
	}
	kb.addID(doc, id)
	return id
}

// addID posts value id to doc, once.
func (kb *kwBuilder) addID(doc, id uint32) {
	for len(kb.offs) <= int(doc) {
		kb.offs = append(kb.offs, uint32(len(kb.vals)))
	}
	if slices.Contains(kb.vals[kb.offs[doc]:], id) {
		return
	}
	kb.vals = append(kb.vals, id)
	kb.docVals[id] = append(kb.docVals[id], doc)
}

// rebuildNumeric builds numeric field name again with the changed
// docs' new values, as a fresh build would; nil when no doc has a value.
// The sorted permutation is the old one without the changed docs merged
// with the changed docs sorted: linear, where a fresh sort is not.
func (s *Segment) rebuildNumeric(name string, n uint32, changed changeSet) *NumericField {
	old := s.numeric[name]
	f := &NumericField{Name: name, vals: make([]float64, n)}
	if old != nil {
		copy(f.vals, old.vals)
		f.has = old.has.Clone()
	} else {
		f.has = roaring.New()
	}
	var moved []uint32 // changed docs with a value, by value
	for d, c := range changed.byDoc {
		v, has := c.number(name)
		f.vals[d] = v
		if has {
			f.has.Add(d)
			moved = append(moved, d)
		} else {
			f.has.Remove(d)
		}
	}
	if f.has.IsEmpty() {
		// A fresh build keeps a field whose every value was NaN (the
		// builder makes it on the first value given); products cannot
		// carry NaN, so here no value means no field.
		return nil
	}
	f.has.RunOptimize()
	slices.SortFunc(moved, f.byValue)
	f.perm = make([]uint32, 0, f.has.GetCardinality())
	var rest []uint32
	if old != nil {
		rest = old.perm
	}
	for len(rest) > 0 || len(moved) > 0 {
		if len(rest) > 0 && changed.has(rest[0]) {
			rest = rest[1:]
			continue
		}
		if len(moved) == 0 || len(rest) > 0 && f.byValue(rest[0], moved[0]) < 0 {
			f.perm, rest = append(f.perm, rest[0]), rest[1:]
		} else {
			f.perm, moved = append(f.perm, moved[0]), moved[1:]
		}
	}
	f.finishFrom(old, n)
	return f
}

// keywordSame reports that c leaves doc c.Doc's values of keyword field
// name as they are: the same folded values in the same order, and the
// same display form for each value the doc is the first to hold.
func (s *Segment) keywordSame(name string, c *ColumnChange) bool {
	k := s.keyword[name]
	var ids []uint32
	if k != nil {
		ids = k.DocValues(c.Doc)
	}
	i := 0
	var seen []string
	for _, kv := range c.Keywords {
		if kv.Field != name {
			continue
		}
		f := analysis.FoldString(kv.Value)
		if slices.Contains(seen, f) {
			continue // the builder keeps a value once per doc
		}
		seen = append(seen, f)
		if k == nil || i >= len(ids) {
			return false
		}
		id, ok := k.lookup[f]
		if !ok || id != ids[i] {
			return false
		}
		if first, _ := s.firstHolder(k.Bitmaps[id], nil); first == c.Doc && k.Values[id] != kv.Value {
			return false
		}
		i++
	}
	return i == len(ids)
}

// numberSame reports that c leaves doc c.Doc's value of numeric field
// name as it is.
func (s *Segment) numberSame(name string, c *ColumnChange) bool {
	v, has := c.number(name)
	f := s.numeric[name]
	if f == nil {
		return !has
	}
	old, oldHas := f.Value(c.Doc)
	return has == oldHas && (!has || old == v)
}

// changeSet is the changed docs, by doc and as a bitset for the per-doc
// loops.
type changeSet struct {
	byDoc map[uint32]*ColumnChange
	bits  []uint64
}

func (c changeSet) has(doc uint32) bool { return c.bits[doc/64]&(1<<(doc%64)) != 0 }

// extended is k over n docs, the docs past its own without values.
func (k *KeywordField) extended(n uint32) *KeywordField {
	if len(k.offs) == int(n)+1 {
		return k
	}
	out := *k
	out.offs = make([]uint32, n+1)
	copy(out.offs, k.offs)
	last := k.offs[len(k.offs)-1]
	for i := len(k.offs); i <= int(n); i++ {
		out.offs[i] = last
	}
	if k.one != nil {
		out.one = make([]uint16, n)
		copy(out.one, k.one)
		for i := len(k.one); i < int(n); i++ {
			out.one[i] = NoValue16
		}
	}
	return &out
}

// extended is f over n docs, the docs past its own without values.
func (f *NumericField) extended(n uint32) *NumericField {
	if len(f.vals) == int(n) {
		return f
	}
	out := *f
	out.vals = make([]float64, n)
	copy(out.vals, f.vals)
	out.qpos = make([]uint16, n)
	copy(out.qpos, f.qpos)
	for i := len(f.qpos); i < int(n); i++ {
		out.qpos[i] = NoValue16
	}
	return &out
}

// patchKeyword is keyword field name over n docs with the changed docs'
// values in place of theirs, made by patching: when the change neither
// drops a value nor adds one and leaves each value's first holder in key
// order (rank) and so its display form, only the bitmaps of the values
// the changed docs held or hold are copied and changed, and the per-doc
// lists copied once. ok is false otherwise: rebuildKeyword decides.
func (s *Segment) patchKeyword(name string, n uint32, changed changeSet, rank func(uint32) uint32) (*KeywordField, bool) {
	old := s.keyword[name]
	if old == nil {
		return nil, false
	}
	newVals := make(map[uint32][]uint32, len(changed.byDoc))
	gain := map[uint32][]uint32{} // value id → changed docs holding it now
	lose := map[uint32][]uint32{} // value id → changed docs that held it
	display := map[uint32]string{}
	var folded []byte
	for d, c := range changed.byDoc {
		var ids []uint32
		for _, kv := range c.Keywords {
			if kv.Field != name {
				continue
			}
			folded = analysis.Fold(folded[:0], kv.Value)
			id, ok := old.lookup[string(folded)]
			if !ok {
				return nil, false // a new value: ids shift
			}
			if slices.Contains(ids, id) {
				continue
			}
			ids = append(ids, id)
			gain[id] = append(gain[id], d)
			if prev, seen := display[id]; seen && prev != kv.Value {
				return nil, false
			}
			display[id] = kv.Value
		}
		newVals[d] = ids
		if d < s.n && s.all.Contains(d) {
			for _, id := range old.DocValues(d) {
				lose[id] = append(lose[id], d)
			}
		}
	}
	// Every touched value keeps a holder, and its first holder.
	touched := map[uint32]bool{}
	for id := range gain {
		touched[id] = true
	}
	for id := range lose {
		touched[id] = true
	}
	for id := range touched {
		bm := old.Bitmaps[id]
		if int(bm.GetCardinality())-len(lose[id])+len(gain[id]) <= 0 {
			return nil, false // a value gone: ids shift
		}
		first, _ := s.firstHolder(bm, nil)
		if changed.has(first) {
			return nil, false
		}
		for _, d := range gain[id] {
			if rank(d) < rank(first) && display[id] != old.Values[id] {
				return nil, false // a new first holder with another form
			}
		}
	}
	out := *old
	out.Bitmaps = slices.Clone(old.Bitmaps)
	for id := range touched {
		bm := old.Bitmaps[id].Clone()
		for _, d := range lose[id] {
			bm.Remove(d)
		}
		docs := gain[id]
		slices.Sort(docs)
		bm.AddMany(docs)
		bm.RunOptimize()
		out.Bitmaps[id] = bm
	}
	out.offs = make([]uint32, n+1)
	out.vals = make([]uint32, 0, len(old.vals)+len(changed.byDoc))
	single := true
	for d := range n {
		out.offs[d] = uint32(len(out.vals))
		switch {
		case changed.has(d):
			out.vals = append(out.vals, newVals[d]...)
		case d < s.n:
			out.vals = append(out.vals, old.vals[old.offs[d]:old.offs[d+1]]...)
		}
		single = single && len(out.vals)-int(out.offs[d]) <= 1
	}
	out.offs[n] = uint32(len(out.vals))
	out.single = single
	if old.one == nil || single != old.single {
		out.initColumns()
		return &out, true
	}
	out.one = make([]uint16, n)
	copy(out.one, old.one)
	for d := len(old.one); d < int(n); d++ {
		out.one[d] = NoValue16
	}
	for d := range changed.byDoc {
		out.one[d] = out.chainEnd(out.vals[out.offs[d]:out.offs[d+1]])
	}
	return &out, true
}
