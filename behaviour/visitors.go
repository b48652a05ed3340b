package behaviour

import "time"

// visitor is one tracking id's history: viewed (oldest first, at most
// MaxHistory), then bought (oldest first, at most MaxHistory), then the
// cart (at most maxCart), as 3-byte product ids in one block of the
// model's history arena. The current session is the last session views;
// lastView is the time (Unix seconds) of the last view. hash is the
// keyed hash of the tracking id (visitorTable). active is the time of
// the visitor's latest event (activeStep, 24 bits little endian), which
// Budget evicts by. 24 bytes and the ids.
type visitor struct {
	hash                             uint64
	lastView                         uint32
	ref                              uint32 // the block in Model.histories
	nViewed, nBought, nCart, session uint8
	class                            uint8
	active                           [3]uint8
}

// activeStep is the unit of a visitor's active time: 24 bits of ten
// minutes reach from 1970 to the year 2289.
const (
	activeStep = 10 * time.Minute
	maxActive  = 1<<24 - 1
)

// activeAt is Unix milliseconds ms as a visitor's active time.
func activeAt(ms int64) uint32 {
	return uint32(min(max(ms/activeStep.Milliseconds(), 0), maxActive))
}

// lastActive is the active time of v's latest event.
func (v *visitor) lastActive() uint32 {
	return uint32(v.active[0]) | uint32(v.active[1])<<8 | uint32(v.active[2])<<16
}

// setActive sets v's active time to a (at most maxActive).
func (v *visitor) setActive(a uint32) { v.active = [3]uint8{byte(a), byte(a >> 8), byte(a >> 16)} }

// touch records an event of v at Unix milliseconds ms: an event older
// than v's latest (an import of an earlier log) leaves it.
func (v *visitor) touch(ms int64) {
	if a := activeAt(ms); a > v.lastActive() {
		v.setActive(a)
	}
}

// idBytes is the size of a product id in a history, so a model holds at
// most maxProducts products.
const (
	idBytes     = 3
	maxProducts = 1 << (8 * idBytes)
)

// maxCart is how many products of a cart a visitor keeps, the first.
const maxCart = 50

// historyClasses are the capacities of history blocks in bytes: one id
// more each up to full histories, then a tenth more, up to full
// histories and a full cart.
var historyClasses = func() []int {
	var c []int
	for n := 1; n < 2*MaxHistory+maxCart; n += max(1, (n-2*MaxHistory)/10) {
		c = append(c, n*idBytes)
	}
	return append(c, (2*MaxHistory+maxCart)*idBytes)
}()

// idList is a run of 3-byte product ids, little endian.
type idList []byte

func (l idList) len() int { return len(l) / idBytes }

func (l idList) at(i int) uint32 {
	return uint32(l[3*i]) | uint32(l[3*i+1])<<8 | uint32(l[3*i+2])<<16
}

func (l idList) set(i int, id uint32) {
	l[3*i], l[3*i+1], l[3*i+2] = byte(id), byte(id>>8), byte(id>>16)
}

// index is the position of id in l, -1 when absent.
func (l idList) index(id uint32) int {
	for i := range l.len() {
		if l.at(i) == id {
			return i
		}
	}
	return -1
}

// ids are l's ids, for tests and snapshots.
func (l idList) ids() []uint32 {
	out := make([]uint32, l.len())
	for i := range out {
		out[i] = l.at(i)
	}
	return out
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
func (t *visitorTable) find(vs *chunked[visitor], h uint64) (int, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return 0, false
		}
		if vs.at(int(s-1)).hash == h {
			return int(s - 1), true
		}
	}
}

// add records that vs[pos] has hash h, which is not in the table.
func (t *visitorTable) add(vs *chunked[visitor], h uint64, pos int) {
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

// grow doubles the table (from 16 slots) and places every visitor
// again.
func (t *visitorTable) grow(vs *chunked[visitor]) {
	t.slots = make([]uint32, max(16, 2*len(t.slots)))
	for pos := range t.n {
		t.place(vs.at(pos).hash, pos)
	}
}

// rebuild places every visitor of vs again, in a table of the same
// size, once visitors were evicted and the rest moved: vs holds no more
// than the table did.
func (t *visitorTable) rebuild(vs *chunked[visitor]) {
	clear(t.slots)
	t.n = vs.len()
	for pos := range t.n {
		t.place(vs.at(pos).hash, pos)
	}
}

// all is every id of v: viewed, bought, cart.
func (v *visitor) all(a *arena[byte]) idList {
	return idList(a.block(v.ref, v.class)[:idBytes*(int(v.nViewed)+int(v.nBought)+int(v.nCart))])
}

func (v *visitor) viewed(a *arena[byte]) idList {
	return v.all(a)[:idBytes*int(v.nViewed)]
}

func (v *visitor) bought(a *arena[byte]) idList {
	return v.all(a)[idBytes*int(v.nViewed) : idBytes*(int(v.nViewed)+int(v.nBought))]
}

func (v *visitor) cart(a *arena[byte]) idList {
	return v.all(a)[idBytes*(int(v.nViewed)+int(v.nBought)):]
}

// room makes v's block hold n ids.
func (v *visitor) room(a *arena[byte], n int) {
	if n*idBytes > a.classes[v.class] {
		v.ref, v.class = a.grow(v.ref, v.class, len(v.all(a)), n*idBytes)
	}
}

// push adds id as the most recent of the history at [start, start+*n)
// of v's ids: an earlier entry of the same product moves to the end, and
// past MaxHistory the oldest goes.
func (v *visitor) push(a *arena[byte], start int, n *uint8, id uint32) {
	h := v.all(a)[idBytes*start : idBytes*(start+int(*n))]
	if i := h.index(id); i >= 0 {
		copy(h[idBytes*i:], h[idBytes*(i+1):])
		h.set(h.len()-1, id)
		return
	}
	if int(*n) == MaxHistory {
		copy(h, h[idBytes:])
		h.set(h.len()-1, id)
		return
	}
	total := len(v.all(a)) / idBytes
	v.room(a, total+1)
	*n++
	all := v.all(a)
	at := idBytes * (start + int(*n) - 1)
	copy(all[at+idBytes:], all[at:len(all)-idBytes])
	all.set(start+int(*n)-1, id)
}

// pushViewed adds a view of id; it stays in the session, whose length
// counts views, not distinct products, up to MaxHistory.
func (v *visitor) pushViewed(a *arena[byte], id uint32) { v.push(a, 0, &v.nViewed, id) }

// pushBought adds a purchase of id.
func (v *visitor) pushBought(a *arena[byte], id uint32) {
	v.push(a, int(v.nViewed), &v.nBought, id)
}

// setCart replaces the cart with ids, at most maxCart of them.
func (v *visitor) setCart(a *arena[byte], ids []uint32) {
	ids = ids[:min(len(ids), maxCart)]
	v.room(a, int(v.nViewed)+int(v.nBought)+len(ids))
	v.nCart = uint8(len(ids))
	c := v.cart(a)
	for i, id := range ids {
		c.set(i, id)
	}
}
