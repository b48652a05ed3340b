package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/config"
)

// TestLogFormatJSON: --log-format json writes one JSON object a line,
// --slow-request logs a request past it by route, status and time, and
// no line carries the admin key, a visitor's email or what was searched.
func TestLogFormatJSON(t *testing.T) {
	data := shopDir(t)
	const key, email = "admin-key-never-logged", "shopper@example.com"
	s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", key, "--log-format", "json", "--slow-request", "1ns")
	s.search(t, "", `{"query":"needle-phrase-never-logged","key":"`+config.DefaultKey+`","products":{"count":1}}`)
	status, body := s.admin(t, key, http.MethodPost, "/serve/collect/view", "application/json",
		`{"websiteUuid":"`+shopSite+`","productNumber":"P1","email":"`+email+`"}`)
	if status != http.StatusOK {
		t.Fatalf("view: %d %s", status, body)
	}
	s.shutdown(t)
	slow := 0
	sc := bufio.NewScanner(strings.NewReader(s.stderr.String()))
	for sc.Scan() {
		line := sc.Text()
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("a log line is not JSON: %q", line)
		}
		for _, secret := range []string{key, email, "needle-phrase-never-logged"} {
			if strings.Contains(line, secret) {
				t.Errorf("a log line carries %q: %s", secret, line)
			}
		}
		if rec["msg"] == "slow request" && rec["route"] == "search" && rec["status"] == float64(200) {
			slow++
		}
	}
	if slow != 1 {
		t.Errorf("%d slow request lines for the search, want 1", slow)
	}
	var out, errs syncBuffer
	if err := run(t.Context(), []string{"serve", "--data", data, "--log-format", "xml"}, &out, &errs); err == nil || !strings.Contains(err.Error(), "--log-format") {
		t.Errorf("--log-format xml: %v, want an error naming the flag", err)
	}
}
