package httpapi

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/replica"
)

// fakeCluster is a Cluster whose every log is written by writer, and
// whose logs are as status says.
type fakeCluster struct {
	writer  string
	writing bool // this node is the writer
	status  []replica.LogStatus
}

func (c *fakeCluster) Writer(string) (string, bool) { return c.writer, c.writing }
func (c *fakeCluster) Status() []replica.LogStatus  { return c.status }

// TestForwardToWriter: an admin change sent to a node that does not
// write its log is answered by the writer, body and all (declared by
// Content-Length, or chunked); a request another node forwarded, a read
// and an unauthorised change are served where they arrive.
func TestForwardToWriter(t *testing.T) {
	writer := serveLive(t)
	node := serveLiveOpts(t, Options{Cluster: &fakeCluster{writer: writer}})
	products := "/admin/v1/websites/" + shopUUID + "/products"
	total := func(base, word string) int {
		t.Helper()
		r := searchOK(t, base, q(word, `"count":1`))
		return int(r.body["products"].(map[string]any)["totalCount"].(float64))
	}
	status, out := adminSend(t, "POST", node+products, "application/x-ndjson", `{"productNumber":"F1","title":"Forwarded kite","price":5}`+"\n")
	if status != 200 || out["added"] != 1.0 {
		t.Fatalf("forwarded write: %d %v", status, out)
	}
	if total(writer, "forwarded") != 1 || total(node, "forwarded") != 0 {
		t.Fatalf("the write was not applied on the writer alone: writer %d, node %d", total(writer, "forwarded"), total(node, "forwarded"))
	}
	// Chunked.
	req, err := http.NewRequest("POST", node+products, io.MultiReader(strings.NewReader(`{"productNumber":"F2","title":"Chunked kite","price":5}`+"\n")))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer admin-key")
	req.Header.Set("Content-Type", "application/x-ndjson")
	req.TransferEncoding = []string{"chunked"}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || total(writer, "chunked") != 1 {
		t.Fatalf("chunked forwarded write: %d %s, writer finds %d", resp.StatusCode, raw, total(writer, "chunked"))
	}
	// Forwarded already: served here.
	status, out = adminSend(t, "POST", node+products, "application/x-ndjson", `{"productNumber":"F3","title":"Local kite","price":5}`+"\n",
		"Authorization", "Bearer admin-key", forwardedHeader, "1")
	if status != 200 || total(node, "local") != 1 || total(writer, "local") != 0 {
		t.Fatalf("a forwarded request was forwarded again: %d %v", status, out)
	}
	// Unauthorised: answered here.
	status, _, raw = send(t, "POST", node+products, "application/x-ndjson", `{"productNumber":"F4","title":"x","price":5}`+"\n", "Authorization", "Bearer nope")
	if status != 401 {
		t.Fatalf("unauthorised change: %d %s", status, raw)
	}
}

// TestForwardToDeadWriter: a writer that does not answer is told as 503
// NO_WRITER, with Retry-After.
func TestForwardToDeadWriter(t *testing.T) {
	node := serveLiveOpts(t, Options{Cluster: &fakeCluster{writer: "http://127.0.0.1:1"}})
	status, hdr, raw := send(t, "POST", node+"/admin/v1/websites/"+shopUUID+"/products", "application/x-ndjson",
		`{"productNumber":"F1","title":"x","price":5}`+"\n", "Authorization", "Bearer admin-key")
	if status != 503 || hdr.Get("Retry-After") == "" || !strings.Contains(string(raw), `"NO_WRITER"`) {
		t.Fatalf("dead writer: %d %v %s", status, hdr, raw)
	}
}

// TestReplicationHealth: /healthz reports a node's logs and its largest
// lag; /readyz fails while a log lags MaxLag entries or more, or stopped
// applying, and passes below.
func TestReplicationHealth(t *testing.T) {
	c := &fakeCluster{}
	node := serveLiveOpts(t, Options{Cluster: c, MaxLag: 10})
	for _, tc := range []struct {
		name   string
		status []replica.LogStatus
		ready  int
		lag    float64
	}{
		{"caught up", []replica.LogStatus{{Log: "server", Applied: 5, Last: 5}}, 200, 0},
		{"below the bound", []replica.LogStatus{{Log: "server", Applied: 5, Last: 5}, {Log: shopUUID, Applied: 1, Last: 10, Lag: 9}}, 200, 9},
		{"at the bound", []replica.LogStatus{{Log: shopUUID, Applied: 0, Last: 10, Lag: 10}}, 503, 10},
		{"stopped", []replica.LogStatus{{Log: shopUUID, Applied: 3, Last: 3, Error: "entry 4: corrupt batch"}}, 503, 0},
	} {
		c.status = tc.status
		status, _, raw := send(t, "GET", node+"/readyz", "", "")
		if status != tc.ready {
			t.Errorf("%s: /readyz %d %s, want %d", tc.name, status, raw, tc.ready)
		}
		status, _, raw = send(t, "GET", node+"/healthz", "", "")
		var h struct {
			Success     bool
			Replication struct {
				Lag  float64
				Logs []replica.LogStatus
			}
		}
		if err := json.Unmarshal(raw, &h); err != nil || status != 200 || !h.Success || h.Replication.Lag != tc.lag || len(h.Replication.Logs) != len(tc.status) {
			t.Errorf("%s: /healthz %d %s", tc.name, status, raw)
		}
	}
}

// TestGraphQLForwarding: a GraphQL mutation sent to a node that does not
// write is answered by the writer; a query is answered where it arrives;
// and the writer itself never looks at a document before its GraphQL
// server does (GraphQLMutation is not called), so it parses each once.
func TestGraphQLForwarding(t *testing.T) {
	served := func(name string) func(ctx *fasthttp.RequestCtx, body []byte, err error) {
		return func(ctx *fasthttp.RequestCtx, body []byte, err error) { ctx.SetBodyString(name + ":" + string(body)) }
	}
	var looked int
	isMutation := func(body []byte) bool { looked++; return strings.Contains(string(body), "mutation") }
	writer := listen(t, New(engine.New(""), Options{GraphQL: served("writer"), GraphQLMutation: isMutation,
		Cluster: &fakeCluster{writer: "http://self", writing: true}}))
	node := listen(t, New(engine.New(""), Options{GraphQL: served("node"), GraphQLMutation: isMutation,
		Cluster: &fakeCluster{writer: writer}}))
	for _, tc := range []struct{ url, body, want string }{
		{node, `{"query":"mutation { x }"}`, `writer:{"query":"mutation { x }"}`},
		{node, `{"query":"{ x }"}`, `node:{"query":"{ x }"}`},
		{writer, `{"query":"mutation { y }"}`, `writer:{"query":"mutation { y }"}`},
	} {
		_, _, raw := send(t, "POST", tc.url+"/graphql", "application/json", tc.body)
		if string(raw) != tc.want {
			t.Errorf("%s to %s: %s, want %s", tc.body, tc.url, raw, tc.want)
		}
	}
	if looked != 2 {
		t.Errorf("GraphQLMutation called %d times, want 2 (the node's two requests; none on the writer)", looked)
	}
}
