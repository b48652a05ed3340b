package gql

import (
	"github.com/graphql-go/graphql"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/live"
)

// allow checks that the caller may do what scope covers on the website
// uuid ("" for the server: the operator's key), or is the error to
// answer: FORBIDDEN, or NOT_FOUND for an unknown website to a key that
// could see it.
func (c *call) allow(scope access.Scope, uuid string) error {
	return c.s.opt.Engine.Check(c.who, scope, uuid)
}

// admin reports whether the caller has the admin scope anywhere.
func (c *call) admin() bool {
	for _, k := range c.who.Keys() {
		if k.Allows(access.ScopeAdmin, k.Website, k.Company) {
			return true
		}
	}
	return false
}

// manages reports whether the caller administers the reach of a key of
// website (or company, or, with neither, the server): an admin key of
// the server manages every key, a company's the keys of the company and
// of its websites, a website's the keys of that website.
func (c *call) manages(website, company string) bool {
	if website != "" {
		if g, ok := c.s.opt.Engine.Website(website); ok {
			return c.who.Allows(access.ScopeAdmin, website, g.Website.Company())
		}
		return c.who.Server() && c.who.Allows(access.ScopeAdmin, "", "")
	}
	for _, k := range c.who.Keys() {
		if !k.Allows(access.ScopeAdmin, k.Website, k.Company) {
			continue
		}
		if k.Server() || company != "" && k.Company == company {
			return true
		}
	}
	return false
}

// writer is the write side acting as the caller, its change recorded
// as made by the caller's key in the request's session, with the
// request's mutations so far.
func (c *call) writer() *live.Writer {
	return c.s.opt.Live.As(live.Actor{Name: c.who.Name(), Session: c.session, Events: append([]string(nil), c.events...)})
}

// mutation is resolver for a mutation named name: the name joins the
// request's session events before fn runs with the writer acting as the
// caller.
func mutation(name string, fn func(c *call, w *live.Writer, p graphql.ResolveParams) (any, error)) graphql.FieldResolveFn {
	return resolver(func(c *call, p graphql.ResolveParams) (any, error) {
		c.events = append(c.events, name)
		return fn(c, c.writer(), p)
	})
}
