package bench

import (
	"fmt"
	"slices"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/tune"
)

// TuneObjective is tune's objective on a built catalog: the mean NDCG@k
// over the given terms of j when g's search configuration key answers
// with the candidate version. Each measure assembles a generation around
// g's products with the candidate as a draft version, and searches it;
// the index is not built again.
func TuneObjective(g *engine.Generation, lang analysis.Language, key string, j Judgments, k int) tune.Objective {
	return func(v *config.SearchVersion, terms []string) (float64, error) {
		w := *g.Website
		w.Search = slices.Clone(w.Search)
		s, ok := w.SearchConfig(key)
		if !ok {
			return 0, fmt.Errorf("tune: no search configuration %q", key)
		}
		id := s.AddDraft(*v)
		cand, err := engine.Assemble(&w, lang, g.Products, func(func(*catalog.Content) error) error { return nil })
		if err != nil {
			return 0, fmt.Errorf("tune: %w", err)
		}
		sub := make(Judgments, len(terms))
		for _, t := range terms {
			if g, ok := j[t]; ok {
				sub[t] = g
			}
		}
		mean, _, err := NDCG(sub, k, searchVersionNumbers(cand, key, &id))
		return mean, err
	}
}
