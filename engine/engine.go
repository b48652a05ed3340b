package engine

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/behaviour"
)

// Engine serves every website of the configuration, each on its current
// generation, and swaps in a website's next generation atomically:
// in-flight requests finish on the one they started with. A search finds
// its website by its search configuration key (config.Validate keeps keys
// unique across the server); the admin API by the website's UUID.
type Engine struct {
	sites atomic.Pointer[siteTable]
	// keys are the stored keys and the operator's (SetKeys); the served
	// websites' configured apiKeys are their siteTable's.
	keys atomic.Pointer[access.Ring]
	cli  *access.Key      // --admin-key's, or nil
	bhv  *Behaviours      // popularity for search boosts; nil: none
	now  func() time.Time // UseClock's; nil: the wall clock
	// searches count the answered product queries by class.
	searches searchCounts
}

// siteTable is the set of served websites; it is never modified, only
// replaced whole (copy on write), so a reader needs no lock.
type siteTable struct {
	list   []*Generation          // configuration order
	byUUID map[string]*Generation // website UUID → generation
	byKey  map[string]*Generation // search configuration key → generation
	byBox  map[string]*Generation // recommendation box key → generation
	byPage map[string]*Generation // page key → generation
	// failed are the configuration's websites that could not be opened
	// and are not served (OpenEach).
	failed []WebsiteFailure
	// origins are every served website's allowedOrigins.
	origins map[string]bool
	// plain are the served websites' configured apiKeys: search keys of
	// their website.
	plain *access.Ring
	// since is, by website UUID, when its served state reached its
	// generation's Seq (ServedSince).
	since map[string]time.Time
}

// newSiteTable serves gens in place of prev's (nil: none); a website
// whose generation is at the log position prev served it at keeps its
// since, the others are stamped now.
func newSiteTable(prev *siteTable, gens []*Generation, failed []WebsiteFailure) *siteTable {
	t := &siteTable{list: gens, failed: failed, byUUID: map[string]*Generation{}, byKey: map[string]*Generation{}, byBox: map[string]*Generation{}, byPage: map[string]*Generation{},
		origins: map[string]bool{}, since: make(map[string]time.Time, len(gens))}
	now := time.Now()
	var plain []*access.Key
	for _, g := range gens {
		t.byUUID[g.Website.UUID] = g
		t.since[g.Website.UUID] = now
		if prev != nil {
			if p, ok := prev.byUUID[g.Website.UUID]; ok && p.Seq == g.Seq {
				t.since[g.Website.UUID] = prev.since[g.Website.UUID]
			}
		}
		for i, k := range g.Website.APIKeys {
			plain = append(plain, access.Plain(fmt.Sprintf("config-%s-%d", g.Website.UUID, i), fmt.Sprintf("%s apiKeys[%d]", g.Website.Name, i), k, searchScope, g.Website.UUID))
		}
		for _, o := range g.Website.AllowedOrigins {
			t.origins[o] = true
		}
		for k := range g.search {
			t.byKey[k] = g
		}
		for k := range g.boxes {
			t.byBox[k] = g
		}
		for k := range g.pages {
			t.byPage[k] = g
		}
	}
	t.plain = access.NewRing(nil, plain...)
	return t
}

// New serves the websites of gens, one generation each, in the
// configuration's order. adminKey, when set, is the operator's key (an
// admin key of every website, named "cli"); SetKeys adds the stored
// keys.
func New(adminKey string, gens ...*Generation) *Engine {
	e := &Engine{}
	if adminKey != "" {
		e.cli = access.Plain("cli", "cli", adminKey, []access.Scope{access.ScopeAdmin}, "")
	}
	e.SetKeys(nil)
	e.sites.Store(newSiteTable(nil, slices.Clone(gens), nil))
	return e
}

// Website is the current generation of the website uuid.
func (e *Engine) Website(uuid string) (*Generation, bool) {
	g, ok := e.sites.Load().byUUID[uuid]
	return g, ok
}

// Websites are the current generations of every served website, in the
// configuration's order.
func (e *Engine) Websites() []*Generation { return e.sites.Load().list }

// Warming are the UUIDs of the served websites whose impact lists are
// still being built in the background (Generation.Warming), in the
// configuration's order; nil when none is.
func (e *Engine) Warming() []string {
	var uuids []string
	for _, g := range e.Websites() {
		if g.Warming() {
			uuids = append(uuids, g.Website.UUID)
		}
	}
	return uuids
}

// ForKey is the current generation of the website whose search
// configuration is keyed key.
func (e *Engine) ForKey(key string) (*Generation, bool) {
	g, ok := e.sites.Load().byKey[key]
	return g, ok
}

// Swap makes g the current generation of its website (g.Website.UUID),
// serving it beside the others when it is new. Callers serialise swaps
// (the write side serialises them); readers never wait.
func (e *Engine) Swap(g *Generation) {
	old := e.sites.Load().list
	gens := make([]*Generation, 0, len(old)+1)
	found := false
	for _, o := range old {
		if o.Website.UUID == g.Website.UUID {
			o, found = g, true
		}
		gens = append(gens, o)
	}
	if !found {
		gens = append(gens, g)
	}
	cur := e.sites.Load()
	e.sites.Store(newSiteTable(cur, gens, slices.DeleteFunc(slices.Clone(cur.failed), func(f WebsiteFailure) bool { return f.UUID == g.Website.UUID })))
}

// Replace serves exactly the websites of gens, in this order: a new
// configuration's; failed are its websites that could not be opened.
func (e *Engine) Replace(gens []*Generation, failed []WebsiteFailure) {
	e.sites.Store(newSiteTable(e.sites.Load(), slices.Clone(gens), slices.Clone(failed)))
}

// CredentialedOrigin reports whether a served website lists origin (as
// a browser's Origin header gives it) in its allowedOrigins: pages there
// may call with the visitor's cookies and read the answers.
func (e *Engine) CredentialedOrigin(origin []byte) bool {
	return e.sites.Load().origins[string(origin)]
}

// ServedSince is when website uuid's served state reached its current
// generation's log position (Generation.Seq), by the wall clock: when
// the first generation at that position was swapped in (Swap, Replace,
// New). A generation that serves the same position anew (a saved index
// compacted in place of the one in memory) keeps the time; a write or a
// configuration change stamps its own.
func (e *Engine) ServedSince(uuid string) (time.Time, bool) {
	t, ok := e.sites.Load().since[uuid]
	return t, ok
}

// Failed are the configuration's websites that could not be opened and
// are not served, in the configuration's order.
func (e *Engine) Failed() []WebsiteFailure { return e.sites.Load().failed }

// Search checks the request, finds its website by key, authorises the
// API key for that website and answers on its current generation; ctx
// cancels its render (format html).
func (e *Engine) Search(ctx context.Context, req *SearchRequest, apiKey string) (*SearchResult, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	g, ok := e.ForKey(*req.Key)
	if !ok {
		return nil, NotFound("key", "no search configuration with key %q", *req.Key)
	}
	if err := e.Authorize(g, apiKey); err != nil {
		return nil, err
	}
	var m *behaviour.Model
	if e.bhv != nil {
		m = e.bhv.Model(g.Website.UUID)
	}
	res, err := g.answer(ctx, req, m, e.Now())
	if err == nil {
		e.searches.count(searchClass(req, res.wildcard))
	}
	return res, err
}

// UseClock makes now the time the engine answers as of (searches), and
// that its callers date pages, recommendations and events by (Now), in
// place of the wall clock; call it before serving. Tests pin time with
// it, so answers that decay with age do not change from day to day.
func (e *Engine) UseClock(now func() time.Time) { e.now = now }

// Now is the time answers are as of: the wall clock unless UseClock.
func (e *Engine) Now() time.Time {
	if e.now != nil {
		return e.now()
	}
	return time.Now()
}

// UseBehaviours makes searches boost by the popularity bhv holds
// (config.Boosts); call it before serving. Without it a search has no
// popularity, as Generation.Search.
func (e *Engine) UseBehaviours(bhv *Behaviours) { e.bhv = bhv }
