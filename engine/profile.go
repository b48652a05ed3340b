package engine

import (
	"cmp"
	"math"
	"slices"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/behaviour"
)

// profile is a visitor's affinities on one generation's products, made
// per request from the visitor's history in the behaviour model (at
// most behaviour.MaxHistory viewed and bought products and the cart),
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

// clusterSeeds is how many of the visitor's latest viewed (and bought)
// products seed the product cluster, and clusterSize how many neighbours
// of each kind it keeps.
const (
	clusterSeeds = 5
	clusterSize  = 24
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
	i, ok := slices.BinarySearchFunc(as, id, func(a affinity, id uint32) int { return cmp.Compare(a.id, id) })
	if !ok {
		return 0
	}
	return as[i].a
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
// weight, or a history of products g does not hold.
func (g *Generation) profileOf(m *behaviour.Model, user string, w *personalWeights) *profile {
	if m == nil || user == "" || !w.on() {
		return nil
	}
	v, ok := m.Visitor(user)
	if !ok {
		return nil
	}
	seg := g.Products
	p := &profile{}
	var priceSum, priceWeight float64
	var fold []byte
	found := false
	add := func(pns []string, weight float32) {
		for _, pn := range pns {
			fold = analysis.Fold(fold[:0], pn)
			doc, ok := seg.DocByKey(string(fold))
			if !ok {
				continue
			}
			found = true
			if w[piBudget] > 0 && g.personal.price != nil {
				if price, ok := g.personal.price.ValueAt(doc); ok && price > 0 {
					priceSum += float64(weight) * math.Log2(price)
					priceWeight += float64(weight)
				}
			}
			for f := piBrand; f < piFields; f++ {
				k := piKeyword(f)
				kf := g.personal.keyword[k]
				if w[f] == 0 || kf == nil {
					continue
				}
				vals := kf.DocValues(doc)
				deepest := uint8(1)
				if kf.Depth != nil {
					for _, id := range vals {
						deepest = max(deepest, kf.Depth[id])
					}
				}
				for _, id := range vals {
					a := weight
					if kf.Depth != nil {
						a *= float32(kf.Depth[id]) / float32(deepest)
					}
					p.values[k] = p.values[k].add(id, a)
				}
			}
		}
	}
	add(v.Viewed, viewedWeight)
	add(v.Cart, cartWeight)
	add(v.Bought, boughtWeight)
	if priceWeight > 0 {
		p.logPrice, p.hasPrice = priceSum/priceWeight, true
	}
	for k := range p.values {
		p.values[k] = p.values[k].normalize()
	}
	if w[piCluster] > 0 {
		p.cluster = g.cluster(m, &v)
		found = found || len(p.cluster) > 0
	}
	if !found {
		return nil
	}
	return p
}

// cluster is the product cluster of visitor v's history, by doc.
func (g *Generation) cluster(m *behaviour.Model, v *behaviour.Visitor) affinities {
	var out affinities
	var fold []byte
	viewed, bought := v.Viewed[:min(len(v.Viewed), clusterSeeds)], v.Bought[:min(len(v.Bought), clusterSeeds)]
	seeds := slices.Concat(v.Viewed, v.Bought, v.Cart)
	for _, list := range [][]behaviour.Scored{m.CoViewed(viewed...), m.CoBought(bought...)} {
		if len(list) == 0 || list[0].Score <= 0 {
			continue
		}
		top := list[0].Score
		for _, s := range list[:min(len(list), clusterSize)] {
			if slices.Contains(seeds, s.ProductNumber) {
				continue
			}
			fold = analysis.Fold(fold[:0], s.ProductNumber)
			if doc, ok := g.Products.DocByKey(string(fold)); ok {
				a := float32(s.Score / top)
				if i := slices.IndexFunc(out, func(x affinity) bool { return x.id == doc }); i >= 0 {
					out[i].a = max(out[i].a, a)
				} else {
					out = append(out, affinity{doc, a})
				}
			}
		}
	}
	return out.normalize()
}
