package bench

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
)

// SoakRequest is one request of a mixed load: the kind it is tallied
// under, its path on the server and its body, sent as a POST.
type SoakRequest struct {
	Kind        string
	Path        string // e.g. /serve/search
	ContentType string // application/json when empty
	Body        []byte
}

// MixedOptions describes one run of a mixed load (RunMixed). It always
// ends by itself, at Duration.
type MixedOptions struct {
	URL string // the server, http://HOST:PORT
	// Schedule is sent in turn: the run's i-th request is
	// Schedule[i%len(Schedule)], so each kind's share of the requests is
	// its share of the schedule, whatever the rate.
	Schedule    []SoakRequest
	Connections int // at least 1
	Duration    time.Duration
	// Rate is the open loop's requests a second across all connections:
	// request i is due at i/Rate after the start, and its latency counts
	// from then, so a stalled server is not hidden by the client waiting
	// for it (no coordinated omission). 0: closed loop, each connection
	// sending its next request as soon as its last is answered.
	Rate float64
}

// soakTimeout is the longest a request of the mixed load may take; one
// that takes longer fails.
const soakTimeout = 10 * time.Second

// RunMixed sends o.Schedule to the server over o.Connections connections
// for o.Duration and records every answer in t, under the time it was
// due (open loop) or sent (closed loop). It returns the answered
// requests a second; an error only when the options cannot run.
func RunMixed(ctx context.Context, o MixedOptions, t *Tally) (float64, error) {
	if len(o.Schedule) == 0 || o.Connections < 1 || o.Duration <= 0 || o.Rate < 0 {
		return 0, errors.New("mixed load: want requests, connections, a duration and a rate of at least 0")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	client := &fasthttp.Client{MaxConnsPerHost: o.Connections, ReadTimeout: soakTimeout, WriteTimeout: soakTimeout}
	started := time.Now()
	end := started.Add(o.Duration)
	var next atomic.Int64 // the closed loop's next request
	var answered atomic.Int64
	var wg sync.WaitGroup
	for w := range o.Connections {
		wg.Go(func() {
			req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
			defer fasthttp.ReleaseRequest(req)
			defer fasthttp.ReleaseResponse(resp)
			req.Header.SetMethod("POST")
			for k := 0; ctx.Err() == nil; k++ {
				var i int64
				var due time.Time
				if o.Rate > 0 {
					i = int64(w) + int64(k)*int64(o.Connections)
					due = started.Add(time.Duration(float64(i) / o.Rate * float64(time.Second)))
					if !due.Before(end) {
						return
					}
					if d := time.Until(due); d > 0 {
						select {
						case <-time.After(d):
						case <-ctx.Done():
							return
						}
					}
				} else {
					i, due = next.Add(1)-1, time.Now()
					if !due.Before(end) {
						return
					}
				}
				sr := &o.Schedule[i%int64(len(o.Schedule))]
				req.SetRequestURI(o.URL + sr.Path)
				ct := sr.ContentType
				if ct == "" {
					ct = "application/json"
				}
				req.Header.SetContentType(ct)
				req.SetBody(sr.Body)
				err := client.DoTimeout(req, resp, soakTimeout)
				lat := time.Since(due)
				if err != nil {
					t.Failed(sr.Kind, due, 0, err.Error())
					continue
				}
				if code := resp.StatusCode(); code/100 != 2 {
					t.Failed(sr.Kind, due, code, string(resp.Body()))
					continue
				}
				answered.Add(1)
				t.Answered(sr.Kind, due, lat)
			}
		})
	}
	wg.Wait()
	return float64(answered.Load()) / time.Since(started).Seconds(), nil
}

// Tally counts a soak's requests in windows of its time, by the time
// each was due: answered ones with their latency, failed ones (a
// transport error or an answer other than 2xx) with the first few
// failures' status and body; the admin writes apart from the mix. It is
// safe for concurrent use.
type Tally struct {
	mu      sync.Mutex
	start   time.Time
	window  time.Duration
	windows []tallyWindow
	kinds   map[string]*kindTally
	order   []string // kinds in the order first seen
	errs    []SoakError
	recent  []time.Duration // latencies since the last Recent
	failed  int
}

// tallyWindow is one window of a Tally.
type tallyWindow struct {
	lats           []time.Duration
	errors, writes int
}

// kindTally is one kind's requests over the whole run.
type kindTally struct {
	lats   []time.Duration
	errors int
}

// MaxSoakErrors is how many failures a Tally keeps whole (status and
// body); it counts the rest.
const MaxSoakErrors = 5

// soakErrorBody is how much of a failure's body a Tally keeps.
const soakErrorBody = 300

// NewTally is a Tally of windows of width window from start.
func NewTally(start time.Time, window time.Duration) *Tally {
	return &Tally{start: start, window: window, kinds: map[string]*kindTally{}}
}

// at is the window of time t, grown to hold it (t before the start
// counts in the first).
func (t *Tally) at(when time.Time) *tallyWindow {
	i := max(0, int(when.Sub(t.start)/t.window))
	for len(t.windows) <= i {
		t.windows = append(t.windows, tallyWindow{})
	}
	return &t.windows[i]
}

func (t *Tally) kind(k string) *kindTally {
	kt, ok := t.kinds[k]
	if !ok {
		kt = &kindTally{}
		t.kinds[k] = kt
		t.order = append(t.order, k)
	}
	return kt
}

// Answered records a request of kind due at due, answered 2xx after lat.
func (t *Tally) Answered(kind string, due time.Time, lat time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	w := t.at(due)
	w.lats = append(w.lats, lat)
	kt := t.kind(kind)
	kt.lats = append(kt.lats, lat)
	t.recent = append(t.recent, lat)
}

// Wrote records an admin write due at due, answered 2xx.
func (t *Tally) Wrote(due time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.at(due).writes++
}

// Failed records a request of kind due at due that failed: status 0 and
// the transport's error as body, or the status and body the server
// answered.
func (t *Tally) Failed(kind string, due time.Time, status int, body string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.at(due).errors++
	t.kind(kind).errors++
	t.failed++
	if len(t.errs) < MaxSoakErrors {
		if len(body) > soakErrorBody {
			body = body[:soakErrorBody] + "…"
		}
		t.errs = append(t.errs, SoakError{Seconds: due.Sub(t.start).Seconds(), Kind: kind, Status: status, Body: body})
	}
}

// Recent is the requests answered and the failures so far, and the p99
// of the latencies answered since the last call.
func (t *Tally) Recent() (answered, failed int, p99 time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, w := range t.windows {
		answered += len(w.lats)
	}
	_, _, p99, _ = Percentiles(t.recent)
	t.recent = t.recent[:0]
	return answered, t.failed, p99
}

// Errors is the failures counted and the first MaxSoakErrors of them.
func (t *Tally) Errors() (int, []SoakError) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.failed, append([]SoakError(nil), t.errs...)
}

// Windows is the tally's windows up to end (a request due at or past end
// counts in the last), each with the largest resident set sampled in it,
// and the whole run as one more window.
func (t *Tally) Windows(end time.Time, rss []RSSSample) (windows []SoakWindow, total SoakWindow) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := max(1, int((end.Sub(t.start)+t.window-1)/t.window))
	span := end.Sub(t.start).Seconds()
	var all []time.Duration
	for i := range n {
		from, to := float64(i)*t.window.Seconds(), min(float64(i+1)*t.window.Seconds(), span)
		sw := SoakWindow{FromSeconds: from, ToSeconds: to}
		upto := i + 1
		if i == n-1 {
			upto = len(t.windows)
		}
		var lats []time.Duration
		for j := i; j < min(upto, len(t.windows)); j++ {
			w := &t.windows[j]
			lats = append(lats, w.lats...)
			sw.Requests += len(w.lats) + w.errors
			sw.Errors += w.errors
			sw.Writes += w.writes
		}
		all = append(all, lats...)
		p50, _, p99, _ := Percentiles(lats)
		sw.P50ms, sw.P99ms = Millis(p50), Millis(p99)
		for _, s := range rss {
			if s.Seconds >= from && (s.Seconds < to || i == n-1) {
				sw.RSSBytes = max(sw.RSSBytes, s.Bytes)
			}
		}
		windows = append(windows, sw)
	}
	total = SoakWindow{ToSeconds: span}
	for _, w := range windows {
		total.Requests += w.Requests
		total.Errors += w.Errors
		total.Writes += w.Writes
		total.RSSBytes = max(total.RSSBytes, w.RSSBytes)
	}
	p50, _, p99, _ := Percentiles(all)
	total.P50ms, total.P99ms = Millis(p50), Millis(p99)
	return windows, total
}

// Kinds is each kind's requests, failures and latencies over the run.
func (t *Tally) Kinds() []SoakKind {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]SoakKind, 0, len(t.order))
	for _, k := range t.order {
		kt := t.kinds[k]
		p50, _, p99, _ := Percentiles(kt.lats)
		out = append(out, SoakKind{Kind: k, Requests: len(kt.lats) + kt.errors, Errors: kt.errors, P50ms: Millis(p50), P99ms: Millis(p99)})
	}
	return out
}

// String is a failure as the soak prints it.
func (e SoakError) String() string {
	what := fmt.Sprintf("status %d: %s", e.Status, e.Body)
	if e.Status == 0 {
		what = e.Body
	}
	return fmt.Sprintf("%.1fs %s: %s", e.Seconds, e.Kind, what)
}
