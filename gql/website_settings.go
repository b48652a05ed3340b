package gql

import (
	"reflect"
	"slices"

	"github.com/graphql-go/graphql"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/gql/gqltype"
	"github.com/aisle-search/aisle/live"
)

// websiteSettingsInput is a website's own settings, each member
// optional: updateWebsite changes the members given.
var websiteSettingsInput = graphql.NewInputObject(graphql.InputObjectConfig{
	Name:        "WebsiteSettingsInput",
	Description: "A website's own settings; a member left out keeps its value.",
	Fields: graphql.InputObjectConfigFieldMap{
		"name":           &graphql.InputObjectFieldConfig{Type: graphql.String, Description: "The website's name."},
		"language":       &graphql.InputObjectFieldConfig{Type: graphql.String, Description: "The stemming language of its catalog and queries: en, da, no, sv, de or none; \"\" for the server's. A change rebuilds its product index."},
		"requireApiKey":  &graphql.InputObjectFieldConfig{Type: graphql.Boolean, Description: "Whether /serve/search and /serve/pages need a search key of the website."},
		"allowedOrigins": &graphql.InputObjectFieldConfig{Type: graphql.NewList(graphql.NewNonNull(graphql.String)), Description: "The web origins whose pages may call with the visitor's cookies."},
	},
})

var createWebsiteInput = graphql.NewInputObject(graphql.InputObjectConfig{
	Name:        "CreateWebsiteInput",
	Description: "A website to add: it starts with no products, search configurations or pages.",
	Fields: graphql.InputObjectConfigFieldMap{
		"uuid":      &graphql.InputObjectFieldConfig{Type: graphql.ID, Description: "Its UUID (lowercase 8-4-4-4-12); a new one when left out."},
		"name":      &graphql.InputObjectFieldConfig{Type: graphql.NewNonNull(graphql.String), Description: "Its name."},
		"companyId": &graphql.InputObjectFieldConfig{Type: graphql.String, Description: "The company that owns it: the caller's, when its key is a company's."},
		"language":  &graphql.InputObjectFieldConfig{Type: graphql.String, Description: "The stemming language of its catalog and queries; the server's when left out."},
	},
})

// websiteSettingsFields adds the mutations of websites themselves:
// creating and deleting one (a company's or the operator's admin key),
// its own settings and its indexed fields (the website's admin key).
func websiteSettingsFields(reg *gqltype.Registry, websiteType *graphql.Object, m graphql.Fields) {
	uuidArg := &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.ID), Description: "The website's UUID."}
	m["createWebsite"] = &graphql.Field{
		Type:        graphql.NewNonNull(websiteType),
		Description: "Adds a website, served at once with no products; a company's admin key adds one to its company.",
		Args:        graphql.FieldConfigArgument{"input": &graphql.ArgumentConfig{Type: graphql.NewNonNull(createWebsiteInput), Description: "The website."}},
		Resolve: mutation("createWebsite", func(c *call, w *live.Writer, p graphql.ResolveParams) (any, error) {
			in, _ := p.Args["input"].(map[string]any)
			site := config.Website{IndexedFields: []config.IndexedField{}}
			site.UUID, _ = in["uuid"].(string)
			site.Name, _ = in["name"].(string)
			site.CompanyID, _ = in["companyId"].(string)
			site.Language, _ = in["language"].(string)
			if site.UUID == "" {
				site.UUID = config.NewUUID()
			}
			if !c.manages("", site.Company()) {
				return nil, engine.Forbidden("the API key %q may not add websites to company %s", c.who.Name(), site.Company())
			}
			_, err := w.UpdateConfig(func(f *config.File) error {
				if _, ok := f.Website(site.UUID); ok {
					return engine.Invalid("input.uuid", "website %s exists", site.UUID)
				}
				f.Websites = append(f.Websites, site)
				return nil
			})
			if err != nil {
				return nil, err
			}
			return served(c, site.UUID)
		}),
	}
	m["deleteWebsite"] = &graphql.Field{
		Type:        graphql.NewNonNull(graphql.Boolean),
		Description: "Stops serving a website and removes it from the configuration; its catalog stays stored, and adding it again under its UUID serves it again.",
		Args:        graphql.FieldConfigArgument{"uuid": uuidArg},
		Resolve: mutation("deleteWebsite", func(c *call, w *live.Writer, p graphql.ResolveParams) (any, error) {
			uuid, _ := p.Args["uuid"].(string)
			g, ok := c.s.opt.Engine.Website(uuid)
			if !ok {
				return nil, c.allow(access.ScopeAdmin, uuid)
			}
			if !c.manages("", g.Website.Company()) {
				return nil, engine.Forbidden("the API key %q may not delete websites of company %s", c.who.Name(), g.Website.Company())
			}
			_, err := w.UpdateConfig(func(f *config.File) error {
				i := slices.IndexFunc(f.Websites, func(x config.Website) bool { return x.UUID == uuid })
				if i < 0 {
					return notServed(uuid)
				}
				f.Websites = slices.Delete(f.Websites, i, i+1)
				return nil
			})
			return err == nil, err
		}),
	}
	m["updateWebsite"] = &graphql.Field{
		Type:        graphql.NewNonNull(websiteType),
		Description: "Changes a website's own settings: the members given.",
		Args:        graphql.FieldConfigArgument{"uuid": uuidArg, "input": &graphql.ArgumentConfig{Type: graphql.NewNonNull(websiteSettingsInput), Description: "The settings to change."}},
		Resolve: mutation("updateWebsite", func(c *call, w *live.Writer, p graphql.ResolveParams) (any, error) {
			uuid, _ := p.Args["uuid"].(string)
			if err := c.allow(access.ScopeAdmin, uuid); err != nil {
				return nil, err
			}
			in, _ := p.Args["input"].(map[string]any)
			_, err := w.UpdateConfig(func(f *config.File) error {
				site, ok := f.Website(uuid)
				if !ok {
					return notServed(uuid)
				}
				if v, ok := in["name"].(string); ok {
					site.Name = v
				}
				if v, ok := in["language"].(string); ok {
					site.Language = v
				}
				if v, ok := in["requireApiKey"].(bool); ok {
					site.RequireAPIKey = v
				}
				if v, ok := in["allowedOrigins"].([]any); ok {
					site.AllowedOrigins = site.AllowedOrigins[:0:0]
					for _, o := range v {
						s, _ := o.(string)
						site.AllowedOrigins = append(site.AllowedOrigins, s)
					}
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
			return served(c, uuid)
		}),
	}
	m["setIndexedFields"] = &graphql.Field{
		Type:        graphql.NewNonNull(websiteType),
		Description: "Replaces a website's indexed fields (what filters, facets and sorting may name); its product index is rebuilt.",
		Args: graphql.FieldConfigArgument{"uuid": uuidArg,
			"fields": &graphql.ArgumentConfig{Type: graphql.NewNonNull(reg.Input(reflect.TypeFor[[]config.IndexedField]())), Description: "Every indexed field."}},
		Resolve: mutation("setIndexedFields", func(c *call, w *live.Writer, p graphql.ResolveParams) (any, error) {
			uuid, _ := p.Args["uuid"].(string)
			if err := c.allow(access.ScopeAdmin, uuid); err != nil {
				return nil, err
			}
			var fields []config.IndexedField
			if err := reg.Decode(p.Args["fields"], &fields, "fields"); err != nil {
				return nil, err
			}
			_, err := w.UpdateConfig(func(f *config.File) error {
				site, ok := f.Website(uuid)
				if !ok {
					return notServed(uuid)
				}
				site.IndexedFields = fields
				return nil
			})
			if err != nil {
				return nil, err
			}
			return served(c, uuid)
		}),
	}
}

// served is the served website uuid's configuration, after a change.
func served(c *call, uuid string) (*config.Website, error) {
	g, ok := c.s.opt.Engine.Website(uuid)
	if !ok {
		return nil, notServed(uuid)
	}
	return g.Website, nil
}
