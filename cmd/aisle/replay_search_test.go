package main

import "strings"

// searchReplays are POST /serve/search on the demo as generated: words,
// typos, synonyms and redirects, filters, facets, sorting, paging, json
// and html, content types, versions and devices, the Danish website, and
// every error a search body can make.
func searchReplays() []replayRequest {
	s := func(name, body string, header ...string) replayRequest {
		return postJSON(name, "/serve/search", body, header...)
	}
	// few keeps a page of products short: three of them, a few fields.
	const few = `"count":3,"fields":["productNumber","title","brand","price"]`
	var out []replayRequest
	for _, q := range []string{"*", "", "   ", "cordless drill", "drill", "lamp", "coffee maker", "headphones", "wireless earbuds",
		"stainless steel", "Stahlmann", "stahlmann pliers", "yoga mat", "hiking backpack", "white", "20v", "u3500", "100-piece",
		"frying pan cast iron", "sweater merino", "toaster deluxe grey", "the lamp with a shade", "zzqxv", "drill zzqxv", "ai-000003", "AI-000004",
		"g-000003"} {
		out = append(out, s("query "+quote(q), `{"query":`+quote(q)+`,"key":"demo","products":{`+few+`}}`))
	}
	for _, q := range []string{"dri", "drill ", "lamps", "lighting", "headphone", "cordles drill", "hedphones", "celing lamp", "toastr",
		"couch", "sofa", "tv", "television", "bbq", "grill", "jumper", "trainers", "rucksack", "notebook", "spanner", "hoodie", "lawnmower", "lawn mower"} {
		out = append(out, s("route "+quote(q), `{"query":`+quote(q)+`,"key":"demo","products":{`+few+`}}`))
	}
	for _, q := range []string{"returns", "return policy", "gift card", "shipping", "size chart"} {
		out = append(out, s("redirect "+quote(q), `{"query":`+quote(q)+`,"key":"demo","products":{"count":2,"fields":["title"]},"redirects":{"count":3}}`))
	}
	out = append(out,
		s("all fields of one product", `{"query":"pliers","key":"demo","products":{"count":1}}`),
		s("dotted fields", `{"query":"lamp","key":"demo","products":{"count":3,"fields":["productNumber","extraData.color","extraData.material","score","hierarchies"]}}`),
		s("only productNumber", `{"query":"lamp","key":"demo","products":{"count":3,"fields":["productNumber"]}}`),
		s("a field no product has", `{"query":"lamp","key":"demo","products":{"count":2,"fields":["productNumber","nosuchfield"]}}`),
		s("page 1", `{"query":"*","key":"demo","products":{"start":0,"count":4,"fields":["productNumber"]}}`),
		s("page 2", `{"query":"*","key":"demo","products":{"start":4,"count":4,"fields":["productNumber"]}}`),
		s("page past the end", `{"query":"drill","key":"demo","products":{"start":500,"count":4,"fields":["productNumber"]}}`),
		s("count 0", `{"query":"drill","key":"demo","products":{"count":0}}`),
		s("last allowed window", `{"query":"*","key":"demo","products":{"start":99000,"count":1000,"fields":["productNumber"]}}`),
	)
	filter := func(name, q, filters string) replayRequest {
		return s(name, `{"query":`+quote(q)+`,"key":"demo","products":{"count":3,"fields":["productNumber","title","brand","price","inStock","created"],"filters":`+filters+`}}`)
	}
	out = append(out,
		filter("filter brand", "*", `["brand:Zenitron"]`),
		filter("filter brand folded", "*", `["brand:lumiere atelier"]`),
		filter("filter brand unknown value", "*", `["brand:Nobody"]`),
		filter("filter two brands", "*", `["brand:Zenitron","brand:Peakform"]`),
		filter("filter price range", "lamp", `["price:10,50"]`),
		filter("filter price open below", "*", `["price:,9"]`),
		filter("filter price open above", "*", `["price:400,"]`),
		filter("filter price exact", "*", `["price:10.99"]`),
		filter("filter in stock", "coffee maker", `["inStock:true"]`),
		filter("filter out of stock", "coffee maker", `["inStock:false"]`),
		filter("filter on sale", "headphones", `["isOnSale:true"]`),
		filter("filter category", "*", `["hierarchies:Kitchen$Cookware$"]`),
		filter("filter department", "grey", `["hierarchies:Garden$"]`),
		filter("filter colour", "*", `["extraData.color:White","brand:Maison Fontaine"]`),
		filter("filter created dates", "*", `["created:2026-01-01,2026-03-31"]`),
		filter("filter created unix seconds", "*", `["created:1767225600,"]`),
		filter("filter rating", "*", `["extraDataNumber.rating:4.5,"]`),
		filter("error: filter unknown field", "*", `["weight:5"]`),
		filter("error: filter not indexed field", "*", `["description:good"]`),
		filter("error: filter no colon", "*", `["brand"]`),
		filter("error: filter bad range", "*", `["price:cheap,dear"]`),
		filter("error: filter bad boolean", "*", `["inStock:maybe"]`),
		filter("error: filter bad date", "*", `["created:yesterday,"]`),
	)
	facets := func(name, body string) replayRequest { return s("facets "+name, body) }
	out = append(out,
		facets("wildcard on a phone", `{"query":"*","key":"demo","deviceType":"MOBILE","products":{"count":2,"fields":["productNumber"],"returnFilters":true}}`),
		facets("lamp", `{"query":"lamp","key":"demo","products":{"count":2,"fields":["productNumber"],"returnFilters":true}}`),
		facets("lamp, a brand chosen", `{"query":"lamp","key":"demo","products":{"count":2,"fields":["productNumber"],"returnFilters":true,"filters":["brand:Lumière Atelier"]}}`),
		facets("lamp, a brand chosen, siblings excluded", `{"query":"lamp","key":"demo","products":{"count":2,"fields":["productNumber"],"returnFilters":true,"filters":["brand:Lumière Atelier"],"excludeSiblingFilters":["brand"]}}`),
		facets("drill, a category chosen", `{"query":"drill","key":"demo","deviceType":"MOBILE","products":{"count":2,"fields":["productNumber"],"returnFilters":true,"filters":["hierarchies:Tools$Power Tools$"]}}`),
		facets("price range chosen", `{"query":"headphones","key":"demo","deviceType":"MOBILE","products":{"count":2,"fields":["productNumber"],"returnFilters":true,"filters":["price:50,150"]}}`),
		facets("nothing found", `{"query":"zzqxv","key":"demo","products":{"count":2,"returnFilters":true}}`),
		facets("draft version", `{"query":"sweater","key":"demo","id":2,"deviceType":"MOBILE","products":{"count":2,"fields":["productNumber","title"],"returnFilters":true}}`),
	)
	sort := func(name, q, sorting string) replayRequest {
		return s(name, `{"query":`+quote(q)+`,"key":"demo","products":{"count":4,"fields":["productNumber","title","price","created","extraDataNumber.rating"],"sorting":`+sorting+`}}`)
	}
	out = append(out,
		sort("sort price asc", "lamp", `["price asc"]`),
		sort("sort price desc", "lamp", `["price desc"]`),
		sort("sort price default order", "lamp", `["price"]`),
		sort("sort newest", "*", `["created desc"]`),
		sort("sort title", "*", `["title asc"]`),
		sort("sort rating then price", "headphones", `["extraDataNumber.rating desc","price asc"]`),
		sort("error: sort unknown field", "*", `["weight asc"]`),
		sort("error: sort not sortable", "*", `["brand asc"]`),
		sort("error: sort bad order", "*", `["price sideways"]`),
	)
	out = append(out,
		s("html", `{"query":"toaster","key":"demo","format":"html","products":{"count":2}}`),
		s("html with facets", `{"query":"yoga mat","key":"demo","format":"html","deviceType":"MOBILE","products":{"count":2,"returnFilters":true}}`),
		s("html nothing found", `{"query":"zzqxv","key":"demo","format":"html","products":{"count":2}}`),
		s("json by name", `{"query":"wok","key":"demo","format":"json","products":{"count":1,"fields":["title"]}}`),
		s("error: bad format", `{"query":"wok","key":"demo","format":"xml","products":{"count":1}}`),
		s("initial content asked", `{"query":"drill","key":"demo","products":{"count":2,"fields":["productNumber"],"returnInitialContent":true}}`),
		s("initial content when nothing found", `{"query":"zzqxv","key":"demo","products":{"count":2,"fields":["productNumber","price","extraDataNumber.rating"]}}`),
		s("content of every kind", `{"query":"garden","key":"demo","products":{"count":1,"fields":["title"]},"categories":{"count":2},"brands":{"count":2},"sitePages":{"count":2},"blogPosts":{"count":2,"fields":["title","url"]}}`),
		s("content alone", `{"query":"drills","key":"demo","categories":{"count":3,"fields":["title","hierarchy"]}}`),
		s("content filtered", `{"query":"*","key":"demo","categories":{"count":3,"fields":["title"],"filters":["hierarchy:Tools$"]}}`),
		s("content paged", `{"query":"*","key":"demo","brands":{"start":10,"count":3,"fields":["title"]}}`),
		s("draft version", `{"query":"merino","key":"demo","id":2,"products":{`+few+`}}`),
		s("live version by id", `{"query":"merino","key":"demo","id":1,"products":{`+few+`}}`),
		s("on a phone", `{"query":"boots","key":"demo","deviceType":"MOBILE","products":{`+few+`}}`),
		s("tracking user and retail media flag", `{"query":"boots","key":"demo","trackingUserId":"replay-visitor","includeRetailMediaInReview":true,"products":{`+few+`}}`),
		s("as text/plain", `{"query":"wok","key":"demo","products":{"count":1,"fields":["title"]}}`).withType("text/plain;charset=UTF-8"),
		s("with a bearer the website does not need", `{"query":"wok","key":"demo","products":{"count":1,"fields":["title"]}}`, "Authorization: Bearer whatever"),
		s("Danish", `{"query":"sofabord","key":"demo-da","products":{`+few+`}}`),
		s("Danish plural", `{"query":"sofaborde","key":"demo-da","products":{`+few+`}}`),
		s("Danish facets", `{"query":"*","key":"demo-da","products":{"count":1,"fields":["title"],"returnFilters":true}}`),
		s("English word in the Danish shop", `{"query":"cordless","key":"demo-da","products":{`+few+`}}`),
	)
	out = append(out,
		s("error: unknown key", `{"query":"drill","key":"nope","products":{"count":1}}`),
		s("error: unknown version", `{"query":"drill","key":"demo","id":99,"products":{"count":1}}`),
		s("error: no key", `{"query":"drill","products":{"count":1}}`),
		s("error: no query", `{"key":"demo","products":{"count":1}}`),
		s("error: no count", `{"query":"drill","key":"demo","products":{}}`),
		s("error: count over 1000", `{"query":"drill","key":"demo","products":{"count":1001}}`),
		s("error: negative start", `{"query":"drill","key":"demo","products":{"start":-1,"count":1}}`),
		s("error: window past 100000", `{"query":"drill","key":"demo","products":{"start":99999,"count":2}}`),
		s("error: unknown member", `{"query":"drill","key":"demo","prodcts":{"count":1}}`),
		s("error: unknown nested member", `{"query":"drill","key":"demo","products":{"count":1,"sort":["price"]}}`),
		s("error: wrong type", `{"query":"drill","key":"demo","products":{"count":"ten"}}`),
		s("error: query not a string", `{"query":5,"key":"demo","products":{"count":1}}`),
		s("error: malformed JSON", `{"query":"drill","key":"demo",`),
		s("error: two values", `{"query":"drill","key":"demo","products":{"count":1}} {}`),
		s("error: an array", `[1,2]`),
		s("error: empty body", ``),
		s("error: bad device", `{"query":"drill","key":"demo","deviceType":"TABLET","products":{"count":1}}`),
		s("error: query over 512 bytes", `{"query":"`+strings.Repeat("drill ", 90)+`","key":"demo","products":{"count":1}}`),
		s("error: 101 filters", `{"query":"*","key":"demo","products":{"count":1,"filters":[`+strings.TrimSuffix(strings.Repeat(`"brand:A",`, 101), ",")+`]}}`),
		s("error: content count missing", `{"query":"drill","key":"demo","brands":{}}`),
		replayRequest{name: "error: xml", method: "POST", path: "/serve/search", header: []string{"Content-Type: application/xml"}, body: `<query>drill</query>`},
		replayRequest{name: "error: form", method: "POST", path: "/serve/search", header: []string{"Content-Type: application/x-www-form-urlencoded"}, body: `query=drill`},
		replayRequest{name: "no content type", method: "POST", path: "/serve/search", body: `{"query":"wok","key":"demo","products":{"count":1,"fields":["title"]}}`},
		replayRequest{name: "error: GET", method: "GET", path: "/serve/search"},
		replayRequest{name: "error: PUT", method: "PUT", path: "/serve/search", header: []string{"Content-Type: application/json"}, body: `{"query":"drill","key":"demo","products":{"count":1}}`},
		replayRequest{name: "error: body over 1 MiB", method: "POST", path: "/serve/search", header: []string{"Content-Type: application/json"},
			body: `{"query":"` + strings.Repeat("x", 1<<20) + `","key":"demo","products":{"count":1}}`, show: `{"query":"xxx… (1 MiB of x)","key":"demo","products":{"count":1}}`},
	)
	return out
}

// quote is s as a JSON string.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
