package bench

import (
	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/events"
)

// Judgments from tracking: what shoppers did after a search grades what
// the search showed them. A click on a product a search showed (a click
// event shown from search) is attributed to that visitor's last search
// phrase, if within searchSession of it; the product then gains 1 for the
// phrase, 2 if the visitor later put it in the cart, 3 if they bought it
// (within purchaseWindow of the click), the best grade of any visitor.
// Products a search showed and nobody clicked stay unjudged (gain 0),
// as NDCG takes an unjudged product.
//
// Phrases are folded and their spaces collapsed, so "Drill " and "drill"
// are one term. Events must come in time order per visitor, as the
// behaviour log holds them.

// Session windows, in milliseconds of event time.
const (
	searchSession  = 30 * 60 * 1000          // a click belongs to a search this recent
	purchaseWindow = 7 * 24 * 60 * 60 * 1000 // a cart or purchase counts this long after the click
)

// EventJudgments grades search terms and products from a visitor's
// events, fed one at a time (Add), read with Judgments.
type EventJudgments struct {
	j        Judgments
	visitors map[string]*visitorTrail
}

// visitorTrail is a visitor's last search and the products they clicked
// from searches, by phrase.
type visitorTrail struct {
	query   string
	queryAt int64
	clicks  []searchClick
}

type searchClick struct {
	query, product string
	at             int64
}

// NewEventJudgments is an empty EventJudgments.
func NewEventJudgments() *EventJudgments {
	return &EventJudgments{j: Judgments{}, visitors: map[string]*visitorTrail{}}
}

// Add folds one event in.
func (ej *EventJudgments) Add(e *events.Event) {
	if e.User == "" {
		return
	}
	v := ej.visitors[e.User]
	if v == nil {
		v = &visitorTrail{}
		ej.visitors[e.User] = v
	}
	switch e.Kind {
	case events.Search:
		if q := analysis.FoldPhrase(e.Query); q != "" {
			v.query, v.queryAt = q, e.Time
		}
	case events.Click:
		if e.Shown == nil || e.Shown.Source != events.SourceSearch || v.query == "" || e.Time-v.queryAt > searchSession {
			return
		}
		ej.grade(v.query, e.ProductNumber, 1)
		v.clicks = append(v.clicks, searchClick{query: v.query, product: e.ProductNumber, at: e.Time})
	case events.Cart, events.Purchase:
		g := 2.0
		if e.Kind == events.Purchase {
			g = 3
		}
		for _, pn := range e.Products() {
			for _, c := range v.clicks {
				if c.product == pn && e.Time-c.at <= purchaseWindow && e.Time >= c.at {
					ej.grade(c.query, pn, g)
				}
			}
		}
	}
}

// grade raises a term's product to gain g.
func (ej *EventJudgments) grade(term, product string, g float64) {
	if product == "" {
		return
	}
	if ej.j[term] == nil {
		ej.j[term] = map[string]float64{}
	}
	ej.j[term][product] = max(ej.j[term][product], g)
}

// Judgments is what the events so far grade.
func (ej *EventJudgments) Judgments() Judgments { return ej.j }
