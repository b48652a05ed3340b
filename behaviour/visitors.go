package behaviour

import "slices"

// visitor is one tracking id's history in one slice, so a visitor costs
// about its products' ids: viewed (oldest first, at most MaxHistory),
// then bought (oldest first, at most MaxHistory), then the cart. The
// current session is the last session views; lastView is the time (Unix
// seconds) of the last view. hash is the keyed hash of the tracking id
// (visitorTable). 40 bytes and the ids.
type visitor struct {
	ids      []uint32
	hash     uint64
	lastView uint32
	nViewed  uint8
	nBought  uint8
	session  uint8
}

// visitorTable finds visitors by the hash of their tracking id: open
// addressing over their positions in a slice (0: an empty slot), linear
// probing, at most three quarters full. 4 bytes a slot, against a Go
// map's 30 or so an entry.
type visitorTable struct {
	slots []uint32
	n     int
}

// find is the position of the visitor of hash h in vs.
func (t *visitorTable) find(vs []visitor, h uint64) (int, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return 0, false
		}
		if vs[s-1].hash == h {
			return int(s - 1), true
		}
	}
}

// add records that vs[pos] has hash h, which is not in the table.
func (t *visitorTable) add(vs []visitor, h uint64, pos int) {
	if (t.n+1)*4 > len(t.slots)*3 {
		t.grow(vs)
	}
	t.place(h, pos)
	t.n++
}

func (t *visitorTable) place(h uint64, pos int) {
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = uint32(pos + 1)
}

// grow doubles the table (from 1,024 slots) and places every visitor
// again.
func (t *visitorTable) grow(vs []visitor) {
	t.slots = make([]uint32, max(1024, 2*len(t.slots)))
	for pos := range t.n {
		t.place(vs[pos].hash, pos)
	}
}

func (v *visitor) viewed() []uint32 { return v.ids[:v.nViewed] }
func (v *visitor) bought() []uint32 { return v.ids[v.nViewed : int(v.nViewed)+int(v.nBought)] }
func (v *visitor) cart() []uint32   { return v.ids[int(v.nViewed)+int(v.nBought):] }

// visitorGrowth is how many ids a visitor's slice grows by when full:
// a few, not double, since most visitors stop short of MaxHistory.
const visitorGrowth = 4

// insert puts id at position at of v.ids, growing it by a few.
func (v *visitor) insert(at int, id uint32) {
	if len(v.ids) == cap(v.ids) {
		grown := make([]uint32, len(v.ids), len(v.ids)+visitorGrowth)
		copy(grown, v.ids)
		v.ids = grown
	}
	v.ids = slices.Insert(v.ids, at, id)
}

// push adds id as the most recent of the history at [start, start+*n):
// an earlier entry of the same product moves to the end, and past
// MaxHistory the oldest goes. It reports whether id was there before.
func (v *visitor) push(start int, n *uint8, id uint32) bool {
	h := v.ids[start : start+int(*n)]
	if i := slices.Index(h, id); i >= 0 {
		copy(h[i:], h[i+1:])
		h[len(h)-1] = id
		return true
	}
	if int(*n) == MaxHistory {
		copy(h, h[1:])
		h[len(h)-1] = id
		return false
	}
	v.insert(start+int(*n), id)
	*n++
	return false
}

// pushViewed adds a view of id; it stays in the session, whose length
// counts views, not distinct products, up to MaxHistory.
func (v *visitor) pushViewed(id uint32) {
	v.push(0, &v.nViewed, id)
}

// pushBought adds a purchase of id.
func (v *visitor) pushBought(id uint32) { v.push(int(v.nViewed), &v.nBought, id) }

// setCart replaces the cart.
func (v *visitor) setCart(ids []uint32) {
	keep := int(v.nViewed) + int(v.nBought)
	if keep+len(ids) > cap(v.ids) {
		grown := make([]uint32, keep, keep+len(ids)+visitorGrowth)
		copy(grown, v.ids)
		v.ids = grown
	}
	v.ids = append(v.ids[:keep], ids...)
}
