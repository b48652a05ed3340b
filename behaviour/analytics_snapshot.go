package behaviour

import (
	"encoding/binary"
	"maps"
	"math"
	"slices"
)

// The analytics in a snapshot, after the campaigns (snapshot.go), in
// order of days and keys so one model encodes one way:
//
//	latest day (uint32 as a uvarint)
//	days: n, then each: day, searches, no-result searches,
//	      queries: n, then (query, searches, clicks, purchases)
//	      no results: n, then (query, n); clicked: n, then (id, n)
//	      bought: n, then (id, orders, units as 8 float64 bytes)
//	      boxes, campaigns: n, then (key, impressions, clicks, purchases)
//	trails, newer then older: n, then each: hash uint64,
//	      search: query, day, at (Unix ms), flags (1 clicked, 2 bought)
//	      clicks: n, then (id, box, campaign, at)

// appendStats appends s, whose products are among n.
func appendStats(dst []byte, s *stats) []byte {
	dst = binary.AppendUvarint(dst, uint64(uint32(s.latest)))
	days := slices.Sorted(maps.Keys(s.days))
	dst = binary.AppendUvarint(dst, uint64(len(days)))
	for _, d := range days {
		ds := s.days[d]
		dst = binary.AppendUvarint(dst, uint64(uint32(d)))
		dst = binary.AppendUvarint(binary.AppendUvarint(dst, uint64(ds.searches)), uint64(ds.noResultSearches))
		dst = binary.AppendUvarint(dst, uint64(len(ds.queries)))
		for _, q := range slices.Sorted(maps.Keys(ds.queries)) {
			c := ds.queries[q]
			dst = appendUvarints(appendString(dst, q), uint64(c.searches), uint64(c.clicks), uint64(c.purchases))
		}
		dst = binary.AppendUvarint(dst, uint64(len(ds.noResults)))
		for _, q := range slices.Sorted(maps.Keys(ds.noResults)) {
			dst = binary.AppendUvarint(appendString(dst, q), uint64(ds.noResults[q].n))
		}
		dst = binary.AppendUvarint(dst, uint64(len(ds.clicked)))
		for _, id := range slices.Sorted(maps.Keys(ds.clicked)) {
			dst = appendUvarints(dst, uint64(id), uint64(ds.clicked[id].n))
		}
		dst = binary.AppendUvarint(dst, uint64(len(ds.bought)))
		for _, id := range slices.Sorted(maps.Keys(ds.bought)) {
			b := ds.bought[id]
			dst = appendUvarints(dst, uint64(id), uint64(b.orders))
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(b.units))
		}
		for _, src := range []map[string]*sourceStats{ds.boxes, ds.campaigns} {
			dst = binary.AppendUvarint(dst, uint64(len(src)))
			for _, k := range slices.Sorted(maps.Keys(src)) {
				c := src[k]
				dst = appendUvarints(appendString(dst, k), uint64(c.impressions), uint64(c.clicks), uint64(c.purchases))
			}
		}
	}
	for _, gen := range []map[uint64]*trail{s.trails, s.oldTrails} {
		dst = binary.AppendUvarint(dst, uint64(len(gen)))
		for _, h := range slices.Sorted(maps.Keys(gen)) {
			t := gen[h]
			dst = binary.LittleEndian.AppendUint64(dst, h)
			flags := byte(0)
			if t.search.clicked {
				flags |= 1
			}
			if t.search.bought {
				flags |= 2
			}
			dst = appendUvarints(appendString(dst, t.search.query), uint64(uint32(t.search.day)), uint64(t.search.at))
			dst = append(dst, flags)
			dst = binary.AppendUvarint(dst, uint64(len(t.clicks)))
			for _, c := range t.clicks {
				dst = binary.AppendUvarint(dst, uint64(c.product))
				dst = appendString(appendString(dst, c.box), c.campaign)
				dst = binary.AppendUvarint(dst, uint64(c.at))
			}
		}
	}
	return dst
}

func appendUvarints(dst []byte, vs ...uint64) []byte {
	for _, v := range vs {
		dst = binary.AppendUvarint(dst, v)
	}
	return dst
}

// stats decodes the analytics of a model of n products.
func (r *snapReader) stats(n int) stats {
	var s stats
	s.latest = Day(uint32(r.uvarint()))
	u32 := func(what string) uint32 {
		v := r.uvarint()
		if v > math.MaxUint32 && r.err == nil {
			r.err = corruptSnapshotf("%s %d past 32 bits", what, v)
		}
		return uint32(v)
	}
	bounded := func(what string, min, max int) int {
		c := r.count(min)
		if c > max && r.err == nil {
			r.err = corruptSnapshotf("%d %s, at most %d", c, what, max)
		}
		if r.err != nil {
			return 0
		}
		return c
	}
	nDays := bounded("analytics days", 8, AnalyticsDays)
	if nDays > 0 {
		s.days = make(map[Day]*dayStats, nDays)
	}
	for range nDays {
		d := Day(u32("day"))
		if (d > s.latest || d <= s.latest-AnalyticsDays || s.days[d] != nil) && r.err == nil {
			r.err = corruptSnapshotf("analytics day %d with latest %d", d, s.latest)
		}
		ds := &dayStats{searches: int64(r.uvarint()), noResultSearches: int64(r.uvarint()), queries: map[string]*queryStats{},
			noResults: map[string]*counted{}, clicked: map[uint32]*counted{}, bought: map[uint32]*buyStats{},
			boxes: map[string]*sourceStats{}, campaigns: map[string]*sourceStats{}}
		for range bounded("queries", 4, maxDayQueries) {
			q := r.string()
			ds.queries[q] = &queryStats{searches: u32("searches"), clicks: u32("clicks"), purchases: u32("purchases")}
		}
		for range bounded("no-result queries", 2, maxDayNoResults) {
			q := r.string()
			ds.noResults[q] = &counted{u32("searches")}
		}
		for range bounded("clicked products", 2, maxDayProducts) {
			id := r.id(n)
			ds.clicked[id] = &counted{u32("clicks")}
		}
		for range bounded("bought products", 10, maxDayProducts) {
			id := r.id(n)
			orders := u32("orders")
			ds.bought[id] = &buyStats{orders: orders, units: math.Float64frombits(binary.LittleEndian.Uint64(r.bytes(8)))}
		}
		for _, src := range []map[string]*sourceStats{ds.boxes, ds.campaigns} {
			for range bounded("boxes or campaigns", 4, maxDaySources) {
				k := r.string()
				src[k] = &sourceStats{impressions: u32("impressions"), clicks: u32("clicks"), purchases: u32("purchases")}
			}
		}
		if r.err != nil {
			return stats{}
		}
		s.days[d] = ds
	}
	for g := range 2 {
		nTrails := bounded("trails", 12, maxTrails)
		gen := make(map[uint64]*trail, nTrails)
		for range nTrails {
			h := binary.LittleEndian.Uint64(r.bytes(8))
			t := &trail{search: trailSearch{query: r.string(), day: Day(u32("day")), at: int64(r.uvarint())}}
			flags := r.bytes(1)[0]
			t.search.clicked, t.search.bought = flags&1 != 0, flags&2 != 0
			for range bounded("trail clicks", 4, maxTrailClicks) {
				c := trailClick{product: r.id(n)}
				c.box, c.campaign, c.at = r.string(), r.string(), int64(r.uvarint())
				t.clicks = append(t.clicks, c)
			}
			gen[h] = t
		}
		if r.err != nil {
			return stats{}
		}
		if g == 0 {
			s.trails = gen
		} else {
			s.oldTrails = gen
		}
	}
	return s
}

// clone is a deep copy of s.
func (s *stats) clone() stats {
	out := stats{latest: s.latest, days: make(map[Day]*dayStats, len(s.days))}
	for d, ds := range s.days {
		c := *ds
		c.queries = cloneValues(ds.queries)
		c.noResults = cloneValues(ds.noResults)
		c.clicked = cloneValues(ds.clicked)
		c.bought = cloneValues(ds.bought)
		c.boxes, c.campaigns = cloneValues(ds.boxes), cloneValues(ds.campaigns)
		out.days[d] = &c
	}
	for _, gen := range []struct {
		from map[uint64]*trail
		to   *map[uint64]*trail
	}{{s.trails, &out.trails}, {s.oldTrails, &out.oldTrails}} {
		if gen.from == nil {
			continue
		}
		*gen.to = make(map[uint64]*trail, len(gen.from))
		for h, t := range gen.from {
			c := *t
			c.clicks = slices.Clone(t.clicks)
			(*gen.to)[h] = &c
		}
	}
	return out
}

// cloneValues copies m and the values it points to.
func cloneValues[K comparable, V any](m map[K]*V) map[K]*V {
	out := make(map[K]*V, len(m))
	for k, v := range m {
		c := *v
		out[k] = &c
	}
	return out
}
