package peers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/bench"
)

// TestLatencyChart draws a two-class, two-engine chart as SVG and PNG:
// every engine's two series in the legend, the classes on the axis.
func TestLatencyChart(t *testing.T) {
	results := [][]bench.Result{
		{{Engine: "aisle", Class: "words", P50us: 100, P99us: 400}, {Engine: "bleve", Class: "words", P50us: 300, P99us: 2000}},
		{{Engine: "aisle", Class: "typo", P50us: 150, P99us: 500}, {Engine: "bleve", Class: "typo", P50us: 1200, P99us: 30000}},
	}
	dir := t.TempDir()
	svg := filepath.Join(dir, "chart.svg")
	if err := LatencyChart(svg, "test run", results); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", "test run", "aisle p50", "bleve p99", "1 words", "5 typo"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("chart lacks %q", want)
		}
	}
	png := filepath.Join(dir, "chart.png")
	if err := LatencyChart(png, "test run", results); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(png); len(b) < 8 || string(b[1:4]) != "PNG" {
		t.Fatal("no PNG written")
	}
}
