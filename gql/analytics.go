package gql

import (
	"fmt"
	"time"

	"github.com/graphql-go/graphql"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/behaviour"
)

// maxAnalyticsDays bounds a range: a year and a day.
const maxAnalyticsDays = 366

// The analytics' output: counts are Floats, as GraphQL's Int holds 32
// bits only.
type (
	analyticsOut struct {
		WebsiteUUID      string         `json:"websiteUuid"`
		From             string         `json:"from"`
		To               string         `json:"to"`
		Searches         float64        `json:"searches"`
		NoResultSearches float64        `json:"noResultSearches"`
		TopSearches      []searchOut    `json:"topSearches"`
		NoResultQueries  []queryOut     `json:"noResultQueries"`
		TopClicked       []productOut   `json:"topClickedProducts"`
		TopPurchased     []purchasedOut `json:"topPurchasedProducts"`
		Boxes            []sourceOut    `json:"recommendationBoxes"`
		Campaigns        []sourceOut    `json:"campaigns"`
	}
	searchOut struct {
		Query          string  `json:"query"`
		Searches       float64 `json:"searches"`
		Clicks         float64 `json:"clicks"`
		Purchases      float64 `json:"purchases"`
		ClickThrough   float64 `json:"clickThroughRate"`
		ConversionRate float64 `json:"conversionRate"`
	}
	queryOut struct {
		Query    string  `json:"query"`
		Searches float64 `json:"searches"`
	}
	productOut struct {
		ProductNumber string  `json:"productNumber"`
		Clicks        float64 `json:"clicks"`
	}
	purchasedOut struct {
		ProductNumber string  `json:"productNumber"`
		Orders        float64 `json:"orders"`
		Units         float64 `json:"units"`
	}
	sourceOut struct {
		Key          string  `json:"key"`
		Impressions  float64 `json:"impressions"`
		Clicks       float64 `json:"clicks"`
		Purchases    float64 `json:"purchases"`
		ClickThrough float64 `json:"clickThroughRate"`
	}
)

// analyticsFields adds the query analytics: what a website's visitors
// searched, found nothing for, clicked and bought, and what its boxes
// and campaigns did, for a date range (behaviour.Model.Analytics). It
// needs the analytics scope (or admin) on the website.
func analyticsFields(q graphql.Fields) {
	count := func(desc string) *graphql.Field {
		return &graphql.Field{Type: graphql.NewNonNull(graphql.Float), Description: desc}
	}
	str := func(desc string) *graphql.Field {
		return &graphql.Field{Type: graphql.NewNonNull(graphql.String), Description: desc}
	}
	list := func(t *graphql.Object) graphql.Output {
		return graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(t)))
	}
	search := graphql.NewObject(graphql.ObjectConfig{Name: "SearchStatistics", Description: "A query's searches and what followed them.",
		Fields: graphql.Fields{
			"query":            str("The query, lower case, spaces collapsed, its first 100 bytes."),
			"searches":         count("Its search events."),
			"clicks":           count("Those its visitor followed with a click on a search result within 30 minutes, before searching again."),
			"purchases":        count("Those its visitor followed with a purchase within 24 hours, before searching again."),
			"clickThroughRate": count("clicks / searches."),
			"conversionRate":   count("purchases / searches."),
		}})
	query := graphql.NewObject(graphql.ObjectConfig{Name: "QueryStatistics", Description: "A query's searches that found nothing.",
		Fields: graphql.Fields{"query": str("The query, as SearchStatistics.query."), "searches": count("Its search events that found no product.")}})
	clicked := graphql.NewObject(graphql.ObjectConfig{Name: "ProductClicks", Description: "A product's clicks.",
		Fields: graphql.Fields{"productNumber": str("The product."), "clicks": count("Its click events, wherever it was shown.")}})
	bought := graphql.NewObject(graphql.ObjectConfig{Name: "ProductPurchases", Description: "A product's purchases.",
		Fields: graphql.Fields{"productNumber": str("The product."), "orders": count("The orders that held it, each counted once."),
			"units": count("The units bought: its lines' quantities, 1 a line without one.")}})
	source := graphql.NewObject(graphql.ObjectConfig{Name: "SourceStatistics", Description: "A recommendation box's or a retail media campaign's counts.",
		Fields: graphql.Fields{
			"key":              str("The box's key (an unmanaged request's trackingKey), or the campaign's id."),
			"impressions":      count("A box: the answers that showed it. A campaign: the sponsored products it placed that were shown."),
			"clicks":           count("Clicks on products shown there."),
			"purchases":        count("Products bought within 24 hours of their visitor clicking them there."),
			"clickThroughRate": count("clicks / impressions."),
		}})
	analytics := graphql.NewObject(graphql.ObjectConfig{Name: "Analytics",
		Description: "What a website's visitors did over a range of UTC days, from the per-day aggregates kept as events arrive (docs/decisions.md, Analytics). Lists hold at most `first`, the most first.",
		Fields: graphql.Fields{
			"websiteUuid":          &graphql.Field{Type: graphql.NewNonNull(graphql.ID), Description: "The website."},
			"from":                 str("The first day, YYYY-MM-DD."),
			"to":                   str("The last day, YYYY-MM-DD."),
			"searches":             count("Every search event of the range."),
			"noResultSearches":     count("Those that found nothing."),
			"topSearches":          &graphql.Field{Type: list(search), Description: "The most searched queries."},
			"noResultQueries":      &graphql.Field{Type: list(query), Description: "The queries most searched that found nothing."},
			"topClickedProducts":   &graphql.Field{Type: list(clicked), Description: "The most clicked products."},
			"topPurchasedProducts": &graphql.Field{Type: list(bought), Description: "The products in most orders."},
			"recommendationBoxes":  &graphql.Field{Type: list(source), Description: "Every box seen in the range, by key."},
			"campaigns":            &graphql.Field{Type: list(source), Description: "Every campaign seen in the range, by id."},
		}})
	q["analytics"] = &graphql.Field{
		Type:        graphql.NewNonNull(analytics),
		Description: "A website's analytics for the UTC days from to to (inclusive, at most 366 days). Needs the ANALYTICS scope (or ADMIN) on the website.",
		Args: graphql.FieldConfigArgument{
			"websiteUuid": &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.ID), Description: "The website."},
			"from":        &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.String), Description: "The first day, YYYY-MM-DD."},
			"to":          &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.String), Description: "The last day, YYYY-MM-DD."},
			"first":       &graphql.ArgumentConfig{Type: graphql.Int, Description: "How long each top list is: at most 100, 20 when not given."},
		},
		Resolve: resolver(func(c *call, p graphql.ResolveParams) (any, error) {
			uuid, _ := p.Args["websiteUuid"].(string)
			if err := c.allow(access.ScopeAnalytics, uuid); err != nil {
				return nil, err
			}
			from, err := dayArg(p, "from")
			if err != nil {
				return nil, err
			}
			to, err := dayArg(p, "to")
			if err != nil {
				return nil, err
			}
			if to < from || to-from >= maxAnalyticsDays {
				return nil, badInput("to", fmt.Sprintf("want a day from from to %d days after it", maxAnalyticsDays-1))
			}
			n, err := first(p)
			if err != nil {
				return nil, err
			}
			var r behaviour.Report
			if c.s.opt.Behaviours != nil {
				r = c.s.opt.Behaviours.Model(uuid).Analytics(from, to, n)
			}
			return analyticsOf(uuid, r), nil
		}),
	}
}

// dayArg is argument name as a day.
func dayArg(p graphql.ResolveParams, name string) (behaviour.Day, error) {
	s, _ := p.Args[name].(string)
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return 0, badInput(name, fmt.Sprintf("%q: want a day as YYYY-MM-DD", s))
	}
	return behaviour.DayOf(t.UnixMilli()), nil
}

// analyticsOf is r as the schema answers it.
func analyticsOf(uuid string, r behaviour.Report) analyticsOut {
	day := func(d behaviour.Day) string {
		return time.UnixMilli(int64(d) * 24 * 60 * 60 * 1000).UTC().Format(time.DateOnly)
	}
	rate := func(n, of int64) float64 {
		if of == 0 {
			return 0
		}
		return float64(n) / float64(of)
	}
	out := analyticsOut{WebsiteUUID: uuid, From: day(r.From), To: day(r.To), Searches: float64(r.Searches), NoResultSearches: float64(r.NoResultSearches),
		TopSearches: []searchOut{}, NoResultQueries: []queryOut{}, TopClicked: []productOut{}, TopPurchased: []purchasedOut{}, Boxes: []sourceOut{}, Campaigns: []sourceOut{}}
	for _, s := range r.TopSearches {
		out.TopSearches = append(out.TopSearches, searchOut{s.Query, float64(s.Searches), float64(s.Clicks), float64(s.Purchases),
			rate(s.Clicks, s.Searches), rate(s.Purchases, s.Searches)})
	}
	for _, s := range r.NoResults {
		out.NoResultQueries = append(out.NoResultQueries, queryOut{s.Query, float64(s.Searches)})
	}
	for _, s := range r.TopClicked {
		out.TopClicked = append(out.TopClicked, productOut{s.ProductNumber, float64(s.Count)})
	}
	for _, s := range r.TopBought {
		out.TopPurchased = append(out.TopPurchased, purchasedOut{s.ProductNumber, float64(s.Orders), s.Units})
	}
	for _, src := range []struct {
		from []behaviour.SourceCount
		to   *[]sourceOut
	}{{r.Boxes, &out.Boxes}, {r.Campaigns, &out.Campaigns}} {
		for _, s := range src.from {
			*src.to = append(*src.to, sourceOut{s.Key, float64(s.Impressions), float64(s.Clicks), float64(s.Purchases), rate(s.Clicks, s.Impressions)})
		}
	}
	return out
}
