package gql

import (
	"reflect"

	"github.com/graphql-go/graphql"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/gql/gqltype"
	"github.com/aisle-search/aisle/live"
)

// keyed is a kind of resource a website holds without versions
// (recommendation boxes, campaigns): where its list is and its key.
type keyed[R any] struct {
	what string // "recommendation box", "campaign"
	list func(w *config.Website) *[]R
	key  func(r *R) string
	// check checks a resource's own members, naming a member relative
	// to it.
	check func(r *R) error
}

// upsert replaces the resource of w keyed as r is, or adds r.
func (k keyed[R]) upsert(w *config.Website, r R) {
	list := k.list(w)
	for i := range *list {
		if k.key(&(*list)[i]) == k.key(&r) {
			(*list)[i] = r
			return
		}
	}
	*list = append(*list, r)
}

// remove deletes the resource key of w.
func (k keyed[R]) remove(w *config.Website, key string) error {
	list := k.list(w)
	for i := range *list {
		if k.key(&(*list)[i]) == key {
			*list = append((*list)[:i:i], (*list)[i+1:]...)
			return nil
		}
	}
	return engine.NotFound("key", "website %s has no %s %q", w.UUID, k.what, key)
}

var boxesKind = keyed[config.Box]{
	what:  "recommendation box",
	list:  func(w *config.Website) *[]config.Box { return &w.Boxes },
	key:   func(r *config.Box) string { return r.Key },
	check: (*config.Box).Check,
}

var campaignsKind = keyed[config.Campaign]{
	what:  "campaign",
	list:  func(w *config.Website) *[]config.Campaign { return &w.Campaigns },
	key:   func(r *config.Campaign) string { return r.ID },
	check: (*config.Campaign).Check,
}

// keyedFields adds a keyed resource's mutations: upsert<name> and
// delete<name>, each on a website the caller administers.
func keyedFields[R any](reg *gqltype.Registry, k keyed[R], name, arg string, m graphql.Fields) {
	uuidArg := &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.ID), Description: "The website."}
	m["upsert"+name] = &graphql.Field{
		Type:        reg.Output(reflect.TypeFor[R]()),
		Description: "Adds a " + k.what + " to a website, or replaces the one with its key.",
		Args: graphql.FieldConfigArgument{"websiteUuid": uuidArg,
			arg: &graphql.ArgumentConfig{Type: graphql.NewNonNull(reg.Input(reflect.TypeFor[R]())), Description: "The " + k.what + "."}},
		Resolve: mutation("upsert"+name, func(c *call, w *live.Writer, p graphql.ResolveParams) (any, error) {
			uuid, _ := p.Args["websiteUuid"].(string)
			if err := c.allow(access.ScopeAdmin, uuid); err != nil {
				return nil, err
			}
			var r R
			if err := reg.Decode(p.Args[arg], &r, arg); err != nil {
				return nil, err
			}
			if err := k.check(&r); err != nil {
				return nil, engine.Invalid("", "%s.%v; nothing changed", arg, err)
			}
			_, err := w.UpdateConfig(func(f *config.File) error {
				site, ok := f.Website(uuid)
				if !ok {
					return notServed(uuid)
				}
				k.upsert(site, r)
				return nil
			})
			return r, err
		}),
	}
	m["delete"+name] = &graphql.Field{
		Type:        graphql.NewNonNull(graphql.Boolean),
		Description: "Deletes a " + k.what + " of a website.",
		Args: graphql.FieldConfigArgument{"websiteUuid": uuidArg,
			"key": &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.String), Description: "Its key (a campaign's id)."}},
		Resolve: mutation("delete"+name, func(c *call, w *live.Writer, p graphql.ResolveParams) (any, error) {
			uuid, _ := p.Args["websiteUuid"].(string)
			key, _ := p.Args["key"].(string)
			if err := c.allow(access.ScopeAdmin, uuid); err != nil {
				return nil, err
			}
			_, err := w.UpdateConfig(func(f *config.File) error {
				site, ok := f.Website(uuid)
				if !ok {
					return notServed(uuid)
				}
				return k.remove(site, key)
			})
			return err == nil, err
		}),
	}
}
