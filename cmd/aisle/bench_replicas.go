package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/bench"
	"github.com/aisle-search/aisle/engine"
)

// runReplicasBench is aisle bench --replicas: three aisle serve processes
// with embedded NATS, the imported directory the seed's and two new
// ones; the replicas' lag behind the writer under sustained updates;
// then one replica replaced by a new node with an empty directory, timed
// until it answers.
func runReplicasBench(ctx context.Context, stdout, stderr io.Writer, rep *bench.Report, g *engine.Generation, suite *bench.Suite, dir string, f *benchFlags) error {
	tmp, err := os.MkdirTemp("", "aisle-replicas-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	routes, err := freeAddrs(3)
	if err != nil {
		return err
	}
	flags := func(i int) []string {
		return []string{"--nats-embedded", "--nats-listen", "127.0.0.1:0", "--nats-cluster", routes[i],
			"--nats-routes", strings.Join(routes, ","), "--nats-name", fmt.Sprint("n", i), "--log-format", "json"}
	}
	dirs := []string{dir, filepath.Join(tmp, "n1"), filepath.Join(tmp, "n2")}
	nodes := make([]*serveProc, 3)
	defer func() {
		for _, n := range nodes {
			if n != nil {
				n.close()
			}
		}
	}()
	start := time.Now()
	for i := range nodes {
		if nodes[i], err = launchServe(ctx, dirs[i], stderr, flags(i)...); err != nil {
			return err
		}
	}
	for _, n := range nodes {
		if err := n.ready(30 * time.Minute); err != nil {
			return fmt.Errorf("bench: %w", err)
		}
	}
	out := &bench.ReplicasReport{FormedSeconds: time.Since(start).Seconds(), WriteRate: f.writeRate}
	fmt.Fprintf(stderr, "replicas: the cluster formed in %.1fs; waiting for every node's impact lists…\n", out.FormedSeconds)
	warm := time.Now()
	if err := waitWarm(ctx, nodes, 30*time.Minute); err != nil {
		return err
	}
	out.WarmedSeconds = time.Since(warm).Seconds()
	fmt.Fprintf(stderr, "replicas: impact lists built on every node in %.1fs\n", out.WarmedSeconds)
	w, err := waitWriter(ctx, nodes, suite.Website.UUID)
	if err != nil {
		return err
	}
	var replicas []string
	var last int
	for i, n := range nodes {
		if i != w {
			replicas, last = append(replicas, n.url), i
		}
	}
	pns := make([]string, g.Products.Len())
	for d := range pns {
		pns[d] = g.Products.Key(uint32(d))
	}
	out.Lag, err = bench.ReplicaLag(ctx, bench.ReplicaLagOptions{Writer: nodes[w].url, Replicas: replicas, AdminKey: "bench",
		Website: suite.Website.UUID, Key: suite.Key, Products: pns, BatchSize: f.writeBatch, WriteRate: f.writeRate,
		Probes: f.updates, ProbeEvery: 100 * time.Millisecond, Duration: f.duration,
		Log: func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }})
	if err != nil {
		for i, n := range nodes {
			fmt.Fprintf(stderr, "node %d (%s) said:\n%s\n", i, n.url, notices(n.out.String()))
		}
		return fmt.Errorf("bench: %w", err)
	}
	fmt.Fprintf(stderr, "replicas: replacing node %d by a new node with an empty directory…\n", last)
	nodes[last].close()
	nodes[last] = nil
	if err := os.RemoveAll(dirs[last]); err != nil {
		return err
	}
	if nodes[last], err = launchServe(ctx, dirs[last], stderr, flags(last)...); err != nil {
		return err
	}
	if err := nodes[last].ready(30 * time.Minute); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	out.BootstrapSeconds = nodes[last].load.Seconds()
	l := out.Lag
	fmt.Fprintf(stdout, "\nAisle cluster of three processes on %s: %s catalog, %d products; formed in %.1fs, impact lists built %.1fs later\n", rep.Machine, rep.Catalog, rep.Products, out.FormedSeconds, out.WarmedSeconds)
	fmt.Fprintf(stdout, "sustained writes of %d products paced to %.0f/s: %.0f updates/s\n", l.SustainedBatch, f.writeRate, l.SustainedUpdatesPerSec)
	fmt.Fprintf(stdout, "%d probes: the writer answers p50 %.1fms, p99 %.1fms; each replica's search returns the write p50 %.1fms, p99 %.1fms, max %.1fms after\n",
		l.Probes, l.WriteP50ms, l.WriteP99ms, l.LagP50ms, l.LagP99ms, l.LagMaxms)
	fmt.Fprintf(stdout, "a new node with an empty directory: answering in %.1fs (the cluster's snapshot, then the logs' tail)\n", out.BootstrapSeconds)
	rep.Replicas = out
	return writeReport(f.jsonOut, rep)
}

// notices are a server's log lines at Warn or Error.
func notices(log string) string {
	var b strings.Builder
	for line := range strings.Lines(log) {
		if strings.Contains(line, `"level":"WARN"`) || strings.Contains(line, `"level":"ERROR"`) {
			b.WriteString(line)
		}
	}
	return b.String()
}

// waitWarm waits up to limit until no node's /healthz lists a website
// as "warming".
func waitWarm(ctx context.Context, nodes []*serveProc, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for _, n := range nodes {
		for warming(n.url) {
			if time.Now().After(deadline) || ctx.Err() != nil {
				return fmt.Errorf("bench: %s still builds its impact lists after %s", n.url, limit)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return nil
}

// nodeHealth is what the bench reads of a node's /healthz.
type nodeHealth struct {
	Warming     []string
	Replication struct {
		Logs []struct {
			Log     string
			Writing bool
		}
	}
}

// healthOf is the /healthz of the server at url; false when it does
// not answer one.
func healthOf(url string) (h nodeHealth, ok bool) {
	resp, err := http.Get(url + "/healthz")
	if err != nil {
		return h, false
	}
	defer resp.Body.Close()
	return h, json.NewDecoder(resp.Body).Decode(&h) == nil
}

// warming reports whether the server at url lists a website as
// "warming" in /healthz, or does not answer it.
func warming(url string) bool {
	h, ok := healthOf(url)
	return !ok || len(h.Warming) > 0
}

// waitWriter is the index of the node that writes website's log.
func waitWriter(ctx context.Context, nodes []*serveProc, website string) (int, error) {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		for i, n := range nodes {
			if writes(n.url, website) {
				return i, nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return 0, errors.New("bench: no node writes the website's log within a minute")
}

// writes reports whether the server at url writes the log name.
func writes(url, name string) bool {
	h, _ := healthOf(url)
	for _, l := range h.Replication.Logs {
		if l.Log == name {
			return l.Writing
		}
	}
	return false
}

// freeAddrs are n loopback addresses free when asked.
func freeAddrs(n int) ([]string, error) {
	addrs := make([]string, n)
	for i := range addrs {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		addrs[i] = l.Addr().String()
		l.Close()
	}
	return addrs, nil
}
