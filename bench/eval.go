package bench

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
)

// Eval is one relevance measurement with what it was measured on, so the
// eval command, the tests and the peer comparison report the same figures.
type Eval struct {
	NDCG      float64
	Terms     int
	K         int
	BuildTime time.Duration
	Products  int
}

// HomeDepotJudgments is the path of the Home Depot development
// judgments under the shared data.
func HomeDepotJudgments(sharedData string) string {
	return filepath.Join(sharedData, "homedepot", "judgments-dev.csv")
}

// BuildHomeDepot indexes the Home Depot catalog under the default
// configuration, whose one website it returns with the generation and
// the time the build took.
func BuildHomeDepot(sharedData string) (*config.File, *engine.Generation, time.Duration, error) {
	products, err := CSVCatalog(sharedData, "homedepot")
	if err != nil {
		return nil, nil, 0, err
	}
	cfg := config.Default(WebsiteUUID)
	start := time.Now()
	g, err := Build(&cfg.Websites[0], products)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("build the Home Depot catalog: %w", err)
	}
	return cfg, g, time.Since(start), nil
}

// EvalHomeDepot indexes the Home Depot catalog under the default search
// configuration and measures NDCG@k on the development judgments.
func EvalHomeDepot(sharedData string, k int) (Eval, error) {
	if k < 1 {
		return Eval{}, fmt.Errorf("eval: cut-off k = %d, want at least 1", k)
	}
	_, g, took, err := BuildHomeDepot(sharedData)
	if err != nil {
		return Eval{}, fmt.Errorf("eval: %w", err)
	}
	j, err := LoadJudgments(HomeDepotJudgments(sharedData))
	if err != nil {
		return Eval{}, err
	}
	ev := Eval{K: k, BuildTime: took, Products: g.Products.Len()}
	ev.NDCG, ev.Terms, err = NDCG(j, k, SearchNumbers(g, config.DefaultKey))
	if err != nil {
		return Eval{}, fmt.Errorf("eval: %w", err)
	}
	return ev, nil
}

// SearchNumbers is the search NDCG needs over a built generation: the
// product numbers of the top k products for a term under search
// configuration key, so a catalog already built for a load run can be
// measured without building it again.
func SearchNumbers(g *engine.Generation, key string) func(term string, k int) ([]string, error) {
	return searchVersionNumbers(g, key, nil)
}

// searchVersionNumbers is SearchNumbers under version id of the search
// configuration (nil: the live one).
func searchVersionNumbers(g *engine.Generation, key string, id *int) func(term string, k int) ([]string, error) {
	fields := []string{"productNumber"}
	return func(term string, k int) ([]string, error) {
		res, err := g.Search(&engine.SearchRequest{Query: &term, Key: &key, ID: id, Products: &engine.ProductSettings{
			ContentSettings: engine.ContentSettings{PageSettings: engine.PageSettings{Count: &k}, Fields: fields},
		}})
		if err != nil {
			return nil, err
		}
		out := make([]string, len(res.Products.Hits))
		for i, h := range res.Products.Hits {
			out[i] = g.Products.Key(h.Doc)
		}
		return out, nil
	}
}
