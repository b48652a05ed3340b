package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/live"
)

func runImport(ctx context.Context, args []string, stdout, stderr io.Writer, log *slog.Logger) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", env("AISLE_DATA", ""), "pebble data `DIR` (created when missing)")
	mapping := fs.String("mapping", "", "CSV column mapping: a built-in `NAME` (flipkart, homedepot) or a JSON file")
	cfgPath := fs.String("config", env("AISLE_CONFIG", ""), "configuration `FILE` to store with the catalog")
	quiet := fs.Bool("quiet", false, "no progress bar")
	lang := fs.String("lang", env("AISLE_LANG", "en"), "stemming `LANGUAGE`: en, da, no, sv, de or none")
	url := fs.String("url", "", "push to the running server at `URL` (http://HOST:PORT) instead of a data directory")
	adminKey := fs.String("admin-key", env("AISLE_ADMIN_KEY", ""), "with --url: the server's admin `KEY`")
	website := fs.String("website", "", "the website's `UUID` (default: the configuration's only website)")
	evs := fs.Bool("events", false, "the FILEs are behaviour logs (JSON Lines of events), appended to the change log of a data directory that has its configuration")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *url == "" && *data == "" {
		return errors.New("import: --data DIR is required (or --url to push to a running server)")
	}
	if *url != "" {
		given := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
		if given["data"] || given["config"] {
			return errors.New("import: --url pushes to a running server: --data and --config do not apply")
		}
	}
	files := fs.Args()
	if len(files) == 0 {
		return errors.New("import: name at least one feed FILE (.jsonl, .ndjson, .json or .csv)")
	}
	var m *catalog.CSVMapping
	if *mapping != "" {
		var err error
		if m, err = loadMapping(*mapping); err != nil {
			return err
		}
	}
	if *evs {
		if *url != "" || *mapping != "" || *cfgPath != "" || *website != "" {
			return errors.New("import --events: give --data DIR and the logs; a running server takes events at POST /serve/collect/{kind}, and each event names its websiteUuid")
		}
		st, err := openStore(*data, log)
		if err != nil {
			return err
		}
		defer st.Close()
		return importEvents(ctx, st, files, stdout, stderr, *quiet)
	}
	if *url != "" {
		return runPush(ctx, *url, *adminKey, *website, files, m, stdout, stderr, *quiet)
	}
	// A configuration file is stored by the import's own write, so a
	// failed import leaves the stored one as it was.
	var newCfg *config.File
	if *cfgPath != "" {
		var err error
		if newCfg, err = config.Load(*cfgPath); err != nil {
			return err
		}
	}
	st, err := openStore(*data, log)
	if err != nil {
		return err
	}
	defer st.Close()
	cfg := newCfg
	if cfg == nil {
		if cfg, err = st.Config(); err != nil {
			return err
		}
	}
	if cfg == nil {
		// A new website, --website's or a generated id: its configuration
		// is stored with the products.
		uuid := *website
		if uuid == "" {
			uuid = config.NewUUID()
		}
		newCfg = config.Default(uuid)
		if err := newCfg.Validate(); err != nil {
			return fmt.Errorf("import: --website: %w", err)
		}
		cfg = newCfg
		fmt.Fprintf(stdout, "no configuration given or stored: a new website %s with the default search configuration (key %q)\n", uuid, config.DefaultKey)
	}
	w, err := chooseWebsite("import", cfg, *website)
	if err != nil {
		return err
	}
	def, err := analysis.ParseLanguage(*lang)
	if err != nil {
		return err
	}
	l := w.Lang(def)
	// One pass: the products go into the store in one atomic bulk write
	// and, on a first import, into the index too; the index is saved, so
	// serve starts by loading it.
	start := time.Now()
	feed := func(fn func(*catalog.Product) error) error {
		for _, path := range files {
			if err := importFile(ctx, path, m, stderr, *quiet, fn); err != nil {
				return err
			}
		}
		return nil
	}
	var gen *engine.Generation
	var stats live.ImportStats
	if newCfg != nil {
		gen, stats, err = live.ImportWithConfig(st, newCfg, w, l, feed, log, nil)
	} else {
		gen, stats, err = live.Import(st, w, l, feed, log, nil)
	}
	if err != nil {
		return err
	}
	took := time.Since(start)
	fmt.Fprintf(stdout, "imported %d products in %s (%.0f products/s) into website %s; %d in its index, saved in %s\n",
		stats.Products, took.Round(time.Millisecond), float64(stats.Products)/took.Seconds(), w.UUID, gen.Products.Len(), *data)
	fmt.Fprintf(stdout, "serve it with: aisle serve --data %s\n", *data)
	return nil
}

// chooseWebsite is the website of cfg a command works on: the one
// named, or the only one; errors begin with the command's name.
func chooseWebsite(command string, cfg *config.File, uuid string) (*config.Website, error) {
	if uuid != "" {
		if w, ok := cfg.Website(uuid); ok {
			return w, nil
		}
		return nil, fmt.Errorf("%s: the configuration has no website %s (it has %s)", command, uuid, websiteList(cfg))
	}
	if len(cfg.Websites) != 1 {
		return nil, fmt.Errorf("%s: the configuration has %d websites: name one with --website (%s)", command, len(cfg.Websites), websiteList(cfg))
	}
	return &cfg.Websites[0], nil
}

// websiteList names cfg's websites for a message: "UUID (name), ...".
func websiteList(cfg *config.File) string {
	parts := make([]string, len(cfg.Websites))
	for i, w := range cfg.Websites {
		parts[i] = w.UUID + " (" + w.Name + ")"
	}
	return strings.Join(parts, ", ")
}

func loadMapping(arg string) (*catalog.CSVMapping, error) {
	if !strings.ContainsAny(arg, "./") {
		return catalog.BuiltinMapping(arg)
	}
	b, err := os.ReadFile(arg)
	if err != nil {
		return nil, fmt.Errorf("read mapping: %w", err)
	}
	return catalog.ParseCSVMapping(b)
}

// importFile reads, normalises and validates one feed file's products
// into put.
func importFile(ctx context.Context, path string, m *catalog.CSVMapping, stderr io.Writer, quiet bool, put func(*catalog.Product) error) error {
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("import %s: %w", path, err)
	}
	var bar *progressbar.ProgressBar
	if !quiet {
		bar = progressbar.NewOptions64(info.Size(),
			progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription("importing "+path),
			progressbar.OptionShowBytes(true),
			progressbar.OptionShowCount(),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(stderr) }),
			progressbar.OptionSetWidth(30),
		)
	}
	err = catalog.ReadFile(path, m, func(done int64) {
		if bar != nil {
			_ = bar.Set64(done)
		}
	}, catalog.Checked(func(p *catalog.Product) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return put(p)
	}))
	if bar != nil {
		_ = bar.Finish()
	}
	if err != nil {
		return fmt.Errorf("import %s: %w", path, err)
	}
	return nil
}
