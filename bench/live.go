package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"
)

// LiveOptions describes `aisle bench --live`: writes through the admin API
// of a running server while it serves searches.
type LiveOptions struct {
	URL       string   // the server, http://HOST:PORT
	AdminKey  string   // its admin key
	Website   string   // the website's UUID
	Key       string   // its search configuration key
	Products  []string // product numbers in the catalog, to update
	Searches  [][]byte // class-3 search bodies for the load beside the writes
	Updates   int      // single-product updates timed one by one
	Adds      int      // new products timed one by one, then deleted one by one
	Bulk      int      // products in the one large partial update
	BatchSize int      // products per write in the sustained run
	// WriteRate paces the sustained run's writes to this many product
	// updates a second; 0 sends the next write as soon as one answers.
	WriteRate float64
	Duration  time.Duration
	// Budget bounds each phase: a phase that would take longer stops
	// there and reports what it measured.
	Budget time.Duration
	Log    func(format string, args ...any)
}

// LiveReport is what the live run measured.
type LiveReport struct {
	// Single-product updates: from sending the write until a search
	// returns the new price.
	Updates, UpdatesPlanned       int
	VisibleP50ms, VisibleP99ms    float64
	WriteP50ms, WriteP99ms        float64
	SustainedUpdatesPerSec        float64
	SustainedBatch                int
	SustainedRate                 float64 // the pace asked for; 0: none
	SearchP99ms, SearchP99Writing float64 // class 3, without and with the writes
	SearchErrors                  int
	BulkProducts                  int
	BulkSeconds                   float64 // the large partial update, sent until searchable
	// New products and their deletes, one at a time: from sending the
	// write until a search finds the product (or no longer does).
	Adds                     int
	AddP50ms, AddP99ms       float64
	DeleteP50ms, DeleteP99ms float64
}

// Live runs the three write phases against a running server.
func Live(ctx context.Context, o LiveOptions) (LiveReport, error) {
	var rep LiveReport
	if len(o.Products) == 0 || len(o.Searches) == 0 {
		return rep, errors.New("live: no products or no searches")
	}
	logf := o.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	lc := &liveClient{o: o, c: &fasthttp.Client{ReadTimeout: 10 * time.Minute, WriteTimeout: time.Minute, MaxResponseBodySize: 64 << 20}}
	r := rand.New(rand.NewPCG(1, 2))
	price := 100000.0 // new prices never met in the catalog

	// 1. Single updates, one at a time.
	rep.UpdatesPlanned = o.Updates
	logf("live: %d single-product updates, each timed until a search sees it (budget %s)…", o.Updates, o.Budget)
	var visible, write []time.Duration
	start := time.Now()
	for i := 0; i < o.Updates && time.Since(start) < o.Budget; i++ {
		pn := o.Products[r.IntN(len(o.Products))]
		price++
		t0 := time.Now()
		if err := lc.patch([]string{pn}, price); err != nil {
			return rep, err
		}
		write = append(write, time.Since(t0))
		if err := lc.waitPrice(ctx, pn, price, o.Budget); err != nil {
			return rep, err
		}
		visible = append(visible, time.Since(t0))
	}
	rep.Updates = len(visible)
	p50, _, p99, _ := Percentiles(visible)
	rep.VisibleP50ms, rep.VisibleP99ms = Millis(p50), Millis(p99)
	p50, _, p99, _ = Percentiles(write)
	rep.WriteP50ms, rep.WriteP99ms = Millis(p50), Millis(p99)

	// 2. Class-3 searches alone, then beside writes in batches.
	searchURL := o.URL + "/serve/search"
	logf("live: class-3 searches for %s without writes, then with writes of %d products (paced to %g updates/s; 0: unpaced)…", o.Duration, o.BatchSize, o.WriteRate)
	base, err := Load(ctx, LoadOptions{URL: searchURL, Bodies: o.Searches, Concurrency: 2, Duration: o.Duration})
	if err != nil {
		return rep, err
	}
	rep.SearchP99ms = Millis(base.P99)
	var done atomic.Int64
	var werr error
	var wg sync.WaitGroup
	wctx, stop := context.WithTimeout(ctx, o.Duration)
	paceStart := time.Now()
	wg.Go(func() {
		batch := make([]string, o.BatchSize)
		for wctx.Err() == nil {
			if o.WriteRate > 0 { // the next write is due when the rate allows it
				due := paceStart.Add(time.Duration(float64(done.Load()) / o.WriteRate * float64(time.Second)))
				select {
				case <-time.After(time.Until(due)):
				case <-wctx.Done():
					return
				}
			}
			for k := range batch {
				batch[k] = o.Products[r.IntN(len(o.Products))]
			}
			price++
			if err := lc.patch(batch, price); err != nil {
				if wctx.Err() == nil {
					werr = err
				}
				return
			}
			done.Add(int64(len(batch)))
		}
	})
	t0 := time.Now()
	loaded, err := Load(ctx, LoadOptions{URL: searchURL, Bodies: o.Searches, Concurrency: 2, Duration: o.Duration})
	stop()
	wg.Wait()
	if err != nil {
		return rep, err
	}
	if werr != nil {
		return rep, werr
	}
	rep.SustainedBatch, rep.SustainedRate = o.BatchSize, o.WriteRate
	rep.SustainedUpdatesPerSec = float64(done.Load()) / time.Since(t0).Seconds()
	rep.SearchP99Writing, rep.SearchErrors = Millis(loaded.P99), loaded.Errors

	// 3. One large partial update.
	n := min(o.Bulk, len(o.Products))
	logf("live: one partial update of %d products…", n)
	price++
	t0 = time.Now()
	if err := lc.patch(o.Products[:n], price); err != nil {
		return rep, err
	}
	if err := lc.waitPrice(ctx, o.Products[n-1], price, o.Budget); err != nil {
		return rep, err
	}
	rep.BulkProducts, rep.BulkSeconds = n, time.Since(t0).Seconds()

	// 4. New products, then their deletes, one at a time.
	logf("live: %d new products, then their deletes, each timed until a search sees it…", o.Adds)
	var adds, dels []time.Duration
	var added []string
	start = time.Now()
	for i := 0; i < o.Adds && time.Since(start) < o.Budget; i++ {
		pn := fmt.Sprintf("BENCH-NEW-%05d", i)
		t0 := time.Now()
		if err := lc.put(pn); err != nil {
			return rep, err
		}
		if err := lc.waitFound(ctx, pn, true, o.Budget); err != nil {
			return rep, err
		}
		adds = append(adds, time.Since(t0))
		added = append(added, pn)
	}
	for _, pn := range added {
		t0 := time.Now()
		if err := lc.send("DELETE", "/products/"+pn, "", nil); err != nil {
			return rep, err
		}
		if err := lc.waitFound(ctx, pn, false, o.Budget); err != nil {
			return rep, err
		}
		dels = append(dels, time.Since(t0))
	}
	rep.Adds = len(adds)
	p50, _, p99, _ = Percentiles(adds)
	rep.AddP50ms, rep.AddP99ms = Millis(p50), Millis(p99)
	p50, _, p99, _ = Percentiles(dels)
	rep.DeleteP50ms, rep.DeleteP99ms = Millis(p50), Millis(p99)
	return rep, nil
}

// liveClient sends the live run's writes and reads.
type liveClient struct {
	o LiveOptions
	c *fasthttp.Client
}

// patch sets the price of the products numbered pns in one partial
// update.
func (lc *liveClient) patch(pns []string, price float64) error {
	var b bytes.Buffer
	for _, pn := range pns {
		q, _ := json.Marshal(pn)
		fmt.Fprintf(&b, `{"productNumber":%s,"price":%g}`+"\n", q, price)
	}
	return lc.send("POST", "/products?partial=true", "application/x-ndjson", b.Bytes())
}

// put adds a new product numbered pn, whose title is its number.
func (lc *liveClient) put(pn string) error {
	body := fmt.Appendf(nil, `{"productNumber":%q,"title":"Bench %s","url":"https://shop.example/%s","price":1}`+"\n", pn, pn, pn)
	return lc.send("POST", "/products", "application/x-ndjson", body)
}

// send sends an admin write to the website's path and wants a 200.
func (lc *liveClient) send(method, path, contentType string, body []byte) error {
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI(lc.o.URL + "/admin/v1/websites/" + lc.o.Website + path)
	req.Header.SetMethod(method)
	if contentType != "" {
		req.Header.SetContentType(contentType)
	}
	req.Header.Set("Authorization", "Bearer "+lc.o.AdminKey)
	req.SetBody(body)
	if err := lc.c.Do(req, resp); err != nil {
		return fmt.Errorf("live: write: %w", err)
	}
	if resp.StatusCode() != 200 {
		return fmt.Errorf("live: write answered %d: %.300s", resp.StatusCode(), resp.Body())
	}
	return nil
}

// waitFound searches for product pn until a search finds it (found) or
// no longer does, or budget ends.
func (lc *liveClient) waitFound(ctx context.Context, pn string, found bool, budget time.Duration) error {
	return lc.waitFor(ctx, pn, budget, map[bool]string{true: "found", false: "gone"}[found], func(top *hit) bool {
		return (top != nil) == found
	})
}

// waitPrice searches for product pn until it has price, or budget ends.
func (lc *liveClient) waitPrice(ctx context.Context, pn string, price float64, budget time.Duration) error {
	return lc.waitPriceEvery(ctx, pn, price, budget, every(time.Millisecond))
}

// waitPriceEvery is waitPrice searching again after pause.
func (lc *liveClient) waitPriceEvery(ctx context.Context, pn string, price float64, budget time.Duration, pause pollPause) error {
	return lc.waitForEvery(ctx, pn, budget, pause, fmt.Sprintf("seen at price %g", price), func(top *hit) bool {
		return top != nil && top.Price == price
	})
}

// waitFor searches for product pn every millisecond until done says so
// of the first result when it is pn (nil otherwise), or budget ends;
// what words the wait in the error.
func (lc *liveClient) waitFor(ctx context.Context, pn string, budget time.Duration, what string, done func(top *hit) bool) error {
	return lc.waitForEvery(ctx, pn, budget, every(time.Millisecond), what, done)
}

// pollPause is how long a wait sleeps before it searches again, given
// how long its last search took.
type pollPause func(took time.Duration) time.Duration

// every pauses d between searches.
func every(d time.Duration) pollPause { return func(time.Duration) time.Duration { return d } }

// paced pauses d between searches, or three times the last search's time
// when that is longer: the searches take at most a quarter of a core of
// the server they wait on, whatever they cost.
func paced(d time.Duration) pollPause {
	return func(took time.Duration) time.Duration { return max(d, 3*took) }
}

// waitForEvery is waitFor searching again after pause.
func (lc *liveClient) waitForEvery(ctx context.Context, pn string, budget time.Duration, pause pollPause, what string, done func(top *hit) bool) error {
	deadline := time.Now().Add(budget)
	for {
		t0 := time.Now()
		rs, err := lc.search(pn)
		took := time.Since(t0)
		if err != nil {
			return err
		}
		var top *hit
		if len(rs) > 0 && strings.EqualFold(rs[0].ProductNumber, pn) {
			top = &rs[0]
		}
		if done(top) {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("live: product %s not %s within %s", pn, what, budget)
		}
		time.Sleep(pause(took))
	}
}

// hit is a search result as the live run reads it.
type hit struct {
	ProductNumber string  `json:"productNumber"`
	Price         float64 `json:"price"`
}

// search is the first result of a search for query.
func (lc *liveClient) search(query string) ([]hit, error) {
	body, _ := json.Marshal(map[string]any{"query": query, "key": lc.o.Key,
		"products": map[string]any{"count": 1, "fields": []string{"productNumber", "price"}}})
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI(lc.o.URL + "/serve/search")
	req.Header.SetMethod("POST")
	req.Header.SetContentType("application/json")
	req.SetBody(body)
	if err := lc.c.Do(req, resp); err != nil {
		return nil, fmt.Errorf("live: search: %w", err)
	}
	var out struct {
		Products struct {
			Results []hit `json:"results"`
		} `json:"products"`
	}
	if err := json.Unmarshal(resp.Body(), &out); err != nil {
		return nil, fmt.Errorf("live: search answer: %w", err)
	}
	return out.Products.Results, nil
}

// Millis is d in milliseconds, as reports give latencies.
func Millis(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
