package behaviour

import (
	"github.com/aisle-search/aisle/events"
)

// stats are a model's analytics: the per-day aggregates and, per
// visitor, what a later click or purchase is attributed to.
type stats struct {
	days   map[Day]*dayStats
	latest Day // the latest day folded; days before latest-AnalyticsDays+1 are dropped
	// queries interns the days' queries: a day keys its counts by a
	// query's id, and each id counts the day maps holding it (refs), so
	// an id no day holds is freed for another query.
	queries queryDict
	// trails are the visitors' latest search and clicks, by the keyed
	// hash of their tracking id, in two generations of at most
	// maxTrails each and maxTrailBytes (trailSize) each: when the newer
	// fills it becomes the older, and the older is dropped, so the
	// visitors least lately active go first. trailBytes is the newer's
	// size.
	trails, oldTrails map[uint64]*trail
	trailBytes        int
}

// maxTrails and maxTrailBytes bound a generation of trails: a
// visitor's trail weighs about 250 bytes, but strangers choose their
// tracking ids and the keys of the boxes and campaigns they click (up to
// events.MaxID bytes each), so a count alone would let a trail weigh
// 2.6 KB.
const (
	maxTrails     = 100000
	maxTrailBytes = 32 << 20
)

// trailBytes and clickBytes are what a trail and each of its clicks
// weigh beside their strings: the map entry and the struct, a click in
// its slice.
const (
	trailBytes = 96
	clickBytes = 48
)

// trailSize is what t weighs against maxTrailBytes. It reads t's
// content only, so a trail read back from a snapshot weighs the same.
func trailSize(t *trail) int32 {
	n := trailBytes + len(t.search.query)
	for _, c := range t.clicks {
		n += clickBytes + len(c.box) + len(c.campaign)
	}
	return int32(n)
}

// dayStats are one day's aggregates.
type dayStats struct {
	searches, noResultSearches int64
	queries                    counts[uint32, queryStats] // by query id
	noResults                  counts[uint32, counted]
	clicked                    counts[uint32, counted] // by product id
	bought                     counts[uint32, buyStats]
	boxes, campaigns           counts[string, sourceStats]
}

type queryStats struct{ searches, clicks, purchases uint32 }

type counted struct{ n uint32 }

type buyStats struct {
	orders uint32
	units  float64
}

type sourceStats struct{ impressions, clicks, purchases uint32 }

// trail is a visitor's latest search and their latest clicks on boxes
// and campaigns.
type trail struct {
	search trailSearch
	clicks []trailClick // oldest first, at most maxTrailClicks
	bytes  int32        // trailSize when last counted in trailBytes
}

type trailSearch struct {
	query           string
	day             Day
	at              int64 // Unix ms; 0: none
	clicked, bought bool
}

type trailClick struct {
	product       uint32
	box, campaign string
	at            int64
}

// maxTrailClicks is how many clicks on boxes and campaigns a trail
// keeps, the latest.
const maxTrailClicks = 8

// day is day d's aggregates, made when new; nil for a day older than
// the model keeps.
func (s *stats) day(d Day) *dayStats {
	if d <= s.latest-AnalyticsDays {
		return nil
	}
	if d > s.latest {
		s.latest = d
		for old, ods := range s.days {
			if old <= d-AnalyticsDays {
				for _, id := range ods.queries.keys {
					s.queries.unref(id)
				}
				for _, id := range ods.noResults.keys {
					s.queries.unref(id)
				}
				delete(s.days, old)
			}
		}
	}
	ds := s.days[d]
	if ds == nil {
		if s.days == nil {
			s.days = map[Day]*dayStats{}
		}
		ds = &dayStats{}
		s.days[d] = ds
	}
	return ds
}

// trail is visitor h's trail, made when new when make is set.
func (s *stats) trail(h uint64, make bool) *trail {
	if t := s.trails[h]; t != nil {
		return t
	}
	t := s.oldTrails[h]
	if t == nil && !make {
		return nil
	}
	if t == nil {
		t = &trail{bytes: trailBytes}
	} else {
		delete(s.oldTrails, h)
	}
	if len(s.trails) >= maxTrails || s.trailBytes >= maxTrailBytes {
		s.rotate()
	}
	if s.trails == nil {
		s.trails = map[uint64]*trail{}
	}
	s.trails[h] = t
	s.trailBytes += int(t.bytes)
	return t
}

// rotate makes the newer generation of trails the older, dropping the
// older.
func (s *stats) rotate() { s.oldTrails, s.trails, s.trailBytes = s.trails, nil, 0 }

// resized counts a change of t's size: t is of the newer generation
// (trail gave it, and made no other since). Past maxTrailBytes the
// newer generation becomes the older.
func (s *stats) resized(t *trail) {
	n := trailSize(t)
	s.trailBytes += int(n - t.bytes)
	t.bytes = n
	if s.trailBytes >= maxTrailBytes {
		s.rotate()
	}
}

func lessID(a, b uint32) bool     { return a < b }
func lessString(a, b string) bool { return a < b }

// searched is the counts of the query of search ts on its day; nil
// when the day, or the query in it, is no longer kept.
func (s *stats) searched(ts *trailSearch) *queryStats {
	sd := s.days[ts.day]
	if sd == nil || ts.query == "" {
		return nil
	}
	id, ok := s.queries.ids[ts.query]
	if !ok {
		return nil
	}
	return sd.queries.get(id)
}

// source is a day's counts of box or campaign key, made when new
// (space-saving by impressions).
func source(c *counts[string, sourceStats], key string) *sourceStats {
	return c.slot(key, maxDaySources, impressionCount, lessString, nil)
}

// querySlot is a day's counts of query id, made when new.
func (s *stats) querySlot(c *counts[uint32, queryStats], id uint32) *queryStats {
	return c.slot(id, maxDayQueries, queryCount, s.queries.less, s.queries.change)
}

// noResultSlot is a day's no-result count of query id, made when new.
func (s *stats) noResultSlot(c *counts[uint32, counted], id uint32) *counted {
	return c.slot(id, maxDayNoResults, plainCount, s.queries.less, s.queries.change)
}

func queryCount(q *queryStats) *uint32       { return &q.searches }
func plainCount(c *counted) *uint32          { return &c.n }
func orderCount(b *buyStats) *uint32         { return &b.orders }
func impressionCount(s *sourceStats) *uint32 { return &s.impressions }

// foldStats adds e to the analytics; m.mu is held for writing and e is
// not a repeated order. ids are a purchase's products (distinct, in
// order), units their quantities.
func (m *Model) foldStats(e *events.Event, ids []uint32, units []float64) {
	s := &m.stats
	d := s.day(DayOf(e.Time))
	var h uint64 // the visitor's, for what attributes to a visitor: an impression does not
	if e.User != "" && e.Kind != events.Impression {
		h = m.hash.sum(e.User)
	}
	switch e.Kind {
	case events.Search:
		q := QueryOf(e.Query)
		if d != nil {
			d.searches++
			if q != "" {
				s.querySlot(&d.queries, s.queries.id(q)).searches++
			}
			if e.Results != nil && *e.Results == 0 {
				d.noResultSearches++
				if q != "" {
					s.noResultSlot(&d.noResults, s.queries.id(q)).n++
				}
			}
		}
		if h != 0 {
			t := s.trail(h, true)
			t.search = trailSearch{query: q, day: DayOf(e.Time), at: e.Time}
			s.resized(t)
		}
	case events.Click:
		var product uint32
		known := false
		if e.ProductNumber != "" {
			product, known = m.id(e.ProductNumber)
		}
		if d != nil && known {
			d.clicked.slot(product, maxDayProducts, plainCount, lessID, nil).n++
		}
		sh := e.Shown
		if sh == nil {
			break
		}
		var t *trail
		if h != 0 {
			t = s.trail(h, true)
		}
		if sh.Source == events.SourceSearch && t != nil {
			if ts := &t.search; ts.at != 0 && !ts.clicked && e.Time >= ts.at && e.Time-ts.at <= ClickWindow {
				ts.clicked = true
				if q := s.searched(ts); q != nil {
					q.clicks++
				}
			}
		}
		box := ""
		if sh.Source == events.SourceRecoms && sh.Key != "" && sh.Campaign == "" {
			box = sh.Key
		}
		if d != nil {
			if box != "" {
				source(&d.boxes, box).clicks++
			}
			if sh.Campaign != "" {
				source(&d.campaigns, sh.Campaign).clicks++
			}
		}
		if t != nil && known && (box != "" || sh.Campaign != "") {
			if len(t.clicks) == maxTrailClicks {
				t.clicks = append(t.clicks[:0], t.clicks[1:]...)
			}
			t.clicks = append(t.clicks, trailClick{product: product, box: box, campaign: sh.Campaign, at: e.Time})
			s.resized(t)
		}
	case events.Impression:
		if d == nil || e.Shown == nil {
			break
		}
		switch sh := e.Shown; {
		case sh.Campaign != "":
			source(&d.campaigns, sh.Campaign).impressions++
		case sh.Source == events.SourceRecoms && sh.Key != "":
			source(&d.boxes, sh.Key).impressions++
		}
	case events.Purchase:
		if d != nil {
			for i, id := range ids {
				b := d.bought.slot(id, maxDayProducts, orderCount, lessID, nil)
				b.orders++
				b.units += units[i]
			}
		}
		t := (*trail)(nil)
		if h != 0 {
			t = s.trail(h, false)
		}
		if t == nil {
			break
		}
		if ts := &t.search; ts.at != 0 && !ts.bought && e.Time >= ts.at && e.Time-ts.at <= PurchaseWindow {
			ts.bought = true
			if q := s.searched(ts); q != nil {
				q.purchases++
			}
		}
		if d == nil {
			break
		}
		for _, id := range ids {
			// The latest click on the product, from a box or a campaign,
			// within the window.
			for i := len(t.clicks) - 1; i >= 0; i-- {
				c := t.clicks[i]
				if c.product != id || e.Time < c.at || e.Time-c.at > PurchaseWindow {
					continue
				}
				if c.box != "" {
					source(&d.boxes, c.box).purchases++
				}
				if c.campaign != "" {
					source(&d.campaigns, c.campaign).purchases++
				}
				break
			}
		}
	}
}
