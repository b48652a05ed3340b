package replica

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-json"
	"github.com/nats-io/nats.go"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/cluster"
	"github.com/aisle-search/aisle/cluster/clustertest"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/internal/testshop"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/store"
)

// testNode is a node of a test cluster: a store, an engine, a Writer and
// the Replicator joining them to the cluster.
type testNode struct {
	url  string
	nc   *nats.Conn
	st   *store.Store
	eng  *engine.Engine
	live *live.Writer
	rep  *Replicator
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// startNode starts a node named url on the cluster of nats, its data in
// dir.
func startNode(t *testing.T, url, dir string, nats ...*cluster.Node) *testNode {
	t.Helper()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := &testNode{url: url, nc: clustertest.Connect(t, nats...), st: st, eng: engine.New("")}
	n.live = live.New(st, n.eng, analysis.English, quiet)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n.rep, err = Start(ctx, Options{NATS: n.nc, Replicas: len(nats), URL: url, LeaseTTL: time.Second, Store: st, Engine: n.eng, Writer: n.live, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.close)
	return n
}

func (n *testNode) close() {
	if n.rep != nil {
		n.rep.Close()
		n.rep = nil
		n.live.Close()
		n.st.Close()
	}
}

// eventually waits up to d for cond, failing the test with what.
func eventually(t *testing.T, d time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > d {
			t.Fatalf("not within %s: %s", d, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return time.Since(start)
}

// writing reports whether n writes the log name.
func (n *testNode) writing(name string) bool {
	for _, s := range n.rep.Status() {
		if s.Log == name {
			return s.Writing
		}
	}
	return false
}

// search is n's answer to body on website, "" when it does not serve it.
func (n *testNode) search(t *testing.T, website, body string) string {
	t.Helper()
	g, ok := n.eng.Website(website)
	if !ok {
		return ""
	}
	var req engine.SearchRequest
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		t.Fatal(err)
	}
	res, err := g.Search(&req)
	if err != nil {
		return "error: " + err.Error()
	}
	return string(res.AppendJSON(nil))
}

// products is a batch of count products numbered from first, titled
// with word.
func products(t *testing.T, first, count int, word string) *store.Batch {
	t.Helper()
	var b store.Batch
	for i := range count {
		p := catalog.Product{ProductNumber: fmt.Sprintf("R%04d", first+i), Title: fmt.Sprintf("%s drill %d", word, first+i), Price: float64(10 + i)}
		if err := b.PutProduct(&p); err != nil {
			t.Fatal(err)
		}
	}
	return &b
}

// TestThreeNodes: on three embedded NATS nodes, the first node started
// writes the server's and the website's logs; a configuration and
// product writes made there are served by the other two (after a first
// write, within a second), each answering the writer's searches byte for byte; a change
// sent to a replica is refused naming the writer; when the writer's
// connection dies, another node takes its leases over once they expire,
// and every acknowledged write is there.
func TestThreeNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("a three-node cluster takes seconds to elect its leaders")
	}
	nats := clustertest.Nodes(t, 3)
	a := startNode(t, "http://a", t.TempDir(), nats...)
	eventually(t, 30*time.Second, "the first node writes the server's log", func() bool { return a.writing(ServerLog) })
	b := startNode(t, "http://b", t.TempDir(), nats...)
	c := startNode(t, "http://c", t.TempDir(), nats...)
	site := testshop.Website()
	if _, err := a.live.SetConfig(&config.File{Websites: []config.Website{*site}}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 30*time.Second, "the writer writes the website's log", func() bool { return a.writing(site.UUID) })
	for _, n := range []*testNode{b, c} {
		eventually(t, 30*time.Second, n.url+" follows the website's log", func() bool {
			for _, s := range n.rep.Status() {
				if s.Log == site.UUID {
					_, served := n.eng.Website(site.UUID)
					return served
				}
			}
			return false
		})
	}
	query := `{"query":"drill","key":"shop","products":{"count":5}}`
	var acked []string // product numbers of acknowledged writes
	// A first write, waited for longer: the replicas' follows of a new
	// log start while its stream's leader is elected.
	first := products(t, 1000, 3, "warm")
	if _, err := a.live.Apply(site.UUID, first); err != nil {
		t.Fatal(err)
	}
	numbers, _ := first.ProductPuts()
	acked = append(acked, numbers...)
	for _, n := range []*testNode{b, c} {
		want := a.search(t, site.UUID, query)
		eventually(t, 30*time.Second, n.url+" applies the first write", func() bool { return n.search(t, site.UUID, query) == want })
	}
	for i := range 5 {
		bt := products(t, i*10, 10, "cordless")
		if _, err := a.live.Apply(site.UUID, bt); err != nil {
			t.Fatal(err)
		}
		numbers, _ := bt.ProductPuts()
		acked = append(acked, numbers...)
		want := a.search(t, site.UUID, query)
		for _, n := range []*testNode{b, c} {
			took := eventually(t, time.Second, n.url+" answers as the writer", func() bool { return n.search(t, site.UUID, query) == want })
			t.Logf("write %d searchable on %s after %s", i, n.url, took)
		}
	}
	// A replica refuses a change, naming the writer once it has read
	// the lease (a read that times out under load names none: retried).
	eventually(t, 10*time.Second, "a replica's refusal names the writer", func() bool {
		_, err := b.live.Apply(site.UUID, products(t, 900, 1, "refused"))
		nw, ok := errors.AsType[*live.NotWriterError](err)
		if !ok || nw.Log != site.UUID {
			t.Fatalf("a write to a replica: %v, want a NotWriterError of %s", err, site.UUID)
		}
		return nw.Writer == "http://a"
	})
	// The writer's connection dies; another node takes over.
	a.nc.Close()
	var next *testNode
	eventually(t, 15*time.Second, "another node writes the website's log", func() bool {
		for _, n := range []*testNode{b, c} {
			if n.writing(site.UUID) {
				next = n
				return true
			}
		}
		return false
	})
	bt := products(t, 500, 3, "hammer")
	if _, err := next.live.Apply(site.UUID, bt); err != nil {
		t.Fatal(err)
	}
	numbers, _ = bt.ProductPuts()
	acked = append(acked, numbers...)
	other := b
	if next == b {
		other = c
	}
	want := next.search(t, site.UUID, `{"query":"*","key":"shop","products":{"count":100}}`)
	eventually(t, time.Second, "the other replica answers as the new writer", func() bool {
		return other.search(t, site.UUID, `{"query":"*","key":"shop","products":{"count":100}}`) == want
	})
	for _, pn := range acked {
		if !strings.Contains(want, `"productNumber":"`+pn+`"`) {
			t.Errorf("acknowledged product %s is missing after the takeover", pn)
		}
	}
	if n, _ := other.st.Count(site.UUID); n != len(acked) {
		t.Errorf("%d products stored on the replica, want %d", n, len(acked))
	}
	if !bytes.Contains([]byte(want), []byte(`"totalCount":56`)) {
		t.Errorf("want 56 products: %.300s", want)
	}
	// Cut off from the cluster, the old writer cannot know its lag: its
	// logs report an error (its /readyz fails) after three lease TTLs, 10 s at least.
	eventually(t, 20*time.Second, "the cut-off node reports its logs unreadable", func() bool {
		for _, s := range a.rep.Status() {
			if !strings.Contains(s.Error, "has not been readable") {
				return false
			}
		}
		return true
	})
}
