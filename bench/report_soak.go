package bench

import (
	"fmt"
	"path"
	"strings"
	"time"
)

// soakTable is a soak report's windows and its whole run: requests,
// failures, admin writes, latency from each request's due time, and the
// server's largest resident set in the window.
func soakTable(s *SoakReport) table {
	t := table{header: []string{"from", "requests", "errors", "admin writes", "p50", "p99", "RSS max"}}
	row := func(label string, w SoakWindow) {
		t.rows = append(t.rows, []string{label, fmtCount(float64(w.Requests)), fmtCount(float64(w.Errors)), fmtCount(float64(w.Writes)),
			fmtMillis(w.P50ms), fmtMillis(w.P99ms), fmtMB(w.RSSBytes)})
	}
	for _, w := range s.Windows {
		row(time.Duration(w.FromSeconds*float64(time.Second)).String(), w)
	}
	row("all", s.Total)
	return t
}

// soakSummary is what a soak ran and its verdict, above its table, and
// its chart (the report's file with .svg for .json, written by --svg).
func soakSummary(r *SavedReport, linkDir string) string {
	s := r.Aisle.Soak
	var mix []string
	for _, m := range s.Mix {
		mix = append(mix, fmt.Sprintf("%d %s", m.Count, m.Kind))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "A soak of %s at %s requests/s open loop (%.0f%% of the mix's closed-loop %s/s) over %d connections; of every %d requests %s; a partial update of %d products every %s",
		time.Duration(s.Seconds*float64(time.Second)), fmtCount(s.Rate), 100*s.LoadShare, fmtCount(s.MaxRate), s.Connections, s.MixOf,
		strings.Join(mix, ", "), s.WriteProducts, time.Duration(s.WriteEverySeconds*float64(time.Second)))
	for _, im := range s.Imports {
		fmt.Fprintf(&b, "; a feed import of %s products at %.0f s, %.1f s long", fmtCount(float64(im.Products)), im.AtSeconds, im.Seconds)
	}
	// The resident set judged by the rule as it is now (ResidentGrowth),
	// from the report's samples; as the report judged it when they are
	// too few.
	g, err := ResidentGrowth(s.RSS, s.Seconds)
	if err != nil {
		g = s.Growth
	}
	verdict := "passed"
	if s.Failures > 0 || g.Growing {
		verdict = "FAILED"
	}
	fmt.Fprintf(&b, ". %s failed requests; resident set, %s: %s.\n\n", fmtCount(float64(s.Failures)), g, verdict)
	fmt.Fprintf(&b, "![the server's resident set over the soak](%s)\n\n", path.Join(linkDir, strings.TrimSuffix(r.File, ".json")+".svg"))
	return b.String()
}
