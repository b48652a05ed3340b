package engine

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/render"
)

// recomShop serves the shop fixture with a behaviour whose answers are
// known exactly: every event at one time, read at that time, so no count
// has decayed. Views: A100 3, B100 2, B200 1, C300 1, C100 1 and D100 1
// (out of stock); buys: A100 2,
// B100 1, B200 1; carts: B200 1. TOP (views + 3 carts + 5 buys): A100
// 13, B200 9, B100 7, C300 1. Co-viewed with A100: B100 2, B200 1;
// co-bought with A100: B100 1, B200 1. In stock: A100, B100, B200, C300.
func recomShop(t *testing.T) (*Engine, *Behaviours, time.Time) {
	t.Helper()
	w := shopWebsite()
	f := false
	w.Boxes = []config.Box{
		{Key: "shop-top", Count: 2, Fields: []string{"productNumber", "title"}, Sources: []config.BoxSource{{Type: "TOP"}}},
		{Key: "shop-alt", Name: "You may also like", Count: 3, Format: "html", Sources: []config.BoxSource{{Type: "ALTERNATIVES"}, {Type: "TOP"}}},
		{Key: "shop-seen", Count: 5, Format: "html", HideAdditionalVariants: &f, Template: `<b>{{range .Products}}[{{index . "title"}}]{{end}}</b>`,
			Sources: []config.BoxSource{{Type: "RETARGETED", Filters: map[string]any{"inStock": false}}}},
	}
	g, err := Build(w, analysis.English, Source{Products: sliceSource(shopProducts())}, nil)
	if err != nil {
		t.Fatal(err)
	}
	eng := New(recomAdminKey, g)
	bhv := NewBehaviours()
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	m := bhv.Model(shopUUID)
	for _, e := range []events.Event{
		{Kind: events.View, User: "u1", ProductNumber: "A100"},
		{Kind: events.View, User: "u1", ProductNumber: "B100"},
		{Kind: events.View, User: "u2", ProductNumber: "A100"},
		{Kind: events.View, User: "u2", ProductNumber: "B200"},
		{Kind: events.View, User: "u3", ProductNumber: "B100"},
		{Kind: events.View, User: "u3", ProductNumber: "A100"},
		{Kind: events.Purchase, User: "u2", Email: "b@shop.test", OrderNumber: "O1", ProductNumbers: []string{"A100", "B200"}},
		{Kind: events.Purchase, User: "u3", OrderNumber: "O2", ProductNumbers: []string{"A100", "B100"}},
		{Kind: events.View, User: "u4", ProductNumber: "C300"},
		{Kind: events.Cart, User: "u4", ProductNumbers: []string{"B200"}},
		{Kind: events.View, User: "u5", ProductNumber: "C100"}, // out of stock
		{Kind: events.View, User: "u6", ProductNumber: "D100"}, // out of stock, a title to escape
	} {
		e.Website, e.Time = shopUUID, at.UnixMilli()
		bhv.Key().Seal(&e, false)
		m.Fold(&e)
	}
	return eng, bhv, at
}

// recomAdminKey is recomShop's admin key, which recoms sends: a call
// that names its visitor by email needs a key.
const recomAdminKey = "admin-key"

// recoms answers body and describes each response: "A100 B200" (its
// products, in order) or "CODE: message".
func recoms(t *testing.T, eng *Engine, bhv *Behaviours, now time.Time, body string) ([]string, error) {
	t.Helper()
	var req RecomsRequest
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	res, err := eng.Recoms(context.Background(), &req, recomAdminKey, bhv, now)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range res.Responses {
		if !r.Success {
			out = append(out, r.Code+": "+r.Message)
			continue
		}
		if r.HTML != nil {
			out = append(out, "html "+*r.HTML)
			continue
		}
		var pns []string
		for _, d := range r.Docs {
			pns = append(pns, r.gen.Products.Key(d))
		}
		out = append(out, strings.Join(pns, " "))
	}
	// The JSON answer holds the same, in order.
	var decoded struct {
		Success   bool
		Responses []struct {
			Success  bool
			Products []struct{ ProductNumber string }
		}
	}
	if err := json.Unmarshal(res.AppendJSON(nil), &decoded); err != nil || !decoded.Success || len(decoded.Responses) != len(out) {
		t.Fatalf("%s: the JSON answer %s: %v", body, res.AppendJSON(nil), err)
	}
	return out, nil
}

// TestRecomsSources: each source's products, in its order, from the
// behaviour and the index, with limits, filters and context.
func TestRecomsSources(t *testing.T) {
	eng, bhv, now := recomShop(t)
	one := func(source string, count int, extra string) string {
		return `{"websiteUuid":"` + shopUUID + `"` + extra + `,"requests":[{"trackingKey":"t","count":` + strconv.Itoa(count) + `,"sources":[` + source + `]` + `}]}`
	}
	withCtx := func(source string, count int, ctx, extra string) string {
		return `{"websiteUuid":"` + shopUUID + `"` + extra + `,"requests":[{"trackingKey":"t","count":` + strconv.Itoa(count) + `,"context":` + ctx + `,"sources":[` + source + `]}]}`
	}
	for _, tc := range []struct{ name, body, want string }{
		{"TOP", one(`{"type":"TOP"}`, 3, ""), "A100 B200 B100"},
		{"TOP, all in stock", one(`{"type":"TOP"}`, 10, ""), "A100 B200 B100 C300"},
		{"out of stock when a filter asks", one(`{"type":"TOP","filters":{"inStock":false}}`, 10, ""), "C100 D100"},
		{"MOST_BOUGHT", one(`{"type":"MOST_BOUGHT"}`, 10, ""), "A100 B100 B200"},
		{"MOST_VIEWED", one(`{"type":"MOST_VIEWED"}`, 10, ""), "A100 B100 B200 C300"},
		{"sources in order, each to its limit", one(`{"type":"MOST_VIEWED","limit":1},{"type":"MOST_BOUGHT"}`, 3, ""), "A100 B100 B200"},
		{"the context is not recommended back", withCtx(`{"type":"TOP"}`, 10, `{"productNumbers":["A100"]}`, ""), "B200 B100 C300"},
		{"ALTERNATIVES: co-viewed", withCtx(`{"type":"ALTERNATIVES"}`, 10, `{"productNumbers":["A100"]}`, ""), "B100 B200"},
		{"ALTERNATIVES: the context by its page's address", withCtx(`{"type":"ALTERNATIVES"}`, 10, `{"urls":["http://shop.test/a100/?utm_source=mail#top"]}`, ""), "B100 B200"},
		{"ALTERNATIVES: an address no product has", withCtx(`{"type":"ALTERNATIVES"}`, 10, `{"urls":["https://shop.test/nowhere"]}`, ""), ""},
		{"ALTERNATIVES: then the same category, out of stock when asked, variants when asked",
			`{"websiteUuid":"` + shopUUID + `","requests":[{"trackingKey":"t","count":10,"hideAdditionalVariants":false,"context":{"productNumbers":["A100"]},"sources":[{"type":"ALTERNATIVES","filters":{"inStock":{"$in":[true,false]}}}]}]}`, "B100 B200 A200"},
		{"ALTERNATIVES: a variant of the context is hidden",
			withCtx(`{"type":"ALTERNATIVES","filters":{"inStock":{"$in":[true,false]}}}`, 10, `{"productNumbers":["A100"]}`, ""), "B100 B200"},
		{"ALTERNATIVES of a product nobody viewed: its category", withCtx(`{"type":"ALTERNATIVES","filters":{"inStock":{"$in":[true,false]}}}`, 10, `{"productNumbers":["C100"]}`, ""), "C200"},
		{"BOUGHT_TOGETHER", withCtx(`{"type":"BOUGHT_TOGETHER"}`, 10, `{"productNumbers":["A100"]}`, ""), "B200 B100"}, // tied: by TOP
		{"BOUGHT_TOGETHER with the visitor's cart", one(`{"type":"BOUGHT_TOGETHER"}`, 10, `,"trackingUserId":"u4"`), "A100"},
		{"RETARGETED", one(`{"type":"RETARGETED"}`, 10, `,"trackingUserId":"u1"`), "B100 A100"},
		{"RECENTLY_BOUGHT by email", one(`{"type":"RECENTLY_BOUGHT"}`, 10, `,"email":"b@shop.test"`), "B200 A100"},
		{"filter $eq", one(`{"type":"TOP","filters":{"brand":"Gardena"}}`, 10, ""), "B100"},
		{"filter $in", one(`{"type":"TOP","filters":{"brand":{"$in":["Makita","Gardena"]}}}`, 10, ""), "A100 B100"},
		{"filter $all on a list field", one(`{"type":"TOP","filters":{"extraDataList.tags":{"$all":["cordless","battery"]}}}`, 10, ""), "A100"},
		{"filter $all, no product has both", one(`{"type":"TOP","filters":{"extraDataList.tags":{"$all":["cordless","led"]}}}`, 10, ""), ""},
		{"filter from the context", withCtx(`{"type":"TOP","filters":{"brand":"$context.brand"}}`, 10, `{"brand":"Müller"}`, ""), "B200"},
		{"filter by the context's category", withCtx(`{"type":"TOP","filters":{"hierarchies":"$context.hierarchies"}}`, 10, `{"hierarchies":[["Garden"]]}`, ""), "B200 B100"},
		{"filter on a number range", one(`{"type":"TOP","filters":{"price":"20,100"}}`, 10, ""), "A100 B100"},
		{"filter on an unknown field", one(`{"type":"TOP","filters":{"colour":"Red"}}`, 10, ""), `BAD_REQUEST: filters.colour: field "colour" is not an indexed field`},
		{"a bad operator", one(`{"type":"TOP","filters":{"brand":{"$ne":"Bosch"}}}`, 10, ""), `BAD_REQUEST: filters.brand: unknown operator "$ne": want $eq, $in or $all`},
		{"a context the filter lacks", one(`{"type":"TOP","filters":{"brand":"$context.brand"}}`, 10, ""), `BAD_REQUEST: filters.brand: "$context.brand" refers to context.brand, which the request does not give`},
	} {
		got, err := recoms(t, eng, bhv, now, tc.body)
		if err != nil || len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: %q %v, want %q", tc.name, got, err, tc.want)
		}
	}
}

// TestRecomsNoRepeats: one call never answers a product twice; its
// responses come in request order.
func TestRecomsNoRepeats(t *testing.T) {
	eng, bhv, now := recomShop(t)
	got, err := recoms(t, eng, bhv, now, `{"websiteUuid":"`+shopUUID+`","requests":[
		{"trackingKey":"a","count":2,"sources":[{"type":"TOP"}]},
		{"key":"no-such-box"},
		{"trackingKey":"b","count":2,"sources":[{"type":"TOP"}]},
		{"trackingKey":"c","count":5,"sources":[{"type":"MOST_VIEWED"}]}]}`)
	want := []string{"A100 B200", `NOT FOUND: recommendation "no-such-box" not found`, "B100 C300", ""}
	if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("%q %v, want %q", got, err, want)
	}
}

// TestRecomsErrors: what refuses a whole call, and what fails one
// response with BAD_REQUEST.
func TestRecomsErrors(t *testing.T) {
	eng, bhv, now := recomShop(t)
	site := `"websiteUuid":"` + shopUUID + `",`
	for _, tc := range []struct {
		name, body string
		kind       Kind // of a whole-call error; 0: per response
		want       string
	}{
		{"two ids", `{` + site + `"trackingUserId":"u1","email":"a@b","requests":[{"key":"x"}]}`, KindInvalid, "at most one of trackingUserId, email and customerId"},
		{"no requests", `{` + site + `"requests":[]}`, KindInvalid, "requests: is required"},
		{"eleven requests", `{` + site + `"requests":[` + strings.Repeat(`{"key":"x"},`, 10) + `{"key":"x"}]}`, KindInvalid, "requests: at most 10 requests in a call, got 11"},
		{"two thousand requests of a billion", `{` + site + `"requests":[` + strings.Repeat(`{"trackingKey":"t","count":1000000000,"sources":[{"type":"TOP"}]},`, 1999) +
			`{"trackingKey":"t","count":1000000000,"sources":[{"type":"TOP"}]}]}`, KindInvalid, "requests: at most 10 requests in a call, got 2000"},
		{"count 101", `{` + site + `"requests":[{"trackingKey":"t","count":101,"sources":[{"type":"TOP"}]}]}`, 0, "BAD_REQUEST: count 101: at most 100 products"},
		{"eleven sources", `{` + site + `"requests":[{"trackingKey":"t","count":1,"sources":[` + strings.Repeat(`{"type":"TOP"},`, 10) + `{"type":"TOP"}]}]}`, 0, "BAD_REQUEST: sources: at most 10, got 11"},
		{"a context of 51 products", `{` + site + `"requests":[{"trackingKey":"t","count":1,"context":{"productNumbers":[` + strings.Repeat(`"A100",`, 30) + `"A100"],"urls":[` +
			strings.Repeat(`"/a",`, 19) + `"/a"]},"sources":[{"type":"TOP"}]}]}`, 0, "BAD_REQUEST: context.productNumbers and context.urls: at most 50 products, got 51"},
		{"a filter of 101 values", `{` + site + `"requests":[{"trackingKey":"t","count":1,"sources":[{"type":"TOP","filters":{"brand":{"$in":[` + strings.Repeat(`"x",`, 100) + `"y"]}}}]}]}`, 0,
			"BAD_REQUEST: filters.brand: a source's filters hold at most 100 values"},
		{"a context list of 101 values", `{` + site + `"requests":[{"trackingKey":"t","count":1,"context":{"brands":[` + strings.Repeat(`"x",`, 100) + `"y"]},"sources":[{"type":"TOP","filters":{"brand":"$context.brands"}}]}]}`, 0,
			"BAD_REQUEST: filters.brand: a source's filters hold at most 100 values"},
		{"count a billion", `{` + site + `"requests":[{"trackingKey":"t","count":1000000000,"sources":[{"type":"TOP"}]}]}`, 0, "BAD_REQUEST: count 1000000000: at most 100 products"},
		{"an unknown website", `{"websiteUuid":"00000000-0000-4000-8000-0000000000ff","requests":[{"key":"x"}]}`, KindNotFound, "no website"},
		{"unmanaged without websiteUuid", `{"requests":[{"trackingKey":"t","count":1,"sources":[{"type":"TOP"}]}]}`, 0, "BAD_REQUEST: websiteUuid is required for an unmanaged request"},
		{"managed without websiteUuid", `{"requests":[{"key":"box"}]}`, 0, `NOT FOUND: recommendation "box" not found`},
		{"a bad trackingKey", `{` + site + `"requests":[{"trackingKey":"a b","count":1,"sources":[{"type":"TOP"}]}]}`, 0, `BAD_REQUEST: trackingKey "a b": want at most 100 letters, digits or hyphens`},
		{"a long trackingKey", `{` + site + `"requests":[{"trackingKey":"` + strings.Repeat("k", 101) + `","count":1,"sources":[{"type":"TOP"}]}]}`, 0, "BAD_REQUEST: trackingKey"},
		{"count 0", `{` + site + `"requests":[{"trackingKey":"t","count":0,"sources":[{"type":"TOP"}]}]}`, 0, "BAD_REQUEST: count 0: want the number of products, more than 0"},
		{"no sources", `{` + site + `"requests":[{"trackingKey":"t","count":1}]}`, 0, "BAD_REQUEST: sources: at least one is required"},
		{"an unknown source", `{` + site + `"requests":[{"trackingKey":"t","count":1,"sources":[{"type":"NEWEST"}]}]}`, 0, `BAD_REQUEST: sources[0].type "NEWEST"`},
		{"alternatives without context", `{` + site + `"requests":[{"trackingKey":"t","count":1,"sources":[{"type":"ALTERNATIVES"}]}]}`, 0, "BAD_REQUEST: sources[0]: ALTERNATIVES needs context.productNumbers (or context.urls)"},
		{"retargeted without a visitor", `{` + site + `"requests":[{"trackingKey":"t","count":1,"sources":[{"type":"RETARGETED"}]}]}`, 0, "BAD_REQUEST: sources[0]: RETARGETED needs the visitor"},
		{"recently bought, an unknown email", `{` + site + `"email":"x@y","requests":[{"trackingKey":"t","count":1,"sources":[{"type":"RECENTLY_BOUGHT"}]}]}`, 0, "BAD_REQUEST: sources[0]: RECENTLY_BOUGHT needs the visitor"},
		{"html unmanaged", `{` + site + `"requests":[{"trackingKey":"t","count":1,"format":"html","sources":[{"type":"TOP"}]}]}`, 0, `BAD_REQUEST: format "html"`},
		{"a bad device", `{` + site + `"requests":[{"trackingKey":"t","count":1,"deviceType":"TV","sources":[{"type":"TOP"}]}]}`, 0, `BAD_REQUEST: deviceType "TV"`},
		{"key and trackingKey", `{` + site + `"requests":[{"key":"k","trackingKey":"t"}]}`, 0, "BAD_REQUEST: give key (a managed box) or trackingKey"},
		{"a negative limit", `{` + site + `"requests":[{"trackingKey":"t","count":1,"sources":[{"type":"TOP","limit":-1}]}]}`, 0, "BAD_REQUEST: sources[0].limit -1"},
	} {
		got, err := recoms(t, eng, bhv, now, tc.body)
		if tc.kind != 0 {
			var e *Error
			if !errors.As(err, &e) || e.Kind != tc.kind || !strings.Contains(e.Error(), tc.want) {
				t.Errorf("%s: %v, want a %v error saying %q", tc.name, err, tc.kind, tc.want)
			}
			continue
		}
		if err != nil || len(got) != 1 || !strings.HasPrefix(got[0], tc.want) {
			t.Errorf("%s: %q %v, want %q", tc.name, got, err, tc.want)
		}
	}
}

// TestRecomsManagedBoxes: a box of the configuration answers by its key
// (with or without websiteUuid) with its sources, count and fields, the
// request's context and format; html through its template (the built-in
// one when it has none), product data escaped.
func TestRecomsManagedBoxes(t *testing.T) {
	eng, bhv, now := recomShop(t)
	site := `"websiteUuid":"` + shopUUID + `",`
	for _, tc := range []struct{ name, body, want string }{
		{"a json box", `{` + site + `"requests":[{"key":"shop-top"}]}`, "A100 B200"},
		{"found by its key alone", `{"requests":[{"key":"shop-top"}]}`, "A100 B200"},
		{"html, the built-in template", `{` + site + `"requests":[{"key":"shop-alt","context":{"productNumbers":["A100"]}}]}`,
			"html <style>" + render.DefaultStyle + `</style><div class="aisle-recoms" data-box="shop-alt"><h2 class="aisle-recoms-title">You may also like</h2>
<ul class="aisle-products">
<li class="aisle-product"><a href="">
<span class="aisle-title">Garden Hose 20m</span>
<span class="aisle-price"></span></a></li>
<li class="aisle-product"><a href="">
<span class="aisle-title">Pruning Shears</span>
<span class="aisle-price"></span></a></li>
<li class="aisle-product"><a href="">
<span class="aisle-title">Oak Table</span>
<span class="aisle-price"></span></a></li>
</ul>
</div>`},
		{"html asked as json", `{` + site + `"requests":[{"key":"shop-alt","format":"json","context":{"productNumbers":["A100"]}}]}`, "B100 B200 C300"},
		{"its own template, escaped", `{` + site + `"trackingUserId":"u6","requests":[{"key":"shop-seen"}]}`, "html <b>[Desk Lamp &#34;Nova&#34; &lt;LED&gt; &amp; USB]</b>"},
		{"an unknown box", `{` + site + `"requests":[{"key":"nope"}]}`, `NOT FOUND: recommendation "nope" not found`},
		{"a box that needs a context", `{` + site + `"requests":[{"key":"shop-alt"}]}`, "BAD_REQUEST: sources[0]: ALTERNATIVES needs context.productNumbers (or context.urls)"},
		{"a bad format", `{` + site + `"requests":[{"key":"shop-top","format":"xml"}]}`, `BAD_REQUEST: format "xml": want json or html`},
	} {
		got, err := recoms(t, eng, bhv, now, tc.body)
		if err != nil || len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: %q %v, want %q", tc.name, got, err, tc.want)
		}
	}
	res, err := eng.Recoms(context.Background(), &RecomsRequest{WebsiteUUID: shopUUID, Requests: []RecomRequest{{Key: "shop-top"}}}, "", bhv, now)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"success":true,"responses":[{"key":"shop-top","success":true,"products":[{"productNumber":"A100","title":"Cordless Drill 18V"},{"productNumber":"B200","title":"Pruning Shears"}]}]}`
	if got := string(res.AppendJSON(nil)); got != want {
		t.Errorf("the box's fields:\n%s\nwant\n%s", got, want)
	}
}

// TestBoxTemplateCheckedWithTheConfiguration: a box whose template does
// not compile is refused with the configuration, not on a request.
func TestBoxTemplateCheckedWithTheConfiguration(t *testing.T) {
	w := shopWebsite()
	w.Boxes = []config.Box{{Key: "broken", Count: 1, Format: "html", Template: "<p>{{range .Products}}", Sources: []config.BoxSource{{Type: "TOP"}}}}
	if err := CheckWebsite(w, analysis.English); err == nil || !strings.Contains(err.Error(), "box broken: template") {
		t.Errorf("a box template that does not compile: %v", err)
	}
}

// TestEverySourceIsServed: every source type the configuration takes
// has what the engine needs of it.
func TestEverySourceIsServed(t *testing.T) {
	for _, typ := range config.RecomSources {
		if _, ok := sourceNeeds[typ]; !ok {
			t.Errorf("source %s has no entry in sourceNeeds", typ)
		}
	}
	if len(sourceNeeds) != len(config.RecomSources) {
		t.Errorf("sourceNeeds has %d sources, the configuration %d", len(sourceNeeds), len(config.RecomSources))
	}
}

// TestRecomsWebsitesApart: one website's events never move another's
// recommendations, and a box answers on its own website's products.
func TestRecomsWebsitesApart(t *testing.T) {
	eng, bhv, now := recomShop(t)
	other := shopWebsite()
	other.UUID, other.Search[0].Key, other.Boxes = "00000000-0000-4000-8000-0000000000b2", "other-shop", []config.Box{{Key: "other-top", Count: 5, Sources: []config.BoxSource{{Type: "TOP"}}}}
	g, err := Build(other, analysis.English, Source{Products: sliceSource(shopProducts())}, nil)
	if err != nil {
		t.Fatal(err)
	}
	eng.Swap(g)
	top := func(site string) string {
		got, err := recoms(t, eng, bhv, now, `{"websiteUuid":"`+site+`","requests":[{"trackingKey":"t","count":5,"sources":[{"type":"TOP"}]}]}`)
		if err != nil {
			t.Fatal(err)
		}
		return got[0]
	}
	if a, b := top(shopUUID), top(other.UUID); a != "A100 B200 B100 C300" || b != "" {
		t.Errorf("TOP of the shop with events %q, of the other with none %q", a, b)
	}
	got, err := recoms(t, eng, bhv, now, `{"requests":[{"key":"other-top"},{"key":"shop-top"}]}`)
	if err != nil || len(got) != 2 || got[0] != "" || got[1] != "A100 B200" {
		t.Errorf("boxes of two websites in one call: %q %v", got, err)
	}
}

// TestRecomsFilterCacheReadOnly: a generation's cached filter docs are
// never narrowed by a call that combines them with others: the filter
// alone answers as it does on a fresh generation after calls that
// combine it (brand sorts first, so it is the one combined into).
func TestRecomsFilterCacheReadOnly(t *testing.T) {
	body := func(filters string) string {
		return `{"websiteUuid":"` + shopUUID + `","requests":[{"trackingKey":"t","count":10,"sources":[{"type":"TOP","filters":` + filters + `}]}]}`
	}
	const brands = `"brand":{"$in":["Makita","Gardena","Müller"]}`
	fresh, bhv, now := recomShop(t)
	want, err := recoms(t, fresh, bhv, now, body(`{`+brands+`}`))
	if err != nil || strings.Join(want, " ") != "A100 B200 B100" {
		t.Fatalf("the brands alone on a fresh generation: %v, %v", want, err)
	}
	eng, bhv, now := recomShop(t)
	for _, filters := range []string{`{` + brands + `,"price":"0,50"}`, `{` + brands + `,"price":"100,200"}`} {
		if _, err := recoms(t, eng, bhv, now, body(filters)); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := recoms(t, eng, bhv, now, body(`{`+brands+`}`)); err != nil || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("the brands alone after calls combining them: %v, %v; want %v", got, err, want)
	}
}

// TestRecomsLookupByEmailNeedsAKey: naming the visitor by email or
// customer id is a server-to-server call: without a key, or with a key
// of another website, the whole call is Unauthorized and answers
// nothing of the visitor; with the website's key or the admin key it
// answers.
func TestRecomsLookupByEmailNeedsAKey(t *testing.T) {
	eng, bhv, now := recomShop(t)
	g := current(t, eng)
	w := *g.Website
	w.APIKeys = []string{"shop-key"}
	g2, err := Build(&w, analysis.English, Source{Products: sliceSource(shopProducts())}, nil)
	if err != nil {
		t.Fatal(err)
	}
	eng.Swap(g2)
	for _, body := range []string{
		`{"websiteUuid":"` + shopUUID + `","email":"b@shop.test","requests":[{"trackingKey":"t","count":5,"sources":[{"type":"RECENTLY_BOUGHT"}]}]}`,
		`{"email":"b@shop.test","requests":[{"key":"shop-seen"}]}`,
		`{"websiteUuid":"` + shopUUID + `","customerId":"c-9","requests":[{"trackingKey":"t","count":5,"sources":[{"type":"RECENTLY_BOUGHT"}]}]}`,
	} {
		for _, tc := range []struct {
			key string
			ok  bool
		}{{"", false}, {"other-key", false}, {"shop-key", true}, {recomAdminKey, true}} {
			var req RecomsRequest
			if err := json.Unmarshal([]byte(body), &req); err != nil {
				t.Fatal(err)
			}
			res, err := eng.Recoms(context.Background(), &req, tc.key, bhv, now)
			var e *Error
			switch {
			case tc.ok && err != nil:
				t.Errorf("%s with key %q: %v", body, tc.key, err)
			case !tc.ok && (!errors.As(err, &e) || e.Kind != KindUnauthorized || res != nil):
				t.Errorf("%s with key %q: %v, want Unauthorized", body, tc.key, err)
			}
		}
	}
}
