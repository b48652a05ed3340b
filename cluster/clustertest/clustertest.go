// Package clustertest starts embedded NATS clusters on loopback for
// tests of the packages above package cluster.
package clustertest

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/aisle-search/aisle/cluster"
)

// FreeAddrs are n loopback addresses free when asked.
func FreeAddrs(t testing.TB, n int) []string {
	t.Helper()
	addrs := make([]string, n)
	for i := range addrs {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addrs[i] = l.Addr().String()
		l.Close()
	}
	return addrs
}

// Nodes starts n embedded NATS nodes with JetStream, each routed to
// all, closed when the test ends.
func Nodes(t testing.TB, n int) []*cluster.Node {
	t.Helper()
	dir := t.TempDir()
	routes := FreeAddrs(t, n)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	nodes := make([]*cluster.Node, n)
	for i := range nodes {
		o := cluster.NodeOptions{Name: fmt.Sprint("n", i), Listen: "127.0.0.1:0", Dir: filepath.Join(dir, fmt.Sprint("n", i)), Logger: quiet}
		if n > 1 {
			o.Cluster, o.Routes = routes[i], routes
		}
		node, err := cluster.StartNode(o)
		if err != nil {
			t.Fatal(err)
		}
		nodes[i] = node
		t.Cleanup(node.Close)
	}
	return nodes
}

// Connect is a client of nodes, reconnecting to any of them, closed
// when the test ends.
func Connect(t testing.TB, nodes ...*cluster.Node) *nats.Conn {
	t.Helper()
	var urls []string
	for _, n := range nodes {
		urls = append(urls, n.ClientURL())
	}
	nc, err := nats.Connect(strings.Join(urls, ","), nats.MaxReconnects(-1), nats.ReconnectWait(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}
