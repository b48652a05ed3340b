// Command aisle runs the Aisle search service: a demo shop, imports of a
// catalog or a behaviour log into a data directory, and serving it; and
// the tools that measure and tune it: eval, tune and bench.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

const usage = `aisle: retail search, merchandising and recommendations

Usage:
  aisle demo   [--addr HOST:PORT] [--data DIR] [--admin-key KEY] [--products N]
  aisle import --data DIR [--mapping NAME|FILE] [--config FILE] FILE...
  aisle import --url http://HOST:PORT --admin-key KEY --website UUID [--mapping NAME|FILE] FILE...
  aisle import --data DIR --events FILE...
  aisle serve  --data DIR [--config FILE] [--addr HOST:PORT] [--admin-key KEY]
  aisle eval   [--shared DIR] [--k 10]     (Home Depot NDCG, Instacart hit rates)
  aisle tune   --data DIR [--website UUID] [--key KEY] [--judgments FILE] [--folds 5]
  aisle tune   [--shared DIR] [--judgments FILE] [--folds 5] [--rounds 3] [--out FILE]
               (fit ranking settings to judgments or to what visitors clicked and
               bought; report held-out NDCG; add the fit as a draft version)
  aisle bench  [--catalog demo|flipkart|homedepot] [--products N] [--shared DIR]
               [--concurrency C] [--duration D] [--json FILE]
  aisle bench  --soak DURATION [--products N] [--url URL --admin-key KEY]
               [--json FILE] [--svg FILE]
               (the mixed load at 80% of its highest rate beside writes and
               a feed import; fails on a failed request or a growing RSS)
  aisle bench report [--check] [--doc FILE] [--reports DIR]
               (docs/benchmarks.md's tables made from the reports in docs/reports)
  aisle keys   create|list|revoke --data DIR ...
               (API keys of a stopped server's directory; a running one's
               through GraphQL at /graphql)
  aisle backup --url http://HOST:PORT --admin-key KEY --to DEST
  aisle backup --data DIR --to DEST
               (a consistent copy, taken while a server serves or from a
               stopped directory; aisle serve --data DEST serves it)

Every flag can also be set by environment: AISLE_ADDR, AISLE_DATA,
AISLE_ADMIN_KEY, AISLE_CONFIG, AISLE_LANG.
Run "aisle COMMAND -h" for a command's flags.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// After the first signal the server stops cleanly (serve's --grace);
	// a second one takes the default action and ends the process at once.
	go func() {
		<-ctx.Done()
		stop()
	}()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "aisle:", err)
		}
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return flag.ErrHelp
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	switch args[0] {
	case "demo":
		return runDemo(ctx, args[1:], stdout, stderr, log)
	case "import":
		return runImport(ctx, args[1:], stdout, stderr, log)
	case "serve":
		return runServe(ctx, args[1:], stdout, stderr, log)
	case "eval":
		return runEval(ctx, args[1:], stdout, stderr, log)
	case "tune":
		return runTune(ctx, args[1:], stdout, stderr, log)
	case "bench":
		return runBench(ctx, args[1:], stdout, stderr, log)
	case "keys":
		return runKeys(ctx, args[1:], stdout, stderr, log)
	case "backup":
		return runBackup(ctx, args[1:], stdout, stderr, log)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

// env is a flag default from the environment.
func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}
