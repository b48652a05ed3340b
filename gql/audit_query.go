package gql

import (
	"slices"
	"time"

	"github.com/graphql-go/graphql"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/live"
)

// auditQuery is auditLogs' arguments as the store's query, narrowed to
// what p may read: a website key reads its website's entries, a company
// key its company's; a filter naming others (a website eng serves for
// another company) is FORBIDDEN.
func auditQuery(eng *engine.Engine, p access.Principal, rp graphql.ResolveParams) (live.AuditQuery, error) {
	var q live.AuditQuery
	website, company, all, ok := auditReach(p)
	if !ok {
		return q, engine.Forbidden("the API key %q may not read the audit log: it needs the audit or admin scope", p.Name())
	}
	n, err := first(rp)
	if err != nil {
		return q, err
	}
	q.First = n
	q.After, _ = rp.Args["after"].(string)
	q.Ascending = rp.Args["sort"] == sortOldest
	if f, ok := rp.Args["filter"].(map[string]any); ok {
		if q.Filter, err = auditFilter(f); err != nil {
			return q, err
		}
	}
	switch {
	case all:
	case website != "":
		if w := q.Filter.WebsiteUUID; w != nil && *w != website {
			return q, engine.Forbidden("the API key %q may read the audit log of website %s only", p.Name(), website)
		}
		q.Filter.WebsiteUUID = &website
	default:
		if c := q.Filter.CompanyID; c != nil && *c != company {
			return q, engine.Forbidden("the API key %q may read the audit log of company %s only", p.Name(), company)
		}
		if w := q.Filter.WebsiteUUID; w != nil {
			if g, ok := eng.Website(*w); ok && g.Website.Company() != company {
				return q, engine.Forbidden("the API key %q may read the audit log of company %s only", p.Name(), company)
			}
		}
		q.Filter.CompanyID = &company
	}
	return q, nil
}

// auditFilter reads AuditLogFilterInput: booleans as "true" or "false",
// a resource type by its name, instants as ISO 8601 with a zone.
func auditFilter(f map[string]any) (live.AuditFilter, error) {
	var out live.AuditFilter
	str := func(name string) *string {
		if s, ok := f[name].(string); ok {
			return &s
		}
		return nil
	}
	out.WebsiteUUID, out.CompanyID, out.SourceID, out.SequenceKey = str("websiteUuid"), str("companyId"), str("sourceId"), str("sequenceKey")
	for _, b := range []struct {
		name string
		dst  **bool
	}{{"keypoint", &out.Keypoint}, {"endpoint", &out.Endpoint}} {
		s := str(b.name)
		if s == nil {
			continue
		}
		switch *s {
		case "true", "false":
			v := *s == "true"
			*b.dst = &v
		default:
			return out, badInput("filter."+b.name, "must be \"true\" or \"false\", not "+quote(*s))
		}
	}
	if s := str("resourceType"); s != nil {
		if !slices.ContainsFunc(resourceTypes, func(r struct{ name, desc string }) bool { return r.name == *s }) {
			return out, badInput("filter.resourceType", quote(*s)+" is not an AuditResourceType")
		}
		out.ResourceType = s
	}
	for _, t := range []struct {
		name string
		dst  **time.Time
	}{{"createdAtBefore", &out.CreatedBefore}, {"createdAtAfter", &out.CreatedAfter}} {
		s := str(t.name)
		if s == nil {
			continue
		}
		v, err := time.Parse(time.RFC3339Nano, *s)
		if err != nil {
			return out, badInput("filter."+t.name, quote(*s)+" is not an ISO 8601 instant with its zone, as 2026-11-28T12:00:00Z")
		}
		*t.dst = &v
	}
	return out, nil
}
