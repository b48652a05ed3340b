package main

import (
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestClusterFlags: the cluster flags' defaults (three copies with
// routes or --nats, one alone; --max-lag 1000; --lease-ttl 3s;
// --nats-snapshot-every 10m) and their refusals, each naming the flag.
func TestClusterFlags(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		want   clusterSettings
		refuse string
	}{
		{args: []string{"--nats-embedded"}, want: clusterSettings{replicas: 1, maxLag: 1000, leaseTTL: 3 * time.Second, snapshotEvery: 10 * time.Minute}},
		{args: []string{"--nats-embedded", "--nats-routes", "a:1, b:2,,c:3"}, want: clusterSettings{replicas: 3, maxLag: 1000, leaseTTL: 3 * time.Second,
			snapshotEvery: 10 * time.Minute, routes: []string{"a:1", "b:2", "c:3"}}},
		{args: []string{"--nats", "nats://x:4222", "--max-lag", "5", "--lease-ttl", "1s", "--nats-replicas", "5", "--nats-snapshot-every", "1m"},
			want: clusterSettings{replicas: 5, maxLag: 5, leaseTTL: time.Second, snapshotEvery: time.Minute}},
		{args: []string{"--nats", "nats://x", "--nats-embedded"}, refuse: "give one of them"},
		{args: []string{"--nats-embedded", "--nats-replicas", "6"}, refuse: "--nats-replicas"},
		{args: []string{"--nats-embedded", "--max-lag", "0"}, refuse: "--max-lag"},
		{args: []string{"--nats-embedded", "--lease-ttl", "100ms"}, refuse: "--lease-ttl"},
		{args: []string{"--nats-embedded", "--nats-snapshot-every", "soon"}, refuse: "--nats-snapshot-every"},
	} {
		var f clusterFlags
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		f.register(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		got, err := f.check()
		switch {
		case tc.refuse != "" && (err == nil || !strings.Contains(err.Error(), tc.refuse)):
			t.Errorf("%q: %v, want a refusal naming %s", tc.args, err, tc.refuse)
		case tc.refuse == "" && err != nil:
			t.Errorf("%q: %v", tc.args, err)
		case tc.refuse == "" && (got.replicas != tc.want.replicas || got.maxLag != tc.want.maxLag || got.leaseTTL != tc.want.leaseTTL ||
			got.snapshotEvery != tc.want.snapshotEvery || !slices.Equal(got.routes, tc.want.routes)):
			t.Errorf("%q: %+v, want %+v", tc.args, got, tc.want)
		}
	}
}
