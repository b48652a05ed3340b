// Package tune fits a search configuration's ranking settings to graded
// judgments: field weights, each field's length normalisation, BM25's k1,
// the proximity and exact forms' weights, by coordinate ascent on NDCG,
// and reports what the
// fit is worth on judgments it was not fitted to (k-fold
// cross-validation).
//
// It knows settings and numbers only: what a setting does to a ranking
// is the Objective's business (bench.TuneObjective searches a built
// catalog under each candidate version). The result is a version for a
// person to review and publish, never a live one.
package tune

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"sync"

	"github.com/aisle-search/aisle/config"
)

// Objective measures a search version on a set of judged terms: higher
// is better (mean NDCG@k).
type Objective func(v *config.SearchVersion, terms []string) (float64, error)

// Param is one setting the fit moves.
type Param struct {
	Name string
	get  func(v *config.SearchVersion) float64
	set  func(v *config.SearchVersion, x float64)
	// moves are what the fit tries from the current value, kept within
	// [lo, hi].
	moves  func(x float64) []float64
	lo, hi float64
}

// Params is what a fit of v moves: each searched field's weight (0 to
// 100, by factors of 0.5, 0.75, 1.33 and 2), each field's length
// normalisation (0 to 1, by ±0.1 and ±0.25; the field's default when v
// sets none), BM25's k1 (0.1 to 10, by the weights' factors), the
// proximity weight (0 to 1, by factors of 0.5 and 2, and ±0.02) and the
// exact forms' (0 to 1, by factors of 0.5 and 2, and ±0.05).
func Params(v *config.SearchVersion, defaultB func(field string) float64) []Param {
	var ps []Param
	factor := func(fs ...float64) func(x float64) []float64 {
		return func(x float64) []float64 {
			out := make([]float64, 0, len(fs))
			for _, f := range fs {
				out = append(out, x*f)
			}
			return out
		}
	}
	for i := range v.Fields {
		name := v.Fields[i].Name
		ps = append(ps, Param{
			Name:  name + ".weight",
			get:   func(v *config.SearchVersion) float64 { return v.Fields[i].Weight },
			set:   func(v *config.SearchVersion, x float64) { v.Fields[i].Weight = x },
			moves: factor(0.5, 0.75, 4.0/3, 2),
			lo:    0.01, hi: 100,
		}, Param{
			Name: name + ".lengthNormalization",
			get: func(v *config.SearchVersion) float64 {
				if b := v.Fields[i].LengthNormalization; b != nil {
					return *b
				}
				return defaultB(name)
			},
			set: func(v *config.SearchVersion, x float64) { v.Fields[i].LengthNormalization = &x },
			moves: func(x float64) []float64 {
				return []float64{x - 0.25, x - 0.1, x + 0.1, x + 0.25}
			},
			lo: 0, hi: 1,
		})
	}
	ps = append(ps, Param{
		Name:  "k1",
		get:   func(v *config.SearchVersion) float64 { return v.K1OrDefault() },
		set:   func(v *config.SearchVersion, x float64) { v.K1 = &x },
		moves: factor(0.5, 0.75, 4.0/3, 2),
		lo:    0.1, hi: 10,
	})
	return append(ps,
		reRankWeight("proximity", 0.02, (*config.SearchVersion).ProximityOrDefault,
			func(v *config.SearchVersion, x float64) { v.Proximity = &x }),
		reRankWeight("exactForms", 0.05, (*config.SearchVersion).ExactFormsOrDefault,
			func(v *config.SearchVersion, x float64) { v.ExactForms = &x }))
}

// reRankWeight is the Param of a re-ranking's weight: 0 to 1, by factors
// of 0.5 and 2, and ±step.
func reRankWeight(name string, step float64, get func(*config.SearchVersion) float64, set func(*config.SearchVersion, float64)) Param {
	return Param{
		Name: name, get: get, set: set,
		moves: func(x float64) []float64 { return []float64{x * 0.5, x - step, x + step, x * 2} },
		lo:    0, hi: 1,
	}
}

// Fit is a version of start with better settings on terms, found by
// coordinate ascent: each parameter in turn takes the best of its moves
// when that beats the current score by more than minGain, over rounds
// passes or until a pass changes nothing. Moves are measured
// concurrently. It returns the version and its score, and reports each
// change to progress (nil: none).
func Fit(start *config.SearchVersion, params []Param, obj Objective, terms []string, rounds int, progress func(string)) (*config.SearchVersion, float64, error) {
	cur := clone(start)
	best, err := obj(cur, terms)
	if err != nil {
		return nil, 0, err
	}
	for round := 0; round < rounds; round++ {
		changed := false
		for _, p := range params {
			x := p.get(cur)
			var cands []float64
			for _, m := range p.moves(x) {
				if m = min(max(m, p.lo), p.hi); m != x && !slices.Contains(cands, m) {
					cands = append(cands, m)
				}
			}
			scores := make([]float64, len(cands))
			errs := make([]error, len(cands))
			var wg sync.WaitGroup
			sem := make(chan struct{}, 2)
			for i, m := range cands {
				wg.Go(func() {
					sem <- struct{}{}
					defer func() { <-sem }()
					v := clone(cur)
					p.set(v, m)
					scores[i], errs[i] = obj(v, terms)
				})
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				return nil, 0, err
			}
			bi := -1
			for i, s := range scores {
				if s > best+minGain && (bi < 0 || s > scores[bi]) {
					bi = i
				}
			}
			if bi >= 0 {
				if progress != nil {
					progress(fmt.Sprintf("round %d: %s %.4g -> %.4g: %.4f -> %.4f", round+1, p.Name, x, cands[bi], best, scores[bi]))
				}
				p.set(cur, cands[bi])
				best, changed = scores[bi], true
			}
		}
		if !changed {
			break
		}
	}
	return cur, best, nil
}

// minGain is the least improvement a move must bring to be taken: less
// is noise from a few terms.
const minGain = 1e-4

// Folds splits terms into k folds of about equal size, each term always
// in the same fold whatever the other terms (by a hash of it).
func Folds(terms []string, k int) [][]string {
	folds := make([][]string, k)
	for _, t := range terms {
		h := fnv.New32a()
		h.Write([]byte(t))
		f := h.Sum32() % uint32(k)
		folds[f] = append(folds[f], t)
	}
	return folds
}

// FoldResult is one fold of a cross-validation: the start version's and
// the fitted version's score on the fold's terms, which the fit did not
// see.
type FoldResult struct {
	Train, Test int // terms
	Base, Tuned float64
}

// CrossValidate fits start on all folds but one and measures the fit on
// that one, for each of k folds.
func CrossValidate(start *config.SearchVersion, params []Param, obj Objective, terms []string, k, rounds int, progress func(string)) ([]FoldResult, error) {
	if k < 2 {
		return nil, fmt.Errorf("tune: %d folds, want at least 2", k)
	}
	folds := Folds(terms, k)
	out := make([]FoldResult, 0, k)
	for i, test := range folds {
		var train []string
		for j, f := range folds {
			if j != i {
				train = append(train, f...)
			}
		}
		if progress != nil {
			progress(fmt.Sprintf("fold %d of %d: fitting on %d terms", i+1, k, len(train)))
		}
		fitted, _, err := Fit(start, params, obj, train, rounds, progress)
		if err != nil {
			return nil, err
		}
		base, err := obj(start, test)
		if err != nil {
			return nil, err
		}
		tuned, err := obj(fitted, test)
		if err != nil {
			return nil, err
		}
		if progress != nil {
			progress(fmt.Sprintf("fold %d of %d: %d held-out terms, %.4f -> %.4f", i+1, k, len(test), base, tuned))
		}
		out = append(out, FoldResult{Train: len(train), Test: len(test), Base: base, Tuned: tuned})
	}
	return out, nil
}

// Mean is the term-weighted mean of the folds' base and tuned scores.
func Mean(rs []FoldResult) (base, tuned float64) {
	var n int
	for _, r := range rs {
		base += r.Base * float64(r.Test)
		tuned += r.Tuned * float64(r.Test)
		n += r.Test
	}
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	return base / float64(n), tuned / float64(n)
}

// clone is a copy of v that a Param's set cannot change v through.
func clone(v *config.SearchVersion) *config.SearchVersion {
	c := *v
	c.Fields = slices.Clone(v.Fields)
	for i := range c.Fields {
		if b := c.Fields[i].LengthNormalization; b != nil {
			x := *b
			c.Fields[i].LengthNormalization = &x
		}
	}
	if v.Proximity != nil {
		x := *v.Proximity
		c.Proximity = &x
	}
	if v.ExactForms != nil {
		x := *v.ExactForms
		c.ExactForms = &x
	}
	if v.K1 != nil {
		x := *v.K1
		c.K1 = &x
	}
	return &c
}
