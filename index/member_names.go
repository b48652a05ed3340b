package index

import (
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/aisle-search/aisle/internal/jsonscan"
)

// MemberNames is the names of the top-level members a segment's stored
// docs have, each with how many docs have it, so that a field
// projection stops looking for a name no doc has, where it would read
// every member of every doc looking for it. A write counts its docs in
// and the docs it replaces or removes out, so the names are exactly the
// docs' at every version, and a segment saves what a fresh build of
// its docs saves. A nil *MemberNames is not known (a segment saved
// before they were kept, or docs with more than maxMemberNames distinct
// names), and then every name may be there. It is not changed once
// made: a write makes another.
type MemberNames struct {
	count map[string]int // docs with each name, all above 0
	names []string       // count's names, sorted
}

// maxMemberNames is how many distinct top-level names a segment's docs
// may have for MemberNames to be kept: product JSON has about twenty,
// and a feed whose docs each bring names of their own gains nothing.
const maxMemberNames = 1024

// Has reports whether some doc may have a top-level member name.
func (m *MemberNames) Has(name string) bool {
	if m == nil {
		return true
	}
	_, ok := slices.BinarySearch(m.names, name)
	return ok
}

// Counts is how many docs have each name, as saved; nil when m is not
// known.
func (m *MemberNames) Counts() map[string]int {
	if m == nil {
		return nil
	}
	return m.count
}

// memberNamesOf is the MemberNames of counts as saved (nil: not known);
// counts of 0 or less are dropped.
func memberNamesOf(counts map[string]int) *MemberNames {
	if counts == nil || len(counts) > maxMemberNames {
		return nil
	}
	m := &MemberNames{count: make(map[string]int, len(counts))}
	for name, n := range counts {
		if n > 0 {
			m.count[name] = n
			m.names = append(m.names, name)
		}
	}
	slices.Sort(m.names)
	return m
}

// nameDelta is what a build or a write changes of the docs' names: by
// name, the docs that gain it less those that lose it. Several
// goroutines add to one, each through a nameBatch of its own.
type nameDelta struct {
	mu    sync.Mutex
	count map[string]int
	over  bool // more names than maxMemberNames were seen: not known
}

// nameBatch is one goroutine's part of a nameDelta, added at flush.
// Docs of one feed mostly list the same names in the same order, so a
// name is first compared with the one the last doc had at its
// position, before it is looked up.
type nameBatch struct {
	names []string       // distinct, in the order first seen
	count []int          // by name
	index map[string]int // name → its place in names
	at    []int          // by member position: the name the last doc had there
	over  bool
}

// addDoc counts the names of the members of doc that start at starts
// (jsonscan.MemberStarts) in, by 1, or out, by -1.
func (b *nameBatch) addDoc(doc []byte, starts []uint32, by int) {
	if b.over {
		return
	}
	if b.index == nil {
		b.index = map[string]int{}
	}
	for k, st := range starts {
		name, ok := keyAt(doc, int(st))
		if !ok {
			continue
		}
		if k < len(b.at) && b.names[b.at[k]] == name {
			b.count[b.at[k]] += by
			continue
		}
		n, seen := b.index[name]
		if !seen {
			if len(b.names) == maxMemberNames {
				b.over = true
				return
			}
			n = len(b.names)
			b.names, b.count = append(b.names, strings.Clone(name)), append(b.count, 0) // name is doc's bytes
			b.index[b.names[n]] = n
		}
		b.count[n] += by
		if k < len(b.at) {
			b.at[k] = n
		} else if k == len(b.at) {
			b.at = append(b.at, n)
		}
	}
}

// keyAt is the name of the member whose key starts at doc[i]
// (jsonscan.KeyText: valid while doc is); ok is false when it is not a
// key.
func keyAt(doc []byte, i int) (name string, ok bool) {
	if i >= len(doc) || doc[i] != '"' {
		return "", false
	}
	end := jsonscan.SkipString(doc, i)
	if end < 0 {
		return "", false
	}
	return jsonscan.KeyText(doc[i+1 : end-1])
}

// flush adds b to d.
func (d *nameDelta) flush(b *nameBatch) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.count == nil {
		d.count = map[string]int{}
	}
	d.over = d.over || b.over
	for i, name := range b.names {
		d.count[name] += b.count[i]
	}
}

// apply is m with d's changes: m itself when they change no count (a
// write that replaces docs with docs of the same names), nil when m is
// not known or there are too many names.
func (m *MemberNames) apply(d *nameDelta) *MemberNames {
	if m == nil || d.over {
		return nil
	}
	changed := false
	for _, n := range d.count {
		changed = changed || n != 0
	}
	if !changed {
		return m
	}
	count := maps.Clone(m.count)
	if count == nil {
		count = map[string]int{}
	}
	for name, n := range d.count {
		count[name] += n
	}
	return memberNamesOf(count)
}

// built is the MemberNames of docs counted in by d alone.
func (d *nameDelta) built() *MemberNames {
	return (&MemberNames{}).apply(d)
}
