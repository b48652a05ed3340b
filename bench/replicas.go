package bench

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
)

// ReplicasReport is what aisle bench --replicas measured of a cluster
// of three aisle serve processes with embedded NATS on one machine.
type ReplicasReport struct {
	// FormedSeconds is from the three processes' start until all three
	// answer /readyz: the seed's snapshot published and loaded by the two
	// new nodes, and NATS's leaders elected.
	FormedSeconds float64 `json:"formedSeconds"`
	// WarmedSeconds is from then until every node has built its impact
	// lists (/healthz lists none "warming"): the lag run waits for it, as
	// the query classes do, to measure the steady state.
	WarmedSeconds float64          `json:"warmedSeconds"`
	Lag           ReplicaLagReport `json:"lag"`
	WriteRate     float64          `json:"writeRate"` // the sustained writes' asked rate, updates a second
	// BootstrapSeconds is a new node's start, with an empty directory,
	// until it answers /readyz, after the lag run's writes.
	BootstrapSeconds float64 `json:"bootstrapSeconds"`
}

// ReplicaLagOptions describe `aisle bench --replicas`' lag run: price
// updates written to a cluster's writer at a sustained rate, and single
// updates timed until each replica's search returns them.
type ReplicaLagOptions struct {
	Writer   string   // the writer's URL, http://HOST:PORT
	Replicas []string // the replicas' URLs
	AdminKey string
	Website  string // the website's UUID
	Key      string // its search configuration key
	Products []string
	// BatchSize products per sustained write, paced to WriteRate
	// updates a second.
	BatchSize int
	WriteRate float64
	// Probes single-product updates are timed, one every ProbeEvery, for
	// Duration at most.
	Probes     int
	ProbeEvery time.Duration
	Duration   time.Duration
	Log        func(format string, args ...any)
}

// ReplicaLagReport is what the lag run measured. A probe's lag on a
// replica is the time from the writer's answer to the replica's first
// search that returns the new price (searched every probePoll, paced).
type ReplicaLagReport struct {
	Probes                 int     `json:"probes"`
	WriteP50ms             float64 `json:"writeP50ms"` // the probe's write, answered by the writer
	WriteP99ms             float64 `json:"writeP99ms"`
	LagP50ms               float64 `json:"lagP50ms"` // every replica's lags together
	LagP99ms               float64 `json:"lagP99ms"`
	LagMaxms               float64 `json:"lagMaxMs"`
	SustainedUpdatesPerSec float64 `json:"sustainedUpdatesPerSecond"`
	SustainedBatch         int     `json:"sustainedBatch"` // products a sustained write
}

// probePoll is how often a probe searches a replica for its update, at
// most: the lags' resolution, kept coarse enough that the polls, on the
// same machine as the cluster, take little of its cores. A search that
// takes longer is paced to a quarter of a core (paced).
const probePoll = 5 * time.Millisecond

// ReplicaLag runs the lag run.
func ReplicaLag(ctx context.Context, o ReplicaLagOptions) (ReplicaLagReport, error) {
	var rep ReplicaLagReport
	if len(o.Products) < 2 || len(o.Replicas) == 0 {
		return rep, errors.New("replicas: no products or no replica")
	}
	logf := o.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	client := func(url string) *liveClient {
		return &liveClient{o: LiveOptions{URL: url, AdminKey: o.AdminKey, Website: o.Website, Key: o.Key},
			c: &fasthttp.Client{ReadTimeout: time.Minute, WriteTimeout: time.Minute, MaxResponseBodySize: 64 << 20}}
	}
	writer := client(o.Writer)
	replicas := make([]*liveClient, len(o.Replicas))
	for i, u := range o.Replicas {
		replicas[i] = client(u)
	}
	// The sustained writes update every product but the probes' one.
	probe, rest := o.Products[0], o.Products[1:]
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	var done atomic.Int64
	var werr error
	var wg sync.WaitGroup
	start := time.Now()
	logf("replicas: writes of %d products paced to %g updates/s, and a probe every %s…", o.BatchSize, o.WriteRate, o.ProbeEvery)
	wg.Go(func() {
		r := rand.New(rand.NewPCG(3, 4))
		batch := make([]string, o.BatchSize)
		price := 200000.0
		for wctx.Err() == nil {
			due := start.Add(time.Duration(float64(done.Load()) / o.WriteRate * float64(time.Second)))
			select {
			case <-time.After(time.Until(due)):
			case <-wctx.Done():
				return
			}
			for k := range batch {
				batch[k] = rest[r.IntN(len(rest))]
			}
			price++
			if err := writer.patch(batch, price); err != nil {
				if wctx.Err() == nil {
					werr = err
				}
				return
			}
			done.Add(int64(len(batch)))
		}
	})
	var writes, lags []time.Duration
	price := 100000.0
	for i := 0; i < o.Probes && time.Since(start) < o.Duration && werr == nil; i++ {
		price++
		t0 := time.Now()
		if err := writer.patch([]string{probe}, price); err != nil {
			stop()
			wg.Wait()
			return rep, err
		}
		answered := time.Now()
		writes = append(writes, answered.Sub(t0))
		seen := make([]time.Duration, len(replicas)) // each replica polled on its own
		errs := make([]error, len(replicas))
		var pw sync.WaitGroup
		for k, rc := range replicas {
			pw.Go(func() {
				errs[k] = rc.waitPriceEvery(ctx, probe, price, 30*time.Second, paced(probePoll))
				seen[k] = time.Since(answered)
			})
		}
		pw.Wait()
		if err := errors.Join(errs...); err != nil {
			stop()
			wg.Wait()
			return rep, err
		}
		lags = append(lags, seen...)
		time.Sleep(time.Until(t0.Add(o.ProbeEvery)))
	}
	rep.SustainedUpdatesPerSec = float64(done.Load()) / time.Since(start).Seconds()
	stop()
	wg.Wait()
	if werr != nil {
		return rep, werr
	}
	rep.Probes, rep.SustainedBatch = len(writes), o.BatchSize
	p50, _, p99, _ := Percentiles(writes)
	rep.WriteP50ms, rep.WriteP99ms = Millis(p50), Millis(p99)
	p50, _, p99, maxLag := Percentiles(lags)
	rep.LagP50ms, rep.LagP99ms, rep.LagMaxms = Millis(p50), Millis(p99), Millis(maxLag)
	return rep, nil
}
