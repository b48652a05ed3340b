package bench

import (
	"fmt"
	"testing"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/datasets"
	"github.com/aisle-search/aisle/ranking"
	"github.com/aisle-search/aisle/tune"
)

// brandShop is a catalog where shoppers who type a brand want the
// brand's product, not the product that names the brand in its title,
// which the default weights (title 5, brand 3) put first: 60 brands,
// two products each, and those judgments.
func brandShop() (Products, Judgments) {
	j := Judgments{}
	var ps []catalog.Product
	for i := range 60 {
		brand := fmt.Sprintf("brand%c%c", 'a'+i/26, 'a'+i%26)
		own := catalog.Product{ProductNumber: fmt.Sprintf("own-%d", i), Title: "lamp shade", Brand: brand}
		named := catalog.Product{ProductNumber: fmt.Sprintf("named-%d", i), Title: brand + " lamp shade", Brand: "generic"}
		ps = append(ps, own, named)
		j[brand] = map[string]float64{own.ProductNumber: 2, named.ProductNumber: 0}
	}
	return func(fn func(*catalog.Product) error) error {
		for i := range ps {
			if err := fn(&ps[i]); err != nil {
				return err
			}
		}
		return nil
	}, j
}

// TestTuneLearnsWhatJudgmentsWant fits the brand shop's weights through
// the engine (each candidate a draft version of the configuration) and
// finds, on held-out brands, the ranking the judgments ask for.
func TestTuneLearnsWhatJudgmentsWant(t *testing.T) {
	products, j := brandShop()
	cfg := config.Default(WebsiteUUID)
	w := &cfg.Websites[0]
	g, err := Build(w, products)
	if err != nil {
		t.Fatal(err)
	}
	obj := TuneObjective(g, analysis.English, config.DefaultKey, j, 10)
	s, _ := w.SearchConfig(config.DefaultKey)
	live, _ := s.Live()
	params := tune.Params(live, ranking.DefaultLengthNormalization)
	terms := j.Terms()
	base, err := obj(live, terms)
	if err != nil {
		t.Fatal(err)
	}
	if base > 0.7 {
		t.Fatalf("NDCG %.3f before tuning: the default weights already rank the brand's product first", base)
	}
	rs, err := tune.CrossValidate(live, params, obj, terms, 3, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	cvBase, cvTuned := tune.Mean(rs)
	if cvTuned < 0.95 || cvBase != base {
		t.Errorf("held-out NDCG %.3f -> %.3f (all terms %.3f before): want 0.95 or more after", cvBase, cvTuned, base)
	}
	fitted, _, err := tune.Fit(live, params, obj, terms, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := s.AddDraft(*fitted)
	if err := cfg.Validate(); err != nil {
		t.Fatalf("the configuration with the tuned draft (version %d) is invalid: %v", id, err)
	}
	if live.Status != config.StatusLive || w.Search[0].Versions[len(w.Search[0].Versions)-1].Status != config.StatusDraft {
		t.Error("the tuned version must be a draft beside the live one")
	}
}

// TestTuneObjectiveMatchesEval: the objective on the live version, over
// every Home Depot term, is aisle eval's NDCG.
func TestTuneObjectiveMatchesEval(t *testing.T) {
	data := datasets.SkipOrDir(t)
	ev, err := EvalHomeDepot(data, 10)
	if err != nil {
		t.Fatal(err)
	}
	j, err := LoadJudgments(HomeDepotJudgments(data))
	if err != nil {
		t.Fatal(err)
	}
	cfg, g, _, err := BuildHomeDepot(data)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := cfg.Websites[0].SearchConfig(config.DefaultKey)
	live, _ := s.Live()
	got, err := TuneObjective(g, analysis.English, config.DefaultKey, j, 10)(live, j.Terms())
	if err != nil {
		t.Fatal(err)
	}
	if got != ev.NDCG {
		t.Fatalf("objective %.6f, eval %.6f", got, ev.NDCG)
	}
}
