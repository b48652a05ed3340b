package gql

import (
	"reflect"

	"github.com/graphql-go/graphql"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/gql/gqltype"
)

// newWebsiteType is a website as the console reads it: its own
// settings, and (websiteFields) what it holds.
func newWebsiteType() *graphql.Object {
	return graphql.NewObject(graphql.ObjectConfig{
		Name:        "Website",
		Description: "A shop: its catalog, its search configurations, pages and recommendation boxes.",
		Fields: graphql.Fields{
			"uuid": &graphql.Field{Type: graphql.NewNonNull(graphql.ID), Description: "The website's UUID, as requests name it (websiteUuid)."},
			"name": &graphql.Field{Type: graphql.NewNonNull(graphql.String), Description: "The website's name."},
			"companyId": &graphql.Field{Type: graphql.NewNonNull(graphql.String), Description: "The company that owns the website (default when its configuration names none).",
				Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(*config.Website).Company(), nil }},
			"language":      &graphql.Field{Type: graphql.String, Description: "The stemming language of its catalog and queries (en, da, no, sv, de, none); null: the server's."},
			"requireApiKey": &graphql.Field{Type: graphql.NewNonNull(graphql.Boolean), Description: "Whether /serve/search and /serve/pages need a search key of the website."},
			"allowedOrigins": &graphql.Field{Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(graphql.String))), Description: "The web origins whose pages may call with the visitor's cookies.",
				Resolve: func(p graphql.ResolveParams) (any, error) {
					return nonNil(p.Source.(*config.Website).AllowedOrigins), nil
				}},
		},
	})
}

var campaignStatistics = graphql.NewObject(graphql.ObjectConfig{
	Name:        "CampaignStatistics",
	Description: "A retail media campaign's counters.",
	Fields: graphql.Fields{
		"campaignId":  &graphql.Field{Type: graphql.NewNonNull(graphql.ID), Description: "The campaign's id."},
		"impressions": &graphql.Field{Type: graphql.NewNonNull(graphql.Float), Description: "How many times its products were shown in a reserved position."},
		"clicks":      &graphql.Field{Type: graphql.NewNonNull(graphql.Float), Description: "How many times they were clicked there."},
	},
})

// campaignStatsOut is a CampaignStatistics' value; counts are Floats,
// as GraphQL's Int holds 32 bits only.
type campaignStatsOut struct {
	CampaignID  string  `json:"campaignId"`
	Impressions float64 `json:"impressions"`
	Clicks      float64 `json:"clicks"`
}

// nonNil is s, or an empty list for nil.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// websiteFields adds the websites' queries, and to Website what it
// holds: its indexed fields, search configurations, pages,
// recommendation boxes and campaigns, as package config has them.
func websiteFields(reg *gqltype.Registry, q, m graphql.Fields) {
	websiteType := newWebsiteType()
	for _, f := range []struct {
		name string
		t    reflect.Type
		get  func(w *config.Website) any
		desc string
	}{
		{"indexedFields", reflect.TypeFor[[]config.IndexedField](), func(w *config.Website) any { return w.IndexedFields }, "The catalog's fields that filters, facets and sorting may name."},
		{"searchConfigurations", reflect.TypeFor[[]config.SearchConfig](), func(w *config.Website) any { return w.Search }, "The website's search configurations, each with its versions."},
		{"pages", reflect.TypeFor[[]config.Page](), func(w *config.Website) any { return w.Pages }, "The website's managed pages, each with its versions."},
		{"recommendationBoxes", reflect.TypeFor[[]config.Box](), func(w *config.Website) any { return w.Boxes }, "The website's managed recommendation boxes."},
		{"campaigns", reflect.TypeFor[[]config.Campaign](), func(w *config.Website) any { return w.Campaigns }, "The website's retail media campaigns."},
	} {
		websiteType.AddFieldConfig(f.name, &graphql.Field{Type: reg.Output(f.t), Description: f.desc,
			Resolve: func(p graphql.ResolveParams) (any, error) { return f.get(p.Source.(*config.Website)), nil }})
	}
	websiteType.AddFieldConfig("campaignStatistics", &graphql.Field{
		Type:        graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(campaignStatistics))),
		Description: "What each retail media campaign of the website has had: impressions and clicks counted from the visitors' events, in the configuration's order.",
		Resolve: resolver(func(c *call, p graphql.ResolveParams) (any, error) {
			w := p.Source.(*config.Website)
			out := []campaignStatsOut{}
			var model interface {
				Campaign(id string) behaviour.CampaignStats
			}
			if c.s.opt.Behaviours != nil {
				if m := c.s.opt.Behaviours.Model(w.UUID); m != nil {
					model = m
				}
			}
			for _, cp := range w.Campaigns {
				o := campaignStatsOut{CampaignID: cp.ID}
				if model != nil {
					st := model.Campaign(cp.ID)
					o.Impressions, o.Clicks = float64(st.Impressions), float64(st.Clicks)
				}
				out = append(out, o)
			}
			return out, nil
		}),
	})
	websiteSettingsFields(reg, websiteType, m)
	q["websites"] = &graphql.Field{
		Type:        graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(websiteType))),
		Description: "The served websites the key administers, in the configuration's order.",
		Resolve: resolver(func(c *call, p graphql.ResolveParams) (any, error) {
			out := []*config.Website{}
			for _, g := range c.s.opt.Engine.Websites() {
				if c.sees(g.Website) {
					out = append(out, g.Website)
				}
			}
			return out, nil
		}),
	}
	q["website"] = &graphql.Field{
		Type:        websiteType,
		Description: "The served website uuid; FORBIDDEN to a key that does not administer it.",
		Args:        graphql.FieldConfigArgument{"uuid": &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.ID), Description: "The website's UUID."}},
		Resolve: resolver(func(c *call, p graphql.ResolveParams) (any, error) {
			uuid, _ := p.Args["uuid"].(string)
			if err := c.allow(access.ScopeAdmin, uuid); err != nil {
				return nil, err
			}
			g, _ := c.s.opt.Engine.Website(uuid)
			return g.Website, nil
		}),
	}
}

// sees reports whether the caller administers website w.
func (c *call) sees(w *config.Website) bool {
	return c.who.Allows(access.ScopeAdmin, w.UUID, w.Company())
}

// notServed is the error for a website uuid that is not served.
func notServed(uuid string) error {
	return engine.NotFound("websiteUuid", "no website %q is served", uuid)
}
