package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/aisle-search/aisle/cluster"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/httpapi"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/replica"
	"github.com/aisle-search/aisle/store"
)

// clusterFlags are aisle serve's flags of a cluster (docs/scaling.md).
// Without --nats and --nats-embedded the server runs alone, as it always
// did, and none of the others is read.
type clusterFlags struct {
	nats        string // client URLs of the cluster's NATS servers, comma-separated
	embedded    bool   // run a NATS server in this process
	natsListen  string // the embedded server's client address
	natsCluster string // the embedded server's route address; "": alone
	natsRoutes  string // the other nodes' route addresses, comma-separated
	natsName    string // the embedded server's name; "": from the route or client address
	natsDir     string // the embedded server's files; "": DATA/nats
	replicas    string // copies of each log; "": 3 with routes or --nats, else 1
	advertise   string // this node's URL for the others; "": http:// and the listen address
	maxLag      string // entries a replica may lag before /readyz fails
	leaseTTL    string // a writer's lease's life past its last renewal
	snapshots   string // how often the writer publishes a snapshot
}

func (f *clusterFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.nats, "nats", env("AISLE_NATS", ""), "join the cluster of the NATS servers at these `URLS` (comma-separated; nats://HOST:PORT), with JetStream")
	fs.BoolVar(&f.embedded, "nats-embedded", envBool("AISLE_NATS_EMBEDDED"), "run a NATS server with JetStream in this process and join its cluster: three servers started so form a cluster with no other software")
	fs.StringVar(&f.natsListen, "nats-listen", env("AISLE_NATS_LISTEN", "127.0.0.1:4222"), "the embedded NATS server's client address `HOST:PORT`")
	fs.StringVar(&f.natsCluster, "nats-cluster", env("AISLE_NATS_CLUSTER", ""), "the embedded NATS server's cluster address `HOST:PORT`, which the other nodes' --nats-routes name; empty: a cluster of one")
	fs.StringVar(&f.natsRoutes, "nats-routes", env("AISLE_NATS_ROUTES", ""), "the cluster addresses of the other nodes' embedded NATS servers, `HOST:PORT,...`")
	fs.StringVar(&f.natsName, "nats-name", env("AISLE_NATS_NAME", ""), "the embedded NATS server's `NAME`, unique in the cluster (default: its cluster or client address)")
	fs.StringVar(&f.natsDir, "nats-dir", env("AISLE_NATS_DIR", ""), "the embedded NATS server's stream files `DIR` (default: DATA/nats)")
	fs.StringVar(&f.replicas, "nats-replicas", env("AISLE_NATS_REPLICAS", ""), "copies of each log the cluster keeps, `N` (default 3 in a cluster, 1 alone)")
	fs.StringVar(&f.advertise, "advertise", env("AISLE_ADVERTISE", ""), "this node's `URL` for the other nodes, which send it the changes it writes (default http:// and the --addr it listens on)")
	fs.StringVar(&f.maxLag, "max-lag", env("AISLE_MAX_LAG", defaultMaxLag), "/readyz fails while this node has not applied `N` or more entries of a log, so a load balancer drains it")
	fs.StringVar(&f.snapshots, "nats-snapshot-every", env("AISLE_NATS_SNAPSHOT_EVERY", defaultClusterSnapshots), "how often the server log's writer publishes a snapshot of its store, which new nodes start from, `DURATION` (only when a log moved)")
	fs.StringVar(&f.leaseTTL, "lease-ttl", env("AISLE_LEASE_TTL", defaultLeaseTTL), "how long a writer's lease outlives its last renewal, `DURATION`: how long a dead writer's changes are refused before another node takes over")
}

// The defaults of --max-lag and --lease-ttl.
const (
	defaultMaxLag           = "1000"
	defaultLeaseTTL         = "3s"
	defaultClusterSnapshots = "10m"
)

// envBool is an AISLE_* switch: set to 1, true or yes.
func envBool(name string) bool {
	v, _ := strconv.ParseBool(os.Getenv(name))
	return v || strings.EqualFold(os.Getenv(name), "yes")
}

// clustered reports whether the flags join a cluster.
func (f *clusterFlags) clustered() bool { return f.nats != "" || f.embedded }

// clusterSettings are the flags, checked.
type clusterSettings struct {
	replicas      int
	maxLag        uint64
	leaseTTL      time.Duration
	snapshotEvery time.Duration
	routes        []string
}

// check reads the flags' numbers and lists.
func (f *clusterFlags) check() (clusterSettings, error) {
	var s clusterSettings
	if f.nats != "" && f.embedded {
		return s, errors.New("serve: --nats joins NATS servers that run apart, --nats-embedded runs one here: give one of them")
	}
	for r := range strings.SplitSeq(f.natsRoutes, ",") {
		if r = strings.TrimSpace(r); r != "" {
			s.routes = append(s.routes, r)
		}
	}
	s.replicas = 1
	if f.nats != "" || len(s.routes) > 0 {
		s.replicas = 3
	}
	if f.replicas != "" {
		n, err := strconv.Atoi(f.replicas)
		if err != nil || n < 1 || n > 5 {
			return s, fmt.Errorf("serve: --nats-replicas (or AISLE_NATS_REPLICAS) %q: want 1 to 5 copies", f.replicas)
		}
		s.replicas = n
	}
	lag, err := strconv.ParseUint(cmp.Or(f.maxLag, defaultMaxLag), 10, 64)
	if err != nil || lag < 1 {
		return s, fmt.Errorf("serve: --max-lag (or AISLE_MAX_LAG) %q: want a number of entries of at least 1", f.maxLag)
	}
	s.maxLag = lag
	ttl, err := time.ParseDuration(cmp.Or(f.leaseTTL, defaultLeaseTTL))
	if err != nil || ttl < 300*time.Millisecond {
		return s, fmt.Errorf("serve: --lease-ttl (or AISLE_LEASE_TTL) %q: want a duration of at least 300ms, such as 3s", f.leaseTTL)
	}
	s.leaseTTL = ttl
	every, err := time.ParseDuration(cmp.Or(f.snapshots, defaultClusterSnapshots))
	if err != nil || every < time.Second {
		return s, fmt.Errorf("serve: --nats-snapshot-every (or AISLE_NATS_SNAPSHOT_EVERY) %q: want a duration of at least 1s, such as 10m", f.snapshots)
	}
	s.snapshotEvery = every
	return s, nil
}

// clusterNode is this server's place in a cluster: its embedded NATS
// server, if any, its connection and its Replicator.
type clusterNode struct {
	node *cluster.Node
	nc   *nats.Conn
	rep  *replica.Replicator
}

// joinArgs are what join needs of the server being started.
type joinArgs struct {
	data, url string
	st        *store.Store
	eng       *engine.Engine
	writer    *live.Writer
	gate      *httpapi.Gate
	log       *slog.Logger
}

// connect starts the embedded NATS server (--nats-embedded) or connects
// to the cluster's (--nats); data is the data directory (the embedded
// server's files default to DATA/nats).
func (f *clusterFlags) connect(data string, s clusterSettings, log *slog.Logger) (*clusterNode, error) {
	cn := &clusterNode{}
	urls := f.nats
	if f.embedded {
		dir := f.natsDir
		if dir == "" {
			dir = filepath.Join(data, "nats")
		}
		name := cmp.Or(f.natsName, f.natsCluster, f.natsListen)
		node, err := cluster.StartNode(cluster.NodeOptions{Name: name, Listen: f.natsListen, Cluster: f.natsCluster,
			Routes: s.routes, Dir: dir, Logger: log})
		if err != nil {
			return nil, err
		}
		cn.node, urls = node, node.ClientURL()
		log.Info("NATS server started", "name", name, "clients", node.ClientURL(), "cluster", f.natsCluster, "routes", len(s.routes))
	}
	nc, err := nats.Connect(urls, nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond), nats.RetryOnFailedConnect(true))
	if err != nil {
		cn.close()
		return nil, fmt.Errorf("connect to NATS at %s: %w", urls, err)
	}
	cn.nc = nc
	return cn, nil
}

// bootstrap fills data, a new node's data directory (no store in it
// yet), with the cluster's snapshot (replica.Bootstrap). Only a node
// with data, or given --config (seeds), seeds a new cluster: a new node
// without waits for the seed's snapshot, so that it never starts from an
// empty catalog while the seed's is on its way. With --config it loads
// the snapshot when there is one, and seeds otherwise.
func (cn *clusterNode) bootstrap(ctx context.Context, data string, s clusterSettings, seeds bool, log *slog.Logger) error {
	if _, err := os.Stat(filepath.Join(data, "CURRENT")); err == nil {
		return nil // a store: it follows the logs from its positions
	}
	if err := os.MkdirAll(data, 0o755); err != nil {
		return err
	}
	ok, err := replica.Bootstrap(ctx, cn.nc, s.replicas, data, !seeds, log)
	if err != nil {
		return fmt.Errorf("a new node of the cluster: %w", err)
	}
	if !ok {
		log.Info("a new node given --config, and the cluster has no snapshot: it seeds the cluster")
	}
	return nil
}

// join starts the Replicator on the connected node and waits until this
// node has applied the server's log to its last entry.
func (cn *clusterNode) join(ctx context.Context, s clusterSettings, a joinArgs) error {
	a.gate.Progress("joining the cluster: its NATS servers elect their leaders", 0, 0)
	var err error
	cn.rep, err = replica.Start(ctx, replica.Options{NATS: cn.nc, Replicas: s.replicas, URL: a.url, LeaseTTL: s.leaseTTL,
		Store: a.st, Engine: a.eng, Writer: a.writer, Log: a.log})
	if err != nil {
		return fmt.Errorf("join the cluster: %w", err)
	}
	if err := cn.catchUp(ctx, a); err != nil {
		return err
	}
	cn.rep.KeepSnapshots(s.snapshotEvery)
	return nil
}

// catchUp waits until this node has applied the server's log through its
// last entry, reporting the progress on /readyz. A node that writes the
// server's log of a new cluster (it has no entry) publishes the stored
// configuration, or the default one, as its first.
func (cn *clusterNode) catchUp(ctx context.Context, a joinArgs) error {
	for {
		st := cn.status(replica.ServerLog)
		a.gate.Progress("applying the cluster's server log", int(st.Applied), int(st.Last))
		switch {
		case st.Writing && st.Last == 0:
			err := cn.seed(a)
			if _, other := errors.AsType[*live.NotWriterError](err); !other {
				return err
			} // another node seeded first: follow it
		case st.Last > 0 && st.Applied >= st.Last:
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// seed seeds a new cluster: it publishes a snapshot of this node's
// store, which the new nodes waiting for it load (so they hold a catalog
// it was given before the cluster formed, by aisle import), then the
// server log's first entries: this node's secret (every node hashes
// visitors' emails with it) and the stored configuration, or a default
// one (its website id made here). A node that loaded the snapshot may
// take the server's lease first: it seeds the same, and the log takes
// one node's entries (the other's are refused, and it follows).
func (cn *clusterNode) seed(a joinArgs) error {
	a.gate.Progress("publishing the new cluster's first snapshot", 0, 0)
	if err := cn.rep.SnapshotNow(); err != nil {
		return fmt.Errorf("publish the first snapshot of a new cluster: %w", err)
	}
	secret, err := a.st.Secret()
	if err != nil {
		return err
	}
	if err := a.writer.ShareSecret(secret); err != nil {
		return fmt.Errorf("publish the secret of a new cluster: %w", err)
	}
	cfg, err := a.st.Config()
	if err != nil {
		return err
	}
	if cfg == nil {
		cfg = config.Default(config.NewUUID())
		a.log.Info("a new cluster without a configuration: serving the default search configuration", "website", cfg.Websites[0].UUID, "key", config.DefaultKey)
	}
	if _, err := a.writer.SetConfig(cfg); err != nil {
		return fmt.Errorf("publish the configuration of a new cluster: %w", err)
	}
	return nil
}

// status is the log's status; zero when it is not followed.
func (cn *clusterNode) status(name string) replica.LogStatus {
	for _, s := range cn.rep.Status() {
		if s.Log == name {
			return s
		}
	}
	return replica.LogStatus{Log: name}
}

// leave stops the Replicator, its leases released; the node stays
// connected (close).
func (cn *clusterNode) leave() {
	if cn.rep != nil {
		cn.rep.Close()
		cn.rep = nil
	}
}

// close leaves the cluster, then closes the connection and stops the
// embedded server.
func (cn *clusterNode) close() {
	if cn == nil {
		return
	}
	cn.leave()
	if cn.nc != nil {
		cn.nc.Close()
	}
	if cn.node != nil {
		cn.node.Close()
	}
}
