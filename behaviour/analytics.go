package behaviour

import (
	"cmp"
	"iter"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Analytics are what a merchandiser asks of a website's events, kept as
// per-day aggregates while events fold in (docs/decisions.md,
// "Analytics"), so a question over a date range merges at most
// AnalyticsDays days and reads no event:
//
//   - searches: each query's search events, and how many of them the
//     visitor followed with a click on a search result within
//     ClickWindow (before their next search) and with a purchase within
//     PurchaseWindow; searches that found nothing;
//   - the products clicked (any click event) and bought (orders and
//     units);
//   - each recommendation box's (or unmanaged request's tracking key's)
//     and each retail media campaign's impressions, clicks and the
//     purchases of a product the visitor clicked from it within
//     PurchaseWindow.
//
// Days are UTC days of the events' times. Each day keeps at most a
// budget of queries, products and sources: past it, the least counted
// makes room and the newcomer takes its count (space-saving), so a
// heavy hitter is never lost and a count over-estimates by at most the
// day's lowest; below the budgets every count is exact.

// Day is a UTC day, counted from 1970-01-01.
type Day int32

// DayOf is the day of Unix milliseconds ms.
func DayOf(ms int64) Day {
	d := ms / msPerDay
	if ms%msPerDay < 0 {
		d--
	}
	return Day(d)
}

const msPerDay = 24 * 60 * 60 * 1000

// The analytics' windows and bounds.
const (
	// AnalyticsDays is how many days a model keeps: from the latest
	// event's day back. An event older than that counts for no day.
	AnalyticsDays = 190
	// ClickWindow: a search counts as clicked when its visitor clicks a
	// search result this soon after it, before searching again.
	ClickWindow = 30 * 60 * 1000
	// PurchaseWindow: a search, a box or a campaign counts a purchase of
	// its visitor this soon after it (the search) or after a click on
	// the product bought (the box, the campaign).
	PurchaseWindow = 24 * 60 * 60 * 1000
	// maxDayQueries, maxDayNoResults, maxDayProducts and maxDaySources
	// are a day's budgets: queries, queries that found nothing, products
	// clicked and products bought (each), boxes and campaigns (each).
	maxDayQueries   = 1000
	maxDayNoResults = 500
	maxDayProducts  = 1000
	maxDaySources   = 200
	// maxQueryBytes: a query is counted by its first bytes.
	maxQueryBytes = 100
)

// QueryOf is a search phrase as analytics count it: lower case, spaces
// collapsed, at most maxQueryBytes (cut at a rune). It is the phrase
// itself when the phrase is already so, else a string of its own: the
// days and the trails keep it, and a part of a longer phrase would keep
// all of it.
func QueryOf(phrase string) string {
	if plainQuery(phrase) {
		return phrase
	}
	var buf [maxQueryBytes + 2*utf8.UTFMax]byte
	q := buf[:0]
words:
	for w := range strings.FieldsFuncSeq(phrase, unicode.IsSpace) {
		if len(q) > 0 {
			q = append(q, ' ')
		}
		for _, r := range w {
			if q = utf8.AppendRune(q, unicode.ToLower(r)); len(q) > maxQueryBytes {
				break words
			}
		}
	}
	if len(q) > maxQueryBytes {
		cut := maxQueryBytes
		for cut > 0 && !utf8Start(q[cut]) {
			cut--
		}
		q = q[:cut]
	}
	return string(q)
}

// plainQuery reports whether phrase is as QueryOf makes it: ASCII
// without capitals, words one space apart, at most maxQueryBytes.
func plainQuery(phrase string) bool {
	if len(phrase) > maxQueryBytes || phrase != "" && (phrase[0] == ' ' || phrase[len(phrase)-1] == ' ') {
		return false
	}
	for i := 0; i < len(phrase); i++ {
		switch c := phrase[i]; {
		case c >= utf8.RuneSelf, 'A' <= c && c <= 'Z', c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return false
		case c == ' ' && phrase[i-1] == ' ':
			return false
		}
	}
	return true
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// Report is what the analytics answer for a date range.
type Report struct {
	From, To Day
	// Searches and NoResultSearches count every search event of the
	// range (those without a query too).
	Searches, NoResultSearches int64
	TopSearches                []SearchCount // by searches, then query
	NoResults                  []QueryCount  // by searches, then query
	TopClicked                 []ProductCount
	TopBought                  []ProductBuys
	Boxes, Campaigns           []SourceCount // by key
}

// SearchCount is a query's searches and those followed by a click or a
// purchase.
type SearchCount struct {
	Query                       string
	Searches, Clicks, Purchases int64
}

// QueryCount is a query's searches.
type QueryCount struct {
	Query    string
	Searches int64
}

// ProductCount is a product's clicks.
type ProductCount struct {
	ProductNumber string
	Count         int64
}

// ProductBuys is a product's orders and units bought.
type ProductBuys struct {
	ProductNumber string
	Orders        int64
	Units         float64
}

// SourceCount is a box's or a campaign's impressions, clicks and the
// purchases they led to.
type SourceCount struct {
	Key                            string
	Impressions, Clicks, Purchases int64
}

// Analytics is the report for days from to to (inclusive), each top
// list at most top long. It reads the per-day aggregates only.
func (m *Model) Analytics(from, to Day, top int) Report {
	m.mu.RLock()
	defer m.mu.RUnlock()
	r := Report{From: from, To: to}
	// Queries and products add up by id (tally); sources in maps.
	strs := m.stats.queries.strs
	var nq, nn, nc, nb int
	for d, s := range m.stats.days {
		if d >= from && d <= to {
			nq, nn = nq+len(s.queries.keys), nn+len(s.noResults.keys)
			nc, nb = nc+len(s.clicked.keys), nb+len(s.bought.keys)
		}
	}
	products := m.numbers.len()
	tl := talliesPool.Get().(*reportTallies)
	defer talliesPool.Put(tl)
	qs, nr, clicked, bought := &tl.queries, &tl.noResults, &tl.clicked, &tl.bought
	qs.reset(len(strs), nq)
	nr.reset(len(strs), nn)
	clicked.reset(products, nc)
	bought.reset(products, nb)
	boxes, campaigns := map[string]*SourceCount{}, map[string]*SourceCount{}
	for d, s := range m.stats.days {
		if d < from || d > to {
			continue
		}
		r.Searches += s.searches
		r.NoResultSearches += s.noResultSearches
		for i, id := range s.queries.keys {
			c := &s.queries.vals[i]
			t, fresh := qs.of(id)
			if fresh {
				t.Query = strs[id]
			}
			t.Searches += int64(c.searches)
			t.Clicks += int64(c.clicks)
			t.Purchases += int64(c.purchases)
		}
		for i, id := range s.noResults.keys {
			t, fresh := nr.of(id)
			if fresh {
				t.Query = strs[id]
			}
			t.Searches += int64(s.noResults.vals[i].n)
		}
		for i, id := range s.clicked.keys {
			t, fresh := clicked.of(id)
			if fresh {
				t.ProductNumber = m.numbers.number(id)
			}
			t.Count += int64(s.clicked.vals[i].n)
		}
		for i, id := range s.bought.keys {
			c := &s.bought.vals[i]
			t, fresh := bought.of(id)
			if fresh {
				t.ProductNumber = m.numbers.number(id)
			}
			t.Orders += int64(c.orders)
			t.Units += c.units
		}
		for _, src := range []struct {
			from *counts[string, sourceStats]
			to   map[string]*SourceCount
		}{{&s.boxes, boxes}, {&s.campaigns, campaigns}} {
			for i, k := range src.from.keys {
				c := &src.from.vals[i]
				t := src.to[k]
				if t == nil {
					t = &SourceCount{Key: k}
					src.to[k] = t
				}
				t.Impressions += int64(c.impressions)
				t.Clicks += int64(c.clicks)
				t.Purchases += int64(c.purchases)
			}
		}
	}
	r.TopSearches = topOfSlice(qs.all, top, func(c *SearchCount) bool { return c.Searches > 0 }, func(a, b *SearchCount) int {
		return cmp.Or(cmp.Compare(b.Searches, a.Searches), cmp.Compare(a.Query, b.Query))
	})
	r.NoResults = topOfSlice(nr.all, top, func(c *QueryCount) bool { return c.Searches > 0 }, func(a, b *QueryCount) int {
		return cmp.Or(cmp.Compare(b.Searches, a.Searches), cmp.Compare(a.Query, b.Query))
	})
	r.TopClicked = topOfSlice(clicked.all, top, func(*ProductCount) bool { return true }, func(a, b *ProductCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.ProductNumber, b.ProductNumber))
	})
	r.TopBought = topOfSlice(bought.all, top, func(*ProductBuys) bool { return true }, func(a, b *ProductBuys) int {
		return cmp.Or(cmp.Compare(b.Orders, a.Orders), cmp.Compare(b.Units, a.Units), cmp.Compare(a.ProductNumber, b.ProductNumber))
	})
	byKey := func(a, b *SourceCount) int { return cmp.Compare(a.Key, b.Key) }
	r.Boxes = topOf(boxes, len(boxes), byKey)
	r.Campaigns = topOf(campaigns, len(campaigns), byKey)
	return r
}

// topOfSlice is topOf over the elements of s that keep holds.
func topOfSlice[T any](s []T, n int, keep func(*T) bool, order func(a, b *T) int) []T {
	return topOfSeq(func(yield func(*T) bool) {
		for i := range s {
			if keep(&s[i]) && !yield(&s[i]) {
				return
			}
		}
	}, n, order)
}

// topOf is the first n of m's values in order: a selection that keeps
// the best n seen (a max-heap on order, its root the worst kept), then
// sorts them.
func topOf[K comparable, T any](m map[K]*T, n int, order func(a, b *T) int) []T {
	return topOfSeq(maps.Values(m), n, order)
}

// topOfSeq is the first n of seq's values in order.
func topOfSeq[T any](seq iter.Seq[*T], n int, order func(a, b *T) int) []T {
	best := make([]*T, 0, max(0, min(n, 1024)))
	down := func(i int) {
		for {
			c := 2*i + 1
			if c >= len(best) {
				return
			}
			if c+1 < len(best) && order(best[c+1], best[c]) > 0 {
				c++
			}
			if order(best[c], best[i]) <= 0 {
				return
			}
			best[i], best[c] = best[c], best[i]
			i = c
		}
	}
	for v := range seq {
		switch {
		case len(best) < n:
			best = append(best, v)
			for i := len(best) - 1; i > 0 && order(best[i], best[(i-1)/2]) > 0; i = (i - 1) / 2 {
				best[i], best[(i-1)/2] = best[(i-1)/2], best[i]
			}
		case n > 0 && order(v, best[0]) < 0:
			best[0] = v
			down(0)
		}
	}
	slices.SortFunc(best, order)
	out := make([]T, len(best))
	for i, v := range best {
		out[i] = *v
	}
	return out
}
