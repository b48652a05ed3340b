package behaviour

// counts are a day's bounded counts of one kind, by key: the values in
// a slice, so a range's merge reads them at memory speed, found by key
// through an index. The entries are a binary min-heap by count, then
// key: its root is the entry that makes room for a newcomer, so a slot
// costs O(log n) however many keys strangers make up.
type counts[K comparable, V any] struct {
	index map[K]int32
	keys  []K
	vals  []V
	// raised is 1 + the entry slot handed out last (0: none): its caller
	// may have raised its count since, so the next slot sifts it down
	// first. unordered says add appended entries the heap does not
	// order yet: the next slot orders them all.
	raised    int32
	unordered bool
}

// get is k's counts, nil when k has none; good until the next slot. Its
// caller does not raise the count that orders the entries.
func (c *counts[K, V]) get(k K) *V {
	if i, ok := c.index[k]; ok {
		return &c.vals[i]
	}
	return nil
}

// slot is k's counts, made when new: when c holds max keys, the one of
// the lowest count (the least key of those, by less) makes room and k
// takes its count (space-saving); changed (when not nil) hears of each
// key added or dropped. The pointer is good until the next slot, and
// its caller may raise the count through it. count and less are the
// same at every slot of c.
func (c *counts[K, V]) slot(k K, max int, count func(*V) *uint32, less func(a, b K) bool, changed func(k K, added bool)) *V {
	h := heapOf[K, V]{c, count, less}
	if c.unordered {
		for i := len(c.keys)/2 - 1; i >= 0; i-- {
			h.down(i)
		}
		c.unordered = false
	} else if c.raised > 0 {
		h.down(int(c.raised - 1))
	}
	c.raised = 0
	if i, ok := c.index[k]; ok {
		c.raised = i + 1
		return &c.vals[i]
	}
	var v V
	if len(c.keys) >= max {
		// The root is the least: k takes its place and its count.
		evicted := c.keys[0]
		*count(&v) = *count(&c.vals[0])
		delete(c.index, evicted)
		c.keys[0], c.vals[0], c.index[k] = k, v, 0
		if changed != nil {
			changed(evicted, false)
		}
		i := h.down(0)
		if changed != nil {
			changed(k, true)
		}
		c.raised = int32(i) + 1
		return &c.vals[i]
	}
	if c.index == nil {
		c.index = map[K]int32{}
	}
	c.index[k] = int32(len(c.keys))
	c.keys, c.vals = append(c.keys, k), append(c.vals, v)
	i := h.up(len(c.keys) - 1)
	if changed != nil {
		changed(k, true)
	}
	c.raised = int32(i) + 1
	return &c.vals[i]
}

// add appends k, which c does not hold, with v; the next slot orders
// the entries.
func (c *counts[K, V]) add(k K, v V) {
	if c.index == nil {
		c.index = map[K]int32{}
	}
	c.index[k] = int32(len(c.keys))
	c.keys, c.vals = append(c.keys, k), append(c.vals, v)
	c.unordered = true
}

// heapOf orders c's entries by count, then key.
type heapOf[K comparable, V any] struct {
	c     *counts[K, V]
	count func(*V) *uint32
	less  func(a, b K) bool
}

// before reports whether entry i orders before entry j.
func (h heapOf[K, V]) before(i, j int) bool {
	c := h.c
	ci, cj := *h.count(&c.vals[i]), *h.count(&c.vals[j])
	return ci < cj || ci == cj && h.less(c.keys[i], c.keys[j])
}

func (h heapOf[K, V]) swap(i, j int) {
	c := h.c
	c.keys[i], c.keys[j] = c.keys[j], c.keys[i]
	c.vals[i], c.vals[j] = c.vals[j], c.vals[i]
	c.index[c.keys[i]], c.index[c.keys[j]] = int32(i), int32(j)
}

// down sifts entry i down to its place and says where.
func (h heapOf[K, V]) down(i int) int {
	n := len(h.c.keys)
	for {
		least := i
		if l := 2*i + 1; l < n && h.before(l, least) {
			least = l
		}
		if r := 2*i + 2; r < n && h.before(r, least) {
			least = r
		}
		if least == i {
			return i
		}
		h.swap(i, least)
		i = least
	}
}

// up sifts entry i up to its place and says where.
func (h heapOf[K, V]) up(i int) int {
	for i > 0 {
		parent := (i - 1) / 2
		if !h.before(i, parent) {
			return i
		}
		h.swap(i, parent)
		i = parent
	}
	return i
}

// clone is a copy of c.
func (c *counts[K, V]) clone() counts[K, V] {
	out := counts[K, V]{index: make(map[K]int32, len(c.index)), keys: append([]K(nil), c.keys...), vals: append([]V(nil), c.vals...),
		raised: c.raised, unordered: c.unordered}
	for k, i := range c.index {
		out.index[k] = i
	}
	return out
}
