package bench

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/valyala/fasthttp"
)

// LoadOptions describes one load run. It always ends by itself: at
// Duration, or after MaxRequests.
type LoadOptions struct {
	URL         string   // e.g. http://127.0.0.1:8080/serve/search
	Bodies      [][]byte // request bodies, replayed in turn
	Concurrency int      // connections; default 8
	Duration    time.Duration
	MaxRequests int     // 0: no limit besides Duration
	Rate        float64 // requests/s across all connections; 0: as fast as possible
}

// LoadResult is what a load run measured. With a Rate, latencies count
// from each request's scheduled time, so a stalled server is not hidden
// by the client waiting for it.
type LoadResult struct {
	Requests, Errors   int
	Elapsed            time.Duration
	QPS                float64
	P50, P95, P99, Max time.Duration
}

func (r LoadResult) String() string {
	return fmt.Sprintf("%d requests in %s: %.0f/s, p50 %s, p95 %s, p99 %s, max %s, errors %d",
		r.Requests, r.Elapsed.Round(time.Millisecond), r.QPS, r.P50, r.P95, r.P99, r.Max, r.Errors)
}

// Load sends the bodies as POSTs to the URL and measures the answers.
func Load(ctx context.Context, opt LoadOptions) (LoadResult, error) {
	if len(opt.Bodies) == 0 {
		return LoadResult{}, errors.New("load: no request bodies")
	}
	if opt.Duration <= 0 && opt.MaxRequests <= 0 {
		return LoadResult{}, errors.New("load: set a duration or a request count, so the run ends")
	}
	if opt.Duration <= 0 {
		opt.Duration = time.Hour
	}
	c := max(opt.Concurrency, 1)
	if opt.Concurrency == 0 {
		c = 8
	}
	ctx, cancel := context.WithTimeout(ctx, opt.Duration)
	defer cancel()
	client := &fasthttp.Client{MaxConnsPerHost: c, ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second}
	var (
		mu      sync.Mutex
		lats    []time.Duration
		errs    int
		next    int
		wg      sync.WaitGroup
		started = time.Now()
	)
	interval := time.Duration(0)
	if opt.Rate > 0 {
		interval = time.Duration(float64(c) / opt.Rate * float64(time.Second))
	}
	for w := range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
			defer fasthttp.ReleaseRequest(req)
			defer fasthttp.ReleaseResponse(resp)
			req.SetRequestURI(opt.URL)
			req.Header.SetMethod("POST")
			req.Header.SetContentType("application/json")
			local := make([]time.Duration, 0, 1024)
			localErrs := 0
			scheduled := started.Add(time.Duration(w) * interval / time.Duration(c))
			for ctx.Err() == nil {
				mu.Lock()
				if opt.MaxRequests > 0 && next >= opt.MaxRequests {
					mu.Unlock()
					break
				}
				body := opt.Bodies[next%len(opt.Bodies)]
				next++
				mu.Unlock()
				t0 := time.Now()
				if interval > 0 {
					if d := time.Until(scheduled); d > 0 {
						select {
						case <-time.After(d):
						case <-ctx.Done():
						}
					}
					if ctx.Err() != nil { // the run ended before this request's time
						break
					}
					t0 = scheduled
					scheduled = scheduled.Add(interval)
				}
				req.SetBody(body)
				err := client.DoTimeout(req, resp, 10*time.Second)
				if err != nil || resp.StatusCode() != fasthttp.StatusOK {
					localErrs++
					continue
				}
				local = append(local, time.Since(t0))
			}
			mu.Lock()
			lats = append(lats, local...)
			errs += localErrs
			mu.Unlock()
		}()
	}
	wg.Wait()
	res := LoadResult{Requests: len(lats) + errs, Errors: errs, Elapsed: time.Since(started)}
	res.QPS = float64(len(lats)) / res.Elapsed.Seconds()
	res.P50, res.P95, res.P99, res.Max = Percentiles(lats)
	return res, nil
}

// Percentiles is the p50, p95, p99 and max of a latency sample (sorted in
// place).
func Percentiles(lats []time.Duration) (p50, p95, p99, maxLat time.Duration) {
	if len(lats) == 0 {
		return
	}
	slices.Sort(lats)
	at := func(q float64) time.Duration { return lats[min(int(q*float64(len(lats))), len(lats)-1)] }
	return at(0.50), at(0.95), at(0.99), lats[len(lats)-1]
}

// RateSearch is the highest request rate a server held with p99 under a
// limit, and the latencies at that rate and at half of it.
type RateSearch struct {
	MaxRate float64    `json:"maxRate"`
	AtMax   LoadResult `json:"atMax"`
	AtHalf  LoadResult `json:"atHalf"`
	Probes  int        `json:"probes"`
}

// FindMaxRate probes open-loop rates, each for opt.Duration: up by half
// from start while p99 stays under limit (and nothing fails), down by half
// from start until one is held if start itself is not, then halving the
// gap between the highest rate held and the lowest missed until they are
// within 5%. A miss is retried once before it counts, so one noisy probe
// on a shared machine cannot halve the answer. A final run at half the
// rate found measures the latency a server sees at comfortable load.
func FindMaxRate(ctx context.Context, opt LoadOptions, start float64, limit time.Duration, report func(rate float64, r LoadResult, held bool)) (RateSearch, error) {
	var rs RateSearch
	probe := func(rate float64) (LoadResult, bool, error) {
		var r LoadResult
		for try := 0; try < 2; try++ {
			o := opt
			o.Rate = rate
			var err error
			if r, err = Load(ctx, o); err != nil {
				return r, false, err
			}
			rs.Probes++
			// Held: the rate was achieved with p99 under the limit.
			held := r.Errors == 0 && r.P99 < limit && r.QPS >= 0.9*rate
			if report != nil {
				report(rate, r, held)
			}
			if held || ctx.Err() != nil {
				return r, held, ctx.Err()
			}
		}
		return r, false, nil
	}
	start = max(start, 10)
	lo, hi := 0.0, 0.0 // highest rate held, lowest missed; 0 while unknown
	step := func(rate float64) error {
		r, held, err := probe(rate)
		if held {
			lo, rs.AtMax = rate, r
		} else {
			hi = rate
		}
		return err
	}
	err := step(start)
	for rate := start * 1.5; err == nil && lo > 0 && hi == 0; rate *= 1.5 {
		err = step(rate)
	}
	for rate := start / 2; err == nil && lo == 0 && rate >= 1; rate /= 2 {
		err = step(rate)
	}
	for err == nil && lo > 0 && hi/lo > 1.05 {
		err = step((lo + hi) / 2)
	}
	if err != nil {
		return rs, err
	}
	rs.MaxRate = lo
	if lo > 0 {
		r, _, err := probe(lo / 2)
		if err != nil {
			return rs, err
		}
		rs.AtHalf = r
	}
	return rs, nil
}
