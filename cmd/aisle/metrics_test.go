package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/aisle-search/aisle/config"
)

// scrape reads GET /metrics with key and parses it with Prometheus' own
// text parser.
func scrape(t *testing.T, s *cliServer, key string) (int, map[string]*dto.MetricFamily) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, "http://"+s.addr+"/metrics", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, nil
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("the metrics do not parse: %v", err)
	}
	return resp.StatusCode, fams
}

// sample is the value of the family's metric whose labels include want.
func sample(fam *dto.MetricFamily, want map[string]string) (*dto.Metric, bool) {
	if fam == nil {
		return nil, false
	}
next:
	for _, m := range fam.Metric {
		for k, v := range want {
			found := false
			for _, l := range m.Label {
				if l.GetName() == k && l.GetValue() == v {
					found = true
				}
			}
			if !found {
				continue next
			}
		}
		return m, true
	}
	return nil, false
}

// TestMetricsScrape: aisle serve's GET /metrics, for the admin key only,
// parses with Prometheus' parser and reports requests by route and
// status with their latency, the searches by class, the log's and each
// website's position and its generation's age, the writes' queue and
// time, the events logged by kind, the behaviour against its budget and
// Go's runtime; a stranger's paths count under one route label.
func TestMetricsScrape(t *testing.T) {
	data := shopDir(t)
	s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k", "--max-visitors", "500")
	for range 3 {
		s.total(t, config.DefaultKey, "*")
	}
	for _, body := range []string{
		`{"query":"drill","key":"default","products":{"count":5}}`,
		`{"query":"lamp","key":"default","products":{"count":5,"sorting":["price asc"]}}`,
		`{"query":"drill","key":"default","products":{"count":5,"filters":["price:10,200"]}}`,
		`{"query":"drill","key":"default","products":{"count":5,"returnFilters":true}}`,
		`{"query":"drill","key":"default","products":{"count":5,"filters":["nosuchfield:1"]}}`, // refused: no class
	} {
		s.search(t, "", body)
	}
	written := time.Now()
	if status, body := s.admin(t, "k", http.MethodPost, "/admin/v1/websites/"+shopSite+"/products", "application/x-ndjson", `{"productNumber":"M1","title":"Metric Drill"}`); status != http.StatusOK {
		t.Fatalf("write: %d %s", status, body)
	}
	for _, ev := range []struct{ kind, body string }{
		{"view", `{"productNumber":"D1"}`},
		{"view", `{"productNumber":"R1"}`},
		{"search", `{"query":"drill","results":1}`},
	} {
		body := `{"websiteUuid":"` + shopSite + `","trackingUserId":"u1",` + ev.body[1:]
		if status, answer := s.admin(t, "k", http.MethodPost, "/serve/collect/"+ev.kind, "application/json", body); status != http.StatusOK {
			t.Fatalf("%s event: %d %s", ev.kind, status, answer)
		}
	}
	for _, p := range []string{"/no/such/path", "/another/" + strings.Repeat("x", 50)} {
		if resp, err := http.Get("http://" + s.addr + p); err == nil {
			resp.Body.Close()
		}
	}
	if status, _ := scrape(t, s, "wrong"); status != http.StatusUnauthorized {
		t.Errorf("GET /metrics with a wrong key: %d, want 401", status)
	}
	status, fams := scrape(t, s, "k")
	if status != http.StatusOK {
		t.Fatalf("GET /metrics: %d", status)
	}
	if m, ok := sample(fams["aisle_http_requests_total"], map[string]string{"route": "search", "code": "200"}); !ok || m.GetCounter().GetValue() < 3 {
		t.Errorf("aisle_http_requests_total{route=search,code=200}: %v, want at least 3", m)
	}
	if m, ok := sample(fams["aisle_http_requests_total"], map[string]string{"route": "other", "code": "404"}); !ok || m.GetCounter().GetValue() != 2 {
		t.Errorf("aisle_http_requests_total{route=other,code=404}: %v, want 2 (unknown paths share one label)", m)
	}
	if m, ok := sample(fams["aisle_http_request_duration_seconds"], map[string]string{"route": "search"}); !ok || m.GetHistogram().GetSampleCount() < 3 {
		t.Errorf("aisle_http_request_duration_seconds{route=search}: %v, want 3 samples", m)
	}
	if m, ok := sample(fams["aisle_log_position"], nil); !ok || m.GetGauge().GetValue() < 1 {
		t.Errorf("aisle_log_position: %v", m)
	}
	if m, ok := sample(fams["aisle_website_position"], map[string]string{"website": shopSite}); !ok || m.GetGauge().GetValue() < 1 {
		t.Errorf("aisle_website_position{website=%s}: %v", shopSite, m)
	}
	if m, ok := sample(fams["aisle_store_disk_bytes"], nil); !ok || m.GetGauge().GetValue() <= 0 {
		t.Errorf("aisle_store_disk_bytes: %v, want the store's size", m)
	}
	for class, want := range map[string]float64{"listing": 3, "words": 2, "filtered": 1, "faceted": 1} {
		if m, ok := sample(fams["aisle_searches_total"], map[string]string{"class": class}); !ok || m.GetCounter().GetValue() != want {
			t.Errorf("aisle_searches_total{class=%s}: %v, want %v", class, m, want)
		}
	}
	if m, ok := sample(fams["aisle_website_generation_age_seconds"], map[string]string{"website": shopSite}); !ok || m.GetGauge().GetValue() < 0 || m.GetGauge().GetValue() > time.Since(written).Seconds() {
		t.Errorf("aisle_website_generation_age_seconds{website=%s}: %v, want at most the %v since the write", shopSite, m, time.Since(written))
	}
	if m, ok := sample(fams["aisle_write_queue_depth"], nil); !ok || m.GetGauge().GetValue() != 0 {
		t.Errorf("aisle_write_queue_depth: %v, want 0 once the write was answered", m)
	}
	if m, ok := sample(fams["aisle_index_changes_total"], nil); !ok || m.GetCounter().GetValue() != 1 {
		t.Errorf("aisle_index_changes_total: %v, want the one write's", m)
	}
	if m, ok := sample(fams["aisle_write_duration_seconds"], nil); !ok || m.GetHistogram().GetSampleCount() != 1 || m.GetHistogram().GetSampleSum() <= 0 || m.GetHistogram().GetSampleSum() > time.Since(written).Seconds() {
		t.Errorf("aisle_write_duration_seconds: %v, want the one write's time", m)
	}
	for kind, want := range map[string]float64{"view": 2, "search": 1, "cart": 0, "impression": 0} {
		if m, ok := sample(fams["aisle_events_total"], map[string]string{"kind": kind}); !ok || m.GetCounter().GetValue() != want {
			t.Errorf("aisle_events_total{kind=%s}: %v, want %v", kind, m, want)
		}
	}
	for name, want := range map[string]float64{"aisle_behaviour_max_visitors": 500, "aisle_behaviour_max_links": 1000} {
		if m, ok := sample(fams[name], nil); !ok || m.GetGauge().GetValue() != want {
			t.Errorf("%s: %v, want %v (--max-visitors 500)", name, m, want)
		}
	}
	if m, ok := sample(fams["aisle_behaviour_visitors"], map[string]string{"website": shopSite}); !ok || m.GetGauge().GetValue() != 1 {
		t.Errorf("aisle_behaviour_visitors{website=%s}: %v, want the 1 visitor who sent events", shopSite, m)
	}
	if m, ok := sample(fams["aisle_behaviour_links"], map[string]string{"website": shopSite}); !ok || m.GetGauge().GetValue() != 0 {
		t.Errorf("aisle_behaviour_links{website=%s}: %v, want 0 (no email was sent)", shopSite, m)
	}
	for _, name := range []string{"aisle_websites_failed", "aisle_behaviour_bytes", "aisle_store_l0_files", "aisle_store_compactions_total", "go_goroutines", "process_resident_memory_bytes"} {
		if fams[name] == nil {
			t.Errorf("no %s", name)
		}
	}
	for name := range fams {
		if strings.HasPrefix(name, "aisle_") && strings.Contains(name, "__") {
			t.Errorf("metric name %s", name)
		}
	}
}
