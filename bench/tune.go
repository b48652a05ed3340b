package bench

import (
	"fmt"
	"slices"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/ranking"
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
		i := slices.IndexFunc(w.Search, func(s config.SearchConfig) bool { return s.Key == key })
		if i < 0 {
			return 0, fmt.Errorf("tune: no search configuration %q", key)
		}
		draft := *v
		draft.ID, draft.Status = nextVersionID(&w.Search[i]), config.StatusDraft
		w.Search[i].Versions = append(slices.Clone(w.Search[i].Versions), draft)
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
		mean, _, err := NDCG(sub, k, searchVersionNumbers(cand, key, &draft.ID))
		return mean, err
	}
}

// nextVersionID is one more than the configuration's highest version id.
func nextVersionID(s *config.SearchConfig) int {
	id := 0
	for _, v := range s.Versions {
		id = max(id, v.ID)
	}
	return id + 1
}

// DefaultLengthNormalization is a field's BM25 b when its configuration
// sets none (ranking.DefaultParams), by field name.
func DefaultLengthNormalization(field string) float64 {
	tf, ok := index.FieldByName(field)
	if !ok {
		return 0
	}
	return float64(ranking.DefaultParams().B[tf])
}

// LiveVersion is search configuration key's live version in w.
func LiveVersion(w *config.Website, key string) (*config.SearchVersion, error) {
	for i := range w.Search {
		if w.Search[i].Key != key {
			continue
		}
		for j := range w.Search[i].Versions {
			if v := &w.Search[i].Versions[j]; v.Status == config.StatusLive {
				return v, nil
			}
		}
	}
	return nil, fmt.Errorf("no live version of search configuration %q", key)
}

// AddDraft appends v to search configuration key of w as a draft with
// the next version id, and returns that id.
func AddDraft(w *config.Website, key string, v *config.SearchVersion) (int, error) {
	for i := range w.Search {
		if w.Search[i].Key == key {
			d := *v
			d.ID, d.Status = nextVersionID(&w.Search[i]), config.StatusDraft
			w.Search[i].Versions = append(w.Search[i].Versions, d)
			return d.ID, nil
		}
	}
	return 0, fmt.Errorf("no search configuration %q", key)
}
