package gql

import (
	"encoding/base64"
	"encoding/binary"
	"time"

	"github.com/graphql-go/graphql"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/live"
)

// API keys in the schema: apiKeys lists them without their secrets,
// createApiKey shows a new one's secret once, revokeApiKey ends one.

var apiKeyScope = graphql.NewEnum(graphql.EnumConfig{
	Name:        "ApiKeyScope",
	Description: "What an API key may do on its websites.",
	Values: graphql.EnumValueConfigMap{
		"ADMIN":     &graphql.EnumValueConfig{Value: access.ScopeAdmin, Description: "Everything: the admin API and schema, keys, and what the other scopes cover."},
		"SEARCH":    &graphql.EnumValueConfig{Value: access.ScopeSearch, Description: "The /serve endpoints, and their server-to-server lookups by email or customer id."},
		"AUDIT":     &graphql.EnumValueConfig{Value: access.ScopeAudit, Description: "Reading the audit log."},
		"ANALYTICS": &graphql.EnumValueConfig{Value: access.ScopeAnalytics, Description: "Reading analytics."},
	},
})

var apiKeyType = graphql.NewObject(graphql.ObjectConfig{
	Name:        "ApiKey",
	Description: "An API key, without its secret (which is shown once, by createApiKey).",
	Fields: graphql.Fields{
		"id":     &graphql.Field{Type: graphql.NewNonNull(graphql.ID), Description: "The key's id: the part of its secret after aisle_, before the second _."},
		"name":   &graphql.Field{Type: graphql.NewNonNull(graphql.String), Description: "The key's name, as the audit log records who acted."},
		"scopes": &graphql.Field{Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(apiKeyScope))), Description: "What the key may do."},
		"websiteUuid": &graphql.Field{Type: graphql.String, Description: "The one website the key covers; null for a company's or the server's key.",
			Resolve: func(p graphql.ResolveParams) (any, error) { return nullIfEmpty(p.Source.(*access.Key).Website), nil }},
		"companyId": &graphql.Field{Type: graphql.String, Description: "The company whose websites the key covers; null for a website's or the server's key.",
			Resolve: func(p graphql.ResolveParams) (any, error) { return nullIfEmpty(p.Source.(*access.Key).Company), nil }},
		"createdAt": &graphql.Field{Type: graphql.NewNonNull(dateTime), Description: "When the key was made."},
	},
})

var createdAPIKey = graphql.NewObject(graphql.ObjectConfig{
	Name:        "CreatedApiKey",
	Description: "A key just made, with its secret: shown this once and kept by Aisle only as a digest.",
	Fields: graphql.Fields{
		"key":    &graphql.Field{Type: graphql.NewNonNull(apiKeyType), Description: "The key."},
		"secret": &graphql.Field{Type: graphql.NewNonNull(graphql.String), Description: "The key's secret: send it as ?apiKey= or Authorization: Bearer. It cannot be shown again."},
	},
})

var createAPIKeyInput = graphql.NewInputObject(graphql.InputObjectConfig{
	Name:        "CreateApiKeyInput",
	Description: "A key to make: give websiteUuid or companyId, or neither for a key of every website (only the operator's key may make one).",
	Fields: graphql.InputObjectConfigFieldMap{
		"name":        &graphql.InputObjectFieldConfig{Type: graphql.NewNonNull(graphql.String), Description: "A name for people and the audit log: at most 100 characters."},
		"scopes":      &graphql.InputObjectFieldConfig{Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(apiKeyScope))), Description: "What the key may do."},
		"websiteUuid": &graphql.InputObjectFieldConfig{Type: graphql.String, Description: "The one website it covers."},
		"companyId":   &graphql.InputObjectFieldConfig{Type: graphql.String, Description: "The company whose websites it covers."},
	},
})

// keyFields adds the keys' query and mutations.
func keyFields(q, m graphql.Fields) {
	args := pageArgs("keys")
	q["apiKeys"] = &graphql.Field{
		Type:        graphql.NewNonNull(apiKeyConnection),
		Description: "The stored keys the caller's admin key covers, oldest first, a page at a time: a website's admin key lists that website's keys, a company's its company's and its websites', the operator's all.",
		Args:        args,
		Resolve: resolver(func(c *call, p graphql.ResolveParams) (any, error) {
			if !c.admin() {
				return nil, engine.Forbidden("the API key %q may not list keys: it needs the admin scope", c.who.Name())
			}
			n, err := first(p)
			if err != nil {
				return nil, err
			}
			after, _ := p.Args["after"].(string)
			var mine []*access.Key
			for _, k := range c.s.opt.Engine.Keys() {
				if c.manages(k.Website, k.Company) {
					mine = append(mine, k)
				}
			}
			return keyPage(mine, n, after)
		}),
	}
	m["createApiKey"] = &graphql.Field{
		Type:        graphql.NewNonNull(createdAPIKey),
		Description: "Makes an API key and shows its secret once. A key may make keys only within what it covers itself, and needs the admin scope there.",
		Args:        graphql.FieldConfigArgument{"input": &graphql.ArgumentConfig{Type: graphql.NewNonNull(createAPIKeyInput), Description: "The key to make."}},
		Resolve: mutation("createApiKey", func(c *call, w *live.Writer, p graphql.ResolveParams) (any, error) {
			in, _ := p.Args["input"].(map[string]any)
			s := access.Spec{}
			s.Name, _ = in["name"].(string)
			s.Website, _ = in["websiteUuid"].(string)
			s.Company, _ = in["companyId"].(string)
			for _, sc := range asList(in["scopes"]) {
				if v, ok := sc.(access.Scope); ok {
					s.Scopes = append(s.Scopes, v)
				}
			}
			if !c.manages(s.Website, s.Company) {
				return nil, engine.Forbidden("the API key %q may not make a key beyond the websites it administers", c.who.Name())
			}
			k, secret, _, err := w.CreateKey(s)
			if err != nil {
				return nil, err
			}
			return map[string]any{"key": k, "secret": secret}, nil
		}),
	}
	m["revokeApiKey"] = &graphql.Field{
		Type:        graphql.NewNonNull(apiKeyType),
		Description: "Revokes an API key at once; the audit log keeps its history.",
		Args:        graphql.FieldConfigArgument{"id": &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.ID), Description: "The key's id."}},
		Resolve: mutation("revokeApiKey", func(c *call, w *live.Writer, p graphql.ResolveParams) (any, error) {
			id, _ := p.Args["id"].(string)
			k, ok := c.s.opt.Engine.Key(id)
			switch {
			case !c.admin():
				return nil, engine.Forbidden("the API key %q may not revoke keys: it needs the admin scope", c.who.Name())
			case !ok:
				return nil, engine.NotFound("id", "no API key %q", id)
			case !c.manages(k.Website, k.Company):
				return nil, engine.Forbidden("the API key %q may not revoke a key beyond the websites it administers", c.who.Name())
			}
			k, _, err := w.RevokeKey(id)
			if err != nil {
				return nil, err
			}
			return k, nil
		}),
	}
}

var apiKeyConnection = connection("ApiKey", apiKeyType, "key", "keys", graphql.Fields{
	"totalCount": &graphql.Field{Type: graphql.NewNonNull(graphql.Int), Description: "How many keys the caller may list in all."},
})

type apiKeyEdgeOut struct {
	Node   *access.Key `json:"node"` // ApiKey resolves the key itself (its json names are the schema's)
	Cursor string      `json:"cursor"`
}

type apiKeyConnectionOut struct {
	Edges      []apiKeyEdgeOut `json:"edges"`
	PageInfo   pageInfoOut     `json:"pageInfo"`
	TotalCount int             `json:"totalCount"`
}

// keyPage is the page of keys (oldest first) after the key whose
// cursor is after, n long. A cursor is the key's id, which stays valid
// while keys are made (they come last) and names its place even once
// the key is revoked (keys are ordered by creation, then id).
func keyPage(keys []*access.Key, n int, after string) (apiKeyConnectionOut, error) {
	start := 0
	if after != "" {
		raw, err := base64.RawURLEncoding.DecodeString(after)
		if err != nil || len(raw) < 9 {
			return apiKeyConnectionOut{}, badInput("after", "is not a cursor of apiKeys")
		}
		at := time.Unix(0, int64(binary.BigEndian.Uint64(raw[:8])))
		id := string(raw[8:])
		start = len(keys)
		for i, k := range keys {
			if c := k.Created.Compare(at); c > 0 || c == 0 && k.ID > id {
				start = i
				break
			}
		}
	}
	out := apiKeyConnectionOut{Edges: []apiKeyEdgeOut{}, TotalCount: len(keys)}
	for _, k := range keys[start:min(start+n, len(keys))] {
		out.Edges = append(out.Edges, apiKeyEdgeOut{Node: k, Cursor: keyCursor(k)})
	}
	out.PageInfo.HasNextPage = start+n < len(keys)
	if len(out.Edges) > 0 {
		out.PageInfo.EndCursor = &out.Edges[len(out.Edges)-1].Cursor
	}
	return out, nil
}

// keyCursor is k's place among the keys: its creation and id.
func keyCursor(k *access.Key) string {
	b := binary.BigEndian.AppendUint64(nil, uint64(k.Created.UnixNano()))
	return base64.RawURLEncoding.EncodeToString(append(b, k.ID...))
}

// asList is a list argument's values.
func asList(v any) []any {
	l, _ := v.([]any)
	return l
}
