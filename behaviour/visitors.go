package behaviour

import "slices"

// visitor is one tracking id's history in one slice, so a visitor costs
// about its products' ids: viewed (oldest first, at most MaxHistory),
// then bought (oldest first, at most MaxHistory), then the cart. The
// current session is the last session views; lastView is the time
// (Unix milliseconds) of the last view.
type visitor struct {
	ids      []uint32
	nViewed  uint8
	nBought  uint8
	session  uint8
	lastView int64
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
