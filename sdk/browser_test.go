package sdk_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/httpapi"
	"github.com/aisle-search/aisle/internal/browser"
	"github.com/aisle-search/aisle/internal/testshop"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/store"
)

// A request as the API received it.
type received struct {
	Method, Path, ContentType, Origin string
	Cookie                            bool // any Cookie header
	Body                              []byte
}

// api is the real server (httpapi over a loopback listener, the test
// shop, a collector logging to a store) behind a wrapper that records
// every request.
type api struct {
	url string
	st  *store.Store
	mu  sync.Mutex
	got []received
}

func serveAPI(t *testing.T) *api {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w := testshop.Website()
	g, err := engine.Build(w, analysis.English, engine.Source{
		Products: testshop.Source(testshop.Products()),
		Content: func(fn func(*catalog.Content) error) error {
			for _, c := range testshop.Content() {
				if err := fn(&c); err != nil {
					return err
				}
			}
			return nil
		},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New("admin-key", g)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	opt := httpapi.Options{Logger: quiet, Behaviours: engine.NewBehaviours()}
	opt.Collector = live.NewCollector(st, eng, opt.Behaviours)
	t.Cleanup(opt.Collector.Close)
	h := httpapi.New(eng, opt).HTTPServer()
	a := &api{st: st}
	serve := h.Handler
	h.Handler = func(ctx *fasthttp.RequestCtx) {
		a.mu.Lock()
		a.got = append(a.got, received{
			Method: string(ctx.Method()), Path: string(ctx.Path()), ContentType: string(ctx.Request.Header.ContentType()),
			Origin: string(ctx.Request.Header.Peek("Origin")), Cookie: len(ctx.Request.Header.Peek("Cookie")) > 0,
			Body: bytes.Clone(ctx.PostBody()),
		})
		a.mu.Unlock()
		serve(ctx)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go h.Serve(ln)                     //nolint:errcheck // ends with the listener
	t.Cleanup(func() { h.Shutdown() }) //nolint:errcheck // the test is over
	a.url = "http://" + ln.Addr().String()
	return a
}

// since returns the requests received from the n-th on.
func (a *api) since(n int) []received {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]received(nil), a.got[n:]...)
}

func (a *api) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.got)
}

// waitFor waits up to 5 s for a request to path from the n-th on.
func (a *api) waitFor(t *testing.T, n int, path string) received {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		for _, r := range a.since(n) {
			if r.Path == path {
				return r
			}
		}
	}
	t.Fatalf("no request to %s reached the API", path)
	return received{}
}

// events are the events logged in the store.
func (a *api) events(t *testing.T) []events.Event {
	t.Helper()
	var out []events.Event
	if err := a.st.Events(func(_ string, _ uint64, evs []json.RawMessage) error {
		for _, raw := range evs {
			var ev events.Event
			if err := json.Unmarshal(raw, &ev); err != nil {
				return err
			}
			out = append(out, ev)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// page is the shop's page: another origin than the API's (another host
// name and port), loading /sdk.js from the API with a call queued before.
const page = `<!doctype html><html><head><meta charset="utf-8"><title>shop</title>
<script>
window.aisleq = window.aisleq || [];
aisleq.push(["search.search", "shop", "drill", {format: "JSON", callback: function (d) { window.queued = d; }}]);
</script>
<script src="%s/sdk.js" data-website="%s" async></script>
</head><body><h1>A shop on another origin</h1><p id="out"></p></body></html>`

func servePage(t *testing.T, apiURL string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	html := fmt.Sprintf(page, apiURL, testshop.UUID)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, html) //nolint:errcheck // the browser's loss
	})}
	go srv.Serve(ln) //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.Close() })
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return "http://localhost:" + port + "/"
}

// eval runs an async JavaScript body in the page and decodes what it
// returns (as JSON) into out.
func eval(t *testing.T, ctx context.Context, body string, out any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string]("(async () => JSON.stringify(await (async () => {"+body+"})()))()", chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(s), out); err != nil {
			t.Fatalf("%s: %v in %s", body, err, s)
		}
	}
}

// TestBrowser loads the SDK from a page of another origin in chromium and
// checks what it sends and answers against the real server.
func TestBrowser(t *testing.T) {
	ctx := browser.New(t)
	a := serveAPI(t)
	pageURL := servePage(t, a.url)
	shots := t.TempDir()
	t.Logf("screenshots: %s", shots)

	console := browser.WatchConsole(ctx)
	nav, cancel := context.WithTimeout(ctx, 30*time.Second)
	err := chromedp.Do(nav, chromedp.Navigate(pageURL))
	if err == nil {
		_, err = chromedp.Run(nav, chromedp.Poll[bool]("!!window.queued"))
	}
	cancel()
	if err != nil {
		t.Fatalf("the queued search never called back: %v", err)
	}

	var id string
	t.Run("loading and the queue", func(t *testing.T) {
		var got struct {
			Config map[string]any
			Queued map[string]any
			ID     string
			Cookie string
			Stored string
		}
		eval(t, ctx, `return {config: Aisle.config(), queued: window.queued, id: Aisle.user.trackingId(),
			cookie: document.cookie, stored: localStorage.getItem("aisle_id")}`, &got)
		if got.Config["baseUrl"] != a.url || got.Config["websiteUuid"] != testshop.UUID {
			t.Errorf("config %v: want the script's origin %s and its data-website", got.Config, a.url)
		}
		if got.Queued["product_results"] != 2.0 {
			t.Errorf("the queued search answered %v, want 2 drills", got.Queued)
		}
		id = got.ID
		if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(id) || !strings.Contains(got.Cookie, "aisle_id="+id) || got.Stored != id {
			t.Errorf("tracking id %q, cookie %q, localStorage %q: want 32 hex characters in both", id, got.Cookie, got.Stored)
		}
		// A later push runs at once.
		n := a.count()
		eval(t, ctx, `return new Promise(r => aisleq.push(["search.search", "shop", "sofa", {format: "JSON", callback: r}]))`, nil)
		body := searchBody(t, a.waitFor(t, n, "/serve/search"))
		if body["query"] != "sofa" {
			t.Errorf("a push after load sent %v", body)
		}
	})

	t.Run("options", func(t *testing.T) {
		for _, tc := range []struct {
			name, args string
			want       string // the request body, trackingUserId aside
		}{
			{"defaults: HTML, 10 products", `"shop", "drill"`,
				`{"key":"shop","query":"drill","format":"html","products":{"start":0,"count":10}}`},
			{"every option", `"shop", "drill", {format: "JSON", filters: ["brand:Makita"], sorting: ["price desc"],
				return_filters: true, exclude_sibling_filters: ["brand"], product_fields: "title, price,productNumber",
				device_type: "mobile", engine_options: {product: {start: 1, current_count: 5}, category: {current_count: 2},
				brand: {start: 0, current_count: 1}, site_page: {current_count: 3}, blog_post: {start: 1, current_count: 1}}}`,
				`{"key":"shop","query":"drill","format":"json","deviceType":"MOBILE",
				"products":{"start":1,"count":5,"filters":["brand:Makita"],"sorting":["price desc"],"returnFilters":true,
					"excludeSiblingFilters":["brand"],"fields":["title","price","productNumber"]},
				"categories":{"start":0,"count":2},"brands":{"start":0,"count":1},"sitePages":{"start":0,"count":3},"blogPosts":{"start":1,"count":1}}`},
			{"product_fields only in JSON", `"shop", "lamp", {product_fields: "title"}`,
				`{"key":"shop","query":"lamp","format":"html","products":{"start":0,"count":10}}`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				n := a.count()
				eval(t, ctx, `return Aisle.search.search(`+tc.args+`)`, nil)
				r := a.waitFor(t, n, "/serve/search")
				if r.Method != "POST" || !strings.HasPrefix(r.ContentType, "text/plain") || r.Cookie || r.Origin == "" {
					t.Errorf("sent %s %q, cookie %v, origin %q: want a text/plain POST without cookies", r.Method, r.ContentType, r.Cookie, r.Origin)
				}
				got := searchBody(t, r)
				if got["trackingUserId"] != id {
					t.Errorf("trackingUserId %v, want %s", got["trackingUserId"], id)
				}
				delete(got, "trackingUserId")
				var want map[string]any
				if err := json.Unmarshal([]byte(tc.want), &want); err != nil {
					t.Fatal(err)
				}
				if g, w := canon(got), canon(want); g != w {
					t.Errorf("sent\n%s\nwant\n%s", g, w)
				}
			})
		}
	})

	t.Run("answers, callback and Promise", func(t *testing.T) {
		var got struct{ HTML, JSON, CB, Filters map[string]any }
		eval(t, ctx, `
			const html = await Aisle.search.search("shop", "drill", {engine_options: {product: {current_count: 1}}});
			let cb; const json = await Aisle.search.search("shop", "drill", {format: "JSON", return_filters: true,
				engine_options: {category: {current_count: 5}}, callback: d => { cb = d; }});
			const capped = await Aisle.search.search("shop", "", {format: "JSON", return_filters: true, max_filter_values: 1});
			return {html, json, cb, filters: {brand: capped.filters.find(f => f.name === "brand")}};`, &got)
		if keys(got.HTML) != "didTrackSearch product_results product_start result" || got.HTML["product_results"] != 2.0 ||
			!strings.Contains(got.HTML["result"].(string), "Hammer Drill") {
			t.Errorf("HTML answer %v", got.HTML)
		}
		if keys(got.JSON) != "blog_posts brands categories didTrackSearch filters product_results product_start redirects results site_pages sorting suggestedProductStatus" {
			t.Errorf("JSON answer has %s", keys(got.JSON))
		}
		if canon(got.CB) != canon(got.JSON) {
			t.Errorf("the callback got\n%s\nthe Promise\n%s", canon(got.CB), canon(got.JSON))
		}
		if cats, _ := got.JSON["categories"].([]any); len(cats) != 1 {
			t.Errorf("categories %v, want the Drills category", got.JSON["categories"])
		}
		if vals, _ := got.Filters["brand"].(map[string]any)["values"].([]any); len(vals) != 1 {
			t.Errorf("max_filter_values 1 kept %v", got.Filters["brand"])
		}
	})

	t.Run("errors reach the callback and the Promise", func(t *testing.T) {
		var got struct{ CB, Caught map[string]any }
		eval(t, ctx, `let cb; let caught;
			try { await Aisle.search.search("nope", "drill", {callback: d => { cb = d; }}); } catch (e) { caught = e; }
			return {cb, caught};`, &got)
		if s := canon(got.CB); !strings.Contains(s, `"code":"NOT_FOUND"`) || !strings.Contains(s, `"field":"key"`) ||
			!strings.Contains(s, `"status":404`) || canon(map[string]any{"error": got.Caught}) != s {
			t.Errorf("callback got %s, Promise rejected with %s; want a 404 NOT_FOUND in both", s, canon(got.Caught))
		}
	})

	t.Run("tracking", func(t *testing.T) {
		n := a.count()
		before := len(a.events(t))
		var got struct{ First, Refine, Next, Browse, Same, Settled map[string]any }
		eval(t, ctx, `return {
			first: await Aisle.search.search("shop", "hose", {format: "JSON"}),
			refine: await Aisle.search.search("shop", "hose", {format: "JSON", filters: ["inStock:true"]}),
			next: await Aisle.search.search("shop", "hose", {format: "JSON", engine_options: {product: {start: 10}}}),
			browse: await Aisle.search.search("shop", "", {format: "JSON"}),
			same: await Aisle.track.search("Hose ", 1),
			settled: await Aisle.track.search("lamp", 0),
		};`, &got)
		if got.First["didTrackSearch"] != true || got.Refine["didTrackSearch"] != false || got.Next["didTrackSearch"] != false || got.Browse["didTrackSearch"] != false {
			t.Errorf("didTrackSearch: a new search %v, a refinement %v, a page turn %v, browsing %v; want true, false, false, false",
				got.First["didTrackSearch"], got.Refine["didTrackSearch"], got.Next["didTrackSearch"], got.Browse["didTrackSearch"])
		}
		if got.Same["success"] != false || got.Settled["success"] != true {
			t.Errorf("track.search: the phrase just tracked %v, another %v; want false, true", got.Same, got.Settled)
		}
		var shown map[string]any
		eval(t, ctx, `
			const view = await Aisle.track.view("B100");
			const cart = await Aisle.track.cart(["B100"]);
			const buy = await Aisle.track.purchase({orderNumber: "O-1", productNumbers: ["B100"], total: 25});
			const click = await Aisle.track.click("B100", {source: "search", key: "shop", position: 1});
			return {view, cart, buy, click};`, &shown)
		for _, k := range []string{"view", "cart", "buy", "click"} {
			if r, _ := shown[k].(map[string]any); r["success"] != true {
				t.Errorf("track %s answered %v", k, shown[k])
			}
		}
		for _, kind := range []string{"search", "view", "cart", "purchase", "click"} {
			r := a.waitFor(t, n, "/serve/collect/"+kind)
			if !strings.HasPrefix(r.ContentType, "text/plain") {
				t.Errorf("%s sent as %q", kind, r.ContentType)
			}
		}
		// Every event is logged, the visitor's and the website's.
		want := map[events.Kind]bool{events.Search: true, events.View: true, events.Cart: true, events.Purchase: true, events.Click: true}
		for end := time.Now().Add(5 * time.Second); time.Now().Before(end) && len(want) > 0; time.Sleep(20 * time.Millisecond) {
			for _, e := range a.events(t)[before:] {
				if e.User != id || e.Website != testshop.UUID {
					t.Fatalf("logged %+v: want the visitor %s of %s", e, id, testshop.UUID)
				}
				if e.Kind == events.Search && (e.Results == nil || !(e.Query == "hose" && *e.Results == 1 || e.Query == "lamp" && *e.Results == 0)) {
					t.Errorf("search event %+v: want hose, 1 result, or lamp, 0", e)
				}
				delete(want, e.Kind)
			}
		}
		if len(want) > 0 {
			t.Errorf("not logged: %v", want)
		}
		searches := 0
		for _, r := range a.since(n) {
			if r.Path == "/serve/collect/search" {
				searches++
			}
		}
		if searches != 2 {
			t.Errorf("%d search events sent, want 2 (hose, then lamp: the refinement, the page turn, the browse and hose again are not new searches)", searches)
		}
	})

	t.Run("pages and recommendations", func(t *testing.T) {
		n := a.count()
		var got struct{ Page, Recoms map[string]any }
		eval(t, ctx, `
			const page = await Aisle.pages.load("no-such-page", {url: "https://shop.test/c/drills", firstLoad: false, format: "JSON",
				params: {filters: {brand: "Bosch"}}, products: {start: 0, count: 3, fields: ["title"], sorting: ["price asc"]}}).catch(e => ({error: e}));
			const recoms = await Aisle.recoms.load([{trackingKey: "top", count: 2, sources: [{type: "TOP"}], fields: ["productNumber"]}]);
			return {page, recoms};`, &got)
		p := searchBody(t, a.waitFor(t, n, "/serve/pages/no-such-page"))
		delete(p, "trackingUserId")
		if s := canon(p); s != `{"firstLoad":false,"format":"json","params":{"filters":{"brand":"Bosch"}},"products":{"count":3,"fields":["title"],"sorting":["price asc"],"start":0},"url":"https://shop.test/c/drills"}` {
			t.Errorf("pages sent %s", s)
		}
		if e, _ := got.Page["error"].(map[string]any); e["status"] != 404.0 {
			t.Errorf("an unknown page answered %v", got.Page)
		}
		r := searchBody(t, a.waitFor(t, n, "/serve/recoms"))
		if r["websiteUuid"] != testshop.UUID || r["trackingUserId"] != id {
			t.Errorf("recoms sent %v", r)
		}
		if resp, _ := got.Recoms["responses"].([]any); got.Recoms["success"] != true || len(resp) != 1 {
			t.Errorf("recoms answered %v", got.Recoms)
		}
	})

	t.Run("instantsearch", func(t *testing.T) { testInstantSearch(t, ctx, a) })

	// The page keeps working when the server cannot be reached: the
	// callback and the Promise get the error, nothing is thrown.
	t.Run("unreachable server", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		closed := "http://" + ln.Addr().String()
		ln.Close()
		var got struct {
			CB, Caught map[string]any
			Works      bool
		}
		eval(t, ctx, `Aisle.init({baseUrl: "`+closed+`"});
			let cb, caught;
			try { await Aisle.search.search("shop", "drill", {callback: d => { cb = d; }}); } catch (e) { caught = e; }
			await new Promise(r => Aisle.search.search("shop", "drill", {callback: r}));
			Aisle.track.click("A100", {source: "search", key: "shop", position: 1});
			aisleq.push(["search.search", "shop", "drill"]);
			await new Promise(r => setTimeout(r, 300));
			document.getElementById("out").textContent = "still working";
			Aisle.init({baseUrl: "`+a.url+`"});
			return {cb, caught, works: document.getElementById("out").textContent === "still working"};`, &got)
		if e, _ := got.CB["error"].(map[string]any); e["status"] != 0.0 || e["code"] != "NETWORK" || canon(got.Caught) != canon(e) {
			t.Errorf("callback got %v, Promise rejected with %v; want status 0, NETWORK", got.CB, got.Caught)
		}
		if !got.Works {
			t.Error("the page stopped working")
		}
	})

	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err == nil {
		err = os.WriteFile(filepath.Join(shots, "sdk.png"), shot, 0o644)
	}
	if err != nil {
		t.Error(err)
	}
	for _, m := range console.Stop() {
		// The browser logs each refused connection and each 404 asked
		// for above; nothing else may show.
		if m.Type == chromedp.ConsoleException || !strings.Contains(m.Text, "ERR_CONNECTION_REFUSED") && !strings.Contains(m.Text, "status of 404") {
			t.Errorf("the page reported: %s", m)
		}
	}
	for _, r := range a.since(0) {
		if r.Method == "OPTIONS" {
			t.Errorf("a preflight reached the API: %s %s", r.Method, r.Path)
		}
	}
}

func searchBody(t *testing.T, r received) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("%s %s: %v in %q", r.Method, r.Path, err, r.Body)
	}
	return m
}

// canon is v as JSON with sorted keys.
func canon(v any) string {
	b, _ := json.Marshal(v)
	var x any
	json.Unmarshal(b, &x) //nolint:errcheck // just made
	b, _ = json.Marshal(x)
	return string(b)
}

// keys lists m's keys, sorted, space-separated.
func keys(m map[string]any) string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return strings.Join(ks, " ")
}
