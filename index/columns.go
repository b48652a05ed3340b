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
	out.stored = s.stored.withDocs(changes)
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
		k, err := s.rebuildKeyword(name, changed, docKeywords)
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
		f := s.rebuildNumeric(name, changed)
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

// rebuildKeyword builds keyword field name again from its per-doc values,
// the changed docs' new ones in place of theirs, as the builder would
// have added them in doc order; nil when no doc has a value.
func (s *Segment) rebuildKeyword(name string, changed changeSet, docKeywords DocKeywords) (*KeywordField, error) {
	old := s.keyword[name]
	kb := &kwBuilder{lookup: make(map[string]uint32)}
	var oldFolded []string // old value id → its folded form
	var remap []uint32     // old value id → kb id + 1 (0: not seen yet)
	var first []uint32     // old value id → the doc that set its display
	if old != nil {
		oldFolded = make([]string, len(old.Values))
		for f, id := range old.lookup {
			oldFolded[id] = f
		}
		remap = make([]uint32, len(old.Values))
		first = make([]uint32, len(old.Values))
		for id, bm := range old.Bitmaps {
			first[id] = bm.Minimum()
		}
	}
	var folded []byte
	for d := uint32(0); d < s.n; d++ {
		if changed.has(d) {
			for _, kv := range changed.byDoc[d].Keywords {
				if kv.Field == name {
					folded = analysis.Fold(folded[:0], kv.Value)
					kb.add(d, kv.Value, folded)
				}
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
				}
			}
			if remap[id] != 0 {
				kb.addID(d, remap[id]-1)
				continue
			}
			display := old.Values[id]
			if first[id] != d {
				// The doc that set this display lost the value: this doc's
				// own form is the display now.
				var err error
				if display, err = ownDisplay(docKeywords, d, name, oldFolded[id]); err != nil {
					return nil, err
				}
			}
			remap[id] = kb.add(d, display, []byte(oldFolded[id])) + 1
		}
	}
	if len(kb.values) == 0 {
		return nil, nil
	}
	return kb.build(name, s.n), nil
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
func (s *Segment) rebuildNumeric(name string, changed changeSet) *NumericField {
	old := s.numeric[name]
	f := &NumericField{Name: name, vals: make([]float64, s.n)}
	if old != nil {
		copy(f.vals, old.vals)
		f.has = old.has.Clone()
	} else {
		f.has = roaring.New()
	}
	var moved []uint32 // changed docs with a value, by value
	for d, c := range changed.byDoc {
		f.vals[d] = 0
		f.has.Remove(d)
		for _, nv := range c.Numbers {
			if nv.Field == name && !math.IsNaN(nv.Value) {
				f.vals[d] = nv.Value
				f.has.Add(d)
				moved = append(moved, d)
				break
			}
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
	f.finishFrom(old, s.n)
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
		if !ok || id != ids[i] || k.Bitmaps[id].Minimum() == c.Doc && k.Values[id] != kv.Value {
			return false
		}
		i++
	}
	return i == len(ids)
}

// numberSame reports that c leaves doc c.Doc's value of numeric field
// name as it is.
func (s *Segment) numberSame(name string, c *ColumnChange) bool {
	v, has := 0.0, false
	for _, nv := range c.Numbers {
		if nv.Field == name && !math.IsNaN(nv.Value) {
			v, has = nv.Value, true
			break
		}
	}
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
