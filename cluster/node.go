package cluster

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// NodeOptions configures an embedded NATS server with JetStream.
type NodeOptions struct {
	// Name is the server's name, unique in its cluster (JetStream places
	// a stream's replicas by it); required.
	Name string
	// Listen is the address clients connect to, HOST:PORT; port 0 picks
	// a free one (Node.ClientURL says which). Default "127.0.0.1:4222".
	Listen string
	// Cluster is the address the cluster's other nodes connect to,
	// HOST:PORT; empty (the default) runs a node alone.
	Cluster string
	// Routes are the other nodes' Cluster addresses, HOST:PORT; a node
	// learns the rest of the cluster from any one of them.
	Routes []string
	// Dir holds JetStream's files (the streams); required.
	Dir string
	// Logger receives the server's notices, warnings and errors; default
	// slog.Default().
	Logger *slog.Logger
	// Ready bounds how long StartNode waits for the node to take
	// clients; default 10s.
	Ready time.Duration
}

// clusterName is the NATS cluster name every Aisle node uses.
const clusterName = "aisle"

// Node is an embedded NATS server.
type Node struct {
	srv *server.Server
}

// ErrNodeOptions marks NodeOptions StartNode refuses; the wrapping error
// names the option.
var ErrNodeOptions = errors.New("bad NATS node options")

// StartNode starts a NATS server with JetStream in this process and
// waits until it takes clients. The cluster's JetStream is usable once
// a majority of its nodes run (a stream of three replicas needs two).
func StartNode(o NodeOptions) (*Node, error) {
	if o.Name == "" || o.Dir == "" {
		return nil, fmt.Errorf("%w: a name and a directory are required", ErrNodeOptions)
	}
	if o.Listen == "" {
		o.Listen = "127.0.0.1:4222"
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Ready <= 0 {
		o.Ready = 10 * time.Second
	}
	host, port, err := hostPort(o.Listen)
	if err != nil {
		return nil, fmt.Errorf("%w: listen address: %w", ErrNodeOptions, err)
	}
	opts := &server.Options{ServerName: o.Name, Host: host, Port: port, JetStream: true, StoreDir: o.Dir,
		NoSigs: true, MaxPayload: maxPayload}
	if port == 0 {
		opts.Port = server.RANDOM_PORT
	}
	if o.Cluster != "" {
		h, p, err := hostPort(o.Cluster)
		if err != nil {
			return nil, fmt.Errorf("%w: cluster address: %w", ErrNodeOptions, err)
		}
		opts.Cluster = server.ClusterOpts{Name: clusterName, Host: h, Port: p}
		for _, r := range o.Routes {
			if _, _, err := hostPort(r); err != nil {
				return nil, fmt.Errorf("%w: route %q: %w", ErrNodeOptions, r, err)
			}
			opts.Routes = append(opts.Routes, &url.URL{Scheme: "nats", Host: r})
		}
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNodeOptions, err)
	}
	srv.SetLoggerV2(natsLogger{o.Logger.With("nats", o.Name)}, false, false, false)
	go srv.Start()
	if !srv.ReadyForConnections(o.Ready) {
		srv.Shutdown()
		return nil, fmt.Errorf("NATS node %s did not take clients within %s", o.Name, o.Ready)
	}
	return &Node{srv: srv}, nil
}

// ClientURL is the URL clients connect to.
func (n *Node) ClientURL() string { return n.srv.ClientURL() }

// Close stops the node and waits until it has.
func (n *Node) Close() {
	n.srv.Shutdown()
	n.srv.WaitForShutdown()
}

// hostPort splits HOST:PORT, with a port number from 0 to 65535.
func hostPort(addr string) (string, int, error) {
	host, ps, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	p, err := strconv.Atoi(ps)
	if err != nil || p < 0 || p > 65535 {
		return "", 0, fmt.Errorf("port %q: want a number from 0 to 65535", ps)
	}
	return host, p, nil
}
