package engine

import (
	"cmp"
	"math"
	"slices"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/index"
)

// profile is a visitor's affinities on one generation's products, made
// per request from the visitor's latest history in the behaviour model
// (profileHistory viewed and bought products and of the cart),
// so it follows every event at once and costs no memory between
// requests (docs/decisions.md, "Personalization"):
//
//   - budget zone: the mean of log2 of the prices of the history's
//     products; a product's affinity is 1 at that price, falling to 0
//     at half or double it;
//   - brand, category, colour, size: each value's share of the
//     history's weight on the field, the best value 1 (a category's
//     ancestors get depth/leaf depth of it, so a sibling category counts
//     for less than the category itself); a product's affinity is its
//     best value's;
//   - product cluster: the products viewed in one session with the
//     visitor's last viewed ones, or bought in one order with the last
//     bought ones (behaviour.Model.CoViewed, CoBought), by strength, the
//     strongest 1; the visitor's own products are not in it.
//
// A purchase weighs boughtWeight views, a product in the cart
// cartWeight.
type profile struct {
	logPrice float64
	hasPrice bool
	values   [piFields - piBrand]affinities // by keyword value id
	cluster  affinities                     // by doc id
}

// The weights of a visitor's history in a profile.
const (
	viewedWeight = 1
	cartWeight   = 2
	boughtWeight = 3
)

// profileHistory is how many of the visitor's latest viewed and bought
// products, and of the cart's, a profile reads; clusterSeeds how many of
// the latest viewed and bought seed the product cluster, and
// clusterSize how many products it keeps. A profile reads each
// product's columns at random places in memory: these bound its cost.
const (
	profileHistory = 8
	clusterSeeds   = 2
	clusterSize    = 16
)

// affinity is a value's (or a doc's) affinity.
type affinity struct {
	id uint32
	a  float32
}

// affinities are sorted by id.
type affinities []affinity

// of is id's affinity, 0 when it has none.
func (as affinities) of(id uint32) float32 {
	if len(as) <= 32 { // a profile's lists: a scan predicts better than a search
		for _, a := range as {
			if a.id >= id {
				if a.id == id {
					return a.a
				}
				return 0
			}
		}
		return 0
	}
	lo, hi := 0, len(as)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if as[m].id < id {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(as) && as[lo].id == id {
		return as[lo].a
	}
	return 0
}

// add adds a to id's affinity.
func (as affinities) add(id uint32, a float32) affinities {
	for i := range as {
		if as[i].id == id {
			as[i].a += a
			return as
		}
	}
	return append(as, affinity{id, a})
}

// normalize sorts as by id and scales them so the best is 1.
func (as affinities) normalize() affinities {
	var top float32
	for _, a := range as {
		top = max(top, a.a)
	}
	if top <= 0 {
		return nil
	}
	for i := range as {
		as[i].a /= top
	}
	slices.SortFunc(as, func(a, b affinity) int { return cmp.Compare(a.id, b.id) })
	return as
}

// profileOf is the profile of visitor user in m on g, for the fields w
// weighs; nil when there is none to apply: no model, no visitor, no
// weight, or a history of products g does not hold. Each field is read
// over all the history's docs in one loop, so the reads, at random
// places in memory, overlap.
func (g *Generation) profileOf(m *behaviour.Model, user string, w *personalWeights) *profile {
	if m == nil || user == "" || !w.on() {
		return nil
	}
	seeds := 0
	if w[piCluster] > 0 {
		seeds = clusterSeeds
	}
	t, ok := m.TasteOf(user, profileHistory, seeds, clusterSize)
	if !ok {
		return nil
	}
	var byID *productDocs
	if g.ranked != nil {
		byID = &g.ranked.byID
	}
	var docs [3 * profileHistory]uint32
	var weights [3 * profileHistory]float32
	n := 0
	for _, part := range []struct {
		ids    []uint32
		weight float32
	}{{t.Viewed, viewedWeight}, {t.Cart, cartWeight}, {t.Bought, boughtWeight}} {
		byID.eachID(g, m, part.ids, func(_ int, d uint32) {
			docs[n], weights[n] = d, part.weight
			n++
		})
	}
	p := &profile{}
	packed := g.personalDocs()
	var pds [3 * profileHistory]personalDoc
	for i, d := range docs[:n] {
		pds[i] = g.personalDocOf(packed, d)
	}
	if w[piBudget] > 0 && g.personal.price != nil {
		var sum, weight float64
		for i := range docs[:n] {
			if lp := float64(pds[i].logPrice); !math.IsNaN(lp) {
				sum += float64(weights[i]) * lp
				weight += float64(weights[i])
			}
		}
		if weight > 0 {
			p.logPrice, p.hasPrice = sum/weight, true
		}
	}
	for f := piBrand; f < piFields; f++ {
		k := piKeyword(f)
		kf := g.personal.keyword[k]
		if w[f] == 0 || kf == nil {
			continue
		}
		as := make(affinities, 0, 2*n)
		for i, d := range docs[:n] {
			eachValue(kf, d, pds[i].ends[k], func(id uint32, share float32) { as = as.add(id, weights[i]*share) })
		}
		p.values[k] = as.normalize()
	}
	if len(t.Related) > 0 && t.Related[0].Count > 0 {
		ids := make([]uint32, len(t.Related))
		for i, r := range t.Related {
			ids[i] = r.ID
		}
		top := t.Related[0].Count
		byID.eachID(g, m, ids, func(i int, doc uint32) {
			p.cluster = append(p.cluster, affinity{doc, float32(t.Related[i].Count / top)})
		})
		p.cluster = p.cluster.normalize()
	}
	if n == 0 && len(p.cluster) == 0 {
		return nil
	}
	return p
}

// eachValue calls fn with each value of doc in kf and its share: 1, or
// in a hierarchy, its depth over the depth of the doc's deepest value,
// so an ancestor counts for less than the category itself. end is the
// doc's chain column value (personalDoc.ends): a value and its
// ancestors, none, or index.Multi16 to read the doc's values.
func eachValue(kf *index.KeywordField, doc uint32, end uint16, fn func(id uint32, share float32)) {
	switch end {
	case index.NoValue16:
		return
	case index.Multi16:
	default:
		if kf.Parent == nil {
			fn(uint32(end), 1)
			return
		}
		deepest := float32(kf.Depth[end])
		for v := int32(end); v >= 0; v = kf.Parent[v] {
			fn(uint32(v), float32(kf.Depth[v])/deepest)
		}
		return
	}
	vals := kf.DocValues(doc)
	if kf.Depth == nil {
		for _, id := range vals {
			fn(id, 1)
		}
		return
	}
	deepest := uint8(1)
	for _, id := range vals {
		deepest = max(deepest, kf.Depth[id])
	}
	for _, id := range vals {
		fn(id, float32(kf.Depth[id])/float32(deepest))
	}
}
