package engine

import (
	"math"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/internal/background"
	"github.com/aisle-search/aisle/ranking"
)

// popularityWeights and popularityWindow are the popularity factor of a
// search boost: views + 3 carts + 5 buys, short window, so the ranking
// follows what sells now.
var popularityWeights = behaviour.Weights{behaviour.Views: 1, behaviour.Carts: 3, behaviour.Buys: 5}

const popularityWindow = behaviour.Short

// staticMaxAge is how long the stock, sale and newness part of a boost
// vector is kept: newness moves by the day, stock and sale only with a
// new generation.
const staticMaxAge = time.Hour

// boostCache is one version's boost vector on one generation's products:
// B(doc) = Σ weight × factor (config.Boosts), indexed by doc id. It is
// rebuilt when the behaviour model's ranking changed (at most once per
// behaviour.Model.MaxStale while events arrive), the static part aged
// past staticMaxAge, or it was carried over from the generation before
// a write (seeded). Only a generation's very first vector is built on a
// search's time; later ones are rebuilt in the background while
// searches use the vector before.
type boostCache struct {
	mu  sync.Mutex // held while a vector is built
	cur atomic.Pointer[boostVector]
}

// boostVector is a built boost vector and what it was built from.
type boostVector struct {
	vec      []float32 // nil: no doc has a boost; may be shorter than the segment (docs added since: no boost)
	static   []float32 // the stock, sale and newness part; nil when none weighted
	staticAt time.Time
	ranking  rankingID
	seeded   bool // carried over from the generation before: rebuild
	// order is vec's docs by boost, sorted on a search's first need
	// (Generation.top); shared by a seeded copy, whose vec is the same.
	order *boostOrder
}

// boostOrder is a boost vector's ranking.BoostOrder, built once.
type boostOrder struct {
	once sync.Once
	bo   *ranking.BoostOrder
}

// boostOrder is the order of vec, v's boost vector as g.boost returned
// it, nil when vec is no longer v's current vector (rebuilt meanwhile).
func (g *Generation) boostOrder(v *version, vec []float32) *ranking.BoostOrder {
	c := g.boosts[v]
	if c == nil || len(vec) == 0 {
		return nil
	}
	cur := c.cur.Load()
	if cur == nil || cur.order == nil || len(cur.vec) != len(vec) || &cur.vec[0] != &vec[0] {
		return nil
	}
	cur.order.once.Do(func() { cur.order.bo = ranking.NewBoostOrder(vec, g.Products.Order()) })
	return cur.order.bo
}

// rankingID names one behaviour.Model.Ranked answer: the model shares it
// until the model recomputes, so its first element's address and length
// tell a new ranking from the one a vector was built on.
type rankingID struct {
	first *behaviour.Scored
	n     int
}

func idOf(list []behaviour.Scored) rankingID {
	if len(list) == 0 {
		return rankingID{}
	}
	return rankingID{unsafe.SliceData(list), len(list)}
}

// boost is version v's boost vector on g's products for a search as of
// now, with popularity from m (nil: none); nil when no doc is boosted,
// so a search without boosts scores as before.
func (g *Generation) boost(v *version, m *behaviour.Model, now time.Time) []float32 {
	b := &v.boosts
	if b.Popularity == 0 && b.InStock == 0 && b.OnSale == 0 && b.Newness == 0 {
		return nil
	}
	c := g.boosts[v]
	if c == nil { // a version compiled without caches (CheckWebsite)
		return nil
	}
	var list []behaviour.Scored
	if m != nil && b.Popularity > 0 {
		list = m.Ranked(popularityWeights, popularityWindow, now)
	}
	cur := c.cur.Load()
	staticNeeded := b.InStock > 0 || b.OnSale > 0 || b.Newness > 0
	staticFresh := func(bv *boostVector) bool {
		return !staticNeeded || bv.static != nil && now.Sub(bv.staticAt) < staticMaxAge && !now.Before(bv.staticAt)
	}
	current := func(bv *boostVector) bool { // built from this ranking, not carried over, static part fresh
		return bv != nil && !bv.seeded && bv.ranking == idOf(list) && staticFresh(bv)
	}
	if current(cur) {
		return cur.vec
	}
	build := func(prev *boostVector) *boostVector {
		next := &boostVector{ranking: idOf(list), order: &boostOrder{}}
		if staticNeeded {
			if prev != nil && !prev.seeded && staticFresh(prev) {
				next.static, next.staticAt = prev.static, prev.staticAt
			} else {
				next.static, next.staticAt = g.staticBoost(b, now), now
			}
		}
		next.vec = g.popularityBoost(b.Popularity, list, next.static)
		return next
	}
	work := len(list)
	if staticNeeded {
		work += g.Products.Slots()
	}
	if cur == nil || work < g.tune.syncBoostWork() { // the generation's first, or a small one: built now
		c.mu.Lock()
		defer c.mu.Unlock()
		if latest := c.cur.Load(); current(latest) {
			return latest.vec // built by another search meanwhile
		}
		cur = build(c.cur.Load())
		c.cur.Store(cur)
		return cur.vec
	}
	if c.mu.TryLock() { // else another rebuild is under way
		background.Go(func() {
			defer c.mu.Unlock()
			c.cur.Store(build(c.cur.Load()))
		})
	}
	return cur.vec
}

// boostSyncWork: a rebuild over fewer ranked products (and, with the
// static part, docs) than this, about a millisecond, is done on the
// search's time, so a small shop sees events at once; a larger one in
// the background.
const boostSyncWork = 20000

// seedBoosts carries old's boost vectors over to g, whose products are
// old's after a write that kept every doc id (doc writes leave holes and
// add docs at the end; column writes change values in place), as
// vectors to rebuild: a search uses them while the rebuild runs, docs
// added since having no boost.
func (g *Generation) seedBoosts(old *Generation) {
	for v, c := range old.boosts {
		if cur := c.cur.Load(); cur != nil && g.boosts[v] != nil {
			seeded := *cur
			seeded.seeded = true
			g.boosts[v].cur.Store(&seeded)
		}
	}
}

// popularityBoost is static plus weight times each doc's popularity
// factor, log1p(score)/log1p(top score), over the ranking list; static
// itself when no product of list is in the index, nil when static is nil
// too.
func (g *Generation) popularityBoost(weight float64, list []behaviour.Scored, static []float32) []float32 {
	seg := g.Products
	if len(list) == 0 || weight == 0 {
		return static
	}
	var vec []float32
	top := math.Log1p(list[0].Score)
	var fold []byte
	for _, s := range list {
		fold = analysis.Fold(fold[:0], s.ProductNumber)
		d, ok := seg.DocByKey(string(fold))
		if !ok {
			continue
		}
		if vec == nil {
			vec = make([]float32, seg.Slots())
			copy(vec, static)
		}
		vec[d] += float32(weight * math.Log1p(s.Score) / top)
	}
	if vec == nil {
		return static
	}
	return vec
}

// staticBoost is the stock, sale and newness part of b's boost by doc,
// as of now; nil when no doc has any.
func (g *Generation) staticBoost(b *config.Boosts, now time.Time) []float32 {
	seg := g.Products
	vec := make([]float32, seg.Slots())
	any := false
	if b.InStock > 0 {
		if docs := g.booleanDocs("inStock"); docs != nil {
			for it := docs.Iterator(); it.HasNext(); {
				vec[it.Next()] += float32(b.InStock)
				any = true
			}
		}
	}
	if b.OnSale > 0 {
		onSale := make([]bool, len(vec))
		if docs := g.booleanDocs("isOnSale"); docs != nil {
			for it := docs.Iterator(); it.HasNext(); {
				onSale[it.Next()] = true
			}
		}
		price, prev := seg.Numeric("price"), seg.Numeric("previousPrice")
		if price != nil && prev != nil && g.fields["price"].Type == config.TypeNumber && g.fields["previousPrice"].Type == config.TypeNumber {
			for d := range onSale {
				if p, ok := price.ValueAt(uint32(d)); ok {
					if pp, ok := prev.ValueAt(uint32(d)); ok && pp > p {
						onSale[d] = true
					}
				}
			}
		}
		for d, on := range onSale {
			if on {
				vec[d] += float32(b.OnSale)
				any = true
			}
		}
	}
	if created := seg.Numeric("created"); b.Newness > 0 && created != nil && g.fields["created"].Type == config.TypeDate {
		half := b.NewnessHalfLifeDays
		if half <= 0 {
			half = config.DefaultNewnessHalfLifeDays
		}
		halfSec := half * 24 * 3600
		nowSec := float64(now.Unix())
		for d := range vec {
			if at, ok := created.ValueAt(uint32(d)); ok {
				age := max(nowSec-at, 0)
				vec[d] += float32(b.Newness * math.Exp2(-age/halfSec))
				any = true
			}
		}
	}
	if !any {
		return nil
	}
	return vec
}

// booleanDocs is the docs whose indexed boolean field name is true; nil
// when the field is not an indexed boolean or no doc is true. Read only.
func (g *Generation) booleanDocs(name string) *roaring.Bitmap {
	if g.fields[name].Type != config.TypeBoolean {
		return nil
	}
	kf := g.Products.Keyword(name)
	if kf == nil {
		return nil
	}
	id, ok := kf.Lookup("true")
	if !ok {
		return nil
	}
	return kf.Bitmaps[id]
}
