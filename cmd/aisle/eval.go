package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/aisle-search/aisle/bench"
)

func runEval(_ context.Context, args []string, stdout, stderr io.Writer, _ *slog.Logger) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	shared := fs.String("shared", "", "the shared data `DIR` (found above the working directory when empty)")
	k := fs.Int("k", 10, "rank cut-off `K` for NDCG and hit rate")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *k < 1 {
		return fmt.Errorf("eval: --k %d: want at least 1", *k)
	}
	dir := *shared
	if dir == "" {
		var err error
		if dir, err = bench.FindSharedData(); err != nil {
			return err
		}
	}
	ev, err := bench.EvalHomeDepot(dir, *k)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Home Depot: %d products indexed in %s\nNDCG@%d = %.4f over %d search terms (gain = relevance - 1, unjudged = 0)\n",
		ev.Products, ev.BuildTime.Round(1e6), ev.K, ev.NDCG, ev.Terms)
	hr, err := bench.EvalInstacart(dir, *k, 10)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Instacart: %d products, %d orders; each user's last order held out (%d folds), hit rate@%d:\n", hr.Products, hr.Orders, hr.Folds, hr.K)
	fmt.Fprintf(stdout, "  BOUGHT_TOGETHER %.3f (then TOP: %.3f) vs TOP %.3f over %d orders of 2+ products (context: the first)\n",
		hr.BoughtTogether, hr.TogetherThenTop, hr.TogetherTop, hr.TogetherOrders)
	fmt.Fprintf(stdout, "  RECENTLY_BOUGHT %.3f vs TOP %.3f over %d orders of users with earlier orders\n", hr.RecentlyBought, hr.RecentTop, hr.RecentOrders)
	return nil
}
