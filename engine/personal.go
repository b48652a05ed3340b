package engine

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/ranking"
)

// The personalization fields by position in config.PersonalizationNames
// and in personalWeights.
const (
	piBudget = iota
	piCluster
	piBrand
	piCategory
	piColor
	piSize
	piFields
)

// piKeyword is the keyword field's index in profile.values of the
// personalization fields that read one: brand, category, colour, size.
func piKeyword(f int) int { return f - piBrand }

// personalWeights are a search configuration's personalization, each
// field's weight (BoostValue × config.PersonalWeightPerPoint; 0: off).
type personalWeights [piFields]float32

// on reports whether any field is weighted.
func (w *personalWeights) on() bool { return *w != personalWeights{} }

// weightsOf compiles a checked personalization.
func weightsOf(fields []config.PersonalizationField) personalWeights {
	var w personalWeights
	for _, f := range fields {
		if i := slices.Index(config.PersonalizationNames, f.Field); i >= 0 {
			w[i] = float32(f.BoostValue) * config.PersonalWeightPerPoint
		}
	}
	return w
}

// PersonalDepth is how many of a search's or a page's best products a
// visitor's personalization reorders: the pages a shopper reads, and a
// bounded cost per request.
const PersonalDepth = 20

// The indexed fields the keyword affinities read, the first indexed
// with a keyword (or, for categories, hierarchy) type.
var personalFieldNames = [piFields][]string{
	piBudget:   {"price"},
	piBrand:    {"brand"},
	piCategory: {"hierarchies"},
	piColor:    {"extraData.color", "extraData.colour", "extraDataList.color", "extraDataList.colour"},
	piSize:     {"extraData.size", "extraDataList.size", "extraDataList.sizes"},
}

// personalFields resolves, once per generation, the indexed field each
// personalization field reads (nil: the website's data does not support
// it) and which fields are allowed.
type personalFields struct {
	price   *index.NumericField
	keyword [piFields - piBrand]*index.KeywordField
	allowed [piFields]bool
}

func (g *Generation) resolvePersonalFields() personalFields {
	var pf personalFields
	seg := g.Products
	if f, ok := g.fields["price"]; ok && f.Type == config.TypeNumber {
		pf.price = seg.Numeric("price")
	}
	pf.allowed[piBudget] = pf.price != nil
	pf.allowed[piCluster] = true // events give every website co-viewed and co-bought products
	for f := piBrand; f < piFields; f++ {
		for _, name := range personalFieldNames[f] {
			want := config.TypeKeyword
			if f == piCategory {
				want = config.TypeHierarchy
			}
			if fd, ok := g.fields[name]; !ok || fd.Type != want {
				continue
			}
			if kf := seg.Keyword(name); kf != nil && len(kf.Values) > 0 {
				pf.keyword[piKeyword(f)] = kf
				pf.allowed[f] = true
				break
			}
		}
	}
	return pf
}

// AllowedPersonalization is the personalization fields the website's
// data supports, in config.PersonalizationNames' order
// (docs/decisions.md, "Personalization"): budgetZone with an indexed
// number price, productCluster always, brandAffinity, categoryAffinity,
// colorAffinity and sizeAffinity when an indexed brand, hierarchies,
// colour or size field holds a value.
func (g *Generation) AllowedPersonalization() []string {
	out := make([]string, 0, piFields)
	for f, ok := range g.personal.allowed {
		if ok {
			out = append(out, config.PersonalizationNames[f])
		}
	}
	return out
}

// personalRerank is the rerank that lifts the first PersonalDepth hits
// by visitor user's profile in m (as of now, made on the rerank's call
// or kept from one of the last profileMaxAge)
// under weights w: a text match's score s becomes s × (1 + P),
// P = Σ w × affinity (ranking.Personalize keeps relaxed tiers); a
// listing's, its boost or 0, becomes (1 + s)(1 + P) − 1. Nil when there
// is no visitor or nothing is weighted.
func (g *Generation) personalRerank(m *behaviour.Model, user string, w *personalWeights, now time.Time, wildcard, relaxed bool) func([]ranking.Hit) {
	if m == nil || user == "" || !w.on() {
		return nil
	}
	return func(hits []ranking.Hit) {
		if len(hits) < 2 {
			return
		}
		p := g.profile(m, user, w, now)
		if p == nil {
			return
		}
		hits = hits[:min(len(hits), PersonalDepth)]
		var factors [PersonalDepth]float32
		g.personalFactors(p, w, hits, factors[:len(hits)])
		changed := false
		for i, f := range factors[:len(hits)] {
			if f == 0 {
				continue
			}
			changed = true
			if wildcard {
				hits[i].Score = (1+hits[i].Score)*(1+f) - 1
			} else {
				hits[i].Score = ranking.Personalize(hits[i].Score, f, relaxed)
			}
		}
		if changed {
			slices.SortStableFunc(hits, func(a, b ranking.Hit) int { return cmp.Compare(b.Score, a.Score) })
		}
	}
}

// reranks is the rerank doing each of fs that is not nil in turn, and
// the depth it reads: nil and 0 when none is.
func reranks(fs ...rerankAt) (func([]ranking.Hit), int) {
	var do []func([]ranking.Hit)
	depth := 0
	for _, f := range fs {
		if f.fn != nil {
			do = append(do, f.fn)
			depth = max(depth, f.depth)
		}
	}
	switch len(do) {
	case 0:
		return nil, 0
	case 1:
		return do[0], depth
	}
	return func(hits []ranking.Hit) {
		for _, f := range do {
			f(hits)
		}
	}, depth
}

// rerankAt is a rerank and how many of the best hits it reads.
type rerankAt struct {
	fn    func([]ranking.Hit)
	depth int
}

// personalFactor is P of doc: Σ w[f] × the doc's affinity on f, each
// affinity between 0 and 1.
func (g *Generation) personalFactor(p *profile, w *personalWeights, doc uint32) float32 {
	var f [1]float32
	g.personalFactors(p, w, []ranking.Hit{{Doc: doc}}, f[:])
	return f[0]
}

// personalFactors sets out[i] to P of hits[i]'s doc (at most
// PersonalDepth hits): each hit's personalDoc gathered first, in a loop
// of loads alone, so their reads, at random places in memory, overlap;
// then scored.
func (g *Generation) personalFactors(p *profile, w *personalWeights, hits []ranking.Hit, out []float32) {
	packed := g.personalDocs()
	var pds [PersonalDepth]personalDoc
	for i, h := range hits {
		pds[i] = g.personalDocOf(packed, h.Doc)
	}
	for i, h := range hits {
		pd := &pds[i]
		var sum float32
		if w[piBudget] > 0 && p.hasPrice && !math.IsNaN(float64(pd.logPrice)) {
			if a := 1 - math.Abs(float64(pd.logPrice)-p.logPrice); a > 0 {
				sum += w[piBudget] * float32(a)
			}
		}
		if w[piCluster] > 0 && len(p.cluster) > 0 {
			sum += w[piCluster] * p.cluster.of(h.Doc)
		}
		for f := piBrand; f < piFields; f++ {
			k := piKeyword(f)
			if w[f] == 0 || len(p.values[k]) == 0 {
				continue
			}
			kf := g.personal.keyword[k]
			switch end := pd.ends[k]; end {
			case index.NoValue16:
			case index.Multi16:
				var best float32
				for _, id := range kf.DocValues(h.Doc) {
					best = max(best, p.values[k].of(id))
				}
				sum += w[f] * best
			default:
				sum += w[f] * p.values[k].chain(kf, end)
			}
		}
		out[i] = sum
	}
}

// chain is the highest affinity of value end and its ancestors in kf.
func (as affinities) chain(kf *index.KeywordField, end uint16) float32 {
	if kf.Parent == nil {
		return as.of(uint32(end))
	}
	var best float32
	for v := int32(end); v >= 0; v = kf.Parent[v] {
		best = max(best, as.of(uint32(v)))
	}
	return best
}
