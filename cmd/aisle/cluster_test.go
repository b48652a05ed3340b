package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-json"
	"github.com/nats-io/nats.go"

	"github.com/aisle-search/aisle/cluster"
	"github.com/aisle-search/aisle/cluster/clustertest"
	"github.com/aisle-search/aisle/replica"
	"github.com/aisle-search/aisle/store"
)

// clusterNode is a node of a test cluster: an aisle serve process with
// an embedded NATS server, and what restarts it.
type testClusterNode struct {
	*child
	data  string
	flags []string
}

// startCluster launches n nodes of one cluster, each with a data
// directory of its own, the first seed's (a directory with a catalog),
// the others new and empty, and waits until every one listens.
func startCluster(t *testing.T, seed string, n int) []*testClusterNode {
	t.Helper()
	routes := clustertest.FreeAddrs(t, n)
	nodes := make([]*testClusterNode, n)
	for i := range nodes {
		data := seed
		if i > 0 {
			data = filepath.Join(t.TempDir(), "new")
		}
		nodes[i] = &testClusterNode{data: data, flags: []string{"--nats-embedded", "--nats-listen", "127.0.0.1:0",
			"--nats-cluster", routes[i], "--nats-routes", strings.Join(routes, ","), "--nats-name", fmt.Sprint("n", i),
			"--lease-ttl", "1s"}}
		nodes[i].child = launchChild(t, nodes[i].data, nodes[i].flags...)
	}
	for _, c := range nodes {
		c.waitListening(t, 2*time.Minute)
	}
	return nodes
}

// restart starts the node again on its directory, with its flags.
func (c *testClusterNode) restart(t *testing.T) {
	t.Helper()
	c.child = launchChild(t, c.data, c.flags...)
	c.waitListening(t, 2*time.Minute)
}

// health is the node's /healthz replication; ok false when it does not
// answer.
func (c *testClusterNode) health() (r struct {
	Lag  uint64
	Logs []replica.LogStatus
}, ok bool) {
	resp, err := http.Get("http://" + c.addr + "/healthz")
	if err != nil {
		return r, false
	}
	defer resp.Body.Close()
	var body struct {
		Replication *struct {
			Lag  uint64
			Logs []replica.LogStatus
		}
	}
	if json.NewDecoder(resp.Body).Decode(&body) != nil || body.Replication == nil {
		return r, false
	}
	return *body.Replication, true
}

// website is the UUID of the website whose log the node follows, "" for
// none yet.
func (c *testClusterNode) website() string {
	h, _ := c.health()
	for _, l := range h.Logs {
		if l.Log != replica.ServerLog && !strings.HasPrefix(l.Log, "events-") {
			return l.Log
		}
	}
	return ""
}

// writes reports whether the node writes the log name.
func (c *testClusterNode) writes(name string) bool {
	h, _ := c.health()
	for _, l := range h.Logs {
		if l.Log == name {
			return l.Writing
		}
	}
	return false
}

// count is the totalCount of a search for word on the node, -1 when it
// does not answer.
func (c *testClusterNode) count(word string) int { return searchCount(c.addr, word) }

// postTo writes a batch of crashBatch products titled word to website
// through the node; ok says it was acknowledged.
func (c *testClusterNode) postTo(website, word string) bool {
	var body strings.Builder
	for j := range crashBatch {
		fmt.Fprintf(&body, `{"productNumber":"%s-%d","title":"Cluster kite %s","price":%d}`+"\n", word, j, word, j+1)
	}
	return c.send("/admin/v1/websites/"+website+"/products", "application/x-ndjson", "Bearer k", body.String())
}

// noWriter reports whether answer (send's, status and body) is the
// 503 NO_WRITER a cluster answers while no node writes the log.
func noWriter(answer string) bool {
	status, body, _ := strings.Cut(answer, " ")
	var out struct {
		Error struct{ Code string }
	}
	return status == "503" && json.Unmarshal([]byte(body), &out) == nil && out.Error.Code == "NO_WRITER"
}

// createKey makes an admin key of website through the node's GraphQL
// endpoint and returns its secret.
func createKey(t *testing.T, c *testClusterNode, website string) string {
	t.Helper()
	body := fmt.Sprintf(`{"query":"mutation { createApiKey(input: {name: \"cluster\", scopes: [ADMIN], websiteUuid: \"%s\"}) { secret } }"}`, website)
	resp, err := http.Post("http://"+c.addr+"/graphql?apiKey=k", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Data struct {
			CreateAPIKey struct{ Secret string } `json:"createApiKey"`
		}
		Errors []any
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Data.CreateAPIKey.Secret == "" {
		t.Fatalf("createApiKey through %s: %d %v %v", c.addr, resp.StatusCode, err, out.Errors)
	}
	return out.Data.CreateAPIKey.Secret
}

// within waits up to d for cond, and says how long it took.
func within(t *testing.T, d time.Duration, what string, cond func() bool) time.Duration {
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

// TestClusterOfThree runs three aisle serve processes, each with an
// embedded NATS server, as a cluster with no other software: a node with
// a catalog seeds it, and two new nodes start from its snapshot; a write to the writer is searchable
// on both replicas within a second, and a write sent to a replica is
// forwarded to the writer; a replica killed with SIGKILL (its NATS
// server with it) misses writes that go on without it, and once
// restarted catches up with nothing lost or doubled; the writer killed,
// another node takes over and every acknowledged write is on both
// survivors.
func TestClusterOfThree(t *testing.T) {
	if testing.Short() {
		t.Skip("a cluster of three processes takes a minute")
	}
	nodes := startCluster(t, shopDir(t), 3)
	site := shopSite
	within(t, 30*time.Second, "every node serves the seed's catalog", func() bool {
		for _, c := range nodes {
			if c.website() != site || searchCount(c.addr, "*") != 3 {
				return false
			}
		}
		return true
	})
	var writer *testClusterNode
	for deadline := time.Now().Add(30 * time.Second); writer == nil; time.Sleep(5 * time.Millisecond) {
		for _, c := range nodes {
			if c.writes(site) {
				writer = c
			}
		}
		if writer == nil && time.Now().After(deadline) {
			for _, c := range nodes {
				h, _ := c.health()
				t.Logf("%s: %+v\n%s", c.addr, h, c.logs())
			}
			t.Fatal("no node writes the website's log within 30s")
		}
	}
	var replicas []*testClusterNode
	for _, c := range nodes {
		if c != writer {
			replicas = append(replicas, c)
		}
	}
	var acked []string
	// A write refused 503 NO_WRITER changed nothing and is sent again,
	// as the answer says: a NATS node stopped, the lease (1 s here) can
	// lapse while the cluster elects the leases' new leader.
	post := func(via *testClusterNode, word string) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for !via.postTo(site, word) {
			if !noWriter(via.lastAnswer()) || time.Now().After(deadline) {
				t.Fatalf("write %s through %s refused: %s\n%s", word, via.addr, via.lastAnswer(), via.logs())
			}
			time.Sleep(100 * time.Millisecond)
		}
		acked = append(acked, word)
	}
	events := 0 // acknowledged
	view := func(via *testClusterNode, user string) {
		t.Helper()
		body := fmt.Sprintf(`{"websiteUuid":%q,"trackingUserId":%q,"productNumber":"p-1"}`, site, user)
		if !via.send("/serve/collect/view", "application/json", "", body) {
			t.Fatalf("a view sent to %s refused: %s", via.addr, via.lastAnswer())
		}
		events++
	}
	for i, c := range nodes {
		view(c, fmt.Sprint("visitor-", i))
	}
	// A first write, waited for longer: the replicas' follows of the
	// website's new log start while its stream's leader is elected.
	warm := batchWord(38, 0)
	post(writer, warm)
	for _, r := range replicas {
		within(t, 30*time.Second, "the first write searchable on a replica", func() bool { return r.count(warm) == crashBatch })
	}
	var slowest time.Duration
	for i := range 5 {
		word := batchWord(37, i)
		post(writer, word)
		for _, r := range replicas {
			slowest = max(slowest, within(t, time.Second, "a write searchable on a replica", func() bool { return r.count(word) == crashBatch }))
		}
	}
	t.Logf("writes searchable on both replicas within %s", slowest)
	word := batchWord(37, 5)
	post(replicas[0], word) // forwarded to the writer
	// A GraphQL mutation sent to a replica is forwarded too: a key made
	// there works on every node.
	secret := createKey(t, replicas[1], site)
	for _, c := range nodes {
		within(t, time.Second, "a key made through a replica works everywhere", func() bool {
			// Authorised, the delete of a product that is not there is a 404.
			req, _ := http.NewRequest("DELETE", "http://"+c.addr+"/admin/v1/websites/"+site+"/products/none", nil)
			req.Header.Set("Authorization", "Bearer "+secret)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return false
			}
			resp.Body.Close()
			return resp.StatusCode == http.StatusNotFound
		})
	}
	for _, c := range nodes {
		within(t, time.Second, "a forwarded write searchable everywhere", func() bool { return c.count(word) == crashBatch })
	}

	// A replica dies with its NATS server; writes go on; it catches up.
	down := replicas[1]
	down.kill()
	for i := 6; i < 9; i++ {
		post(writer, batchWord(37, i))
		view(writer, "while-down") // events go on with a NATS server down
		view(replicas[0], "while-down")
	}
	down.restart(t)
	for _, w := range acked {
		within(t, 10*time.Second, "the restarted replica catches up", func() bool { return down.count(w) == crashBatch })
	}

	// The writer dies; another node takes over.
	writer.kill()
	survivors := replicas
	word = batchWord(37, 9)
	took := within(t, 30*time.Second, "a survivor takes writes", func() bool { return survivors[0].postTo(site, word) })
	acked = append(acked, word)
	t.Logf("writes taken again %s after the writer was killed", took)
	for _, c := range survivors {
		for _, w := range acked {
			deadline := time.Now().Add(5 * time.Second)
			for c.count(w) != crashBatch {
				if time.Now().After(deadline) {
					h, _ := c.health()
					t.Fatalf("acknowledged write %s: %d products on %s, health %+v\n%s", w, c.count(w), c.addr, h, c.logs())
				}
				time.Sleep(5 * time.Millisecond)
			}
		}
	}
	view(survivors[1], "after")
	// Every log's last entry, read from the cluster itself.
	lasts := logLasts(t, survivors[1], site)
	// Every survivor applies them before any stops: a node alone is no
	// majority, and could not read what it missed.
	for _, c := range survivors {
		deadline := time.Now().Add(10 * time.Second)
		for h, _ := c.health(); !appliedThrough(h.Logs, lasts); h, _ = c.health() {
			if time.Now().After(deadline) {
				t.Fatalf("%s does not apply every log through %v: %+v\n%s", c.addr, lasts, h, c.logs())
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	// Nothing doubled: each node's store holds one entry per log position
	// it applied besides the seed's own entries (the same on every node:
	// its snapshot's), and every acknowledged event once.
	own := map[uint64]bool{}
	for _, c := range survivors {
		c.interrupt()
		st, err := store.Open(c.data)
		if err != nil {
			t.Fatal(err)
		}
		var sum uint64
		for _, p := range st.Positions() {
			sum += p
		}
		own[st.Seq()-sum] = true
		if n, _ := st.Count(site); n != len(acked)*crashBatch+3 {
			t.Errorf("%s: %d products stored, %d acknowledged and the seed's 3", c.data, n, len(acked)*crashBatch)
		}
		logged := 0
		if err := st.Events(func(_ string, _ uint64, evs []json.RawMessage) error { logged += len(evs); return nil }); err != nil {
			t.Fatal(err)
		}
		if logged != events {
			t.Errorf("%s: %d events stored, %d acknowledged", c.data, logged, events)
		}
		st.Close()
	}
	if len(own) != 1 {
		t.Errorf("the survivors hold different numbers of entries besides the logs': %v", own)
	}
}

// natsURLRE is the embedded NATS server's client URL in a node's log.
var natsURLRE = regexp.MustCompile(`msg="NATS server started".* clients=(nats://\S+)`)

// logLasts is the last position of the server's log and website's logs,
// read through the node's embedded NATS server.
func logLasts(t *testing.T, c *testClusterNode, website string) map[string]uint64 {
	t.Helper()
	m := natsURLRE.FindStringSubmatch(c.logs())
	if m == nil {
		t.Fatalf("no NATS client URL in the log:\n%s", c.logs())
	}
	nc, err := nats.Connect(m[1])
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	lasts := map[string]uint64{}
	for _, name := range []string{replica.ServerLog, website, replica.EventsLog(website)} {
		// Each read is retried while the streams elect leaders after the
		// writer's NATS server went down.
		deadline := time.Now().Add(60 * time.Second)
		for {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			l, err := cluster.OpenLog(ctx, nc, name, 3)
			if err == nil {
				lasts[name], err = l.Last(ctx)
			}
			cancel()
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the last position of %s: %v\n%s", name, err, c.logs())
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return lasts
}

// appliedThrough reports whether logs show every log of lasts applied
// through its last position.
func appliedThrough(logs []replica.LogStatus, lasts map[string]uint64) bool {
	for name, last := range lasts {
		if !slices.ContainsFunc(logs, func(l replica.LogStatus) bool { return l.Log == name && l.Applied >= last }) {
			return false
		}
	}
	return true
}

// searchCount is the totalCount of a search for query under the
// default key at addr, -1 when it does not answer.
func searchCount(addr, query string) int {
	n, err := totalOf(addr, fmt.Sprintf(`{"query":%q,"key":"default","products":{"count":1}}`, query))
	if err != nil {
		return -1
	}
	return n
}

// TestClusterBootstrap: a node given a catalog before the cluster formed
// (aisle import) seeds a cluster of its own NATS server; a new node with
// an empty directory joining it (--nats) starts from the cluster's
// snapshot, loads the saved index rather than importing or rebuilding,
// and answers searches byte for byte as the first node does, before and
// after a write sent to it.
func TestClusterBootstrap(t *testing.T) {
	if testing.Short() {
		t.Skip("a cluster takes seconds to elect its leaders")
	}
	dir := t.TempDir()
	var feed strings.Builder
	brands := []string{"Makita", "Bosch", "Acme", "Nordlys"}
	nouns := []string{"drill", "hammer", "lamp", "kettle", "ladder", "saw"}
	for i := range 500 {
		fmt.Fprintf(&feed, `{"productNumber":"B%03d","title":"%s %s %d","brand":%q,"price":%d,"inStock":%v}`+"\n",
			i, brands[i%4], nouns[i%6], i, brands[(i/4)%4], 5+i%200, i%3 > 0)
	}
	data := filepath.Join(dir, "seed")
	mustRun(t, "import", "--data", data, "--quiet", "--website", shopSite, writeFile(t, dir, "feed.jsonl", feed.String()))
	natsAddr := clustertest.FreeAddrs(t, 1)[0]
	seed := launchChild(t, data, "--nats-embedded", "--nats-listen", natsAddr, "--nats-name", "seed")
	seed.waitListening(t, 2*time.Minute)
	joiner := launchChild(t, filepath.Join(dir, "new"), "--nats", "nats://"+natsAddr, "--nats-replicas", "1")
	joiner.waitListening(t, 2*time.Minute)
	logs := joiner.logs()
	if !strings.Contains(logs, "the cluster's snapshot is loaded") || strings.Contains(logs, "index built") {
		t.Fatalf("the new node did not start from the snapshot, or rebuilt its index:\n%s", logs)
	}
	same := func(when string) {
		t.Helper()
		for _, body := range []string{
			`{"query":"drill","key":"default","products":{"count":10}}`,
			`{"query":"*","key":"default","products":{"count":20,"start":3,"sorting":["price asc"],"returnFilters":true}}`,
			`{"query":"makita lamp","key":"default","products":{"count":5,"filters":["inStock:true"],"returnFilters":true}}`,
			`{"query":"hamer","key":"default","products":{"count":5}}`,
		} {
			a, b := searchRaw(t, seed.addr, body), searchRaw(t, joiner.addr, body)
			if a != b {
				t.Fatalf("%s, %s: the new node answers\n%.400s\nand the first\n%.400s", when, body, b, a)
			}
		}
	}
	same("after the bootstrap")
	c := &testClusterNode{child: joiner}
	within(t, 10*time.Second, "a write to the new node taken", func() bool { return c.postTo(shopSite, "joined") })
	within(t, time.Second, "the write searchable on both", func() bool {
		return (&testClusterNode{child: seed}).count("joined") == crashBatch && c.count("joined") == crashBatch
	})
	same("after a write")
	// The metrics say who writes and how far each node applied.
	for _, n := range []struct {
		c       *child
		writing float64
	}{{seed, 1}, {joiner, 0}} {
		status, fams := scrape(t, &cliServer{addr: n.c.addr}, "k")
		if status != http.StatusOK {
			t.Fatalf("GET /metrics: %d", status)
		}
		w, ok := sample(fams["aisle_replication_writing"], map[string]string{"log": replica.ServerLog})
		lag, okLag := sample(fams["aisle_replication_lag_entries"], map[string]string{"log": shopSite})
		applied, okApplied := sample(fams["aisle_replication_applied"], map[string]string{"log": shopSite})
		if !ok || !okLag || !okApplied || w.GetGauge().GetValue() != n.writing || applied.GetGauge().GetValue() < 1 {
			t.Errorf("%s: writing %v (want %v), lag %v, applied %v", n.c.addr, w, n.writing, lag, applied)
		}
	}
}

// searchRaw is the body of the node's answer to a search.
func searchRaw(t *testing.T, addr, body string) string {
	t.Helper()
	resp, err := http.Post("http://"+addr+"/serve/search", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("search %s: %d %s %v", body, resp.StatusCode, raw, err)
	}
	return string(raw)
}
