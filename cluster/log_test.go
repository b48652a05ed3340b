package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// testCluster is n embedded nodes on loopback, each routed to all.
func testCluster(t *testing.T, n int) []*Node {
	t.Helper()
	dir := t.TempDir()
	routes := make([]string, n)
	for i := range routes {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		routes[i] = l.Addr().String()
		l.Close()
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	nodes := make([]*Node, n)
	for i := range nodes {
		node, err := StartNode(NodeOptions{Name: fmt.Sprint("n", i), Listen: "127.0.0.1:0", Cluster: routes[i], Routes: routes,
			Dir: filepath.Join(dir, fmt.Sprint("n", i)), Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		nodes[i] = node
		t.Cleanup(node.Close)
	}
	return nodes
}

// connect is a client of the nodes, reconnecting to any of them.
func connect(t *testing.T, nodes ...*Node) *nats.Conn {
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

// openLog opens website's log with replicas copies, retrying while the
// cluster elects its JetStream leader (a few seconds after it starts).
func openLog(t *testing.T, nc *nats.Conn, website string, replicas int) *Log {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		l, err := OpenLog(ctx, nc, website, replicas)
		cancel()
		if err == nil {
			return l
		}
		if time.Now().After(deadline) {
			t.Fatalf("open the log: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// appendRetrying is Append, retried until deadline while the stream has
// no leader (a node just stopped); a retry of a position that was taken
// is answered by its first append.
func appendRetrying(t *testing.T, l *Log, after uint64, entry string) uint64 {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		seq, err := l.Append(ctx, after, []byte(entry))
		cancel()
		if err == nil {
			return seq
		}
		if errors.Is(err, ErrConflict) || time.Now().After(deadline) {
			t.Fatalf("append after %d: %v", after, err)
		}
	}
}

// follow collects the entries after position after until want are read.
func follow(t *testing.T, l *Log, after uint64, want int) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var got []string
	errDone := errors.New("done")
	err := l.Follow(ctx, after, func(seq uint64, entry []byte) error {
		got = append(got, fmt.Sprintf("%d:%s", seq, entry))
		if len(got) == want {
			return errDone
		}
		return nil
	})
	if !errors.Is(err, errDone) {
		t.Errorf("follow after %d: %v (read %q)", after, err, got)
	}
	return got
}

// TestLogOnThreeNodes: a website's log on three embedded nodes takes
// appends at the position its last entry is at, refuses a second
// writer's stale append, answers a retried append once, and is followed
// in order from any position; with one node stopped it still takes and
// serves entries.
func TestLogOnThreeNodes(t *testing.T) {
	nodes := testCluster(t, 3)
	const site = "00000000-0000-4000-8000-000000000001"
	writer := openLog(t, connect(t, nodes...), site, 3)
	other := openLog(t, connect(t, nodes[1]), site, 3)

	for i := range 3 {
		if seq := appendRetrying(t, writer, uint64(i), fmt.Sprint("e", i+1)); seq != uint64(i+1) {
			t.Fatalf("entry %d appended at %d", i+1, seq)
		}
	}
	ctx := context.Background()
	if _, err := other.Append(ctx, 2, []byte("stale")); !errors.Is(err, ErrConflict) {
		t.Errorf("a stale append: %v, want ErrConflict", err)
	}
	if seq, err := writer.Append(ctx, 2, []byte("e3")); err != nil || seq != 3 {
		t.Errorf("a retried append: at %d, %v; want its first position, 3", seq, err)
	}
	if last, err := other.Last(ctx); err != nil || last != 3 {
		t.Errorf("last entry: %d, %v; want 3", last, err)
	}
	if _, err := writer.Append(ctx, 3, make([]byte, maxPayload+1)); !errors.Is(err, ErrEntryTooLarge) {
		t.Errorf("an entry over the limit: %v, want ErrEntryTooLarge", err)
	}
	if got := follow(t, other, 0, 3); !slices.Equal(got, []string{"1:e1", "2:e2", "3:e3"}) {
		t.Errorf("followed from the start: %q", got)
	}
	if got := follow(t, other, 2, 1); !slices.Equal(got, []string{"3:e3"}) {
		t.Errorf("followed after 2: %q", got)
	}

	// One node of three stops: the other two are a majority.
	nodes[2].Close()
	var wg sync.WaitGroup
	var tail []string
	wg.Go(func() { tail = follow(t, other, 3, 2) })
	for i := 3; i < 5; i++ {
		if seq := appendRetrying(t, writer, uint64(i), fmt.Sprint("e", i+1)); seq != uint64(i+1) {
			t.Fatalf("entry %d appended at %d with a node down", i+1, seq)
		}
	}
	wg.Wait()
	if !slices.Equal(tail, []string{"4:e4", "5:e5"}) {
		t.Errorf("followed with a node down: %q", tail)
	}
}
