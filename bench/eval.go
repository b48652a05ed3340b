package bench

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
)

// Eval is a relevance measurement.
type Eval struct {
	NDCG      float64
	Terms     int
	K         int
	BuildTime time.Duration
	Products  int
}

// EvalHomeDepot indexes the Home Depot catalog under the default search
// configuration and measures NDCG@k on the development judgments.
func EvalHomeDepot(sharedData string, k int) (Eval, error) {
	products, err := CSVCatalog(sharedData, "homedepot")
	if err != nil {
		return Eval{}, err
	}
	j, err := LoadJudgments(filepath.Join(sharedData, "homedepot", "judgments-dev.csv"))
	if err != nil {
		return Eval{}, err
	}
	cfg := config.Default()
	start := time.Now()
	g, err := Build(&cfg.Websites[0], products)
	if err != nil {
		return Eval{}, err
	}
	ev := Eval{K: k, BuildTime: time.Since(start), Products: g.Products.Len()}
	key := config.DefaultKey
	ev.NDCG, ev.Terms, err = NDCG(j, k, func(term string, k int) ([]string, error) {
		q := term
		res, err := g.Search(&engine.SearchRequest{Query: &q, Key: &key, Products: &engine.ProductSettings{
			ContentSettings: engine.ContentSettings{PageSettings: engine.PageSettings{Count: &k}},
		}})
		if err != nil {
			return nil, err
		}
		out := make([]string, len(res.Products.Hits))
		for i, h := range res.Products.Hits {
			out[i] = g.Products.Key(h.Doc)
		}
		return out, nil
	})
	if err != nil {
		return Eval{}, fmt.Errorf("eval: %w", err)
	}
	return ev, nil
}
