package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/bench"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/ranking"
	"github.com/aisle-search/aisle/store"
	"github.com/aisle-search/aisle/tune"
)

// runTune fits a search configuration's ranking settings to graded
// judgments, reports what the fit is worth on held-out terms (k-fold
// cross-validation), and adds the fitted settings as a draft version for
// a person to review and publish. With --data it tunes a shop: the
// website's stored catalog, judged by --judgments or by what its
// visitors clicked and bought after searching, the draft stored in its
// configuration. Without, the Home Depot catalog and judgments.
func runTune(_ context.Context, args []string, stdout, stderr io.Writer, log *slog.Logger) error {
	fs := flag.NewFlagSet("tune", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", env("AISLE_DATA", ""), "tune a website of the data `DIR` (stop its aisle serve first); empty: the Home Depot catalog")
	website := fs.String("website", "", "with --data: the website `UUID` (empty: the only one)")
	key := fs.String("key", config.DefaultKey, "the search configuration `KEY` to tune")
	langName := fs.String("lang", env("AISLE_LANG", "en"), "with --data: stemming `LANGUAGE` of a website whose configuration sets none")
	shared := fs.String("shared", "", "without --data: the shared data `DIR` (found above the working directory when empty)")
	judgments := fs.String("judgments", "", "graded judgments `FILE`: a CSV with columns query, productNumber and grade (0 = not relevant), or Home Depot's product_uid, search_term and relevance (1 to 3); empty: with --data, the website's search, click, cart and purchase events; without, the Home Depot development judgments")
	folds := fs.Int("folds", 5, "cross-validation `FOLDS`: each fit on all but one, measured on that one")
	rounds := fs.Int("rounds", 3, "coordinate ascent `ROUNDS` at most")
	k := fs.Int("k", 10, "rank cut-off `K` for NDCG")
	out := fs.String("out", "", "without --data: write the configuration with the tuned draft version to `FILE` (JSON, for aisle serve --config or PUT /admin/v1/config)")
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
	case *data != "" && *out != "":
		return errors.New("tune: --out is for the Home Depot catalog; with --data the draft is stored in the website's configuration")
	}
	t := tuning{key: *key, folds: *folds, rounds: *rounds, k: *k, stdout: stdout, log: log}
	if *data == "" {
		return t.homeDepot(*shared, *judgments, *out)
	}
	lang, err := analysis.ParseLanguage(*langName)
	if err != nil {
		return fmt.Errorf("tune: --lang: %w", err)
	}
	return t.shop(*data, *website, *judgments, lang)
}

// tuning is one aisle tune run.
type tuning struct {
	key              string
	folds, rounds, k int
	stdout           io.Writer
	log              *slog.Logger
	cfg              *config.File
	w                *config.Website
	g                *engine.Generation
	lang             analysis.Language
	j                bench.Judgments
}

// homeDepot tunes the default configuration on the Home Depot catalog.
func (t *tuning) homeDepot(shared, judgments, out string) error {
	dir := shared
	if dir == "" {
		var err error
		if dir, err = bench.FindSharedData(); err != nil {
			return err
		}
	}
	if judgments == "" {
		judgments = bench.HomeDepotJudgments(dir)
	}
	var err error
	if t.j, err = bench.LoadJudgments(judgments); err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	var took time.Duration
	if t.cfg, t.g, took, err = bench.BuildHomeDepot(dir); err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	t.w, t.lang = &t.cfg.Websites[0], analysis.English
	t.log.Info("catalog indexed", "products", t.g.Products.Len(), "judged_terms", len(t.j), "took", took.Round(time.Millisecond))
	id, err := t.run()
	if err != nil || out == "" {
		return err
	}
	b, err := json.MarshalIndent(t.cfg, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	fmt.Fprintf(t.stdout, "wrote %s: search configuration %q, draft version %d beside the live one; search it with \"id\": %d, publish it by making it live\n", out, t.key, id, id)
	return nil
}

// shop tunes a website of a data directory and stores the draft in its
// configuration.
func (t *tuning) shop(dir, website, judgments string, lang analysis.Language) error {
	st, err := openStore(dir, t.log)
	if err != nil {
		return err
	}
	defer st.Close()
	if t.cfg, err = st.Config(); err != nil {
		return err
	}
	if t.cfg == nil {
		return fmt.Errorf("tune: %s has no configuration: import a catalog first", dir)
	}
	if t.w, err = chooseWebsite("tune", t.cfg, website); err != nil {
		return err
	}
	t.lang = t.w.Lang(lang)
	if t.g, err = live.Open(st, t.w, t.lang, t.log); err != nil {
		return err
	}
	if judgments != "" {
		if t.j, err = bench.LoadJudgments(judgments); err != nil {
			return fmt.Errorf("tune: %w", err)
		}
	} else if t.j, err = storedJudgments(st, t.w.UUID); err != nil {
		return err
	}
	if len(t.j) < t.folds {
		return fmt.Errorf("tune: %d judged search terms, fewer than the %d folds: send search events and the clicks, carts and purchases after them, or pass --judgments FILE", len(t.j), t.folds)
	}
	t.log.Info("catalog opened", "website", t.w.UUID, "products", t.g.Products.Len(), "judged_terms", len(t.j))
	id, err := t.run()
	if err != nil {
		return err
	}
	var invalid *engine.Error
	if _, err := live.StoreConfig(st, t.cfg, t.lang); errors.As(err, &invalid) {
		return fmt.Errorf("tune: the tuned configuration is invalid: %w", err)
	} else if err != nil {
		return fmt.Errorf("tune: store the draft: %w", err)
	}
	fmt.Fprintf(t.stdout, "stored: search configuration %q of website %s has draft version %d beside the live one; search it with \"id\": %d, publish it by making it live\n", t.key, t.w.UUID, id, id)
	return nil
}

// storedJudgments grades search terms from a website's behaviour log.
func storedJudgments(st *store.Store, website string) (bench.Judgments, error) {
	ej := bench.NewEventJudgments()
	err := st.EventsAfter(website, 0, func(_ uint64, raws []json.RawMessage) error {
		for _, raw := range raws {
			var e events.Event
			if err := json.Unmarshal(raw, &e); err != nil {
				return fmt.Errorf("tune: a stored event: %w", err)
			}
			ej.Add(&e)
		}
		return nil
	})
	return ej.Judgments(), err
}

// run cross-validates, fits on every term, prints both and adds the fit
// to the configuration as a draft, returning its version id.
func (t *tuning) run() (int, error) {
	s, ok := t.w.SearchConfig(t.key)
	if !ok {
		return 0, fmt.Errorf("tune: no search configuration %q", t.key)
	}
	live, ok := s.Live()
	if !ok {
		return 0, fmt.Errorf("tune: search configuration %q has no live version", t.key)
	}
	obj := bench.TuneObjective(t.g, t.lang, t.key, t.j, t.k)
	params := tune.Params(live, ranking.DefaultLengthNormalization)
	terms := t.j.Terms()
	progress := func(msg string) { t.log.Info(msg) }
	rs, err := tune.CrossValidate(live, params, obj, terms, t.folds, t.rounds, progress)
	if err != nil {
		return 0, err
	}
	fmt.Fprintf(t.stdout, "NDCG@%d on held-out terms, %d-fold cross-validation over %d judged terms:\n", t.k, t.folds, len(terms))
	for i, r := range rs {
		fmt.Fprintf(t.stdout, "  fold %d: fitted on %d terms, measured on %d: %.4f -> %.4f\n", i+1, r.Train, r.Test, r.Base, r.Tuned)
	}
	base, tuned := tune.Mean(rs)
	fmt.Fprintf(t.stdout, "  mean: %.4f -> %.4f (%+.4f)\n", base, tuned, tuned-base)
	t.log.Info("fitting on every term for the draft")
	fitted, score, err := tune.Fit(live, params, obj, terms, t.rounds, progress)
	if err != nil {
		return 0, err
	}
	fmt.Fprintf(t.stdout, "fitted on all %d terms: NDCG@%d %.4f (not a measure of what it is worth: see the held-out figures)\n", len(terms), t.k, score)
	fmt.Fprintln(t.stdout, "settings:")
	for _, f := range fitted.Fields {
		b := ranking.DefaultLengthNormalization(f.Name)
		if f.LengthNormalization != nil {
			b = *f.LengthNormalization
		}
		fmt.Fprintf(t.stdout, "  %-14s weight %-7.4g lengthNormalization %.3g\n", f.Name, f.Weight, b)
	}
	fmt.Fprintf(t.stdout, "  k1 %.3g, proximity %.3g, exactForms %.3g\n", fitted.K1OrDefault(), fitted.ProximityOrDefault(), fitted.ExactFormsOrDefault())
	return s.AddDraft(*fitted), nil
}
