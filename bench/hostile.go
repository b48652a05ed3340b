package bench

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Hostile is one body a stranger can send to a public route, made to
// cost the server as much as it can (a huge count, a deep filter tree,
// thousands of requests in one call) within the route's limits.
type Hostile struct {
	Name, Path, ContentType string
	Body                    []byte
}

// HostileBodies is the corpus the hostile bench sends: the shapes a
// hostile client found against the server, and their variants, for the
// website uuid whose search configuration is key, page pageKey and
// recommendation box boxKey; pn is one of its product numbers.
func HostileBodies(uuid, key, pageKey, boxKey, pn string) []Hostile {
	site := `"websiteUuid":"` + uuid + `"`
	rep := func(s, sep string, n int) string { return strings.Repeat(s+sep, n-1) + s }
	words := rep("drill", " ", 20000)
	numbers := `"` + rep(pn, `","`, 1000) + `"`
	unknown := `"` + rep(strings.Repeat("X", 250), `","`, 200) + `"`
	var out []Hostile
	add := func(name, path, ct, body string) {
		out = append(out, Hostile{Name: name, Path: path, ContentType: ct, Body: []byte(body)})
	}
	search := func(name, body string) { add("search: "+name, "/serve/search", "application/json", body) }
	search("20,000 words", `{"query":"`+words+`","key":"`+key+`","products":{"count":10}}`)
	search("a billion products from a billion", `{"query":"*","key":"`+key+`","products":{"count":1000000000,"start":1000000000}}`)
	search("a billion products", `{"query":"*","key":"`+key+`","products":{"count":1000000000}}`)
	search("1,000 filters", `{"query":"*","key":"`+key+`","products":{"count":10,"filters":[`+rep(`"brand:x"`, ",", 1000)+`]}}`)
	search("every facet, each excluding its siblings", `{"query":"*","key":"`+key+`","products":{"count":10,"returnFilters":true,"excludeSiblingFilters":["brand","hierarchies","price","inStock","extraData.color","extraData.size","extraData.material"],"filters":["inStock:true"]}}`)
	search("a billion of each content kind", `{"query":"a","key":"`+key+`","categories":{"count":1000000000},"brands":{"count":1000000000},"sitePages":{"count":1000000000},"blogPosts":{"count":1000000000}}`)
	search("20 typo words", `{"query":"`+rep("drlil", " ", 20)+`","key":"`+key+`","products":{"count":10}}`)
	search("1,000 fields of 1,000 products", `{"query":"*","key":"`+key+`","products":{"count":1000,"fields":[`+rep(`"title"`, ",", 1000)+`]}}`)
	page := func(name, filters string, count int) {
		add("pages: "+name, "/serve/pages/"+pageKey, "application/json",
			fmt.Sprintf(`{"url":"/","format":"json","firstLoad":true,"params":{"filters":%s},"products":{"start":0,"count":%d}}`, filters, count))
	}
	page("2,000 empty groups", `{"$and":[`+rep(`{"$or":[{},{},{}]}`, ",", 2000)+`]}`, 12)
	page("groups 500 deep", strings.Repeat(`{"$and":[`, 500)+`{}`+strings.Repeat("]}", 500), 12)
	page("1,000 values", `{"brand":{"$in":[`+rep(`"x"`, ",", 1000)+`]}}`, 12)
	page("1,000 products with facets", `{}`, 1000)
	page("a billion products", `{}`, 1000000000)
	var ranges []string
	for k := range 99 {
		ranges = append(ranges, fmt.Sprintf(`{"price":{"$gte":%d}}`, k))
	}
	page("99 open price ranges", `{"$or":[`+strings.Join(ranges, ",")+`]}`, 12)
	recoms := func(name, requests string) {
		add("recoms: "+name, "/serve/recoms", "application/json", `{`+site+`,"requests":[`+requests+`]}`)
	}
	recoms("2,000 requests of a billion", rep(`{"trackingKey":"t","count":1000000000,"sources":[{"type":"TOP"},{"type":"ALTERNATIVES"}],"context":{"productNumbers":["`+pn+`"]}}`, ",", 2000))
	recoms("a billion alternatives of 1,000", `{"trackingKey":"t","count":1000000000,"sources":[{"type":"ALTERNATIVES"},{"type":"BOUGHT_TOGETHER"}],"context":{"productNumbers":[`+numbers+`]}}`)
	recoms("the box 2,000 times", rep(`{"key":"`+boxKey+`"}`, ",", 2000))
	recoms("10 requests of TOP under a price none has", rep(`{"trackingKey":"t","count":100,"sources":[{"type":"TOP","filters":{"price":"0,0.5"}}]}`, ",", 10))
	ctx50 := `"` + rep(pn, `","`, 50) + `"`
	recoms("10 requests of alternatives to 50", rep(`{"trackingKey":"t","count":100,"sources":[{"type":"ALTERNATIVES"},{"type":"BOUGHT_TOGETHER"}],"context":{"productNumbers":[`+ctx50+`]}}`, ",", 10))
	collect := func(name, path, body string) { add("collect: "+name, path, "text/plain", body) }
	collect("a cart of 1,000", "/serve/collect/cart", `{`+site+`,"trackingUserId":"h","productNumbers":[`+numbers+`]}`)
	collect("200 unknown 250-byte numbers", "/serve/collect/cart", `{`+site+`,"trackingUserId":"h","productNumbers":[`+unknown+`]}`)
	orders := func(n int) string {
		return `{"events":[` + rep(`{"kind":"purchase",`+site+`,"trackingUserId":"h","orderNumber":"o","productNumbers":["`+rep(pn, `","`, 100)+`"]}`, ",", n) + `]}`
	}
	collect("a batch of 500 orders of 100", "/serve/collect", orders(500))
	collect("a batch of 50 orders of 100", "/serve/collect", orders(50))
	return out
}

// HostileResult is what one hostile body cost the server.
type HostileResult struct {
	Name   string  `json:"name"`
	Bytes  int     `json:"bytes"`
	Status int     `json:"status"`
	CPUms  float64 `json:"cpuMsPerRequest"` // the server process's CPU a request
	P50ms  float64 `json:"p50ms"`           // wall time, one request at a time
	MaxMs  float64 `json:"maxMs"`
}

// RunHostile sends each body rounds times, one at a time, to the server
// at url (process pid), once the server is idle, and measures the server
// process's CPU time per request (user and system, from /proc) and the
// answer's wall time.
func RunHostile(ctx context.Context, url string, pid int, bodies []Hostile, rounds int) ([]HostileResult, error) {
	client := &http.Client{Timeout: time.Minute}
	out := make([]HostileResult, 0, len(bodies))
	for _, h := range bodies {
		// The server's background work (the lists it warms after a
		// start, a save) would count as the body's.
		if err := settleCPU(pid, 60*time.Second); err != nil {
			return nil, err
		}
		r := HostileResult{Name: h.Name, Bytes: len(h.Body)}
		var walls []time.Duration
		cpu0, err := processCPU(pid)
		if err != nil {
			return nil, err
		}
		for range rounds {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+h.Path, bytes.NewReader(h.Body))
			if err != nil {
				return nil, err
			}
			req.Header.Set("Content-Type", h.ContentType)
			start := time.Now()
			resp, err := client.Do(req)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", h.Name, err)
			}
			var sink bytes.Buffer
			_, _ = sink.ReadFrom(resp.Body)
			resp.Body.Close()
			walls = append(walls, time.Since(start))
			r.Status = resp.StatusCode
		}
		cpu1, err := processCPU(pid)
		if err != nil {
			return nil, err
		}
		slices.Sort(walls)
		r.CPUms = Millis(cpu1-cpu0) / float64(rounds)
		r.P50ms, r.MaxMs = Millis(walls[len(walls)/2]), Millis(walls[len(walls)-1])
		out = append(out, r)
	}
	return out, nil
}

// settleCPU waits, up to within, until process pid uses under 2% of a
// core over a fifth of a second (no clock tick of 10 ms).
func settleCPU(pid int, within time.Duration) error {
	const window = 200 * time.Millisecond
	for deadline := time.Now().Add(within); time.Now().Before(deadline); {
		a, err := processCPU(pid)
		if err != nil {
			return err
		}
		time.Sleep(window)
		b, err := processCPU(pid)
		if err != nil {
			return err
		}
		if b-a < window/50 {
			return nil
		}
	}
	return nil
}

// processCPU is the user and system CPU time process pid has used
// (/proc/<pid>/stat, in clock ticks of 10 ms).
func processCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, fmt.Errorf("the server's CPU time: %w", err)
	}
	// The fields after the command's closing parenthesis: utime and
	// stime are the 12th and 13th of them.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("the server's CPU time: /proc/%d/stat has %d fields", pid, len(f))
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("the server's CPU time: /proc/%d/stat: %q %q", pid, f[11], f[12])
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, nil
}
