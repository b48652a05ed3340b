package engine

import (
	"crypto/subtle"
	"sync/atomic"
)

// Engine serves requests on the current generation and swaps in the next
// one atomically: in-flight requests finish on the one they started with.
type Engine struct {
	gen      atomic.Pointer[Generation]
	adminKey string
}

// New serves g. adminKey, when set, is accepted wherever an API key is.
func New(g *Generation, adminKey string) *Engine {
	e := &Engine{adminKey: adminKey}
	e.gen.Store(g)
	return e
}

// Current is the generation new requests see.
func (e *Engine) Current() *Generation { return e.gen.Load() }

// Swap makes g the current generation.
func (e *Engine) Swap(g *Generation) { e.gen.Store(g) }

// Authorize checks a request's API key against the website's keys when the
// website requires one.
func (e *Engine) Authorize(g *Generation, key string) error {
	if !g.Website.RequireAPIKey {
		return nil
	}
	if key == "" {
		return Unauthorized("this website requires an API key: send Authorization: Bearer <key>")
	}
	if e.adminKey != "" && subtle.ConstantTimeCompare([]byte(key), []byte(e.adminKey)) == 1 {
		return nil
	}
	for _, k := range g.Website.APIKeys {
		if subtle.ConstantTimeCompare([]byte(key), []byte(k)) == 1 {
			return nil
		}
	}
	return Unauthorized("the API key is not valid for this website")
}

// AuthorizeAdmin checks the admin key, which alone may write.
func (e *Engine) AuthorizeAdmin(key string) error {
	switch {
	case key == "":
		return Unauthorized("the admin API needs the admin key: send Authorization: Bearer <admin key>")
	case e.adminKey == "" || subtle.ConstantTimeCompare([]byte(key), []byte(e.adminKey)) != 1:
		return Unauthorized("the key is not the admin key")
	}
	return nil
}

// Search authorises and answers a search on the current generation.
func (e *Engine) Search(req *SearchRequest, apiKey string) (*SearchResult, error) {
	g := e.Current()
	if err := e.Authorize(g, apiKey); err != nil {
		return nil, err
	}
	return g.Search(req)
}
