package behaviour

import (
	"cmp"

	"github.com/aisle-search/aisle/events"
)

// stats are a model's analytics: the per-day aggregates and, per
// visitor, what a later click or purchase is attributed to.
type stats struct {
	days   map[Day]*dayStats
	latest Day // the latest day folded; days before latest-AnalyticsDays+1 are dropped
	// trails are the visitors' latest search and clicks, by the keyed
	// hash of their tracking id, in two generations of at most
	// maxTrails each: when the newer fills it becomes the older, and the
	// older is dropped, so the visitors least lately active go first.
	trails, oldTrails map[uint64]*trail
}

// maxTrails bounds a generation of trails: a visitor's trail weighs
// about 200 bytes.
const maxTrails = 100000

// dayStats are one day's aggregates.
type dayStats struct {
	searches, noResultSearches int64
	queries                    map[string]*queryStats
	noResults                  map[string]*counted
	clicked                    map[uint32]*counted // by product id
	bought                     map[uint32]*buyStats
	boxes, campaigns           map[string]*sourceStats
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
		for old := range s.days {
			if old <= d-AnalyticsDays {
				delete(s.days, old)
			}
		}
	}
	ds := s.days[d]
	if ds == nil {
		if s.days == nil {
			s.days = map[Day]*dayStats{}
		}
		ds = &dayStats{queries: map[string]*queryStats{}, noResults: map[string]*counted{}, clicked: map[uint32]*counted{},
			bought: map[uint32]*buyStats{}, boxes: map[string]*sourceStats{}, campaigns: map[string]*sourceStats{}}
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
		t = &trail{}
	} else {
		delete(s.oldTrails, h)
	}
	if len(s.trails) >= maxTrails {
		s.oldTrails, s.trails = s.trails, nil
	}
	if s.trails == nil {
		s.trails = map[uint64]*trail{}
	}
	s.trails[h] = t
	return t
}

// slot is m[k], made when new: when m holds max keys, the one of the
// lowest count (the least key of those) makes room and k takes its
// count (space-saving).
func slot[K cmp.Ordered, V any](m map[K]*V, k K, max int, count func(*V) *uint32) *V {
	if v := m[k]; v != nil {
		return v
	}
	v := new(V)
	if len(m) >= max {
		var low K
		var lowV *V
		for key, val := range m {
			if lowV == nil || *count(val) < *count(lowV) || *count(val) == *count(lowV) && key < low {
				low, lowV = key, val
			}
		}
		delete(m, low)
		*count(v) = *count(lowV)
	}
	m[k] = v
	return v
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
	var h uint64
	if e.User != "" {
		h = m.hash.sum(e.User)
	}
	switch e.Kind {
	case events.Search:
		q := QueryOf(e.Query)
		if d != nil {
			d.searches++
			if q != "" {
				slot(d.queries, q, maxDayQueries, queryCount).searches++
			}
			if e.Results != nil && *e.Results == 0 {
				d.noResultSearches++
				if q != "" {
					slot(d.noResults, q, maxDayNoResults, plainCount).n++
				}
			}
		}
		if h != 0 {
			s.trail(h, true).search = trailSearch{query: q, day: DayOf(e.Time), at: e.Time}
		}
	case events.Click:
		var product uint32
		known := false
		if e.ProductNumber != "" {
			product, known = m.id(e.ProductNumber)
		}
		if d != nil && known {
			slot(d.clicked, product, maxDayProducts, plainCount).n++
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
				if sd := s.days[ts.day]; sd != nil && ts.query != "" {
					if q := sd.queries[ts.query]; q != nil {
						q.clicks++
					}
				}
			}
		}
		box := ""
		if sh.Source == events.SourceRecoms && sh.Key != "" && sh.Campaign == "" {
			box = sh.Key
		}
		if d != nil {
			if box != "" {
				slot(d.boxes, box, maxDaySources, impressionCount).clicks++
			}
			if sh.Campaign != "" {
				slot(d.campaigns, sh.Campaign, maxDaySources, impressionCount).clicks++
			}
		}
		if t != nil && known && (box != "" || sh.Campaign != "") {
			if len(t.clicks) == maxTrailClicks {
				t.clicks = append(t.clicks[:0], t.clicks[1:]...)
			}
			t.clicks = append(t.clicks, trailClick{product: product, box: box, campaign: sh.Campaign, at: e.Time})
		}
	case events.Impression:
		if d == nil || e.Shown == nil {
			break
		}
		switch sh := e.Shown; {
		case sh.Campaign != "":
			slot(d.campaigns, sh.Campaign, maxDaySources, impressionCount).impressions++
		case sh.Source == events.SourceRecoms && sh.Key != "":
			slot(d.boxes, sh.Key, maxDaySources, impressionCount).impressions++
		}
	case events.Purchase:
		if d != nil {
			for i, id := range ids {
				b := slot(d.bought, id, maxDayProducts, orderCount)
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
			if sd := s.days[ts.day]; sd != nil && ts.query != "" {
				if q := sd.queries[ts.query]; q != nil {
					q.purchases++
				}
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
					slot(d.boxes, c.box, maxDaySources, impressionCount).purchases++
				}
				if c.campaign != "" {
					slot(d.campaigns, c.campaign, maxDaySources, impressionCount).purchases++
				}
				break
			}
		}
	}
}
