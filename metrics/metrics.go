// Package metrics is what a server reports to Prometheus at GET
// /metrics: its requests by route and status with their latency, and
// Go's runtime and the process's. It holds the registry and the
// collectors; package httpapi records each request (Server.Observe) and
// serves the text format (Server.Serve), and cmd/aisle adds the rest:
// gauges and counters read at each scrape from the counters the engine,
// the writer, the collector and the store keep (Server.Gauge, Counter,
// GaugeVec, CounterVec), and the writes' histogram (Server.Histogram).
// Names follow Prometheus' conventions: the aisle_ namespace, units in
// the name, _total on counters.
package metrics

import (
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"
)

// Routes are the values of the route label: every request counts under
// one of them, so the label's values are bounded whatever paths
// strangers send.
var Routes = []string{"search", "pages", "recoms", "collect", "admin", "graphql", "sdk", "storefront", "health", "metrics", "other"}

// LatencyBuckets are the request duration histogram's upper bounds, in
// seconds: 50 µs to about 3 s, each 2.5 times the last.
var LatencyBuckets = prometheus.ExponentialBuckets(0.00005, 2.5, 13)

// WriteBuckets are the write duration histogram's upper bounds, in
// seconds: 1 ms (a synced entry) to about 60 s (a configuration change
// that indexes a large catalog again), each 2.5 times the last.
var WriteBuckets = prometheus.ExponentialBuckets(0.001, 2.5, 13)

// Server is one server's metrics.
type Server struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	latency  []prometheus.Observer // by route index
	counters sync.Map              // route index<<16 | status → prometheus.Counter
	handler  fasthttp.RequestHandler
}

// New makes a server's registry with its request metrics and Go's and
// the process's collectors.
func New() *Server {
	s := &Server{reg: prometheus.NewRegistry()}
	s.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: "aisle", Subsystem: "http", Name: "requests_total",
		Help: "HTTP requests answered, by route and status code.",
	}, []string{"route", "code"})
	s.duration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: "aisle", Subsystem: "http", Name: "request_duration_seconds",
		Help: "Time from a request's start to its answer, by route.", Buckets: LatencyBuckets,
	}, []string{"route"})
	s.reg.MustRegister(s.requests, s.duration,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	s.latency = make([]prometheus.Observer, len(Routes))
	for i, r := range Routes {
		s.latency[i] = s.duration.WithLabelValues(r)
	}
	s.handler = fasthttpadaptor.NewFastHTTPHandler(promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{}))
	return s
}

// Observe records one answered request: route is an index of Routes,
// status the answer's code, took its time.
func (s *Server) Observe(route int, status int, took time.Duration) {
	if route < 0 || route >= len(Routes) {
		route = len(Routes) - 1
	}
	key := route<<16 | status&0xffff
	c, ok := s.counters.Load(key)
	if !ok {
		c, _ = s.counters.LoadOrStore(key, s.requests.WithLabelValues(Routes[route], strconv.Itoa(status)))
	}
	c.(prometheus.Counter).Inc()
	s.latency[route].Observe(took.Seconds())
}

// Gauge adds a gauge whose value fn reads at each scrape.
func (s *Server) Gauge(name, help string, fn func() float64) {
	s.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "aisle", Name: name, Help: help}, fn))
}

// Counter adds a counter whose value fn reads at each scrape; fn must
// never go down. Its name ends in _total.
func (s *Server) Counter(name, help string, fn func() float64) {
	s.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: "aisle", Name: name, Help: help}, fn))
}

// GaugeVec adds gauges of one label whose values fn reports at each
// scrape, one call of set for each label value.
func (s *Server) GaugeVec(name, help, label string, fn func(set func(value string, v float64))) {
	s.reg.MustRegister(&funcVec{desc: prometheus.NewDesc("aisle_"+name, help, []string{label}, nil), kind: prometheus.GaugeValue, fn: fn})
}

// CounterVec adds counters of one label whose values fn reports at each
// scrape, one call of set for each label value; a value must never go
// down. Its name ends in _total.
func (s *Server) CounterVec(name, help, label string, fn func(set func(value string, v float64))) {
	s.reg.MustRegister(&funcVec{desc: prometheus.NewDesc("aisle_"+name, help, []string{label}, nil), kind: prometheus.CounterValue, fn: fn})
}

// Histogram adds a histogram of durations with upper bounds buckets, in
// seconds, and answers the function that records one.
func (s *Server) Histogram(name, help string, buckets []float64) func(took time.Duration) {
	h := prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: "aisle", Name: name, Help: help, Buckets: buckets})
	s.reg.MustRegister(h)
	return func(took time.Duration) { h.Observe(took.Seconds()) }
}

// Serve writes the registry's metrics in the Prometheus text format.
func (s *Server) Serve(ctx *fasthttp.RequestCtx) { s.handler(ctx) }

// funcVec is a collector of gauges or counters read at each scrape.
type funcVec struct {
	desc *prometheus.Desc
	kind prometheus.ValueType
	fn   func(set func(value string, v float64))
}

func (g *funcVec) Describe(ch chan<- *prometheus.Desc) { ch <- g.desc }

func (g *funcVec) Collect(ch chan<- prometheus.Metric) {
	g.fn(func(value string, v float64) {
		ch <- prometheus.MustNewConstMetric(g.desc, g.kind, v, value)
	})
}
