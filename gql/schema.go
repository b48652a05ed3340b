package gql

import (
	"github.com/graphql-go/graphql"

	"github.com/aisle-search/aisle/gql/gqltype"
)

// build is the admin schema: each file of this package adds its fields
// to the roots.
func (s *Server) build() (graphql.Schema, error) {
	q, m := graphql.Fields{}, graphql.Fields{}
	reg := gqltype.NewConfigRegistry()
	q["auditLogs"] = auditLogsField()
	keyFields(q, m)
	versionedFields(reg, searchConfigs, "SearchConfiguration", q, m) // before Website, which holds them
	versionedFields(reg, pagesKind, "Page", q, m)
	keyedFields(reg, boxesKind, "RecommendationBox", "box", m)
	keyedFields(reg, campaignsKind, "Campaign", "campaign", m)
	websiteFields(reg, q, m)
	productFields(reg, q, m)
	personalizationFields(reg, q, m)
	analyticsFields(q)
	return graphql.NewSchema(graphql.SchemaConfig{
		Query:    graphql.NewObject(graphql.ObjectConfig{Name: "Query", Description: "What the console reads.", Fields: q}),
		Mutation: graphql.NewObject(graphql.ObjectConfig{Name: "Mutation", Description: "What the console changes: each mutation is one change of the store, with its audit log entries, served to the next request.", Fields: m}),
		Types:    []graphql.Type{auditLogFilterArgumentSort},
	})
}
