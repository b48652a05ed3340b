package behaviour

import (
	"cmp"
	"encoding/binary"
	"maps"
	"math"
	"slices"
	"strings"
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
		byQuery := func(a, b int) int {
			return strings.Compare(s.queries.strs[ds.queries.keys[a]], s.queries.strs[ds.queries.keys[b]])
		}
		dst = binary.AppendUvarint(dst, uint64(len(ds.queries.keys)))
		for _, i := range keyOrder(len(ds.queries.keys), byQuery) {
			c := &ds.queries.vals[i]
			dst = appendUvarints(appendString(dst, s.queries.strs[ds.queries.keys[i]]), uint64(c.searches), uint64(c.clicks), uint64(c.purchases))
		}
		byNoResult := func(a, b int) int {
			return strings.Compare(s.queries.strs[ds.noResults.keys[a]], s.queries.strs[ds.noResults.keys[b]])
		}
		dst = binary.AppendUvarint(dst, uint64(len(ds.noResults.keys)))
		for _, i := range keyOrder(len(ds.noResults.keys), byNoResult) {
			dst = binary.AppendUvarint(appendString(dst, s.queries.strs[ds.noResults.keys[i]]), uint64(ds.noResults.vals[i].n))
		}
		dst = binary.AppendUvarint(dst, uint64(len(ds.clicked.keys)))
		for _, i := range keyOrder(len(ds.clicked.keys), func(a, b int) int { return cmp.Compare(ds.clicked.keys[a], ds.clicked.keys[b]) }) {
			dst = appendUvarints(dst, uint64(ds.clicked.keys[i]), uint64(ds.clicked.vals[i].n))
		}
		dst = binary.AppendUvarint(dst, uint64(len(ds.bought.keys)))
		for _, i := range keyOrder(len(ds.bought.keys), func(a, b int) int { return cmp.Compare(ds.bought.keys[a], ds.bought.keys[b]) }) {
			b := &ds.bought.vals[i]
			dst = appendUvarints(dst, uint64(ds.bought.keys[i]), uint64(b.orders))
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(b.units))
		}
		for _, src := range []*counts[string, sourceStats]{&ds.boxes, &ds.campaigns} {
			dst = binary.AppendUvarint(dst, uint64(len(src.keys)))
			for _, i := range keyOrder(len(src.keys), func(a, b int) int { return strings.Compare(src.keys[a], src.keys[b]) }) {
				c := &src.vals[i]
				dst = appendUvarints(appendString(dst, src.keys[i]), uint64(c.impressions), uint64(c.clicks), uint64(c.purchases))
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

// keyOrder is 0 to n-1 sorted by cmp, so a day's counts encode in key
// order whatever their order in memory.
func keyOrder(n int, cmp func(a, b int) int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	slices.SortFunc(out, cmp)
	return out
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
		ds := &dayStats{searches: int64(r.uvarint()), noResultSearches: int64(r.uvarint())}
		twice := func(what string, dup bool) {
			if dup && r.err == nil {
				r.err = corruptSnapshotf("%s twice in day %d", what, d)
			}
		}
		for range bounded("queries", 4, maxDayQueries) {
			id := s.queries.id(r.string())
			twice("a query", ds.queries.get(id) != nil)
			ds.queries.add(id, queryStats{searches: u32("searches"), clicks: u32("clicks"), purchases: u32("purchases")})
			s.queries.change(id, true)
		}
		for range bounded("no-result queries", 2, maxDayNoResults) {
			id := s.queries.id(r.string())
			twice("a no-result query", ds.noResults.get(id) != nil)
			ds.noResults.add(id, counted{u32("searches")})
			s.queries.change(id, true)
		}
		for range bounded("clicked products", 2, maxDayProducts) {
			id := r.id(n)
			twice("a clicked product", ds.clicked.get(id) != nil)
			ds.clicked.add(id, counted{u32("clicks")})
		}
		for range bounded("bought products", 10, maxDayProducts) {
			id := r.id(n)
			orders := u32("orders")
			twice("a bought product", ds.bought.get(id) != nil)
			ds.bought.add(id, buyStats{orders: orders, units: math.Float64frombits(binary.LittleEndian.Uint64(r.bytes(8)))})
		}
		for _, src := range []*counts[string, sourceStats]{&ds.boxes, &ds.campaigns} {
			for range bounded("boxes or campaigns", 4, maxDaySources) {
				k := r.string()
				twice("a box or campaign", src.get(k) != nil)
				src.add(k, sourceStats{impressions: u32("impressions"), clicks: u32("clicks"), purchases: u32("purchases")})
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
			t.bytes = trailSize(t)
			if g == 0 {
				s.trailBytes += int(t.bytes)
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
	out := stats{latest: s.latest, days: make(map[Day]*dayStats, len(s.days)), queries: s.queries.clone(), trailBytes: s.trailBytes}
	for d, ds := range s.days {
		c := *ds
		c.queries, c.noResults, c.clicked, c.bought = ds.queries.clone(), ds.noResults.clone(), ds.clicked.clone(), ds.bought.clone()
		c.boxes, c.campaigns = ds.boxes.clone(), ds.campaigns.clone()
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
