package behaviour

// counts are a day's bounded counts of one kind, by key: the values in
// a slice, so a range's merge reads them at memory speed, found by key
// through an index.
type counts[K comparable, V any] struct {
	index map[K]int32
	keys  []K
	vals  []V
}

// get is k's counts, nil when k has none; good until the next slot.
func (c *counts[K, V]) get(k K) *V {
	if i, ok := c.index[k]; ok {
		return &c.vals[i]
	}
	return nil
}

// slot is k's counts, made when new: when c holds max keys, the one of
// the lowest count (the least key of those, by less) makes room and k
// takes its count (space-saving); changed (when not nil) hears of each
// key added or dropped. The pointer is good until the next slot.
func (c *counts[K, V]) slot(k K, max int, count func(*V) *uint32, less func(a, b K) bool, changed func(k K, added bool)) *V {
	if i, ok := c.index[k]; ok {
		return &c.vals[i]
	}
	var inherit uint32
	if len(c.keys) >= max {
		low := 0
		for i := 1; i < len(c.keys); i++ {
			ci, cl := *count(&c.vals[i]), *count(&c.vals[low])
			if ci < cl || ci == cl && less(c.keys[i], c.keys[low]) {
				low = i
			}
		}
		inherit = *count(&c.vals[low])
		evicted := c.keys[low]
		c.remove(low)
		if changed != nil {
			changed(evicted, false)
		}
	}
	var v V
	*count(&v) = inherit
	c.add(k, v)
	if changed != nil {
		changed(k, true)
	}
	return &c.vals[len(c.vals)-1]
}

// add appends k, which c does not hold, with v.
func (c *counts[K, V]) add(k K, v V) {
	if c.index == nil {
		c.index = map[K]int32{}
	}
	c.index[k] = int32(len(c.keys))
	c.keys, c.vals = append(c.keys, k), append(c.vals, v)
}

// remove drops the i-th key, the last taking its place.
func (c *counts[K, V]) remove(i int) {
	last := len(c.keys) - 1
	delete(c.index, c.keys[i])
	if i != last {
		c.keys[i], c.vals[i] = c.keys[last], c.vals[last]
		c.index[c.keys[i]] = int32(i)
	}
	c.keys, c.vals = c.keys[:last], c.vals[:last]
}

// clone is a copy of c.
func (c *counts[K, V]) clone() counts[K, V] {
	out := counts[K, V]{index: make(map[K]int32, len(c.index)), keys: append([]K(nil), c.keys...), vals: append([]V(nil), c.vals...)}
	for k, i := range c.index {
		out.index[k] = i
	}
	return out
}
