package cluster_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/aisle-search/aisle/cluster"
	"github.com/aisle-search/aisle/cluster/clustertest"
)

// TestSnapshots on one node: a snapshot of several megabytes comes back
// byte for byte with its position; a second replaces the first; a
// website without one is cluster.ErrNoSnapshot.
func TestSnapshots(t *testing.T) {
	node, err := cluster.StartNode(cluster.NodeOptions{Name: "n0", Listen: "127.0.0.1:0", Dir: t.TempDir(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(node.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	snaps, err := cluster.OpenSnapshots(ctx, clustertest.Connect(t, node), 1)
	if err != nil {
		t.Fatal(err)
	}
	const site = "00000000-0000-4000-8000-000000000001"
	if _, _, err := snaps.Get(ctx, site); !errors.Is(err, cluster.ErrNoSnapshot) {
		t.Fatalf("no snapshot yet: %v, want cluster.ErrNoSnapshot", err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		position uint64
		size     int
	}{{42, 3 << 20}, {97, 100}} {
		data := make([]byte, tc.size)
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		if err := snaps.Put(ctx, site, tc.position, bytes.NewReader(data)); err != nil {
			t.Fatal(err)
		}
		rc, pos, err := snaps.Get(ctx, site)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || pos != tc.position || !bytes.Equal(got, data) {
			t.Errorf("snapshot at %d: read %d bytes at %d, %v; want %d bytes", tc.position, len(got), pos, err, len(data))
		}
	}
	other := strings.Replace(site, "1", "2", 1)
	if _, _, err := snaps.Get(ctx, other); !errors.Is(err, cluster.ErrNoSnapshot) {
		t.Errorf("another website: %v, want cluster.ErrNoSnapshot", err)
	}
	// A snapshot whose position is not a number: refused, naming it.
	if err := cluster.PutRawSnapshot(ctx, snaps, other, map[string]string{cluster.SnapshotPositionKey: "x"}, strings.NewReader("state")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := snaps.Get(ctx, other); !errors.Is(err, cluster.ErrSnapshotCorrupt) || !strings.Contains(err.Error(), `"x"`) {
		t.Errorf("a snapshot without a position: %v, want cluster.ErrSnapshotCorrupt naming it", err)
	}
}
