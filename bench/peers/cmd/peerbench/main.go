// Command peerbench compares Aisle with peer engines on one catalog and
// the benchmark's query classes, in one process and one run.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/bench"
	"github.com/aisle-search/aisle/bench/peers"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/engine"
)

func main() {
	cat := flag.String("catalog", "demo", "catalog: demo (generated), flipkart or homedepot")
	n := flag.Int("products", 100000, "generated catalog size (demo)")
	shared := flag.String("shared", "", "shared data dir (found above the working directory when empty)")
	nq := flag.Int("queries", 300, "requests per class")
	rounds := flag.Int("rounds", 2, "passes over the requests")
	jsonOut := flag.String("json", "", "write the figures as JSON to this file")
	flag.Parse()
	if err := run(*cat, *n, *shared, *nq, *rounds, *jsonOut); err != nil {
		fmt.Fprintln(os.Stderr, "peerbench:", err)
		os.Exit(1)
	}
}

type report struct {
	Catalog  string             `json:"catalog"`
	Products int                `json:"products"`
	Build    map[string]float64 `json:"buildSeconds"`
	Size     map[string]int64   `json:"indexBytes"`
	NDCG     map[string]float64 `json:"ndcg10,omitempty"`
	Results  [][]peers.Result   `json:"results"`
}

func run(cat string, n int, shared string, nq, rounds int, jsonOut string) error {
	var (
		w       *config.Website
		key     string
		src     bench.Products
		queries []string
	)
	dir := shared
	if cat != "demo" && dir == "" {
		var err error
		if dir, err = bench.FindSharedData(); err != nil {
			return err
		}
	}
	switch cat {
	case "demo":
		cfg := demo.Config()
		w, key, src, queries = &cfg.Websites[0], "demo", bench.Generated(n, 42), demo.Queries(2000, 7)
	case "flipkart", "homedepot":
		var err error
		if src, err = bench.CSVCatalog(dir, cat); err != nil {
			return err
		}
		cfg := config.Default()
		w, key = &cfg.Websites[0], config.DefaultKey
		queries = demo.Queries(2000, 7)
		if cat == "homedepot" {
			j, err := bench.LoadJudgments(filepath.Join(dir, "homedepot", "judgments-dev.csv"))
			if err != nil {
				return err
			}
			queries = j.Terms()
		}
	default:
		return fmt.Errorf("unknown catalog %q", cat)
	}
	rep := report{Catalog: cat, Build: map[string]float64{}, Size: map[string]int64{}, NDCG: map[string]float64{}}
	fmt.Fprintf(os.Stderr, "indexing %s with Aisle…\n", cat)
	t0 := time.Now()
	g, err := bench.Build(w, src)
	if err != nil {
		return err
	}
	rep.Build["aisle"] = time.Since(t0).Seconds()
	rep.Products = g.Products.Len()
	fmt.Fprintf(os.Stderr, "indexing %s with Bleve (scorch)…\n", cat)
	tmp, err := os.MkdirTemp("", "peerbench-bleve-")
	if err != nil {
		return err
	}
	bl, err := peers.NewBleve(filepath.Join(tmp, "idx"), src)
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	defer bl.Close()
	rep.Build["bleve"] = bl.Build.Seconds()
	rep.Size["bleve"] = bl.SizeBytes()

	searchers := []peers.Searcher{peers.AisleSearcher(g), peers.BleveSearcher(bl)}
	for _, c := range bench.Classes {
		reqs, err := bench.Requests(g, key, queries, c, nq, uint64(c))
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "class %d (%s)…\n", c, c)
		rs, err := peers.Compare(searchers, c, reqs, rounds)
		if err != nil {
			return err
		}
		rep.Results = append(rep.Results, rs)
	}
	if cat == "homedepot" {
		j, err := bench.LoadJudgments(filepath.Join(dir, "homedepot", "judgments-dev.csv"))
		if err != nil {
			return err
		}
		ev, err := bench.EvalHomeDepot(dir, 10)
		if err != nil {
			return err
		}
		rep.NDCG["aisle"] = ev.NDCG
		rep.NDCG["bleve"], _, err = bench.NDCG(j, 10, func(term string, k int) ([]string, error) {
			q := term
			return bl.Search(&engine.SearchRequest{Query: &q, Products: &engine.ProductSettings{ContentSettings: engine.ContentSettings{PageSettings: engine.PageSettings{Count: &k}}}}, false)
		})
		if err != nil {
			return err
		}
	}
	fmt.Printf("\n%s catalog, %d products. Build: Aisle %.1fs, Bleve %.1fs (%d MB on disk)\n", cat, rep.Products, rep.Build["aisle"], rep.Build["bleve"], rep.Size["bleve"]>>20)
	if len(rep.NDCG) > 0 {
		fmt.Printf("NDCG@10 (Home Depot dev judgments): Aisle %.4f, Bleve %.4f (%+.0f%%)\n", rep.NDCG["aisle"], rep.NDCG["bleve"], 100*(rep.NDCG["aisle"]/rep.NDCG["bleve"]-1))
	}
	peers.Print(os.Stdout, rep.Results)
	if jsonOut != "" {
		b, _ := json.MarshalIndent(rep, "", "  ")
		return os.WriteFile(jsonOut, b, 0o644)
	}
	return nil
}
