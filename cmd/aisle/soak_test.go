package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/bench"
)

// soakFor is how long TestSoak soaks; 0 (the default) skips it. CI runs
// it for 60 s under the race detector (.ci/run).
var soakFor = flag.Duration("soak", 0, "run TestSoak, aisle bench --soak on 2,000 demo products, for `DURATION` (CI: 60s under -race)")

// TestSoak runs aisle bench --soak against a real aisle serve child (this
// test binary, so under -race the server is race-checked too) and fails
// on any failed request or a resident set still growing in the soak's
// last third, as the command does; its report and chart are written.
func TestSoak(t *testing.T) {
	if *soakFor == 0 {
		t.Skip("the soak runs when asked: go test -race -run TestSoak ./cmd/aisle -soak 60s (CI runs it so)")
	}
	t.Setenv("AISLE_TEST_AS_MAIN", "1") // for the serve process
	dir := t.TempDir()
	report, chart := filepath.Join(dir, "soak.json"), filepath.Join(dir, "soak.svg")
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"bench", "--soak", soakFor.String(), "--products", "2000", "--duration", "5s",
		"--json", report, "--svg", chart}, &out, &errOut)
	t.Logf("aisle bench --soak %s:\n%s", soakFor, out.String())
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	raw, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var rep bench.Report
	if err := json.Unmarshal(raw, &rep); err != nil || rep.Soak == nil {
		t.Fatalf("the report: %v", err)
	}
	s := rep.Soak
	if !s.Passed || s.Failures != 0 || s.Total.Requests == 0 || len(s.Imports) != 1 || s.Total.Writes == 0 {
		t.Errorf("the soak: passed %t, %d failures, %d requests, %d imports, %d writes", s.Passed, s.Failures, s.Total.Requests, len(s.Imports), s.Total.Writes)
	}
	if want := soakFor.Seconds() / soakRSSEvery(*soakFor).Seconds(); float64(len(s.RSS)) < want*0.9 {
		t.Errorf("%d resident set samples, want about %.0f", len(s.RSS), want)
	}
	svg, err := os.ReadFile(chart)
	if err != nil || !strings.HasPrefix(string(svg), "<?xml") {
		t.Errorf("the chart: %v", err)
	}
}
