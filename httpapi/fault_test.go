package httpapi

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/internal/diskfault"
	"github.com/aisle-search/aisle/store"
)

// TestDiskFaultsAnswer503: while the disk refuses writes (full, or
// failing to sync), a product write and an event answer 503 with a
// STORAGE_UNAVAILABLE body and a Retry-After, and change nothing a
// search sees; searches answer 200; the server goes on, and once the
// disk takes writes the same requests succeed.
func TestDiskFaultsAnswer503(t *testing.T) {
	for _, fault := range []diskfault.Fault{diskfault.Full, diskfault.FailingSync} {
		t.Run(fault.Name, func(t *testing.T) {
			faults := diskfault.New(fault)
			st, err := store.OpenWith(t.TempDir(), store.Options{FS: diskfault.FS(faults), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			url := serveLiveSiteOn(t, st, shopSite(config.SearchVersion{}), hardware(), Options{})
			write := func() (int, string, []byte) {
				status, h, raw := send(t, "POST", url+"/admin/v1/websites/"+shopUUID+"/products", "application/json",
					`[{"productNumber":"Z99","title":"Zebra drill"}]`, "Authorization", "Bearer admin-key")
				return status, h.Get("Retry-After"), raw
			}
			event := func() (int, string, []byte) {
				status, h, raw := send(t, "POST", url+"/serve/collect/view", "text/plain", `{"websiteUuid":"`+shopUUID+`","productNumber":"P01","trackingUserId":"u1"}`)
				return status, h.Get("Retry-After"), raw
			}
			zebra := func() []string {
				r := post(t, url, "application/json", `{"query":"zebra drill","key":"shop","products":{"count":10,"fields":["productNumber"]}}`)
				if r.status != 200 {
					t.Fatalf("a search: %d %s", r.status, r.raw)
				}
				return resultNumbersOrNone(r)
			}
			before := zebra()

			faults.On()
			for name, send := range map[string]func() (int, string, []byte){"a product write": write, "an event": event} {
				status, retry, raw := send()
				var body errorBody
				if err := json.Unmarshal(raw, &body); status != 503 || err != nil || body.Error.Code != "STORAGE_UNAVAILABLE" || body.Error.Message == "" || retry == "" {
					t.Errorf("%s on a %s: %d, Retry-After %q, %s; want 503 STORAGE_UNAVAILABLE with a message and a Retry-After", name, fault.Name, status, retry, raw)
				}
			}
			if faults.Failed() == 0 {
				t.Fatal("no fault was injected: the test tests nothing")
			}
			if got := zebra(); len(got) != len(before) {
				t.Errorf("while the disk refuses writes, zebra drill finds %v, was %v", got, before)
			}

			faults.Off()
			for deadline := time.Now().Add(time.Minute); st.Unavailable() != nil; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("writes still refused a minute after the faults stopped: %v", st.Unavailable())
				}
			}
			for name, send := range map[string]func() (int, string, []byte){"a product write": write, "an event": event} {
				if status, _, raw := send(); status != 200 {
					t.Errorf("%s once the disk takes writes: %d %s", name, status, raw)
				}
			}
			if got := zebra(); len(got) == 0 || got[0] != "Z99" {
				t.Errorf("zebra drill finds %v after the write, want Z99 first", got)
			}
		})
	}
}

// resultNumbersOrNone is r's product numbers, none when it has none.
func resultNumbersOrNone(r reply) []string {
	var out []string
	for _, p := range r.results("products") {
		out = append(out, p["productNumber"].(string))
	}
	return out
}
