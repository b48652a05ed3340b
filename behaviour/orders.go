package behaviour

// orderSet is a set of order numbers' hashes: open addressing with
// linear probing over 8-byte slots, at most three quarters full, 0
// marking an empty slot (a hash of 0 is kept as 1). 11 to 21 bytes an
// order, against a Go map's 35.
type orderSet struct {
	slots []uint64
	n     int
}

func orderSlot(h uint64) uint64 { return max(h, 1) }

// has reports whether h was added.
func (s *orderSet) has(h uint64) bool {
	if len(s.slots) == 0 {
		return false
	}
	h = orderSlot(h)
	mask := uint64(len(s.slots) - 1)
	for i := h & mask; s.slots[i] != 0; i = (i + 1) & mask {
		if s.slots[i] == h {
			return true
		}
	}
	return false
}

// add adds h, which has is false for.
func (s *orderSet) add(h uint64) {
	if 4*(s.n+1) > 3*len(s.slots) {
		old := s.slots
		s.slots = make([]uint64, max(16, 2*len(old)))
		for _, o := range old {
			if o != 0 {
				s.place(o)
			}
		}
	}
	s.place(orderSlot(h))
	s.n++
}

func (s *orderSet) place(h uint64) {
	mask := uint64(len(s.slots) - 1)
	i := h & mask
	for s.slots[i] != 0 {
		i = (i + 1) & mask
	}
	s.slots[i] = h
}

// each calls fn with every hash in s.
func (s *orderSet) each(fn func(uint64)) {
	for _, h := range s.slots {
		if h != 0 {
			fn(h)
		}
	}
}

// clone is a deep copy of s.
func (s *orderSet) clone() orderSet {
	return orderSet{slots: append([]uint64(nil), s.slots...), n: s.n}
}
