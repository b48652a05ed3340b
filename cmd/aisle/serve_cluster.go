package main

import (
	"context"
	"errors"
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
}

func (f *clusterFlags) register(fs interface {
	StringVar(p *string, name, value, usage string)
	BoolVar(p *bool, name string, value bool, usage string)
}) {
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
	fs.StringVar(&f.leaseTTL, "lease-ttl", env("AISLE_LEASE_TTL", defaultLeaseTTL), "how long a writer's lease outlives its last renewal, `DURATION`: how long a dead writer's changes are refused before another node takes over")
}

// The defaults of --max-lag and --lease-ttl.
const (
	defaultMaxLag   = "1000"
	defaultLeaseTTL = "3s"
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
	replicas int
	maxLag   uint64
	leaseTTL time.Duration
	routes   []string
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
	lag, err := strconv.ParseUint(cmpOr(f.maxLag, defaultMaxLag), 10, 64)
	if err != nil || lag < 1 {
		return s, fmt.Errorf("serve: --max-lag (or AISLE_MAX_LAG) %q: want a number of entries of at least 1", f.maxLag)
	}
	s.maxLag = lag
	ttl, err := time.ParseDuration(cmpOr(f.leaseTTL, defaultLeaseTTL))
	if err != nil || ttl < 300*time.Millisecond {
		return s, fmt.Errorf("serve: --lease-ttl (or AISLE_LEASE_TTL) %q: want a duration of at least 300ms, such as 3s", f.leaseTTL)
	}
	s.leaseTTL = ttl
	return s, nil
}

func cmpOr(v, def string) string {
	if v == "" {
		return def
	}
	return v
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

// join starts the embedded NATS server (--nats-embedded) or connects to
// the cluster's (--nats), starts the Replicator and waits until this
// node has applied the server's log to its last entry.
func (f *clusterFlags) join(ctx context.Context, s clusterSettings, a joinArgs) (*clusterNode, error) {
	cn := &clusterNode{}
	urls := f.nats
	if f.embedded {
		dir := f.natsDir
		if dir == "" {
			dir = filepath.Join(a.data, "nats")
		}
		name := cmpOr(f.natsName, cmpOr(f.natsCluster, f.natsListen))
		a.gate.Progress("starting the embedded NATS server", 0, 0)
		node, err := cluster.StartNode(cluster.NodeOptions{Name: name, Listen: f.natsListen, Cluster: f.natsCluster,
			Routes: s.routes, Dir: dir, Logger: a.log})
		if err != nil {
			return nil, err
		}
		cn.node, urls = node, node.ClientURL()
		a.log.Info("NATS server started", "name", name, "clients", node.ClientURL(), "cluster", f.natsCluster, "routes", len(s.routes))
	}
	nc, err := nats.Connect(urls, nats.Name(a.url), nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond),
		nats.RetryOnFailedConnect(true))
	if err != nil {
		cn.close()
		return nil, fmt.Errorf("connect to NATS at %s: %w", urls, err)
	}
	cn.nc = nc
	a.gate.Progress("joining the cluster: its NATS servers elect their leaders", 0, 0)
	cn.rep, err = replica.Start(ctx, replica.Options{NATS: nc, Replicas: s.replicas, URL: a.url, LeaseTTL: s.leaseTTL,
		Store: a.st, Engine: a.eng, Writer: a.writer, Log: a.log})
	if err != nil {
		cn.close()
		return nil, fmt.Errorf("join the cluster: %w", err)
	}
	if err := cn.catchUp(ctx, a); err != nil {
		cn.close()
		return nil, err
	}
	return cn, nil
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
			return cn.seed(a)
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

// seed publishes the first entry of a new cluster's server log: the
// stored configuration, or a default one (its website id made here).
func (cn *clusterNode) seed(a joinArgs) error {
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

// close leaves the cluster: the Replicator first (its leases released),
// then the connection and the embedded server.
func (cn *clusterNode) close() {
	if cn == nil {
		return
	}
	if cn.rep != nil {
		cn.rep.Close()
	}
	if cn.nc != nil {
		cn.nc.Close()
	}
	if cn.node != nil {
		cn.node.Close()
	}
}
