package httpapi

import (
	"net"
	"testing"
	"time"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/internal/background"
)

// TestHealthWarming: /healthz lists a website whose impact lists are
// being built in the background as "warming", and no longer once they
// are built.
func TestHealthWarming(t *testing.T) {
	// Enough products for some terms to be in ranking.ImpactMinDocs docs:
	// those are the lists a start builds.
	g := demoGeneration(t, 3000)
	w := g.Website
	release := background.Hold()
	defer func() { release() }()
	g.WarmLists()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := New(engine.New("admin-key", g), Options{}).HTTPServer()
	go srv.Serve(ln) //nolint:errcheck // ends at Shutdown
	t.Cleanup(func() { srv.Shutdown() })
	url := "http://" + ln.Addr().String() + "/healthz"

	warming := `{"success":true,"warming":["` + w.UUID + `"]}`
	if status, _, raw := send(t, "GET", url, "", ""); status != 200 || string(raw) != warming {
		t.Fatalf("while the lists are built: %d %s, want 200 %s", status, raw, warming)
	}
	release()
	release = func() {}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		status, _, raw := send(t, "GET", url, "", "")
		if status == 200 && string(raw) == `{"success":true}` {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the lists built: %d %s, want 200 {\"success\":true}", status, raw)
		}
	}
}
