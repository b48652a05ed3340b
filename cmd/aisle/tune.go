package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/bench"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/tune"
)

// runTune fits the default search configuration's ranking settings to
// graded judgments on the Home Depot catalog, reports what the fit is
// worth on held-out terms (k-fold cross-validation), and writes the
// configuration with the fitted settings as a draft version for a person
// to review and publish.
func runTune(_ context.Context, args []string, stdout, stderr io.Writer, log *slog.Logger) error {
	fs := flag.NewFlagSet("tune", flag.ContinueOnError)
	fs.SetOutput(stderr)
	shared := fs.String("shared", "", "the shared data `DIR` (found above the working directory when empty)")
	judgments := fs.String("judgments", "", "graded judgments `FILE`: a CSV of product_uid, search_term and relevance (1 to 3); empty: the Home Depot development judgments")
	folds := fs.Int("folds", 5, "cross-validation `FOLDS`: each fit on all but one, measured on that one")
	rounds := fs.Int("rounds", 3, "coordinate ascent `ROUNDS` at most")
	k := fs.Int("k", 10, "rank cut-off `K` for NDCG")
	out := fs.String("out", "", "write the configuration with the tuned draft version to `FILE` (JSON, for aisle serve --config or PUT /admin/v1/config)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("tune: unexpected argument %q", fs.Arg(0))
	case *folds < 2:
		return fmt.Errorf("tune: --folds %d: want at least 2", *folds)
	case *rounds < 1:
		return fmt.Errorf("tune: --rounds %d: want at least 1", *rounds)
	case *k < 1:
		return fmt.Errorf("tune: --k %d: want at least 1", *k)
	}
	dir := *shared
	if dir == "" {
		var err error
		if dir, err = bench.FindSharedData(); err != nil {
			return err
		}
	}
	path := *judgments
	if path == "" {
		path = filepath.Join(dir, "homedepot", "judgments-dev.csv")
	}
	j, err := bench.LoadJudgments(path)
	if err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	products, err := bench.CSVCatalog(dir, "homedepot")
	if err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	cfg := config.Default(bench.WebsiteUUID)
	w := &cfg.Websites[0]
	start := time.Now()
	g, err := bench.Build(w, products)
	if err != nil {
		return fmt.Errorf("tune: build the catalog: %w", err)
	}
	log.Info("catalog indexed", "products", g.Products.Len(), "judged_terms", len(j), "took", time.Since(start).Round(time.Millisecond))
	live, err := bench.LiveVersion(w, config.DefaultKey)
	if err != nil {
		return err
	}
	obj := bench.TuneObjective(g, analysis.English, config.DefaultKey, j, *k)
	params := tune.Params(live, bench.DefaultLengthNormalization)
	terms := j.Terms()
	progress := func(msg string) { log.Info(msg) }

	rs, err := tune.CrossValidate(live, params, obj, terms, *folds, *rounds, progress)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "NDCG@%d on held-out terms, %d-fold cross-validation over %d judged terms:\n", *k, *folds, len(terms))
	for i, r := range rs {
		fmt.Fprintf(stdout, "  fold %d: fitted on %d terms, measured on %d: %.4f -> %.4f\n", i+1, r.Train, r.Test, r.Base, r.Tuned)
	}
	base, tuned := tune.Mean(rs)
	fmt.Fprintf(stdout, "  mean: %.4f -> %.4f (%+.4f)\n", base, tuned, tuned-base)

	log.Info("fitting on every term for the draft")
	fitted, score, err := tune.Fit(live, params, obj, terms, *rounds, progress)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "fitted on all %d terms: NDCG@%d %.4f (not a measure of what it is worth: see the held-out figures)\n", len(terms), *k, score)
	fmt.Fprintln(stdout, "settings:")
	for _, f := range fitted.Fields {
		b := bench.DefaultLengthNormalization(f.Name)
		if f.LengthNormalization != nil {
			b = *f.LengthNormalization
		}
		fmt.Fprintf(stdout, "  %-14s weight %-7.4g lengthNormalization %.3g\n", f.Name, f.Weight, b)
	}
	fmt.Fprintf(stdout, "  proximity %.3g\n", fitted.ProximityOrDefault())
	if *out == "" {
		return nil
	}
	id, err := bench.AddDraft(w, config.DefaultKey, fitted)
	if err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("tune: the tuned configuration is invalid: %w", err)
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s: search configuration %q, draft version %d beside the live one; search it with \"id\": %d, publish it by making it live\n",
		*out, config.DefaultKey, id, id)
	return nil
}
