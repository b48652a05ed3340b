package main

import (
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/metrics"
	"github.com/aisle-search/aisle/store"
)

// serverMetrics is aisle serve's metrics (GET /metrics, docs/operations.md):
// the requests httpapi records, and gauges of the store, the websites
// and the visitors' behaviour, read at each scrape.
func serverMetrics(st *store.Store, eng *engine.Engine, bhv *engine.Behaviours) *metrics.Server {
	m := metrics.New()
	m.Gauge("log_position", "The change log's last entry: every acknowledged write is at or before it.",
		func() float64 { return float64(st.Seq()) })
	m.GaugeVec("website_position", "The change log entry each served website's indexes reflect.", "website",
		func(set func(string, float64)) {
			for _, g := range eng.Websites() {
				set(g.Website.UUID, float64(g.Seq))
			}
		})
	m.Gauge("websites_failed", "Websites the server could not serve (their data or configuration refused at start).",
		func() float64 { return float64(len(eng.Failed())) })
	m.Gauge("store_l0_files", "Tables in the store's level 0; writes stall at 24.",
		func() float64 { return float64(st.DiskMetrics().L0Files) })
	m.Counter("store_compactions_total", "Compactions of the store since the server started.",
		func() float64 { return float64(st.DiskMetrics().Compactions) })
	m.Gauge("store_disk_bytes", "Disk space the store's files take.",
		func() float64 { return float64(st.DiskMetrics().DiskBytes) })
	m.Gauge("behaviour_bytes", "Memory the visitors' behaviour models hold, every website together.",
		func() float64 { return float64(bhv.Bytes()) })
	return m
}
