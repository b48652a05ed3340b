package gql

import (
	"reflect"

	"github.com/graphql-go/graphql"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/gql/gqltype"
	"github.com/aisle-search/aisle/live"
)

// searchConfigs is the search configurations as a versioned resource.
var searchConfigs = versioned[config.SearchConfig, config.SearchVersion]{
	what:     "search configuration",
	list:     func(w *config.Website) *[]config.SearchConfig { return &w.Search },
	key:      func(r *config.SearchConfig) string { return r.Key },
	versions: func(r *config.SearchConfig) *[]config.SearchVersion { return &r.Versions },
	idStatus: func(v *config.SearchVersion) (*int, *string) { return &v.ID, &v.Status },
	make: func(key string, v config.SearchVersion) config.SearchConfig {
		return config.SearchConfig{Key: key, Versions: []config.SearchVersion{v}}
	},
	check: (*config.Website).CheckSearchVersion,
}

// pagesKind is the pages as a versioned resource.
var pagesKind = versioned[config.Page, config.PageVersion]{
	what:     "page",
	list:     func(w *config.Website) *[]config.Page { return &w.Pages },
	key:      func(r *config.Page) string { return r.Key },
	versions: func(r *config.Page) *[]config.PageVersion { return &r.Versions },
	idStatus: func(v *config.PageVersion) (*int, *string) { return &v.ID, &v.Status },
	make: func(key string, v config.PageVersion) config.Page {
		return config.Page{Key: key, Versions: []config.PageVersion{v}}
	},
	check: (*config.Website).CheckPageVersion,
}

// versionedFields adds the queries and mutations of a versioned
// resource: name is its GraphQL type's name ("SearchConfiguration",
// "Page"), which gains an id (its key, unique across the server).
func versionedFields[R, V any](reg *gqltype.Registry, k versioned[R, V], name string, q, m graphql.Fields) {
	reg.AddField(reflect.TypeFor[R](), "id", &graphql.Field{
		Type: graphql.NewNonNull(graphql.ID), Description: "The " + k.what + "'s id: its key.",
		Resolve: func(p graphql.ResolveParams) (any, error) {
			switch r := p.Source.(type) {
			case R:
				return k.key(&r), nil
			case *R:
				return k.key(r), nil
			}
			return nil, nil
		},
	})
	rType := reg.Output(reflect.TypeFor[R]())
	vType := reg.Output(reflect.TypeFor[V]())
	vInput := reg.Input(reflect.TypeFor[V]())
	keyArg := &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.String), Description: "The " + k.what + "'s key."}
	idArg := &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.Int), Description: "The version's id."}
	// findIn is the resource key of f and its website, after checking
	// the caller administers that website.
	findIn := func(c *call, f *config.File, key string) (*config.Website, *R, error) {
		w, r, err := k.locate(f, key)
		if err != nil {
			return nil, nil, err
		}
		if err := c.allow(access.ScopeAdmin, w.UUID); err != nil {
			return nil, nil, err
		}
		return w, r, nil
	}
	// edit runs change on the resource key in one configuration change
	// and answers what change returns.
	edit := func(c *call, w *live.Writer, key string, change func(site *config.Website, r *R) (any, error)) (any, error) {
		var out any
		_, err := w.UpdateConfig(func(f *config.File) error {
			site, r, err := findIn(c, f, key)
			if err != nil {
				return err
			}
			out, err = change(site, r)
			return err
		})
		return out, err
	}
	version := func(p graphql.ResolveParams, arg string) (V, error) {
		var v V
		err := reg.Decode(p.Args[arg], &v, arg)
		return v, err
	}

	q[lowerFirst(name)] = &graphql.Field{
		Type:        rType.(*graphql.NonNull).OfType,
		Description: "The " + k.what + " keyed key, with every version; null when there is none the key may read.",
		Args:        graphql.FieldConfigArgument{"key": keyArg},
		Resolve: resolver(func(c *call, p graphql.ResolveParams) (any, error) {
			key, _ := p.Args["key"].(string)
			for _, g := range c.s.opt.Engine.Websites() {
				if r, ok := k.in(g.Website, key); ok {
					if err := c.allow(access.ScopeAdmin, g.Website.UUID); err != nil {
						return nil, err
					}
					return *r, nil
				}
			}
			return nil, nil
		}),
	}
	m["create"+name] = &graphql.Field{
		Type:        rType,
		Description: "Adds a " + k.what + " to a website, its one version live as version 1.",
		Args: graphql.FieldConfigArgument{
			"websiteUuid": &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.ID), Description: "The website."},
			"key":         &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.String), Description: "Its key: unique across the server, as requests name it."},
			"version":     &graphql.ArgumentConfig{Type: graphql.NewNonNull(vInput), Description: "Its settings."},
		},
		Resolve: mutation("create"+name, func(c *call, w *live.Writer, p graphql.ResolveParams) (any, error) {
			uuid, _ := p.Args["websiteUuid"].(string)
			key, _ := p.Args["key"].(string)
			if err := c.allow(access.ScopeAdmin, uuid); err != nil {
				return nil, err
			}
			v, err := version(p, "version")
			if err != nil {
				return nil, err
			}
			var out R
			_, err = w.UpdateConfig(func(f *config.File) error {
				site, ok := f.Website(uuid)
				if !ok {
					return notServed(uuid)
				}
				if err := k.checkInput(site, &v, "version"); err != nil {
					return err
				}
				out = *k.create(site, key, v)
				return nil
			})
			return out, err
		}),
	}
	m["create"+name+"Draft"] = &graphql.Field{
		Type:        vType,
		Description: "Adds a draft version, with the id after the highest: the settings given, or a copy of fromVersion (the live version when neither is given).",
		Args: graphql.FieldConfigArgument{
			"key":         keyArg,
			"fromVersion": &graphql.ArgumentConfig{Type: graphql.Int, Description: "The version to copy when no settings are given; default the live one."},
			"version":     &graphql.ArgumentConfig{Type: vInput, Description: "The draft's settings."},
		},
		Resolve: mutation("create"+name+"Draft", func(c *call, w *live.Writer, p graphql.ResolveParams) (any, error) {
			key, _ := p.Args["key"].(string)
			var v *V
			if p.Args["version"] != nil {
				d, err := version(p, "version")
				if err != nil {
					return nil, err
				}
				v = &d
			}
			var from *int
			if n, ok := p.Args["fromVersion"].(int); ok {
				from = &n
			}
			return edit(c, w, key, func(site *config.Website, r *R) (any, error) {
				if v != nil {
					if err := k.checkInput(site, v, "version"); err != nil {
						return nil, err
					}
				}
				d, err := k.addDraft(r, v, from)
				if err != nil {
					return nil, err
				}
				return *d, nil
			})
		}),
	}
	m["update"+name+"Version"] = &graphql.Field{
		Type:        vType,
		Description: "Replaces the settings of a version, draft or live; its id and status stay.",
		Args:        graphql.FieldConfigArgument{"key": keyArg, "id": idArg, "version": &graphql.ArgumentConfig{Type: graphql.NewNonNull(vInput), Description: "The settings."}},
		Resolve: mutation("update"+name+"Version", func(c *call, w *live.Writer, p graphql.ResolveParams) (any, error) {
			key, _ := p.Args["key"].(string)
			id, _ := p.Args["id"].(int)
			v, err := version(p, "version")
			if err != nil {
				return nil, err
			}
			return edit(c, w, key, func(site *config.Website, r *R) (any, error) {
				if err := k.checkInput(site, &v, "version"); err != nil {
					return nil, err
				}
				u, err := k.update(r, id, v)
				if err != nil {
					return nil, err
				}
				return *u, nil
			})
		}),
	}
	m["publish"+name+"Version"] = &graphql.Field{
		Type:        vType,
		Description: "Makes a version live and the live one a draft, in one change; requests without an id get it at once.",
		Args:        graphql.FieldConfigArgument{"key": keyArg, "id": idArg},
		Resolve: mutation("publish"+name+"Version", func(c *call, w *live.Writer, p graphql.ResolveParams) (any, error) {
			key, _ := p.Args["key"].(string)
			id, _ := p.Args["id"].(int)
			return edit(c, w, key, func(_ *config.Website, r *R) (any, error) {
				v, err := k.publish(r, id)
				if err != nil {
					return nil, err
				}
				return *v, nil
			})
		}),
	}
	m["delete"+name+"Version"] = &graphql.Field{
		Type:        graphql.NewNonNull(graphql.Boolean),
		Description: "Deletes a draft version; the live one cannot be (publish another first).",
		Args:        graphql.FieldConfigArgument{"key": keyArg, "id": idArg},
		Resolve: mutation("delete"+name+"Version", func(c *call, w *live.Writer, p graphql.ResolveParams) (any, error) {
			key, _ := p.Args["key"].(string)
			id, _ := p.Args["id"].(int)
			_, err := edit(c, w, key, func(_ *config.Website, r *R) (any, error) { return nil, k.deleteVersion(r, id) })
			return err == nil, err
		}),
	}
	m["delete"+name] = &graphql.Field{
		Type:        graphql.NewNonNull(graphql.Boolean),
		Description: "Deletes the " + k.what + " with every version.",
		Args:        graphql.FieldConfigArgument{"key": keyArg},
		Resolve: mutation("delete"+name, func(c *call, w *live.Writer, p graphql.ResolveParams) (any, error) {
			key, _ := p.Args["key"].(string)
			_, err := edit(c, w, key, func(site *config.Website, _ *R) (any, error) { return nil, k.remove(site, key) })
			return err == nil, err
		}),
	}
}

// lowerFirst is s with its first letter lower-case.
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]|0x20) + s[1:]
}
