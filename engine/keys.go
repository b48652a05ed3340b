package engine

import (
	"github.com/aisle-search/aisle/access"
)

// searchScope is a configured apiKey's scope.
var searchScope = []access.Scope{access.ScopeSearch}

// SetKeys makes stored (the store's keys) and the operator's key the
// keys e accepts, beside the served websites' configured apiKeys. The
// write side calls it after each change of the keys.
func (e *Engine) SetKeys(stored []*access.Key) {
	var plain []*access.Key
	if e.cli != nil {
		plain = append(plain, e.cli)
	}
	e.keys.Store(access.NewRing(stored, plain...))
}

// Keys are the stored keys e accepts, oldest first; the slice is not to
// be changed.
func (e *Engine) Keys() []*access.Key { return e.keys.Load().Keys() }

// KeyCount is how many stored keys e accepts.
func (e *Engine) KeyCount() int { return e.keys.Load().Len() }

// Key is the stored key id, if e accepts it.
func (e *Engine) Key(id string) (*access.Key, bool) { return e.keys.Load().Key(id) }

// Principal is who presents secret: a stored key, the operator's, or
// the configured apiKeys it is; Unauthorized when none.
func (e *Engine) Principal(secret string) (access.Principal, error) {
	p, err := access.Authenticate(secret, e.keys.Load(), e.sites.Load().plain)
	if err != nil {
		if secret == "" {
			return access.Principal{}, Unauthorized("this call needs an API key: send Authorization: Bearer <key>")
		}
		return access.Principal{}, Unauthorized("the API key is not valid")
	}
	return p, nil
}

// Allow checks that p may do what scope covers on the website of g, or
// answers Forbidden.
func Allow(p access.Principal, scope access.Scope, g *Generation) error {
	if !p.Allows(scope, g.Website.UUID, g.Website.Company()) {
		return Forbidden("the API key %q may not use the %s scope on website %s", p.Name(), scope, g.Website.UUID)
	}
	return nil
}

// Authorize checks a request's API key against the website when the
// website requires one: a search key of it (a configured apiKey, or a
// stored key whose scope covers search on it).
func (e *Engine) Authorize(g *Generation, key string) error {
	if !g.Website.RequireAPIKey {
		return nil
	}
	if key == "" {
		return Unauthorized("this website requires an API key: send Authorization: Bearer <key>")
	}
	return e.AuthorizeKey(g, key)
}

// AuthorizeKey checks that key may search website g, whether or not the
// website requires a key: the server-to-server calls (a visitor looked
// up by email or customer id, an event that may move a link) need it.
// A key of no website is Unauthorized; a key of another website, or of
// a scope that does not cover search, Forbidden.
func (e *Engine) AuthorizeKey(g *Generation, key string) error {
	if key == "" {
		return Unauthorized("this call needs the website's API key: send Authorization: Bearer <key>")
	}
	p, err := e.Principal(key)
	if err != nil {
		return Unauthorized("the API key is not valid for this website")
	}
	return Allow(p, access.ScopeSearch, g)
}

// Admit authenticates secret and checks that it may do what scope
// covers on the website uuid, or, when uuid is "", on every website
// (the operator's key: the whole configuration). An unknown website is
// NotFound only to a key that could see it.
func (e *Engine) Admit(secret string, scope access.Scope, uuid string) (access.Principal, error) {
	if secret == "" {
		return access.Principal{}, Unauthorized("this call needs an API key of the %s scope: send Authorization: Bearer <key>", scope)
	}
	p, err := e.Principal(secret)
	if err != nil {
		return p, err
	}
	return p, e.Check(p, scope, uuid)
}

// Check is Admit for a principal already found: nil when p may do what
// scope covers on the website uuid, or on every website when uuid is "".
func (e *Engine) Check(p access.Principal, scope access.Scope, uuid string) error {
	if uuid == "" {
		if !p.Server() || !p.Allows(scope, "", "") {
			return Forbidden("the API key %q covers some websites, not the server: this call needs the operator's %s key", p.Name(), scope)
		}
		return nil
	}
	g, ok := e.Website(uuid)
	if !ok {
		if p.Server() {
			return NotFound("websiteUuid", "no website %q is served", uuid)
		}
		return Forbidden("the API key %q may not use website %s", p.Name(), uuid)
	}
	return Allow(p, scope, g)
}
