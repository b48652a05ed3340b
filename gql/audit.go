package gql

import (
	"time"

	"github.com/graphql-go/graphql"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/live"
)

// The audit log's types, as the spec names them (section "Audit log
// types"): every admin change writes an AuditLog in the same store entry
// as the change (package live).

// dateTime is the spec's DateTime: an ISO 8601 instant in UTC, as
// 2026-11-28T12:00:00.123Z.
var dateTime = graphql.NewScalar(graphql.ScalarConfig{
	Name:        "DateTime",
	Description: "An instant as an ISO 8601 string in UTC with its designator, as 2026-11-28T12:00:00.123Z.",
	Serialize: func(v any) any {
		if t, ok := v.(time.Time); ok {
			return t.UTC().Format(time.RFC3339Nano)
		}
		return nil
	},
	ParseValue:   func(v any) any { return parseTime(v) },
	ParseLiteral: nil,
})

// parseTime reads an ISO 8601 instant, or is nil.
func parseTime(v any) any {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return nil
	}
	return t
}

// resourceTypes are the spec's AuditResourceType values with what each
// covers here; the spec says the list may grow, and API_KEY and
// CAMPAIGN are Aisle's (docs/decisions.md, Audit log).
var resourceTypes = []struct{ name, desc string }{
	{live.ResourceEvent, "Tracking events: not written by Aisle's admin."},
	{live.ResourceWebsite, "A website's own settings: name, language, company, origins and its configured keys."},
	{live.ResourceFeedConfig, "A website's catalog: its indexed fields, and products and content items written through the admin API."},
	{live.ResourcePagesDesign, "A page's template."},
	{live.ResourcePagesConfig, "A page's listing: its filters, sorting and versions."},
	{live.ResourceRecomDesign, "A recommendation box's template."},
	{live.ResourceRecomConfig, "A recommendation box's sources and settings."},
	{live.ResourceSearchConfig, "A search configuration and its versions: fields, weights, facets, synonyms, redirects and the rest."},
	{"TRIGGER_DESIGN", "A trigger's design: not a resource of Aisle's."},
	{"TRIGGER_CONFIG", "A trigger's settings: not a resource of Aisle's."},
	{"NEWSLETTER_DESIGN", "A newsletter's design: not a resource of Aisle's."},
	{"NEWSLETTER_CONFIG", "A newsletter's settings: not a resource of Aisle's."},
	{live.ResourceAPIKey, "An API key: made or revoked."},
	{live.ResourceCampaign, "A retail media campaign."},
}

var auditResourceType = func() *graphql.Enum {
	values := graphql.EnumValueConfigMap{}
	for _, r := range resourceTypes {
		values[r.name] = &graphql.EnumValueConfig{Value: r.name, Description: r.desc}
	}
	return graphql.NewEnum(graphql.EnumConfig{Name: "AuditResourceType", Description: "The kind of resource an audit log entry is about; the list may grow.", Values: values})
}()

// The orders of auditLogs.
const (
	sortNewest = "CREATED_AT_DESC"
	sortOldest = "CREATED_AT_ASC"
)

func sortEnum(name, desc string) *graphql.Enum {
	return graphql.NewEnum(graphql.EnumConfig{Name: name, Description: desc, Values: graphql.EnumValueConfigMap{
		sortNewest: &graphql.EnumValueConfig{Value: sortNewest, Description: "Newest first (the default)."},
		sortOldest: &graphql.EnumValueConfig{Value: sortOldest, Description: "Oldest first."},
	}})
}

var (
	auditLogSort = sortEnum("AuditLogSort", "The order of auditLogs' entries.")
	// auditLogFilterArgumentSort is named by the spec without values; it
	// has AuditLogSort's.
	auditLogFilterArgumentSort = sortEnum("AuditLogFilterArgumentSort", "The orders an audit log may be listed in: AuditLogSort's.")
)

var auditLogSession = graphql.NewObject(graphql.ObjectConfig{
	Name:        "AuditLogSession",
	Description: "Who made a change: the request that made it.",
	Fields: graphql.Fields{
		"sessionId": &graphql.Field{Type: graphql.NewNonNull(graphql.String), Description: "The session: the client's X-Aisle-Session header, or an id of the request that made the change."},
		"authenticatedEntityName": &graphql.Field{Type: graphql.String, Description: "The name of the API key that made the change (cli for the operator's --admin-key).",
			Resolve: func(p graphql.ResolveParams) (any, error) {
				return nullIfEmpty(p.Source.(*live.AuditSession).EntityName), nil
			}},
		"sessionEvents": &graphql.Field{Type: graphql.NewList(graphql.String), Description: "What the request did: its mutations' names, or its REST route."},
	},
})

var auditLog = graphql.NewObject(graphql.ObjectConfig{
	Name:        "AuditLog",
	Description: "A change made through the admin: what it changed, when, and who made it.",
	Fields: graphql.Fields{
		"id":          &graphql.Field{Type: graphql.NewNonNull(graphql.ID), Description: "The entry's id, unique and in the order entries were written."},
		"sourceId":    &graphql.Field{Type: graphql.NewNonNull(graphql.String), Description: "The id of the resource changed (a search configuration's key, a page's key, a key's id, a website's UUID)."},
		"sequenceKey": &graphql.Field{Type: graphql.NewNonNull(graphql.String), Description: "Ties together the changes of one resource: its type, website and id."},
		"websiteUuid": &graphql.Field{Type: graphql.String, Description: "The website changed; null for a change of no one website (a company's key).",
			Resolve: func(p graphql.ResolveParams) (any, error) {
				return nullIfEmpty(p.Source.(live.AuditEntry).WebsiteUUID), nil
			}},
		"companyId": &graphql.Field{Type: graphql.NewNonNull(graphql.String), Description: "The company that owns what changed."},
		"keypoint":  &graphql.Field{Type: graphql.NewNonNull(graphql.Boolean), Description: "True for a crucial change: a version published, a website added, a key made or revoked."},
		"endpoint":  &graphql.Field{Type: graphql.NewNonNull(graphql.Boolean), Description: "True for a dead end: the resource (a draft, a page, a key) is gone."},
		"changedFields": &graphql.Field{Type: graphql.NewNonNull(graphql.NewList(graphql.String)), Description: "The resource's fields that changed, by diffing it before and after (versions[2].facets for a version's).",
			Resolve: func(p graphql.ResolveParams) (any, error) {
				return nonNil(p.Source.(live.AuditEntry).ChangedFields), nil
			}},
		"resourceTitle":   &graphql.Field{Type: graphql.NewNonNull(graphql.String), Description: "The resource's title: its name, or its key."},
		"resourceType":    &graphql.Field{Type: graphql.NewNonNull(auditResourceType), Description: "The kind of resource changed."},
		"auditLogSession": &graphql.Field{Type: auditLogSession, Description: "Who made the change; null for a change made on a stopped server's directory without a key."},
		"createdAt":       &graphql.Field{Type: graphql.NewNonNull(dateTime), Description: "When the change was made."},
	},
})

var auditLogConnection = connection("AuditLog", auditLog, "audit log entry", "audit log entries", nil)

// auditFilterFields are AuditLogFilterInput's members, all strings as
// the spec has them.
var auditFilterFields = []struct{ name, desc string }{
	{"websiteUuid", "Entries of this website."},
	{"companyId", "Entries of this company."},
	{"sourceId", "Entries of this resource id."},
	{"sequenceKey", "Entries of this sequence key."},
	{"keypoint", "Entries whose keypoint is this: true or false."},
	{"endpoint", "Entries whose endpoint is this: true or false."},
	{"resourceType", "Entries of this AuditResourceType, by its name."},
	{"createdAtBefore", "Entries created at or before this ISO 8601 instant (2026-11-28T12:00:00Z)."},
	{"createdAtAfter", "Entries created at or after this ISO 8601 instant."},
}

var auditLogFilterInput = func() *graphql.InputObject {
	fields := graphql.InputObjectConfigFieldMap{}
	for _, f := range auditFilterFields {
		fields[f.name] = &graphql.InputObjectFieldConfig{Type: graphql.String, Description: f.desc}
	}
	return graphql.NewInputObject(graphql.InputObjectConfig{Name: "AuditLogFilterInput", Description: "Which audit log entries to list; every member given must match.", Fields: fields})
}()

// auditLogsField is the query auditLogs.
func auditLogsField() *graphql.Field {
	args := pageArgs("entries")
	args["filter"] = &graphql.ArgumentConfig{Type: auditLogFilterInput, Description: "Which entries to list; all that the key may read when omitted."}
	args["sort"] = &graphql.ArgumentConfig{Type: auditLogSort, Description: "The order: CREATED_AT_DESC (newest first) by default."}
	return &graphql.Field{
		Type:        graphql.NewNonNull(auditLogConnection),
		Description: "The audit log of the websites the key may read (the audit or admin scope), a page at a time.",
		Args:        args,
		Resolve: resolver(func(c *call, p graphql.ResolveParams) (any, error) {
			q, err := auditQuery(c.s.opt.Engine, c.who, p)
			if err != nil {
				return nil, err
			}
			page, err := c.s.opt.Live.AuditLogs(q)
			if err != nil {
				return nil, err
			}
			return auditConnection(page), nil
		}),
	}
}

// auditEdge and auditConnectionOut are the values of the connection's
// types; an edge's node is the store's entry, which AuditLog resolves
// (its json names are the spec's).
type auditEdge struct {
	Node   live.AuditEntry `json:"node"`
	Cursor string          `json:"cursor"`
}

type auditConnectionOut struct {
	Edges    []auditEdge `json:"edges"`
	PageInfo pageInfoOut `json:"pageInfo"`
}

// auditConnection is a page of the store's as the schema's values.
func auditConnection(page live.AuditPage) auditConnectionOut {
	out := auditConnectionOut{Edges: make([]auditEdge, len(page.Entries)), PageInfo: pageInfoOut{HasNextPage: page.HasNext}}
	for i, e := range page.Entries {
		out.Edges[i] = auditEdge{Node: e, Cursor: page.Cursors[i]}
	}
	if page.End != "" { // where the walk stopped: past its last entry when a page stops early
		out.PageInfo.EndCursor = &page.End
	}
	return out
}

// nullIfEmpty is s, or null for "".
func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// auditReach is what of the audit log p may read: every entry (all), a
// company's, or a website's; ok false for none.
func auditReach(p access.Principal) (website, company string, all, ok bool) {
	for _, k := range p.Keys() {
		if !k.Allows(access.ScopeAudit, k.Website, k.Company) {
			continue
		}
		switch {
		case k.Server():
			return "", "", true, true
		case k.Website != "":
			return k.Website, "", false, true
		default:
			return "", k.Company, false, true
		}
	}
	return "", "", false, false
}
