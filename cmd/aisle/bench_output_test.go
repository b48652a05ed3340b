package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/bench"
	"github.com/aisle-search/aisle/internal/golden"
)

// sampleBenchReport is a report with every member set, as a run fills it.
func sampleBenchReport() bench.Report {
	return bench.Report{
		Catalog: "demo", Products: 1000, Machine: "linux/amd64, 2 cores",
		Import: bench.ImportReport{Products: 1000, JSONBytes: 913171, FeedSeconds: 0.25, IndexSeconds: 0.125, TotalSeconds: 0.375,
			FeedPerSec: 4000, IndexPerSec: 8000, TotalPerSec: 2666.5, DiskBytes: 1120819, RSSBytes: 11211325, HeapBytes: 9929915,
			RSSOverJSON: 12.25, IndexDiskSize: 417817},
		Serve: bench.ServeReport{LoadSeconds: 0.5, RSSBytes: 12099256, RSSOverJSON: 13.25},
		Classes: []bench.ClassReport{
			{Class: "words", InProcess: bench.Result{Engine: "aisle", Class: "words", QPS: 1249.87, P50us: 622.565, P95us: 1911.641, P99us: 2928.071, AllocsPerQuery: 136.265},
				HTTPQPS: 2194.06, HTTPP50ms: 2.188703, HTTPP95ms: 9.888155, HTTPP99ms: 25.766791, Requests: 6592,
				ServerShareUs: 48.5, HealthP50us: 12.25, MaxRate: 2262.63, MaxRateP99ms: 9.342688, HalfP50ms: 1.68529, HalfP99ms: 9.34845},
			{Class: "category page", InProcess: bench.Result{Engine: "aisle", Class: "category page", QPS: 4225, P50us: 218, P95us: 356, P99us: 601, AllocsPerQuery: 178},
				HTTPQPS: 7258, HTTPP50ms: 0.9, HTTPP95ms: 2.5, HTTPP99ms: 4.75, Requests: 21774, Errors: 2},
		},
		NDCG: 0.4385, NDCGTerms: 5831, Concurrent: 8, P99LimitMs: 20, HTTPSeconds: 5,
		Hostile: []bench.HostileResult{{Name: "search: 20,000 words", Bytes: 120048, Status: 400, CPUms: 3, P50ms: 2.012352, MaxMs: 12.609265}},
	}
}

// TestPrintReportGolden: aisle bench's table, as printed, for a fixed
// report.
func TestPrintReportGolden(t *testing.T) {
	rep := sampleBenchReport()
	var out bytes.Buffer
	printReport(&out, &rep)
	golden.Check(t, "bench_table.txt", out.Bytes())
}

// TestWriteReportGolden: the report's JSON as writeReport writes it,
// for a fixed report; with no path it writes nothing.
func TestWriteReportGolden(t *testing.T) {
	rep := sampleBenchReport()
	path := filepath.Join(t.TempDir(), "report.json")
	if err := writeReport(path, &rep); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "bench_report.json", b)
	if err := writeReport("", &rep); err != nil {
		t.Fatalf("no path: %v", err)
	}
	if err := writeReport(filepath.Join(t.TempDir(), "missing", "report.json"), &rep); err == nil || !strings.Contains(err.Error(), "write the report") {
		t.Fatalf("into a missing directory: %v", err)
	}
}
