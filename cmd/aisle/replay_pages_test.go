package main

// pageReplays are POST /serve/pages/{key} on the demo's page "demo" (the
// Garden department by popularity): json and html, first loads and
// later ones, base filters of every shape, user filters, sorting,
// fields, paging, versions, devices, the visitor (trackingUserId, the
// cookie, a new id), CORS for the demo's own origin, and every error a
// page request can make.
func pageReplays() []replayRequest {
	p := func(name, body string, header ...string) replayRequest {
		return postJSON(name, "/serve/pages/demo", body, header...)
	}
	// listing is a short json page of the request's products, not a first
	// load, so no page view is recorded and no cookie set.
	listing := func(name, params, products string) replayRequest {
		return p(name, `{"url":"https://demo.aisle.shop/c/garden","firstLoad":false,"format":"json","trackingUserId":"replay-pages","params":`+params+`,"products":`+products+`}`)
	}
	const few = `{"start":0,"count":3,"fields":["productNumber","title","brand","price","inStock","hierarchies"]}`
	return []replayRequest{
		p("the README's page", `{"url":"https://shop.example/garden","firstLoad":true,"format":"json","params":{"filters":{"price":{"$lte":50}}},"products":{"start":0,"count":12}}`),
		p("html, not a first load", `{"url":"u","firstLoad":false,"params":{},"products":{"start":0,"count":4}}`, "Cookie: retail_id=replay-page-cookie"),
		p("html, a first load by the cookie's visitor", `{"url":"https://demo.aisle.shop/c/garden","firstLoad":true,"params":{},"products":{"start":0,"count":2}}`, "Cookie: retail_id=replay-page-cookie"),
		p("json first load on a phone", `{"url":"https://demo.aisle.shop/c/garden","firstLoad":true,"format":"json","deviceType":"MOBILE","trackingUserId":"replay-pages","params":{},"products":{"start":0,"count":2,"fields":["productNumber"]}}`),
		p("first load from the demo's own origin", `{"url":"https://demo.aisle.shop/c/garden","firstLoad":true,"format":"json","params":{},"products":{"start":0,"count":1,"fields":["productNumber"]}}`,
			"Origin: http://localhost:0"),
		p("first load from another origin", `{"url":"https://demo.aisle.shop/c/garden","firstLoad":true,"format":"json","params":{},"products":{"start":0,"count":1,"fields":["productNumber"]}}`,
			"Origin: https://elsewhere.example"),
		p("first load behind https", `{"url":"https://demo.aisle.shop/c/garden","firstLoad":true,"format":"json","params":{},"products":{"start":0,"count":1,"fields":["productNumber"]}}`,
			"X-Forwarded-Proto: https"),
		listing("all of the page", `{}`, few),
		listing("page 2", `{}`, `{"start":3,"count":3,"fields":["productNumber","title","brand","price","inStock","hierarchies"]}`),
		listing("past the end", `{}`, `{"start":5000,"count":3}`),
		listing("product numbers only", `{}`, `{"start":0,"count":5,"fields":["productNumber"]}`),
		listing("every field", `{}`, `{"start":0,"count":1}`),
		listing("a brand", `{"filters":{"brand":"Meadowlark"}}`, few),
		listing("brands as a list", `{"filters":{"brand":["Meadowlark","Verdant Co"]}}`, few),
		listing("brands by $in", `{"filters":{"brand":{"$in":["Meadowlark","Verdant Co"]}}}`, few),
		listing("brand by $eq", `{"filters":{"brand":{"$eq":"Meadowlark"}}}`, few),
		listing("a price range", `{"filters":{"price":{"$gte":20,"$lte":40}}}`, few),
		listing("in stock", `{"filters":{"inStock":true}}`, few),
		listing("a category below the page's", `{"filters":{"hierarchies":"Garden$Garden Tools$"}}`, few),
		listing("a category outside the page's", `{"filters":{"hierarchies":"Tools$"}}`, few),
		listing("$or", `{"filters":{"$or":[{"brand":"Meadowlark"},{"price":{"$lte":10}}]}}`, few),
		listing("$and in $or", `{"filters":{"$or":[{"$and":[{"inStock":true},{"isOnSale":true}]},{"price":{"$gte":300}}]}}`, few),
		listing("an empty group", `{"filters":{"$or":[{}]}}`, few),
		listing("user filters on the base", `{"filters":{"inStock":true}}`, `{"start":0,"count":3,"fields":["productNumber","brand","price"],"filters":["price:10,30","isOnSale:true"]}`),
		listing("sorted", `{}`, `{"start":0,"count":4,"fields":["productNumber","price"],"sorting":["price desc"]}`),
		listing("sorted by two", `{}`, `{"start":0,"count":4,"fields":["productNumber","price","created"],"sorting":["created desc","price asc"]}`),
		p("first load with user filters", `{"url":"https://demo.aisle.shop/c/garden?brand=x","firstLoad":true,"format":"json","trackingUserId":"replay-pages","params":{"filters":{"inStock":true}},"products":{"start":0,"count":2,"fields":["productNumber"],"filters":["brand:Meadowlark"]}}`),
		p("draft version", `{"url":"u","id":2,"firstLoad":false,"format":"json","params":{},"products":{"start":0,"count":4,"fields":["productNumber","price","inStock"]}}`),
		p("live version by id", `{"url":"u","id":1,"firstLoad":false,"format":"json","params":{},"products":{"start":0,"count":2,"fields":["productNumber"]}}`),
		p("as text/plain", `{"url":"u","firstLoad":false,"format":"json","params":{},"products":{"start":0,"count":1,"fields":["productNumber"]}}`).withType("text/plain"),
		p("error: unknown version", `{"url":"u","id":9,"firstLoad":false,"params":{},"products":{"start":0,"count":1}}`),
		postJSON("error: unknown page", "/serve/pages/nope", `{"url":"u","firstLoad":false,"params":{},"products":{"start":0,"count":1}}`),
		postJSON("error: unknown page, whatever the body", "/serve/pages/nope", `not json`),
		postJSON("error: no key", "/serve/pages/", `{"url":"u","firstLoad":false,"params":{},"products":{"start":0,"count":1}}`),
		postJSON("error: key with a slash", "/serve/pages/demo/x", `{"url":"u","firstLoad":false,"params":{},"products":{"start":0,"count":1}}`),
		p("error: no url", `{"firstLoad":false,"params":{},"products":{"start":0,"count":1}}`),
		p("error: no firstLoad", `{"url":"u","params":{},"products":{"start":0,"count":1}}`),
		p("error: no params", `{"url":"u","firstLoad":false,"products":{"start":0,"count":1}}`),
		p("error: no products", `{"url":"u","firstLoad":false,"params":{}}`),
		p("error: no count", `{"url":"u","firstLoad":false,"params":{},"products":{"start":0}}`),
		p("error: unknown member", `{"url":"u","firstLoad":false,"params":{},"products":{"start":0,"count":1},"query":"x"}`),
		p("params members other than filters are ignored", `{"url":"u","firstLoad":false,"params":{"sort":"x"},"products":{"start":0,"count":1}}`),
		listing("error: base filter on an unknown field", `{"filters":{"weight":5}}`, few),
		listing("error: base filter with an unknown operator", `{"filters":{"price":{"$gt":5}}}`, few),
		listing("error: $or not a list", `{"filters":{"$or":{"brand":"x"}}}`, few),
		listing("error: a range on a keyword", `{"filters":{"brand":{"$gte":"a"}}}`, few),
		listing("error: nested error named", `{"filters":{"$or":[{"brand":"x"},{"price":"cheap"}]}}`, few),
		listing("error: bad user filter", `{}`, `{"start":0,"count":1,"filters":["price:cheap"]}`),
		listing("error: bad sorting", `{}`, `{"start":0,"count":1,"sorting":["brand asc"]}`),
		p("error: bad format", `{"url":"u","firstLoad":false,"format":"pdf","params":{},"products":{"start":0,"count":1}}`),
		p("error: malformed JSON", `{"url":"u",`),
		p("error: empty body", ``),
		replayRequest{name: "error: GET", method: "GET", path: "/serve/pages/demo"},
		replayRequest{name: "error: xml", method: "POST", path: "/serve/pages/demo", header: []string{"Content-Type: text/xml"}, body: `<page/>`},
	}
}
