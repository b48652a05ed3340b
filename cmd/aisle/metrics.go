package main

import (
	"time"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/metrics"
	"github.com/aisle-search/aisle/replica"
	"github.com/aisle-search/aisle/store"
)

// serverMetrics is aisle serve's metrics (GET /metrics, docs/operations.md):
// the requests httpapi records, the searches by class, the writes' queue
// and time, the events logged, and gauges of the store, the websites and
// the visitors' behaviour, read at each scrape. It times w's writes
// (live.Writer.UseWriteTimer), so it is made before w takes writes.
func serverMetrics(st *store.Store, eng *engine.Engine, bhv *engine.Behaviours, w *live.Writer, c *live.Collector) *metrics.Server {
	m := metrics.New()
	m.Gauge("log_position", "The change log's last entry: every acknowledged write is at or before it.",
		func() float64 { return float64(st.Seq()) })
	m.GaugeVec("website_position", "The change log entry each served website's indexes reflect.", "website",
		func(set func(string, float64)) {
			for _, g := range eng.Websites() {
				set(g.Website.UUID, float64(g.Seq))
			}
		})
	m.GaugeVec("website_generation_age_seconds", "Seconds since each served website's state last changed: since a generation at its current position (aisle_website_position) was first served.", "website",
		func(set func(string, float64)) {
			now := time.Now()
			for _, g := range eng.Websites() {
				if since, ok := eng.ServedSince(g.Website.UUID); ok {
					set(g.Website.UUID, now.Sub(since).Seconds())
				}
			}
		})
	m.Gauge("websites_failed", "Websites the server could not serve (their data or configuration refused at start).",
		func() float64 { return float64(len(eng.Failed())) })
	m.CounterVec("searches_total", "Product queries answered (searches and pages), by class: listing (no words: a wildcard search, or a page), faceted (words and returnFilters), filtered (words and filters), words.", "class",
		func(set func(string, float64)) {
			for _, cl := range engine.SearchClasses {
				set(cl.String(), float64(eng.Searches(cl)))
			}
		})
	m.Gauge("write_queue_depth", "Writes arrived and not yet answered: the one being applied and those waiting for their turn.",
		func() float64 { return float64(w.Waiting()) })
	m.Counter("index_changes_total", "Product index changes made by writes: one a product write, one a run of replicated entries a replica applied together.",
		func() float64 { return float64(w.IndexChanges()) })
	w.UseWriteTimer(m.Histogram("write_duration_seconds", "Time from a write's arrival at the writer (decoded, asking for its turn) to its answer, when it is durable in the log and searchable; acknowledged writes only.", metrics.WriteBuckets))
	m.CounterVec("events_total", "Visitors' events durably logged, by kind; impressions are the server's own.", "kind",
		func(set func(string, float64)) {
			for _, k := range live.CountedKinds {
				set(string(k), float64(c.Logged(k)))
			}
		})
	m.Gauge("store_l0_files", "Tables in the store's level 0; writes stall at 24.",
		func() float64 { return float64(st.DiskMetrics().L0Files) })
	m.Counter("store_compactions_total", "Compactions of the store since the server started.",
		func() float64 { return float64(st.DiskMetrics().Compactions) })
	m.Gauge("store_disk_bytes", "Disk space the store's files take.",
		func() float64 { return float64(st.DiskMetrics().DiskBytes) })
	m.Gauge("behaviour_bytes", "Memory the visitors' behaviour models hold, every website together.",
		func() float64 { return float64(bhv.Bytes()) })
	budget := bhv.Budget()
	m.Gauge("behaviour_max_visitors", "Visitors' histories each website's behaviour keeps at most (--max-visitors); past it the least lately active quarter is forgotten.",
		func() float64 { return float64(budget.Visitors) })
	m.Gauge("behaviour_max_links", "Emails' and customer ids' links each website's behaviour keeps at most (twice --max-visitors); past it the least lately written go.",
		func() float64 { return float64(budget.Links) })
	m.GaugeVec("behaviour_visitors", "Visitors' histories each website's behaviour holds, against aisle_behaviour_max_visitors.", "website",
		func(set func(string, float64)) {
			bhv.Held(func(uuid string, visitors, _ int) { set(uuid, float64(visitors)) })
		})
	m.GaugeVec("behaviour_links", "Emails' and customer ids' links each website's behaviour holds, against aisle_behaviour_max_links.", "website",
		func(set func(string, float64)) {
			bhv.Held(func(uuid string, _, links int) { set(uuid, float64(links)) })
		})
	return m
}

// replicationMetrics adds a node's replication to m: each log's applied
// position, lag and whether this node writes it.
func replicationMetrics(m *metrics.Server, rep *replica.Replicator) {
	logs := func(value func(s replica.LogStatus) float64) func(set func(string, float64)) {
		return func(set func(string, float64)) {
			for _, s := range rep.Status() {
				set(s.Log, value(s))
			}
		}
	}
	m.GaugeVec("replication_applied", "The last entry of each replicated log (\"server\" or a website's UUID) this node applied.", "log",
		logs(func(s replica.LogStatus) float64 { return float64(s.Applied) }))
	m.GaugeVec("replication_lag_entries", "Entries of each replicated log this node has not applied yet; /readyz fails at --max-lag.", "log",
		logs(func(s replica.LogStatus) float64 { return float64(s.Lag) }))
	m.GaugeVec("replication_writing", "1 for each replicated log this node writes (holds its lease), 0 for the others.", "log",
		logs(func(s replica.LogStatus) float64 {
			if s.Writing {
				return 1
			}
			return 0
		}))
	m.GaugeVec("replication_stopped", "1 for each replicated log whose next entry this node cannot apply (its error is on /healthz), 0 for the others.", "log",
		logs(func(s replica.LogStatus) float64 {
			if s.Error != "" {
				return 1
			}
			return 0
		}))
}
