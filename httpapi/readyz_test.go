package httpapi

import (
	"net"
	"testing"

	"github.com/aisle-search/aisle/engine"
)

// TestGate: while the server starts, /healthz is alive, /readyz is 503
// with the loading's progress and every API request 503 STARTING with
// Retry-After; once open, the same listener serves the API and /readyz
// is 200.
func TestGate(t *testing.T) {
	g := demoGeneration(t, 200)
	opt := Options{MaxBodyBytes: 64 << 10}
	gate := NewGate(opt)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := gate.HTTPServer()
	go srv.Serve(ln) //nolint:errcheck // ends at Shutdown
	t.Cleanup(func() { srv.Shutdown() })
	url := "http://" + ln.Addr().String()
	search := `{"query":"lamp","key":"demo","products":{"count":1}}`

	type want struct {
		status     int
		body       string
		retryAfter string
	}
	check := func(method, path, body string, w want) {
		t.Helper()
		status, header, raw := send(t, method, url+path, "application/json", body)
		if status != w.status || string(raw) != w.body || header.Get("Retry-After") != w.retryAfter {
			t.Errorf("%s %s: %d %s (Retry-After %q), want %d %s (Retry-After %q)", method, path, status, raw, header.Get("Retry-After"), w.status, w.body, w.retryAfter)
		}
	}
	gate.Progress("opening websites", 1, 3)
	check("GET", "/healthz", "", want{200, `{"success":true}`, ""})
	check("GET", "/readyz", "", want{503, `{"ready":false,"phase":"opening websites","websitesOpened":1,"websites":3}`, "1"})
	starting := `{"success":false,"error":{"code":"STARTING","message":"the server is starting: it answers once its websites are loaded (GET /readyz says when)"}}`
	check("POST", "/serve/search", search, want{503, starting, retryAfter})
	check("GET", "/metrics", "", want{503, starting, retryAfter})

	gate.Open(New(engine.New("admin-key", g), opt))
	check("GET", "/readyz", "", want{200, `{"ready":true}`, ""})
	check("GET", "/healthz", "", want{200, `{"success":true}`, ""})
	if status, _, raw := send(t, "POST", url+"/serve/search", "application/json", search); status != 200 {
		t.Errorf("search once open: %d %s", status, raw)
	}
}
