package main

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	_ "net/http/pprof" // --debug-addr
	"runtime"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/gql"
	"github.com/aisle-search/aisle/httpapi"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/replica"
	"github.com/aisle-search/aisle/store"
	"github.com/valyala/fasthttp"
)

type serveFlags struct {
	addr, data, adminKey, config, lang string
	maxWrite                           string // bytes, checked by serveStore; "": httpapi's default
	debugAddr                          string // "": no profiling listener
	procs                              string // Go scheduler threads; "": serveProcs' default
	snapshotEvery                      string // a duration; "": snapshotEvery
	maxVisitors                        string // a number; "": behaviour.DefaultMaxVisitors
	// rates: per-client limits of the public routes, "PER_SECOND[:BURST]"
	// each ("0": none); trustedProxies: CIDRs, comma-separated.
	rateCollect, rateSearch, ratePages, rateRecoms, trustedProxies string
	logFormat, slowRequest, grace                                  string
	// clock is not a flag: the time answers and events are as of
	// (engine.Engine.UseClock), for tests; nil: the wall clock.
	clock func() time.Time
	// storefront is not a flag either: the demo storefront's handler
	// (httpapi.Options.Storefront), which aisle demo sets; nil: none.
	storefront func(ctx *fasthttp.RequestCtx) bool
	// cluster are the flags of a cluster (serve_cluster.go).
	cluster clusterFlags
	// node is not a flag: the cluster runServe connected to, for
	// serveStore to join; nil: serveStore connects itself.
	node *clusterNode
	// opening is not a flag: called, for tests, with the address the
	// server listens on once the websites are loaded, just before the API
	// opens (while /readyz still answers 503); nil: nothing.
	opening func(addr string)
}

func (f *serveFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.addr, "addr", env("AISLE_ADDR", "127.0.0.1:8080"), "listen address `HOST:PORT`")
	fs.StringVar(&f.data, "data", env("AISLE_DATA", ""), "pebble data `DIR`")
	fs.StringVar(&f.adminKey, "admin-key", env("AISLE_ADMIN_KEY", ""), "admin API `KEY` (generated and printed when empty)")
	fs.StringVar(&f.config, "config", env("AISLE_CONFIG", ""), "configuration `FILE` (JSON); stored in the data dir")
	fs.StringVar(&f.maxWrite, "max-write-bytes", env("AISLE_MAX_WRITE_BYTES", ""), "largest admin write body in `BYTES`, at least 1048576 (default 32 MiB; a search takes 1 MiB)")
	fs.StringVar(&f.debugAddr, "debug-addr", env("AISLE_DEBUG_ADDR", ""), "serve Go's profiler (/debug/pprof/) on `HOST:PORT`, apart from the API; off by default")
	fs.StringVar(&f.procs, "procs", env("AISLE_PROCS", ""), "Go scheduler threads `N` (GOMAXPROCS); default twice the cores, so a search runs at once beside background work (GOMAXPROCS in the environment, when set, is the default instead)")
	fs.StringVar(&f.lang, "lang", env("AISLE_LANG", "en"), "stemming `LANGUAGE` of websites whose configuration sets none: en, da, no, sv, de or none")
	fs.StringVar(&f.rateCollect, "rate-collect", env("AISLE_RATE_COLLECT", defaultRates["rate-collect"]), "events a second one client may send to /serve/collect, and its `RATE[:BURST]` (0: no limit)")
	fs.StringVar(&f.rateSearch, "rate-search", env("AISLE_RATE_SEARCH", defaultRates["rate-search"]), "searches a second per client, `RATE[:BURST]` (default 0: no limit; burst 5×rate)")
	fs.StringVar(&f.ratePages, "rate-pages", env("AISLE_RATE_PAGES", defaultRates["rate-pages"]), "page requests a second per client, `RATE[:BURST]` (default 0: no limit)")
	fs.StringVar(&f.rateRecoms, "rate-recoms", env("AISLE_RATE_RECOMS", defaultRates["rate-recoms"]), "recommendation calls a second per client, `RATE[:BURST]` (default 0: no limit)")
	fs.StringVar(&f.trustedProxies, "trusted-proxies", env("AISLE_TRUSTED_PROXIES", ""), "proxies in front, as `CIDRs` (comma-separated), whose X-Forwarded-For names the client for rate limits; default none")
	fs.StringVar(&f.maxVisitors, "max-visitors", env("AISLE_MAX_VISITORS", ""), "visitors whose histories each website's behaviour keeps, `N` (default 1000000); past it the least lately active quarter is forgotten, and of the emails' and customer ids' links all but the latest 2×N")
	fs.StringVar(&f.logFormat, "log-format", env("AISLE_LOG_FORMAT", "text"), "log lines as `FORMAT`: text (for a terminal) or json (one object a line, for a log collector)")
	fs.StringVar(&f.slowRequest, "slow-request", env("AISLE_SLOW_REQUEST", defaultSlowRequest), "log each request that takes longer than `DURATION` (its route, status and time; 0: none)")
	fs.StringVar(&f.grace, "grace", env("AISLE_GRACE", defaultGrace), "at a stop (SIGTERM, Ctrl-C), how long requests in flight may take to finish, `DURATION`; a second signal stops at once")
	f.cluster.register(fs)
	fs.StringVar(&f.snapshotEvery, "snapshot-every", env("AISLE_SNAPSHOT_EVERY", ""), "how often to save the visitors' behaviour, so a start after a crash folds only the events since (`DURATION`; default 10m)")
}

// The defaults of --grace and --slow-request, also for serveFlags built
// without register (tests).
const (
	defaultGrace       = "30s"
	defaultSlowRequest = "1s"
)

// snapshotAfterReplay: a start that folded this many events or more
// saves the behaviour's snapshot at once, in the background, so a crash
// does not make the next start fold them all again.
const snapshotAfterReplay = 1_000_000

// snapshotEvery is how often aisle serve saves, by default
// (--snapshot-every), the snapshots of the websites whose behaviour
// folded events since the last; folding waits only while a model is
// copied (about 14 ms at a million events).
const snapshotEvery = 10 * time.Minute

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer, log *slog.Logger) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f serveFlags
	f.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	log, err := f.logger(stderr, log)
	if err != nil {
		return err
	}
	if f.data == "" {
		return errors.New("serve: --data DIR is required (create one with: aisle import --data DIR FILE)")
	}
	if f.cluster.clustered() {
		// Connected before the store opens: a new node's empty directory
		// is filled with the cluster's snapshot first.
		cs, err := f.cluster.check()
		if err != nil {
			return err
		}
		cn, err := f.cluster.connect(f.data, cs, log)
		if err != nil {
			return err
		}
		defer cn.close()
		if err := cn.bootstrap(ctx, f.data, cs, f.config != "", log); err != nil {
			return err
		}
		f.node = cn
	}
	st, err := openStore(f.data, log)
	if err != nil {
		return err
	}
	defer st.Close()
	if f.config != "" {
		cfg, err := config.Load(f.config)
		if err != nil {
			return err
		}
		lang, err := analysis.ParseLanguage(f.lang)
		if err != nil {
			return err
		}
		if _, err := live.StoreConfig(st, cfg, lang); err != nil {
			return fmt.Errorf("store config: %w", err)
		}
	}
	if err := serveStore(ctx, st, f, stdout, log, nil); err != nil {
		return err
	}
	if err := st.Close(); err != nil {
		return fmt.Errorf("close the store: %w", err)
	}
	log.Info("stopped: every answered write and event is on disk")
	return nil
}

// served is what serveStore tells its ready callback once it serves.
type served struct {
	addr, adminKey string
	websites       []*engine.Generation // in the configuration's order
}

// serveStore builds the generation from st and serves it until ctx ends.
// It listens from the start, answering 503 but for /healthz until every
// website is loaded (httpapi.Gate); ready, when set, is called once it
// serves the API.
func serveStore(ctx context.Context, st *store.Store, f serveFlags, stdout io.Writer, log *slog.Logger, ready func(served)) error {
	maxWrite := 0 // unset: httpapi.Options' default
	if f.maxWrite != "" {
		n, err := strconv.Atoi(f.maxWrite)
		if err != nil || n < 1<<20 {
			return fmt.Errorf("serve: --max-write-bytes (or AISLE_MAX_WRITE_BYTES) %q: want a number of bytes of at least 1048576", f.maxWrite)
		}
		maxWrite = n
	}
	grace, err := time.ParseDuration(cmp.Or(f.grace, defaultGrace))
	if err != nil || grace <= 0 {
		return fmt.Errorf("serve: --grace (or AISLE_GRACE) %q: want a duration above 0, such as 30s", f.grace)
	}
	slow, err := time.ParseDuration(cmp.Or(f.slowRequest, defaultSlowRequest))
	if err != nil || slow < 0 {
		return fmt.Errorf("serve: --slow-request (or AISLE_SLOW_REQUEST) %q: want a duration, such as 1s, or 0 for none", f.slowRequest)
	}
	every := snapshotEvery
	if f.snapshotEvery != "" {
		d, err := time.ParseDuration(f.snapshotEvery)
		if err != nil || d <= 0 {
			return fmt.Errorf("serve: --snapshot-every (or AISLE_SNAPSHOT_EVERY) %q: want a duration above 0, such as 10m", f.snapshotEvery)
		}
		every = d
	}
	budget := behaviour.DefaultBudget
	if f.maxVisitors != "" {
		n, err := strconv.Atoi(f.maxVisitors)
		if err != nil || n < 1 {
			return fmt.Errorf("serve: --max-visitors (or AISLE_MAX_VISITORS) %q: want a number of visitors of at least 1", f.maxVisitors)
		}
		budget = behaviour.BudgetFor(n)
	}
	limits, err := f.rateLimits()
	if err != nil {
		return err
	}
	procs, err := serveProcs(f.procs)
	if err != nil {
		return err
	}
	var cs clusterSettings
	if f.cluster.clustered() {
		if cs, err = f.cluster.check(); err != nil {
			return err
		}
	}
	runtime.GOMAXPROCS(procs)
	lang, err := analysis.ParseLanguage(f.lang)
	if err != nil {
		return err
	}
	// The server listens before it loads: a taken address fails at once,
	// and /readyz reports the loading (httpapi.Gate) until the API opens.
	opt := httpapi.Options{Logger: log, MaxWriteBytes: maxWrite, RateLimits: limits, Storefront: f.storefront, SlowRequest: slow}
	gate := httpapi.NewGate(opt)
	srv := gate.HTTPServer()
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return fmt.Errorf("listen %s: %w", f.addr, err)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	opened := false
	defer func() {
		if !opened { // a failed start: the connections of /readyz's pollers end
			srv.Shutdown() //nolint:errcheck // the start's error is the one returned
		}
	}()
	log.Info("loading: /readyz answers 503 until every website is loaded", "addr", "http://"+ln.Addr().String())
	gate.Progress("reading the configuration", 0, 0)
	cfg, err := st.Config()
	if err != nil {
		return err
	}
	switch {
	case cfg == nil && f.cluster.clustered():
		// The cluster's server log says what to serve (serve_cluster.go).
		cfg = &config.File{}
	case cfg == nil:
		// Stored, so the generated website id is kept.
		cfg = config.Default(config.NewUUID())
		var b store.Batch
		b.SetConfig(cfg)
		if _, err := st.Append(&b, true); err != nil {
			return fmt.Errorf("store the default configuration: %w", err)
		}
		log.Info("no configuration stored: serving the default search configuration", "website", cfg.Websites[0].UUID, "key", config.DefaultKey)
	}
	// One website's data or configuration never stops the others: a
	// website that cannot be opened is logged, reported by /healthz and
	// not served.
	gate.Progress("opening websites", 0, len(cfg.Websites))
	gens, failed := live.OpenEach(st, cfg, lang, log, func(done int) { gate.Progress("opening websites", done, len(cfg.Websites)) })
	for _, fl := range failed {
		log.Error("website not served: it could not be opened", "website", fl.UUID, "err", fl.Err)
	}
	for _, uuid := range st.ProductWebsites() {
		if _, ok := cfg.Website(uuid); !ok {
			log.Warn("the data directory holds products of a website the configuration does not name: they are not served (add the website to the configuration to serve them)", "website", uuid)
		}
	}
	for _, g := range gens {
		log.Info("ready", "website", g.Website.UUID, "name", g.Website.Name, "products", g.Products.Len())
		if g.Products.Len() == 0 {
			log.Warn("the catalog is empty: load one with aisle import", "website", g.Website.UUID)
		}
	}

	adminKey := f.adminKey
	if adminKey == "" {
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return err
		}
		adminKey = "aisle_admin_" + hex.EncodeToString(b[:])
		fmt.Fprintf(stdout, "Admin API key (generated; pass --admin-key to fix it): %s\n", adminKey)
	}
	eng := engine.New(adminKey, gens...)
	if f.clock != nil {
		eng.UseClock(f.clock)
	}
	eng.Replace(gens, failed)
	writer := live.New(st, eng, lang, log)
	defer writer.Close() // before the store closes: background saves end first
	cn := f.node
	if f.cluster.clustered() {
		if cn == nil {
			if cn, err = f.cluster.connect(f.data, cs, log); err != nil {
				return err
			}
			defer cn.close()
		}
		url := cmp.Or(f.cluster.advertise, "http://"+ln.Addr().String())
		defer cn.leave() // before the writer closes: no entry is applied after
		if err := cn.join(ctx, cs, joinArgs{data: f.data, url: url, st: st, eng: eng, writer: writer, gate: gate, log: log}); err != nil {
			return err
		}
		opt.Cluster, opt.MaxLag = cn.rep, cs.maxLag
	}
	bhv := engine.NewBehaviours()
	bhv.UseCatalog(eng)
	bhv.UseBudget(budget)
	secret, err := st.Secret()
	if err != nil {
		return err
	}
	bhv.UseSecret(secret)
	start := time.Now()
	gate.Progress("replaying the visitors' events", len(cfg.Websites), len(cfg.Websites))
	kept := live.NewBehaviourStore(st, bhv)
	n, loaded, err := kept.Replay()
	if err != nil {
		return fmt.Errorf("replay the visitors' events: %w", err)
	}
	if n > 0 || loaded > 0 {
		log.Info("visitors' events replayed", "events", n, "snapshots", loaded, "took", time.Since(start).Round(time.Millisecond),
			"memory", fmt.Sprintf("%.1f MB", float64(bhv.Bytes())/1e6))
	}
	// Closed after the collector (defers run last first): every event
	// answered is in the last snapshot, and the next start folds none.
	snapshots := live.StartSnapshots(kept, live.SnapshotOptions{Every: every, Folded: n, AfterReplay: snapshotAfterReplay, Log: log})
	defer snapshots.Close()
	gate.Progress("opening the API", len(cfg.Websites), len(cfg.Websites))
	eng.UseBehaviours(bhv)
	collector := live.NewCollector(st, eng, bhv)
	defer collector.Close() // events collected are committed first
	if cn != nil {
		if err := cn.rep.FollowEvents(ctx, collector); err != nil {
			return fmt.Errorf("follow the visitors' events: %w", err)
		}
	}
	graph, err := gql.New(gql.Options{Engine: eng, Live: writer, Behaviours: bhv, Logger: log})
	if err != nil {
		return fmt.Errorf("graphql schema: %w", err)
	}
	opt.Live, opt.Collector, opt.Behaviours, opt.GraphQL = writer, collector, bhv, graph.Serve
	opt.Metrics = serverMetrics(st, eng, bhv, writer, collector)
	if rep, ok := opt.Cluster.(*replica.Replicator); ok {
		replicationMetrics(opt.Metrics, rep)
	}
	opt.GraphQLMutation = gql.IsMutation
	if f.debugAddr != "" {
		dl, err := net.Listen("tcp", f.debugAddr)
		if err != nil {
			return fmt.Errorf("listen --debug-addr %s: %w", f.debugAddr, err)
		}
		defer dl.Close()
		log.Info("profiler listening", "addr", "http://"+dl.Addr().String()+"/debug/pprof/")
		go http.Serve(dl, http.DefaultServeMux) //nolint:errcheck // ends when dl closes
	}
	if f.opening != nil {
		f.opening(ln.Addr().String())
	}
	gate.Open(httpapi.New(eng, opt))
	opened = true
	log.Info("listening", "addr", "http://"+ln.Addr().String(), "procs", procs, "cores", runtime.NumCPU())
	if ready != nil {
		ready(served{addr: ln.Addr().String(), adminKey: adminKey, websites: gens})
	}
	// Building or loading leaves garbage as large as the index: it goes
	// back to the OS once the server answers, rather than staying
	// resident or holding the first search back (about 0.1 s at a
	// million products).
	go debug.FreeOSMemory()
	select {
	case <-ctx.Done():
		// No new connection is accepted; requests in flight finish within
		// the grace period, then idle and late connections are closed.
		// The deferred closes then commit the events collected, save the
		// behaviour's snapshot and close the store.
		log.Info("shutting down", "grace", grace)
		sctx, cancel := context.WithTimeout(context.Background(), grace)
		defer cancel()
		if err := srv.ShutdownWithContext(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return err
		} else if err != nil {
			log.Warn("requests still in flight at the end of the grace period: the server stops without their answers", "grace", grace)
		}
		return nil
	case err := <-errc:
		return err
	}
}

// logger is the log the flags ask for: log itself for text (the
// terminal's), a JSON handler on stderr for json.
func (f *serveFlags) logger(stderr io.Writer, log *slog.Logger) (*slog.Logger, error) {
	switch f.logFormat {
	case "", "text":
		return log, nil
	case "json":
		return slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo})), nil
	}
	return nil, fmt.Errorf("--log-format %q: want text or json", f.logFormat)
}
