package demo

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/events"
)

// The demo's behaviour: a few thousand visitors over the 60 days before
// EventsEnd, browsing in sessions within a category, carting and buying
// baskets of related products, with popularity falling off as a power
// law, so that every recommendation source has sensible answers from the
// first second.
const (
	eventsDays      = 60
	sessionsPerUser = 8   // on average
	pPurchase       = 0.3 // a session ends in an order
	pComplement     = 0.6 // an order adds a product of a sibling category
	popularitySkew  = 1.1 // the Zipf exponent of products within a category, and of categories
)

// EventsEnd is when the demo's behaviour log ends.
var EventsEnd = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)

// EventUsers is how many visitors a catalog of n products gets: 3,000
// for the default demo, fewer for a small catalog.
func EventUsers(n int) int { return max(50, min(3000, n/8)) }

// Events generates the behaviour log of website's visitors over the
// products each streams (Each or EachDanish; only their numbers, stock
// and first category are kept), deterministically from seed, in time
// order, each event passing events.Check. fn may keep the events;
// Events stops at the first error of each or fn and returns it.
func Events(website string, each func(fn func(*catalog.Product) error) error, users int, seed uint64, fn func(*events.Event) error) error {
	cats, err := categorize(each)
	if err != nil || len(cats) == 0 {
		return err
	}
	r := rand.New(rand.NewPCG(seed, 0xe7e175))
	catPick := newZipf(len(cats), popularitySkew)
	var all []*events.Event
	start := EventsEnd.Add(-eventsDays * 24 * time.Hour).UnixMilli()
	span := int64(eventsDays * 24 * time.Hour / time.Millisecond)
	order := 0
	for u := range users {
		user := fmt.Sprintf("demo-visitor-%04d", u)
		favourites := []int{catPick.draw(r), catPick.draw(r), catPick.draw(r)}
		sessions := 1 + r.IntN(2*sessionsPerUser)
		for range sessions {
			at := start + r.Int64N(span)
			c := cats[favourites[r.IntN(len(favourites))]]
			if r.Float64() < 0.2 { // now and then, something else
				c = cats[catPick.draw(r)]
			}
			var viewed []string
			for range 2 + r.IntN(7) {
				pn := c.products[c.zipf.draw(r)]
				if slices.Contains(viewed, pn) {
					continue
				}
				viewed = append(viewed, pn)
				all = append(all, &events.Event{Kind: events.View, Website: website, User: user, ProductNumber: pn, Time: at})
				at += 20_000 + r.Int64N(120_000) // 20 s to 2 min a page
			}
			if r.Float64() >= pPurchase {
				continue
			}
			basket := []string{viewed[r.IntN(len(viewed))]}
			if sib := c.sibling; sib != nil && r.Float64() < pComplement {
				if pn := sib.products[sib.zipf.draw(r)]; !slices.Contains(basket, pn) {
					basket = append(basket, pn)
				}
			}
			all = append(all, &events.Event{Kind: events.Cart, Website: website, User: user, ProductNumbers: slices.Clone(basket), Time: at})
			order++
			all = append(all, &events.Event{Kind: events.Purchase, Website: website, User: user, OrderNumber: fmt.Sprintf("DEMO-O%06d", order),
				ProductNumbers: basket, Time: at + 60_000})
		}
	}
	slices.SortStableFunc(all, func(a, b *events.Event) int { return cmp.Compare(a.Time, b.Time) })
	for _, e := range all {
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

// browsed is the in-stock products of one category leaf, most popular
// first (their catalog order: the generator's order is not by
// popularity, so this is a fixed, arbitrary ranking), and a sibling leaf
// of the same top category, whose products go well with them.
type browsed struct {
	products []string
	zipf     zipf
	sibling  *browsed
}

// categorize groups the in-stock products by their first category path's
// leaf, in the order the leaves first appear; each leaf's sibling is the
// next leaf under the same top category (the first one, for the last).
func categorize(each func(fn func(*catalog.Product) error) error) ([]*browsed, error) {
	byLeaf := map[string]*browsed{}
	var leaves []string
	err := each(func(p *catalog.Product) error {
		if !p.InStock || len(p.Hierarchies) == 0 || len(p.Hierarchies[0]) == 0 {
			return nil
		}
		leaf := strings.Join(p.Hierarchies[0], "/")
		c := byLeaf[leaf]
		if c == nil {
			c = &browsed{}
			byLeaf[leaf] = c
			leaves = append(leaves, leaf)
		}
		c.products = append(c.products, p.ProductNumber)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []*browsed
	byTop := map[string][]*browsed{}
	for _, leaf := range leaves {
		c := byLeaf[leaf]
		c.zipf = newZipf(len(c.products), popularitySkew)
		out = append(out, c)
		top, _, _ := strings.Cut(leaf, "/")
		byTop[top] = append(byTop[top], c)
	}
	for _, group := range byTop {
		if len(group) < 2 {
			continue
		}
		for i, c := range group {
			c.sibling = group[(i+1)%len(group)]
		}
	}
	return out, nil
}

// zipf draws 0…n-1 with probability proportional to 1/(k+1)^s.
type zipf struct{ cum []float64 }

func newZipf(n int, s float64) zipf {
	cum := make([]float64, n)
	total := 0.0
	for k := range n {
		total += 1 / math.Pow(float64(k+1), s)
		cum[k] = total
	}
	for k := range cum {
		cum[k] /= total
	}
	return zipf{cum}
}

func (z zipf) draw(r *rand.Rand) int {
	i, _ := slices.BinarySearch(z.cum, r.Float64())
	return min(i, len(z.cum)-1)
}
