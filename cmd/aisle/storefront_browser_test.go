package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/internal/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// sponsoredQuery is the query the test's retail media campaign targets;
// broad enough that its results, filtered by stock and price, still fill
// two pages.
const sponsoredQuery = "black"

// TestStorefrontInBrowser drives the demo storefront (/) and its
// InstantSearch page (/instantsearch) in headless chromium against a real
// aisle demo (runDemo, pebble on disk), as a visitor would: typing,
// ticking, sliding, paging, opening a product, switching to the Danish
// shop, by mouse, by keyboard and on a phone-sized screen. Every step
// runs without a console error or a Content-Security-Policy violation.
// Screenshots go to a folder the test prints.
func TestStorefrontInBrowser(t *testing.T) {
	ctx := browser.New(t)
	if ctx == nil {
		return
	}
	s := startCLI(t, "demo", "--products", "600", "--addr", "127.0.0.1:0", "--admin-key", "k", "--data", filepath.Join(t.TempDir(), "demo"))
	sponsored := addCampaign(t, s)
	shots, err := os.MkdirTemp("", "aisle-storefront-")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots: %s", shots)
	base := "http://" + s.addr
	sf := &storefrontRun{browser: ctx, s: s, shots: shots}

	t.Run("storefront", func(t *testing.T) {
		sf.steps(t, ctx, 60*time.Second, func(r *stepRunner) {
			r.do(chromedp.EmulateViewport(1280, 900), chromedp.Navigate(base+"/"))
			r.wait(`document.querySelectorAll("#results .card").length === 12 && /products/.test(document.getElementById("count").textContent)`)
			r.shot("1-home")

			// Search as you type: the count is the server's, the campaign's
			// product comes first, marked as sponsored. The searches made
			// while typing are not tracked; the phrase settled on is, once
			// (Aisle.track.search, whose beacon the sdk package's tests
			// follow to the server).
			r.eval(`window.searches = []; { const f = Aisle.track.search; Aisle.track.search = (q, n) => { const p = f.call(Aisle.track, q, n); p.then((a) => searches.push(q + " " + a.success)); return p; }; }`)
			r.do(chromedp.SendKeys(chromedp.CSS("#q"), sponsoredQuery))
			total := s.searchTotal(t, "demo", sponsoredQuery, nil)
			r.wait(fmt.Sprintf(`document.getElementById("count").textContent.startsWith("%d products for “%s”")`, total, sponsoredQuery))
			if got := r.str(`document.querySelector("#results .card a").dataset.product`); got != sponsored {
				t.Errorf("the first result is %s, want the sponsored %s", got, sponsored)
			}
			if got := r.str(`document.querySelector("#results .card").textContent`); !strings.Contains(got, "Sponsored") {
				t.Errorf("the sponsored product is not marked: %q", got)
			}
			if n := r.num(`document.querySelectorAll("#results .badge-sponsored").length`); n != 1 {
				t.Errorf("%v products marked sponsored, want 1", n)
			}
			r.shot("2-search")
			r.wait(`searches.length === 1`)
			if got, want := r.str(`searches.join(", ")`), sponsoredQuery+" true"; got != want {
				t.Errorf("searches tracked: %q, want %q", got, want)
			}

			// Tick a facet: its count is the results' count.
			box := `#facets [data-facet="inStock"] input[type=checkbox]`
			want := int(r.num(`+document.querySelector('` + box + ` + label .check-count').textContent`))
			r.do(chromedp.Click(chromedp.CSS(box)))
			r.wait(fmt.Sprintf(`document.getElementById("count").textContent.startsWith("%d ") && document.querySelector('%s').checked`, want, box))
			if got := s.searchTotal(t, "demo", sponsoredQuery, []string{"inStock:true"}); got != want {
				t.Errorf("in stock: the facet says %d, the server %d", want, got)
			}

			// Move the price slider's upper end down by keyboard: the
			// results are the server's for that range, all within it.
			r.do(chromedp.Focus(chromedp.CSS(`#facets [data-facet="price"] input[data-end="max"]`)),
				chromedp.KeyEvent(kb.PageDown), chromedp.KeyEvent(kb.PageDown), chromedp.KeyEvent(kb.PageDown))
			r.wait(`[...document.querySelectorAll("#chips .chip")].some((c) => c.textContent.startsWith("Price"))`)
			priceFilter := r.str(`(() => { const i = document.querySelector('#facets [data-facet="price"] input[data-end="max"]'); const j = document.querySelector('#facets [data-facet="price"] input[data-end="min"]'); return "price:" + j.value + "," + i.value; })()`)
			want = s.searchTotal(t, "demo", sponsoredQuery, []string{"inStock:true", priceFilter})
			r.wait(fmt.Sprintf(`document.getElementById("count").textContent.startsWith("%d ")`, want))
			if want <= 12 {
				t.Fatalf("%s in stock at %s: %d products, too few for a second page", sponsoredQuery, priceFilter, want)
			}
			r.shot("3-filtered")

			// Sort by price, lowest first: the page is in order (but for
			// the sponsored product, which keeps its reserved place).
			inOrder := `(() => { const p = [...document.querySelectorAll("#results .card:not(.card-sponsored) .now")].map((e) => +e.textContent.replace(/[^0-9.]/g, "")); return document.querySelectorAll("#results .card").length === 12 && p.every((x, i) => i === 0 || p[i-1] <= x); })()`
			r.do(chromedp.SetValue(chromedp.CSS("#sort"), "price asc"))
			r.eval(`document.getElementById("sort").dispatchEvent(new Event("change"))`)
			r.wait(inOrder)
			first := r.str(`document.querySelector("#results .card:not(.card-sponsored) a").dataset.product`)

			// Page 2: other products, still in order, the pager says so.
			r.do(chromedp.Click(chromedp.CSS(`#pager button[data-page="2"]`)))
			r.wait(`document.querySelector('#pager button[aria-current="page"]').dataset.page === "2"`)
			r.wait(fmt.Sprintf(`document.querySelector("#results .card:not(.card-sponsored) a").dataset.product !== %q`, first))
			r.wait(inOrder)
			if got := r.str(`document.querySelector('#pager button[aria-current="page"]').getAttribute("aria-label")`); got != "Page 2" {
				t.Errorf("current page labelled %q", got)
			}
			r.shot("4-page-2")
			// The facet, the slider and the sort refined the same search:
			// the SDK tracked none of them as a new one.
			if got := r.str(`searches.filter((s) => s !== "` + sponsoredQuery + ` false").join(", ")`); got != sponsoredQuery+" true" {
				t.Errorf("searches tracked after refining: %q, want only the first %q", got, sponsoredQuery+" true")
			}

			// A product page, with both boxes filled from the demo's
			// behaviour.
			// The click and the view go to the SDK's tracking (whose
			// beacons the sdk package's tests follow to the server).
			r.eval(`window.tracked = []; for (const k of ["click", "view"]) { const f = Aisle.track[k]; Aisle.track[k] = (...a) => { tracked.push(k + " " + (a[0].productNumber || a[0]) + (a[1] ? " " + a[1].source + " " + a[1].position : "")); return f.apply(Aisle.track, a); }; }`)
			title := r.str(`document.querySelector("#results .card .title").textContent`)
			clicked := r.str(`document.querySelector("#results .card a").dataset.product`)
			r.do(chromedp.Click(chromedp.CSS("#results .card a")))
			r.wait(fmt.Sprintf(`location.hash.startsWith("#/product/") && document.getElementById("product-title") && document.getElementById("product-title").textContent === %q`, title))
			r.wait(`document.querySelectorAll("#box-alternatives .card").length > 0 && document.querySelectorAll("#box-bought-together .card").length > 0`)
			if got, want := r.str(`tracked.join(", ")`), "click "+clicked+" search 13, view "+clicked; got != want {
				t.Errorf("tracked %q, want %q", got, want)
			}
			r.shot("5-product")

			// The category page, from /serve/pages/demo: Garden only.
			r.do(chromedp.Click(chromedp.CSS("#nav-category")))
			r.wait(`document.getElementById("list-title").textContent === "Garden" && document.querySelectorAll("#results .card").length > 0`)
			if n := r.num(`[...document.querySelectorAll("#results .card .tile-cat")].length`); n == 0 {
				t.Error("the category page shows no products")
			}

			// Back to the search (its query kept), and the category
			// drill-down: a department, then one of its categories, each
			// showing as many products as it counted.
			r.do(chromedp.Click(chromedp.CSS("#nav-search")))
			r.wait(`document.getElementById("list-title").textContent === "“` + sponsoredQuery + `”" && !document.getElementById("results").hasAttribute("aria-busy") && document.querySelector('#facets [data-facet="hierarchies"] .cat-button') !== null`)
			for _, level := range []string{"department", "category"} {
				sel := `#facets [data-facet="hierarchies"] .cat:not(.cat-current) .cat-button[data-query$="$"]`
				if level == "category" { // a child of the current one
					sel = `#facets [data-facet="hierarchies"] .cat-current ~ .cat .cat-button`
				}
				query := r.str(`document.querySelector('` + sel + `').dataset.query`)
				count := int(r.num(`+document.querySelector('` + sel + ` .check-count').textContent`))
				r.do(chromedp.Click(chromedp.CSS(sel)))
				r.wait(fmt.Sprintf(`document.querySelector('#facets .cat-current .cat-button') && document.querySelector('#facets .cat-current .cat-button').dataset.query === %q && document.getElementById("count").textContent.startsWith("%d ")`, query, count))
				if got := s.searchTotal(t, "demo", sponsoredQuery, []string{query}); got != count {
					t.Errorf("%s %s: the page counts %d, /serve/search %d", level, query, count, got)
				}
			}
			r.shot("6-category-drill-down")

			// The Danish shop, one click away, searched in Danish.
			r.do(chromedp.Click(chromedp.CSS("#site-switch")))
			r.wait(`document.documentElement.lang === "da" && /produkter/.test(document.getElementById("count").textContent)`)
			r.do(chromedp.SendKeys(chromedp.CSS("#q"), "sofaborde"))
			daTotal := s.searchTotal(t, "demo-da", "sofaborde", nil)
			if daTotal == 0 {
				t.Fatal("demo-da finds no sofaborde")
			}
			r.wait(fmt.Sprintf(`document.getElementById("count").textContent.startsWith("%d produkter for “sofaborde”")`, daTotal))
			r.shot("7-danish")
			r.do(chromedp.Click(chromedp.CSS("#results .card a")))
			r.wait(`document.querySelectorAll("#box-alternatives .card").length > 0`)
			r.do(chromedp.Click(chromedp.CSS("#site-switch")))
			r.wait(`document.documentElement.lang === "en" && /products/.test(document.getElementById("count").textContent)`)
		})
	})

	t.Run("keyboard", func(t *testing.T) {
		sf.steps(t, ctx, 30*time.Second, func(r *stepRunner) {
			r.do(chromedp.EmulateViewport(1280, 900), chromedp.Navigate(base+"/"))
			r.wait(`document.querySelectorAll("#results .card").length > 0 && document.querySelector("#facets input[type=checkbox]") !== null`)
			r.tabTo(`document.activeElement.id === "q"`, 6)
			r.focusVisible("the search box")
			r.do(chromedp.KeyEvent("drill"))
			r.wait(`/for “drill”/.test(document.getElementById("count").textContent)`)
			r.tabTo(`document.activeElement.matches("#facets input[type=checkbox]")`, 40)
			r.focusVisible("a facet checkbox")
			r.shot("8-keyboard-focus")
			r.do(chromedp.KeyEvent(" "))
			r.wait(`document.querySelector("#chips .chip") !== null`)
		})
	})

	t.Run("phone", func(t *testing.T) {
		sf.steps(t, ctx, 30*time.Second, func(r *stepRunner) {
			r.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile), chromedp.Navigate(base+"/"))
			r.wait(`document.querySelectorAll("#results .card").length > 0`)
			if w := r.num(`document.documentElement.scrollWidth`); w > 390 {
				t.Errorf("the page is %v px wide on a 390 px screen", w)
			}
			if r.num(`document.getElementById("facets").offsetHeight`) != 0 {
				t.Error("the facets show before the Filters button is pressed")
			}
			r.shot("9-phone")
			r.do(chromedp.Click(chromedp.CSS("#filters-toggle")))
			r.wait(`document.getElementById("facets").offsetHeight > 0 && document.getElementById("filters-toggle").getAttribute("aria-expanded") === "true"`)
			r.shot("10-phone-filters")
			r.do(chromedp.Click(chromedp.CSS("#results .card a")))
			r.wait(`document.querySelectorAll("#box-bought-together .card").length > 0`)
			if w := r.num(`document.documentElement.scrollWidth`); w > 390 {
				t.Errorf("the product page is %v px wide on a 390 px screen", w)
			}
			r.shot("11-phone-product")
		})
	})

	t.Run("instantsearch", func(t *testing.T) {
		sf.steps(t, ctx, 60*time.Second, func(r *stepRunner) {
			r.do(chromedp.EmulateViewport(1280, 900), chromedp.Navigate(base+"/instantsearch"))
			r.wait(`document.querySelectorAll(".ais-Hits-item").length === 12`)
			r.do(chromedp.SendKeys(chromedp.CSS(".ais-SearchBox-input"), sponsoredQuery))
			total := s.searchTotal(t, "demo", sponsoredQuery, nil)
			r.wait(fmt.Sprintf(`document.getElementById("stats").textContent.trim().startsWith("%d products for “%s”")`, total, sponsoredQuery))

			// Each refinement list's counts are /serve/search's for the
			// same query and filters, before and after ticking a brand.
			r.compareFacets(sponsoredQuery, nil)
			brand := r.str(`document.querySelector("#brand .ais-RefinementList-labelText").textContent`)
			r.do(chromedp.Click(chromedp.CSS("#brand .ais-RefinementList-checkbox")))
			want := s.searchTotal(t, "demo", sponsoredQuery, []string{"brand:" + brand})
			r.wait(fmt.Sprintf(`document.getElementById("stats").textContent.trim().startsWith("%d ")`, want))
			r.compareFacets(sponsoredQuery, []string{"brand:" + brand})
			r.shot("12-instantsearch-brand")
			r.do(chromedp.Click(chromedp.CSS("#current .ais-CurrentRefinements-delete")))
			r.wait(fmt.Sprintf(`document.getElementById("stats").textContent.trim().startsWith("%d ")`, total))

			// The hierarchical menu: a top category, then its children.
			cat := r.str(`document.querySelector("#categories .ais-HierarchicalMenu-label").textContent`)
			want = s.searchTotal(t, "demo", sponsoredQuery, []string{"hierarchies:" + cat + "$"})
			r.do(chromedp.Click(chromedp.CSS("#categories .ais-HierarchicalMenu-link")))
			r.wait(fmt.Sprintf(`document.getElementById("stats").textContent.trim().startsWith("%d ") && document.querySelector("#categories .ais-HierarchicalMenu-list--child .ais-HierarchicalMenu-item")`, want))
			r.shot("13-instantsearch-category")
			r.do(chromedp.Click(chromedp.CSS("#categories .ais-HierarchicalMenu-item--selected > div > .ais-HierarchicalMenu-link, #categories .ais-HierarchicalMenu-item--selected > a")))
			r.wait(fmt.Sprintf(`document.getElementById("stats").textContent.trim().startsWith("%d ")`, total))

			// The price range: every hit within it, the count the server's.
			r.do(chromedp.SendKeys(chromedp.CSS("#price .ais-RangeInput-input--min"), "20"))
			r.wait(`document.querySelector("#price .ais-RangeInput-input--min").value === "20"`)
			r.do(chromedp.SendKeys(chromedp.CSS("#price .ais-RangeInput-input--max"), "90"))
			r.wait(`document.querySelector("#price .ais-RangeInput-input--max").value === "90"`)
			// The widget (preact) applies its inputs' state on its next
			// render: a click at once can submit the value before the
			// last key.
			r.do(chromedp.Sleep(300*time.Millisecond), chromedp.Click(chromedp.CSS("#price .ais-RangeInput-submit")))
			want = s.searchTotal(t, "demo", sponsoredQuery, []string{"price:20,90"})
			r.wait(fmt.Sprintf(`document.getElementById("stats").textContent.trim().startsWith("%d ")`, want))
			r.wait(`[...document.querySelectorAll("#hits .now")].map((e) => +e.textContent.replace(/[^0-9.]/g, "")).every((p) => p >= 20 && p <= 90)`)
			if want <= 12 {
				t.Fatalf("%s at 20 to 90: %d products, too few for a second page", sponsoredQuery, want)
			}

			// Page 2.
			first := r.str(`document.querySelector("#hits [data-product]").dataset.product`)
			r.do(chromedp.Click(chromedp.CSS(`#pagination .ais-Pagination-item--page:nth-child(4) a`)))
			r.wait(`document.querySelector("#pagination .ais-Pagination-item--selected").textContent.trim() === "2"`)
			r.wait(fmt.Sprintf(`document.querySelector("#hits [data-product]").dataset.product !== %q`, first))
			r.shot("14-instantsearch-page-2")
		})
	})
}

// addCampaign starts a retail media campaign on the demo shop, for
// searches of sponsoredQuery, that places its product first, and returns
// that product's number: a product the search finds, not its best match.
func addCampaign(t *testing.T, s *cliServer) string {
	t.Helper()
	status, out := s.search(t, "", fmt.Sprintf(`{"query":%q,"key":"demo","products":{"count":10,"fields":["productNumber"],"filters":["inStock:true"]}}`, sponsoredQuery))
	if status != http.StatusOK || len(out.Products.Results) < 10 {
		t.Fatalf("searching %s: %d %+v", sponsoredQuery, status, out)
	}
	product := out.Products.Results[9]["productNumber"].(string)
	cfg := demo.Config()
	for i := range cfg.Websites {
		cfg.Websites[i].AllowedOrigins = demoOrigins(s.addr)
	}
	cfg.Websites[0].Campaigns = []config.Campaign{{ID: "storefront-test", Name: "Sponsored in the storefront test", State: config.CampaignActive,
		Products: []string{product}, Placements: []string{config.PlaceSearch}, Target: config.CampaignTarget{Queries: []string{sponsoredQuery}}, Positions: []int{1}}}
	body, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if status, answer := s.admin(t, "k", "PUT", "/admin/v1/config", "application/json", string(body)); status != http.StatusOK {
		t.Fatalf("PUT /admin/v1/config: %d %s", status, answer)
	}
	return product
}

// searchTotal is /serve/search's total for query under key with filters.
func (s *cliServer) searchTotal(t *testing.T, key, query string, filters []string) int {
	t.Helper()
	return s.searchFacets(t, key, query, filters).Products.TotalCount
}

// facetAnswer is the part of a search answer with its filters.
type facetAnswer struct {
	Products struct {
		TotalCount int
		Filters    []struct {
			Name   string
			Values []struct {
				Title string
				Count int
			}
		}
	}
}

func (s *cliServer) searchFacets(t *testing.T, key, query string, filters []string) facetAnswer {
	t.Helper()
	f, _ := json.Marshal(filters)
	body := fmt.Sprintf(`{"query":%q,"key":%q,"products":{"count":0,"returnFilters":true,"filters":%s}}`, query, key, f)
	req, err := http.NewRequest("POST", "http://"+s.addr+"/serve/search", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var ans facetAnswer
	if err := json.NewDecoder(resp.Body).Decode(&ans); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("search %s: %d %v", body, resp.StatusCode, err)
	}
	return ans
}

// storefrontRun is what the subtests share: the server and the
// screenshots' folder.
type storefrontRun struct {
	browser context.Context // from browser.New, without a deadline
	s       *cliServer
	shots   string
}

// stepRunner runs one subtest's steps in the tab; the first failure
// ends the subtest, with a screenshot of what the page showed.
type stepRunner struct {
	t     *testing.T
	ctx   context.Context
	run   *storefrontRun
	s     *cliServer
	shots string
	name  string
}

// steps runs fn's steps in the tab of ctx within timeout, watching the
// console: a console error, an uncaught exception or a CSP violation
// fails the subtest.
func (sf *storefrontRun) steps(t *testing.T, ctx context.Context, timeout time.Duration, fn func(*stepRunner)) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	console := browser.WatchConsole(ctx)
	r := &stepRunner{t: t, ctx: ctx, run: sf, s: sf.s, shots: sf.shots, name: strings.ReplaceAll(t.Name(), "/", "-")}
	defer func() {
		for _, m := range console.Stop() {
			t.Errorf("console %s: %s", m.Type, m.Text)
		}
	}()
	fn(r)
}

func (r *stepRunner) fail(what string, err error) {
	r.t.Helper()
	if png, serr := chromedp.Run(r.run.browser, chromedp.CaptureScreenshot()); serr == nil {
		r.save("failed", png)
	}
	r.t.Fatalf("%s: %v", what, err)
}

func (r *stepRunner) do(steps ...chromedp.Action[chromedp.Void]) {
	r.t.Helper()
	if err := chromedp.Do(r.ctx, steps...); err != nil {
		r.fail("step", err)
	}
}

// wait waits until the JavaScript expression cond is true.
func (r *stepRunner) wait(cond string) {
	r.t.Helper()
	if _, err := chromedp.Run(r.ctx, chromedp.Poll[bool]("Boolean("+cond+")", chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		r.fail("waiting for "+cond, err)
	}
}

func (r *stepRunner) eval(js string) {
	r.t.Helper()
	if _, err := chromedp.Run(r.ctx, chromedp.Evaluate[any](js)); err != nil {
		r.fail(js, err)
	}
}

func (r *stepRunner) str(js string) string {
	r.t.Helper()
	v, err := chromedp.Run(r.ctx, chromedp.Evaluate[string](js))
	if err != nil {
		r.fail(js, err)
	}
	return v
}

func (r *stepRunner) num(js string) float64 {
	r.t.Helper()
	v, err := chromedp.Run(r.ctx, chromedp.Evaluate[float64](js))
	if err != nil {
		r.fail(js, err)
	}
	return v
}

// tabTo presses Tab until cond holds, at most max times.
func (r *stepRunner) tabTo(cond string, max int) {
	r.t.Helper()
	for range max {
		r.do(chromedp.KeyEvent(kb.Tab))
		ok, err := chromedp.Run(r.ctx, chromedp.Evaluate[bool](cond))
		if err != nil {
			r.fail(cond, err)
		}
		if ok {
			return
		}
	}
	r.fail("tabbing", fmt.Errorf("%s never held in %d presses of Tab; focus on %s", cond, max,
		r.str(`document.activeElement.outerHTML.slice(0, 200)`)))
}

// focusVisible checks that the focused element shows its focus: it
// matches :focus-visible and draws an outline.
func (r *stepRunner) focusVisible(what string) {
	r.t.Helper()
	got := r.str(`(() => { const e = document.activeElement, s = getComputedStyle(e); return e.matches(":focus-visible") + " " + s.outlineStyle + " " + s.outlineWidth; })()`)
	if got != "true solid 3px" {
		r.t.Errorf("%s focused by keyboard: :focus-visible, outline style and width %q, want \"true solid 3px\"", what, got)
	}
}

// compareFacets checks the counts the brand and colour refinement lists
// show against /serve/search's for query and filters.
func (r *stepRunner) compareFacets(query string, filters []string) {
	r.t.Helper()
	ans := r.s.searchFacets(r.t, "demo", query, filters)
	server := map[string]map[string]int{}
	for _, f := range ans.Products.Filters {
		server[f.Name] = map[string]int{}
		for _, v := range f.Values {
			server[f.Name][v.Title] = v.Count
		}
	}
	for _, list := range []struct{ id, field string }{{"brand", "brand"}, {"color", "extraData.color"}} {
		raw := r.str(fmt.Sprintf(`JSON.stringify([...document.querySelectorAll("#%s .ais-RefinementList-item")].map((li) => [li.querySelector(".ais-RefinementList-labelText").textContent, +li.querySelector(".ais-RefinementList-count").textContent]))`, list.id))
		var shown [][2]any
		if err := json.Unmarshal([]byte(raw), &shown); err != nil {
			r.t.Fatal(err)
		}
		if len(shown) == 0 {
			r.t.Errorf("%s (filters %v): the refinement list is empty", list.field, filters)
		}
		for _, v := range shown {
			title, count := v[0].(string), int(v[1].(float64))
			if want, ok := server[list.field][title]; !ok || want != count {
				r.t.Errorf("%s %q (filters %v): the page shows %d, /serve/search %d (listed %v)", list.field, title, filters, count, want, ok)
			}
		}
	}
}

// shot saves a screenshot of the viewport as NAME.png.
func (r *stepRunner) shot(name string) {
	r.t.Helper()
	png, err := chromedp.Run(r.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		r.fail("screenshot "+name, err)
	}
	r.save(name, png)
}

func (r *stepRunner) save(name string, png []byte) {
	path := filepath.Join(r.shots, name+".png")
	if name == "failed" {
		path = filepath.Join(r.shots, r.name+"-failed.png")
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		r.t.Error(err)
	}
}
