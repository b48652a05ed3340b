package behaviour

// linkTable links the shop's names for a customer (the keyed hash of an
// email or a customer id, events.IdentityKey) to a visitor (the keyed
// hash of a tracking id), within a budget: when the newer map holds half
// of max links it becomes the older and the older is dropped, so at most
// max are kept and the links least lately written go first. 8-byte keys
// and values: no email or id is kept.
type linkTable struct {
	cur, old map[uint64]uint64
	max      int
}

// linkBytes is about the heap a link takes in a Go map of 8-byte keys
// and values, for Size.Bytes.
const linkBytes = 40

// DefaultMaxLinks is how many links a model keeps by default
// (DefaultBudget): an email and a customer id for each of a million
// visitors.
const DefaultMaxLinks = 2 * DefaultMaxVisitors

func newLinkTable(max int) linkTable {
	return linkTable{cur: map[uint64]uint64{}, old: map[uint64]uint64{}, max: max}
}

// find is the visitor name k is linked to.
func (t *linkTable) find(k uint64) (uint64, bool) {
	if v, ok := t.cur[k]; ok {
		return v, true
	}
	v, ok := t.old[k]
	return v, ok
}

// set links name k to visitor v: always when relink, else only when k
// is linked to nobody. k 0 names nobody and links nothing.
func (t *linkTable) set(k, v uint64, relink bool) {
	if k == 0 {
		return
	}
	if _, linked := t.find(k); linked && !relink {
		return
	}
	if _, in := t.cur[k]; !in && 2*(len(t.cur)+1) > t.max {
		t.old, t.cur = t.cur, make(map[uint64]uint64, len(t.cur))
	}
	t.cur[k] = v
	delete(t.old, k)
}

// len is how many links t holds.
func (t *linkTable) len() int { return len(t.cur) + len(t.old) }

// generations are t's older and newer links, for a snapshot.
func (t *linkTable) generations() [2]map[uint64]uint64 {
	return [2]map[uint64]uint64{t.old, t.cur}
}

// load adds the links of a snapshot's generations, the older first: as
// they were when each fits half of t's max, else written in that order
// (set), so the least lately written go. A name linked twice is an
// error.
func (t *linkTable) load(older bool, k, v uint64, fits bool) bool {
	if _, dup := t.find(k); dup {
		return false
	}
	switch {
	case fits && older:
		t.old[k] = v
	case fits:
		t.cur[k] = v
	default:
		t.set(k, v, true)
	}
	return true
}

// clone is a deep copy of t.
func (t *linkTable) clone() linkTable {
	c := linkTable{cur: make(map[uint64]uint64, len(t.cur)), old: make(map[uint64]uint64, len(t.old)), max: t.max}
	for k, v := range t.cur {
		c.cur[k] = v
	}
	for k, v := range t.old {
		c.old[k] = v
	}
	return c
}
