package main

import (
	"io"
	"net/http"
	"strings"
	"testing"

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
// status with their latency, the log's and each website's position and
// Go's runtime; a stranger's paths count under one route label.
func TestMetricsScrape(t *testing.T) {
	data := shopDir(t)
	s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k")
	for range 3 {
		s.total(t, config.DefaultKey, "*")
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
