package engine

import (
	"crypto/rand"
	"maps"
	"sync"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/events"
)

// Behaviours holds each website's behaviour model (package behaviour),
// fed by the Collector as events are committed and, at a start, by
// Replay from the change log. A website's model is kept apart from its
// index generations: events never make a generation, and a model outlives
// the website's re-indexing.
type Behaviours struct {
	mu      sync.RWMutex
	models  map[string]*behaviour.Model // by website UUID
	catalog *Engine                     // resolves views of a page to its product; nil: none
	key     *events.IdentityKey         // seals emails and customer ids (UseSecret)
	budget  behaviour.Budget            // each model's (UseBudget)
}

// UseSecret makes the emails and customer ids of events, and of the
// visitors recommendations look up, hashed under secret (the data
// directory's, store.Secret), so links outlive a restart; call it before
// Replay. Without it they are hashed under a random key of this process.
func (b *Behaviours) UseSecret(secret []byte) { b.key = events.NewIdentityKey(secret) }

// Key is the key emails and customer ids are hashed under.
func (b *Behaviours) Key() *events.IdentityKey { return b.key }

// UseBudget makes each website's model keep at most b's visitors and
// links (behaviour.Budget; NewBehaviours' is behaviour.DefaultBudget);
// call it before Replay.
func (b *Behaviours) UseBudget(budget behaviour.Budget) { b.budget = budget }

// UseCatalog makes events count only for products eng serves, whether
// they are collected, replayed or imported (foldInto): views that name
// only a page's address count for the product of the website whose url
// it is; call it before Replay.
func (b *Behaviours) UseCatalog(eng *Engine) { b.catalog = eng }

// NewBehaviours holds no model yet.
func NewBehaviours() *Behaviours {
	secret := make([]byte, 32)
	rand.Read(secret) //nolint:errcheck // crypto/rand.Read does not fail
	return &Behaviours{models: map[string]*behaviour.Model{}, key: events.NewIdentityKey(secret), budget: behaviour.DefaultBudget}
}

// Model is website uuid's model, empty until an event of it is folded.
func (b *Behaviours) Model(uuid string) *behaviour.Model {
	b.mu.RLock()
	m := b.models[uuid]
	b.mu.RUnlock()
	if m != nil {
		return m
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if m = b.models[uuid]; m == nil {
		m = behaviour.NewBudget(b.budget)
		b.models[uuid] = m
	}
	return m
}

// Forget drops website uuid's model (a website no longer served): its
// next event starts an empty one. What the log holds of it stays.
func (b *Behaviours) Forget(uuid string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.models, uuid)
}

// Bytes is the room every website's model takes (behaviour.Size.Bytes),
// about the heap the behaviour holds.
func (b *Behaviours) Bytes() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	n := 0
	for _, m := range b.models {
		n += m.Size().Bytes
	}
	return n
}

// Held calls fn with each website's visitors and links held
// (behaviour.Model.Held), against each model's Budget.
func (b *Behaviours) Held(fn func(uuid string, visitors, links int)) {
	b.mu.RLock()
	models := maps.Clone(b.models)
	b.mu.RUnlock()
	for uuid, m := range models {
		visitors, links := m.Held()
		fn(uuid, visitors, links)
	}
}

// Fold adds e to its website's model.
func (b *Behaviours) Fold(e *events.Event) { b.foldInto(b.Model(e.Website), e) }

// foldInto adds e to m. With a catalog (UseCatalog) that serves e's
// website, e counts only for the products it holds (inCatalog), so a
// model keeps no number a visitor made up: its products are bounded by
// the catalog's. Without one, or for a website it does not serve (one
// that failed to open), e is folded as logged, within the model's
// maxProducts. e is not changed: the log keeps what the visitor sent.
// An event logged before the log sealed emails and customer ids is
// sealed here, as one that may relink them, as such events did.
func (b *Behaviours) foldInto(m *behaviour.Model, e *events.Event) {
	if b.catalog != nil {
		if g, ok := b.catalog.Website(e.Website); ok {
			e = g.inCatalog(e)
		}
	}
	if e.Email != "" || e.CustomerID != "" {
		sealed := *e
		b.key.Seal(&sealed, true)
		e = &sealed
	}
	m.Fold(e)
}

// inCatalog is e as it counts for g's catalog: a view, cart or purchase
// names the catalog's products under their stored numbers (compared
// folded, as product writes compare them; a variant's number is not its
// product's, as the recommendations that read the model look products
// up), and leaves out numbers it does not hold; a view that names no
// product the catalog holds counts for the product whose url its page
// is, if any; a click names the catalog's number, or none. Other kinds
// count for no product. A product deleted after its events were folded keeps its
// counts: it was real, and nothing answers it once deleted; a replay
// against the catalog of the day folds them no more. e itself when it
// needs no change, else a copy.
func (g *Generation) inCatalog(e *events.Event) *events.Event {
	switch e.Kind {
	case events.View:
		pn := ""
		if e.ProductNumber != "" {
			pn, _ = g.StoredNumber(e.ProductNumber)
		}
		if pn == "" && e.URL != "" {
			if d, ok := g.productByURL(e.URL); ok {
				pn = g.Products.Key(d)
			}
		}
		if pn == e.ProductNumber {
			return e
		}
		out := *e
		out.ProductNumber = pn
		return &out
	case events.Cart, events.Purchase:
		pns := e.Products()
		var kept []string // nil while every number is the catalog's, as given
		var lines []events.Line
		for i, pn := range pns {
			key, ok := g.StoredNumber(pn)
			if kept == nil && (!ok || key != pn) {
				kept = append(make([]string, 0, len(pns)), pns[:i]...)
				if len(e.Lines) > 0 {
					lines = append(make([]events.Line, 0, len(pns)), e.Lines[:i]...)
				}
			}
			if kept != nil && ok {
				kept = append(kept, key)
				if len(e.Lines) > 0 {
					l := e.Lines[i]
					l.ProductNumber = key
					lines = append(lines, l)
				}
			}
		}
		if kept == nil {
			return e
		}
		out := *e
		out.ProductNumbers, out.Lines = kept, lines
		if len(lines) > 0 {
			out.ProductNumbers = nil // Products reads the lines
		}
		return &out
	case events.Click:
		if e.ProductNumber == "" {
			return e
		}
		pn, _ := g.StoredNumber(e.ProductNumber)
		if pn == e.ProductNumber {
			return e
		}
		out := *e
		out.ProductNumber = pn // "" for a number the catalog lacks: the click counts for no product
		return &out
	}
	return e
}

// Budget is each model's budget (UseBudget).
func (b *Behaviours) Budget() behaviour.Budget { return b.budget }

// FoldInto adds e to m as Fold adds it to its website's model: what a
// replay does to a model before it serves it (Serve).
func (b *Behaviours) FoldInto(m *behaviour.Model, e *events.Event) { b.foldInto(m, e) }

// Serve makes m website uuid's model.
func (b *Behaviours) Serve(uuid string, m *behaviour.Model) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.models[uuid] = m
}

// Models is every website's model, by website.
func (b *Behaviours) Models() map[string]*behaviour.Model {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return maps.Clone(b.models)
}
