package cluster_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/aisle-search/aisle/cluster"
	"github.com/aisle-search/aisle/cluster/clustertest"
)

// openLog opens website's log with replicas copies, retrying while the
// cluster elects its JetStream leader (a few seconds after it starts).
func openLog(t *testing.T, nc *nats.Conn, website string, replicas int) *cluster.Log {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		l, err := cluster.OpenLog(ctx, nc, website, replicas)
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
func appendRetrying(t *testing.T, l *cluster.Log, after uint64, entry string) uint64 {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		seq, err := l.Append(ctx, after, []byte(entry))
		cancel()
		if err == nil {
			return seq
		}
		if errors.Is(err, cluster.ErrConflict) || time.Now().After(deadline) {
			t.Fatalf("append after %d: %v", after, err)
		}
	}
}

// follow collects the entries after position after until want are read.
func follow(t *testing.T, l *cluster.Log, after uint64, want int) []string {
	t.Helper()
	got, _ := followRuns(t, l, after, want)
	return got
}

// followRuns is follow, also counting the runs the entries came in.
func followRuns(t *testing.T, l *cluster.Log, after uint64, want int) (got []string, runs int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	errDone := errors.New("done")
	err := l.Follow(ctx, after, func(run []cluster.Entry) error {
		runs++
		for _, e := range run {
			got = append(got, fmt.Sprintf("%d:%s", e.Seq, e.Data))
		}
		if len(got) >= want {
			return errDone
		}
		return nil
	})
	if !errors.Is(err, errDone) {
		t.Errorf("follow after %d: %v (read %q)", after, err, got)
	}
	return got, runs
}

// TestLogOnThreeNodes: a website's log on three embedded nodes takes
// appends at the position its last entry is at, refuses a second
// writer's stale append, answers a retried append once, and is followed
// in order from any position; with one node stopped it still takes and
// serves entries.
func TestLogOnThreeNodes(t *testing.T) {
	nodes := clustertest.Nodes(t, 3)
	const site = "00000000-0000-4000-8000-000000000001"
	writer := openLog(t, clustertest.Connect(t, nodes...), site, 3)
	other := openLog(t, clustertest.Connect(t, nodes[1]), site, 3)

	for i := range 3 {
		if seq := appendRetrying(t, writer, uint64(i), fmt.Sprint("e", i+1)); seq != uint64(i+1) {
			t.Fatalf("entry %d appended at %d", i+1, seq)
		}
	}
	ctx := context.Background()
	if _, err := other.Append(ctx, 2, []byte("stale")); !errors.Is(err, cluster.ErrConflict) {
		t.Errorf("a stale append: %v, want cluster.ErrConflict", err)
	}
	if seq, err := writer.Append(ctx, 2, []byte("e3")); err != nil || seq != 3 {
		t.Errorf("a retried append: at %d, %v; want its first position, 3", seq, err)
	}
	if last, err := other.Last(ctx); err != nil || last != 3 {
		t.Errorf("last entry: %d, %v; want 3", last, err)
	}
	if _, err := writer.Append(ctx, 3, make([]byte, cluster.MaxPayload+1)); !errors.Is(err, cluster.ErrEntryTooLarge) {
		t.Errorf("an entry over the limit: %v, want cluster.ErrEntryTooLarge", err)
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

// TestOpenLogSettings: opening a log that exists keeps its entries, and
// a stream whose settings were changed by hand gets the log's back.
func TestOpenLogSettings(t *testing.T) {
	nodes := clustertest.Nodes(t, 1)
	nc := clustertest.Connect(t, nodes...)
	const site = "00000000-0000-4000-8000-000000000002"
	appendRetrying(t, openLog(t, nc, site, 1), 0, "e1")

	ctx := context.Background()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	s, err := js.Stream(ctx, cluster.StreamName(site))
	if err != nil {
		t.Fatal(err)
	}
	cfg := s.CachedInfo().Config
	cfg.MaxMsgSize = 1024
	if _, err := js.UpdateStream(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	for _, changed := range []bool{true, false} {
		l := openLog(t, nc, site, 1)
		if last, err := l.Last(ctx); err != nil || last != 1 {
			t.Errorf("reopened (settings changed: %t): last entry %d, %v; want 1", changed, last, err)
		}
		info, err := s.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if c := info.Config; c.MaxMsgSize != cluster.MaxPayload {
			t.Errorf("reopened (settings changed: %t): max message %d bytes, want %d", changed, c.MaxMsgSize, cluster.MaxPayload)
		}
	}
}

// TestFollowRuns: a follower behind the log is handed the entries the
// stream holds in runs of several, in order, each once; one that keeps
// up is handed each new entry as it comes.
func TestFollowRuns(t *testing.T) {
	nodes := clustertest.Nodes(t, 1)
	const site = "00000000-0000-4000-8000-000000000003"
	l := openLog(t, clustertest.Connect(t, nodes...), site, 1)
	const behind = 40
	var want []string
	for i := range behind {
		appendRetrying(t, l, uint64(i), fmt.Sprint("e", i+1))
		want = append(want, fmt.Sprintf("%d:e%d", i+1, i+1))
	}
	got, runs := followRuns(t, l, 0, behind)
	if !slices.Equal(got, want) {
		t.Fatalf("followed from the start: %q", got)
	}
	if runs > behind/4 {
		t.Errorf("%d entries already logged were handed over in %d runs, want a few", behind, runs)
	}
	got, runs = followRuns(t, l, 10, behind-10)
	if !slices.Equal(got, want[10:]) || runs > behind/4 {
		t.Errorf("followed after 10: %q in %d runs", got, runs)
	}

	// Kept up: each new entry is handed over once it is logged.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	seen := make(chan []string, 4)
	go l.Follow(ctx, behind, func(run []cluster.Entry) error {
		var s []string
		for _, e := range run {
			s = append(s, fmt.Sprintf("%d:%s", e.Seq, e.Data))
		}
		seen <- s
		return nil
	})
	for i := behind; i < behind+3; i++ {
		appendRetrying(t, l, uint64(i), fmt.Sprint("e", i+1))
		select {
		case s := <-seen:
			if w := fmt.Sprintf("%d:e%d", i+1, i+1); !slices.Equal(s, []string{w}) {
				t.Errorf("entry %d handed over as %q, want [%s]", i+1, s, w)
			}
		case <-ctx.Done():
			t.Fatalf("entry %d was not handed over", i+1)
		}
	}
}
