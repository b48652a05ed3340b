package behaviour

// queryDict interns the queries the days count: ids are dense, and an
// id no day map holds any more is freed for the next new query, so the
// dictionary holds at most the days' budgets of queries.
type queryDict struct {
	ids  map[string]uint32
	strs []string // by id; "" for a free id
	refs []int32  // the day maps holding each id
	free []uint32
}

// id is q's id, made when new (holding no reference yet).
func (d *queryDict) id(q string) uint32 {
	if id, ok := d.ids[q]; ok {
		return id
	}
	if d.ids == nil {
		d.ids = map[string]uint32{}
	}
	var id uint32
	if n := len(d.free); n > 0 {
		id, d.free = d.free[n-1], d.free[:n-1]
		d.strs[id], d.refs[id] = q, 0
	} else {
		id = uint32(len(d.strs))
		d.strs, d.refs = append(d.strs, q), append(d.refs, 0)
	}
	d.ids[q] = id
	return id
}

// change records that a day map added (or dropped) id.
func (d *queryDict) change(id uint32, added bool) {
	if added {
		d.refs[id]++
		return
	}
	d.unref(id)
}

// unref drops a day map's reference to id, freeing it at none.
func (d *queryDict) unref(id uint32) {
	if d.refs[id]--; d.refs[id] <= 0 {
		delete(d.ids, d.strs[id])
		d.strs[id], d.refs[id] = "", 0
		d.free = append(d.free, id)
	}
}

// less orders ids by their queries, so the days' choices do not depend
// on the order ids were given in.
func (d *queryDict) less(a, b uint32) bool { return d.strs[a] < d.strs[b] }

// clone is a copy of d.
func (d *queryDict) clone() queryDict {
	out := queryDict{ids: make(map[string]uint32, len(d.ids)), strs: append([]string(nil), d.strs...),
		refs: append([]int32(nil), d.refs...), free: append([]uint32(nil), d.free...)}
	for k, v := range d.ids {
		out.ids[k] = v
	}
	return out
}
