package main

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/demo"
)

// adminReplays are the admin API, /admin/v1/...: product upserts (JSON
// Lines, a JSON array, CSV with a mapping), partial updates, allowErrors,
// deletes of one and of a list, content items, the configuration and the
// campaigns' counts, each write followed by the searches, pages and
// recommendations that see it; and every error the routes answer (400,
// 401, 404, 405, 413, 415).
func adminReplays() []replayRequest {
	products := "/admin/v1/websites/" + replayShop + "/products"
	content := "/admin/v1/websites/" + replayShop + "/content"
	a := func(name, method, path, contentType, body string) replayRequest {
		return adminCall(name, method, path, contentType, body)
	}
	search := func(name, query, filters string) replayRequest {
		return postJSON(name, "/serve/search", `{"query":`+quote(query)+`,"key":"demo","products":{"count":3,"fields":["productNumber","title","brand","price","previousPrice","isOnSale","inStock"],"filters":`+filters+`}}`)
	}
	out := []replayRequest{
		// Who may write.
		{name: "error: no key", method: "POST", path: products, header: []string{"Content-Type: application/x-ndjson"}, body: `{"productNumber":"RP-1","title":"x"}`},
		{name: "error: a wrong key", method: "POST", path: products, header: []string{"Authorization: Bearer wrong", "Content-Type: application/x-ndjson"}, body: `{"productNumber":"RP-1","title":"x"}`},
		{name: "error: not a bearer", method: "POST", path: products, header: []string{"Authorization: Basic " + replayAdminKey, "Content-Type: application/x-ndjson"}, body: `{"productNumber":"RP-1","title":"x"}`},

		// Upserts, and the searches that see them.
		search("before: the new products are not there", "replay", `[]`),
		a("upsert JSON Lines", "POST", products, "application/x-ndjson",
			`{"productNumber":"RP-1","title":"Replay Garden Hose Reel","brand":"Replaymark","price":34.5,"inStock":true,"hierarchies":[["Garden","Watering","Hose Reels"]],"url":"https://demo.aisle.shop/p/rp-1","created":"2026-11-19T08:00:00Z"}`+"\n"+
				`{"productNumber":"RP-2","title":"Replay Cordless Drill Kit","brand":"Replaymark","price":89,"previousPrice":109,"inStock":true,"hierarchies":[["Tools","Power Tools","Cordless Drills"]],"extraData":{"color":"Orange"}}`+"\n"+
				"\n"+
				`{"productNumber":"RP-3","title":"Replay Table Lamp","brand":"Replaymark","price":25,"variantProductNumbers":["RP-3-B"],"groupingKey":"RP-G"}`+"\n"),
		search("after: the new products", "replay", `[]`),
		search("after: a new product by its words", "cordless drill kit", `[]`),
		search("after: a variant's number", "rp-3-b", `[]`),
		search("after: the new brand as a filter", "*", `["brand:Replaymark"]`),
		postJSON("after: the new product on the Garden page", "/serve/pages/demo", `{"url":"u","firstLoad":false,"format":"json","params":{"filters":{"brand":"Replaymark"}},"products":{"start":0,"count":5,"fields":["productNumber","title"]}}`),
		a("upsert a JSON array, one new, one changed", "POST", products, "application/json",
			`[{"productNumber":"RP-4","title":"Replay Watering Can","brand":"Replaymark","price":12,"inStock":true,"hierarchies":[["Garden","Watering"]]},`+
				`{"productNumber":"rp-1","title":"Replay Garden Hose Reel, 30 m","brand":"Replaymark","price":39.5,"inStock":true,"hierarchies":[["Garden","Watering","Hose Reels"]]}]`),
		search("after: the array", "replay", `[]`),
		a("upsert an existing demo product's price and stock (a column write)", "POST", products, "application/jsonl",
			`{"productNumber":"AI-000001","title":"Stahlmann White Pliers 20V Max","brand":"Stahlmann","price":7.99,"previousPrice":13.49,"inStock":false,"hierarchies":[["Tools","Hand Tools","Pliers"]],"extraData":{"color":"White","material":"Carbon Steel"},"url":"https://demo.aisle.shop/p/stahlmann-white-pliers-20v-max-ai-000001"}`),
		search("after: the column write", "pliers", `["price:,8"]`),
		a("upsert the same product again", "POST", products, "application/jsonl",
			`{"productNumber":"RP-4","title":"Replay Watering Can","brand":"Replaymark","price":12,"inStock":true,"hierarchies":[["Garden","Watering"]]}`),
		a("upsert with a charset", "POST", products, "application/x-ndjson; charset=utf-8",
			`{"productNumber":"RP-5","title":"Replay Secateurs","brand":"Replaymark","price":19,"hierarchies":[["Garden","Garden Tools"]]}`),

		// Partial updates.
		a("partial: a price", "POST", products+"?partial=true", "application/x-ndjson", `{"productNumber":"RP-2","price":79}`),
		a("partial: stock and a list, two products", "POST", products+"?partial=true", "application/x-ndjson",
			`{"productNumber":"RP-4","inStock":false}`+"\n"+`{"productNumber":"RP-5","extraDataList":{"tags":["sharp","garden"]},"inStock":true}`),
		search("after: the partial updates", "replay", `[]`),
		a("partial: as a JSON array", "POST", products+"?partial=true", "application/json", `[{"productNumber":"RP-3","price":22}]`),
		a("error: partial of a product not stored", "POST", products+"?partial=true", "application/x-ndjson", `{"productNumber":"RP-404","price":1}`),
		a("error: partial leaving a product invalid", "POST", products+"?partial=true", "application/x-ndjson", `{"productNumber":"RP-2","title":""}`),
		a("error: partial of an unknown member", "POST", products+"?partial=true", "application/x-ndjson", `{"productNumber":"RP-2","colour":"red"}`),
		a("partial with allowErrors", "POST", products+"?partial=true&allowErrors=true", "application/x-ndjson",
			`{"productNumber":"RP-2","price":75}`+"\n"+`{"productNumber":"RP-404","price":1}`+"\n"),

		// Bad rows: the whole batch refused, or the good rows kept.
		a("error: a bad row refuses the batch", "POST", products, "application/x-ndjson",
			`{"productNumber":"RP-6","title":"Replay Rake","price":15}`+"\n"+`{"productNumber":"RP-7","title":"Replay Hoe","price":"cheap"}`+"\n"),
		search("after: nothing of the refused batch", "rake", `[]`),
		a("allowErrors: the good rows kept", "POST", products+"?allowErrors=true", "application/x-ndjson",
			`{"productNumber":"RP-6","title":"Replay Rake","price":15,"inStock":true}`+"\n"+
				`{"productNumber":"RP-7","title":"Replay Hoe","price":"cheap"}`+"\n"+
				`{"title":"No Number"}`+"\n"+
				`{"productNumber":"RP-8","title":"","price":1}`+"\n"+
				`not json`+"\n"+
				`{"productNumber":"RP-9","title":"Replay Hoe","price":14,"hierarchies":[["Garden","Bad$Level"]]}`+"\n"),
		search("after: the kept row", "rake", `[]`),
		a("allowErrors in a JSON array", "POST", products+"?allowErrors=true", "application/json",
			`[{"productNumber":"RP-10","title":"Replay Trowel","price":6},{"productNumber":"RP-11"}]`),
		a("allowErrors: every row bad", "POST", products+"?allowErrors=true", "application/x-ndjson", `{"productNumber":"RP-12"}`),
		a("error: an unknown member", "POST", products, "application/x-ndjson", `{"productNumber":"RP-13","title":"x","colour":"red"}`),
		a("error: no products in the body", "POST", products, "application/x-ndjson", "\n\n"),
		a("error: an empty body", "POST", products, "application/x-ndjson", ""),
		a("error: not a JSON array", "POST", products, "application/json", `{"productNumber":"RP-13","title":"x"}`),
		a("error: malformed JSON Lines", "POST", products, "application/x-ndjson", `{"productNumber":"RP-13",`),

		// CSV.
		a("CSV with a mapping", "POST", products+"?mapping="+url.QueryEscape(`{"columns":{"productNumber":"sku","title":"name","price":"cost","brand":"maker"},"defaults":{"inStock":"true"}}`), "text/csv",
			"sku,name,cost,maker\nRP-20,Replay Garden Fork,24.5,Replaymark\nRP-21,Replay Leaf Rake,18,Replaymark\n"),
		a("CSV partial: a price feed", "POST", products+"?partial=true&mapping="+url.QueryEscape(`{"columns":{"productNumber":"sku","price":"cost"}}`), "text/csv",
			"sku,cost\nRP-20,22\nRP-21,16.5\n"),
		a("CSV allowErrors: a cell that does not convert", "POST", products+"?allowErrors=true&mapping="+url.QueryEscape(`{"columns":{"productNumber":"sku","title":"name","price":"cost"}}`), "text/csv",
			"sku,name,cost\nRP-22,Replay Hand Fork,9\nRP-23,Replay Dibber,nine\n"),
		search("after: the CSV", "fork", `[]`),
		a("error: CSV without a mapping", "POST", products, "text/csv", "sku,name\nRP-24,x\n"),
		a("error: CSV with an unknown built-in mapping", "POST", products+"?mapping=nope", "text/csv", "sku,name\nRP-24,x\n"),
		a("error: CSV with a bad mapping", "POST", products+"?mapping="+url.QueryEscape(`{"columns":{"title":"name"}}`), "text/csv", "sku,name\nRP-24,x\n"),
		a("error: a CSV cell that does not convert", "POST", products+"?mapping="+url.QueryEscape(`{"columns":{"productNumber":"sku","title":"name","price":"cost"}}`), "text/csv",
			"sku,name,cost\nRP-24,Replay Dibber,nine\n"),

		// Deletes.
		a("delete one", "DELETE", products+"/RP-6", "", ""),
		a("error: delete one again", "DELETE", products+"/RP-6", "", ""),
		a("delete one in another spelling", "DELETE", products+"/rp-10", "", ""),
		a("delete a list, some not found", "DELETE", products, "application/json", `{"productNumbers":["RP-20","RP-21","RP-404","rp-22"]}`),
		a("delete a list of none found", "DELETE", products, "application/json", `{"productNumbers":["RP-404"]}`),
		a("error: delete an empty list", "DELETE", products, "application/json", `{"productNumbers":[]}`),
		a("error: delete a list without the member", "DELETE", products, "application/json", `{"numbers":["RP-1"]}`),
		search("after: the deletes", "replay", `[]`),
		search("after: the deletes, the rake", "rake", `[]`),

		// Content items.
		postJSON("before: the brands", "/serve/search", `{"query":"replaymark","key":"demo","brands":{"count":3}}`),
		a("content: upsert", "POST", content, "application/x-ndjson",
			`{"kind":"brands","id":"brand:replaymark","title":"Replaymark","description":"Garden tools for replays.","url":"https://demo.aisle.shop/b/replaymark"}`+"\n"+
				`{"kind":"blogPosts","id":"post:replay","title":"How to replay a garden","url":"https://demo.aisle.shop/blog/replay","extraData":{"author":"Aisle"}}`+"\n"),
		postJSON("after: the new brand and post", "/serve/search", `{"query":"replaymark replay","key":"demo","brands":{"count":3},"blogPosts":{"count":3}}`),
		a("content: upsert a JSON array, changed", "POST", content, "application/json",
			`[{"kind":"brands","id":"brand:replaymark","title":"Replaymark Tools","url":"https://demo.aisle.shop/b/replaymark"}]`),
		postJSON("after: the brand changed", "/serve/search", `{"query":"replaymark","key":"demo","brands":{"count":3}}`),
		a("content: allowErrors", "POST", content+"?allowErrors=true", "application/x-ndjson",
			`{"kind":"sitePages","id":"page:replay","title":"Replay help","url":"https://demo.aisle.shop/help/replay"}`+"\n"+
				`{"kind":"widgets","id":"w:1","title":"x"}`+"\n"+
				`{"kind":"brands","id":"a/b","title":"x"}`+"\n"),
		a("error: content: a bad item refuses the batch", "POST", content, "application/x-ndjson", `{"kind":"brands","title":"No id"}`),
		a("error: content: partial", "POST", content+"?partial=true", "application/x-ndjson", `{"kind":"brands","id":"brand:replaymark","title":"x"}`),
		a("error: content: CSV", "POST", content, "text/csv", "kind,id\nbrands,x\n"),
		a("content: delete one", "DELETE", content+"/blogPosts/post:replay", "", ""),
		a("error: content: delete one again", "DELETE", content+"/blogPosts/post:replay", "", ""),
		a("error: content: delete without an id", "DELETE", content+"/blogPosts", "", ""),
		a("error: content: delete a path too deep", "DELETE", content+"/blogPosts/a/b", "", ""),
		postJSON("after: the post deleted", "/serve/search", `{"query":"replay","key":"demo","blogPosts":{"count":3},"sitePages":{"count":3}}`),

		// Methods, media types, sizes, addresses.
		a("error: GET products", "GET", products, "", ""),
		a("error: PUT products", "PUT", products, "application/x-ndjson", `{"productNumber":"RP-1","title":"x"}`),
		a("error: POST one product", "POST", products+"/RP-1", "application/x-ndjson", `{"productNumber":"RP-1","title":"x"}`),
		a("error: GET content", "GET", content, "", ""),
		a("error: POST one content item", "POST", content+"/brands/x", "application/json", `{}`),
		a("error: products as text/plain", "POST", products, "text/plain", `{"productNumber":"RP-1","title":"x"}`),
		a("error: products without a content type", "POST", products, "", `{"productNumber":"RP-1","title":"x"}`),
		a("error: products as XML", "POST", products, "application/xml", `<product/>`),
		{name: "error: a batch over 32 MiB", method: "POST", path: products, show: "(32 MiB and a byte of x)",
			header: []string{"Authorization: Bearer " + replayAdminKey, "Content-Type: application/x-ndjson"},
			body:   strings.Repeat("x", 32<<20+1)},
		a("error: an unknown website", "POST", "/admin/v1/websites/00000000-0000-4000-8000-0000000000ff/products", "application/x-ndjson", `{"productNumber":"RP-1","title":"x"}`),
		a("error: not a website id", "POST", "/admin/v1/websites/shop/products", "application/x-ndjson", `{"productNumber":"RP-1","title":"x"}`),
		a("error: an unknown collection", "POST", "/admin/v1/websites/"+replayShop+"/orders", "application/json", `[]`),
		a("error: the website alone", "GET", "/admin/v1/websites/"+replayShop, "", ""),
		a("error: products with an empty number", "DELETE", products+"/", "", ""),
		a("error: an unknown admin path", "GET", "/admin/v1/websites/", "", ""),
		a("error: an unknown admin version", "GET", "/admin/v2/config", "", ""),
	}

	// The configuration.
	cfg := demo.Config()
	for i := range cfg.Websites {
		cfg.Websites[i].AllowedOrigins = demoOrigins("127.0.0.1:0")
	}
	shop := &cfg.Websites[0]
	live := &shop.Search[0].Versions[0]
	live.Synonyms = append(live.Synonyms, config.Synonym{Terms: []string{"hose reel", "hose caddy"}})
	shop.Boxes = append(shop.Boxes, config.Box{Key: "replay-viewed", Name: "Most viewed", Count: 3, Fields: []string{"productNumber", "title"},
		Sources: []config.BoxSource{{Type: "MOST_VIEWED"}}})
	from, until := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	over := time.Date(2026, 11, 10, 0, 0, 0, 0, time.UTC)
	shop.Campaigns = []config.Campaign{
		{ID: "replay-lamps", Name: "Lamps in searches", State: config.CampaignActive, Start: &from, End: &until, Products: []string{"AI-000751"},
			Placements: []string{"search"}, Target: config.CampaignTarget{Queries: []string{"lamp"}}, Positions: []int{1}},
		{ID: "replay-garden", Name: "Garden everywhere", State: config.CampaignActive, Products: []string{"RP-1", "RP-4"},
			Target: config.CampaignTarget{Hierarchies: []string{"Garden$"}}, Positions: []int{2}},
		{ID: "replay-ended", Name: "Ended by its dates", State: config.CampaignActive, End: &over, Products: []string{"AI-000002"}, Positions: []int{1}},
		{ID: "replay-review", Name: "In review", State: config.CampaignReview, Products: []string{"AI-000005"}, Placements: []string{"search"}, Positions: []int{3}},
	}
	body, err := json.Marshal(cfg)
	if err != nil {
		panic(err)
	}
	putConfig := func(name, body, show string) replayRequest {
		r := a(name, "PUT", "/admin/v1/config", "application/json", body)
		r.show = show
		return r
	}
	campaigns := "/admin/v1/websites/" + replayShop + "/campaigns"
	out = append(out,
		search("before: a synonym", "hose caddy", `[]`),
		a("error: GET the configuration", "GET", "/admin/v1/config", "", ""),
		a("error: POST the configuration", "POST", "/admin/v1/config", "application/json", `{}`),
		putConfig("error: a configuration that is not JSON", `{"websites":[`, ""),
		putConfig("error: a configuration with an unknown member", `{"websites":[],"sites":[]}`, ""),
		putConfig("error: a configuration of no website", `{"websites":[]}`, ""),
		putConfig("error: two websites of one key", strings.Replace(string(body), `"key":"demo-da"`, `"key":"demo"`, 1),
			fmt.Sprintf("(the configuration below with the Danish search key changed to demo: %d bytes)", len(body))),
		search("after: nothing of the refused configurations", "hose caddy", `[]`),
		putConfig("PUT the configuration", string(body),
			fmt.Sprintf("(demo.Config() as aisle demo stores it, plus a synonym hose reel = hose caddy, a box replay-viewed and four campaigns: %d bytes)", len(body))),
		search("after: the synonym", "hose caddy", `[]`),
		postJSON("after: the new box", "/serve/recoms", `{"requests":[{"key":"replay-viewed"}]}`),
		a("campaigns, none shown yet", "GET", campaigns, "", ""),
		postJSON("a click on a sponsored product", "/serve/collect/click", `{"websiteUuid":"`+replayShop+`","trackingUserId":"replay-admin","productNumber":"AI-000751","shown":{"source":"search","key":"demo","position":1,"retailMediaCampaignId":"replay-lamps"}}`),
		a("a campaign, its click counted", "GET", campaigns+"/replay-lamps", "", ""),
		a("error: an unknown campaign", "GET", campaigns+"/nope", "", ""),
		a("error: POST a campaign", "POST", campaigns, "application/json", `{}`),
		// From here on answers show sponsored products, whose impressions
		// are queued, not waited for: no campaign is read after.
		search("a sponsored lamp", "lamp", `[]`),
		search("a sponsored lamp on page 1 only", "lamp desk", `[]`),
		postJSON("a sponsored lamp in review", "/serve/search", `{"query":"lamp","key":"demo","includeRetailMediaInReview":true,"products":{"count":4,"fields":["productNumber","title"]}}`),
		postJSON("the garden campaign on the page", "/serve/pages/demo", `{"url":"u","firstLoad":false,"format":"json","params":{},"products":{"start":0,"count":3,"fields":["productNumber","title"]}}`),
		postJSON("the garden campaign in html", "/serve/pages/demo", `{"url":"u","firstLoad":false,"params":{},"products":{"start":0,"count":3}}`),
		postJSON("the garden campaign in a box", "/serve/recoms", `{"requests":[{"key":"demo-top","fields":["productNumber"],"context":{"hierarchies":[["Garden"]]}}]}`),
		search("no ad where no campaign targets", "headphones", `[]`),
	)
	return out
}

// adminCall is an admin API request with the admin key; contentType ""
// sends none.
func adminCall(name, method, path, contentType, body string) replayRequest {
	h := []string{"Authorization: Bearer " + replayAdminKey}
	if contentType != "" {
		h = append(h, "Content-Type: "+contentType)
	}
	return replayRequest{name: name, method: method, path: path, header: h, body: body}
}
