package main

import (
	"fmt"
	"strings"
)

// recomReplays are POST /serve/recoms on the demo's generated behaviour:
// its managed boxes (json and html, with and without context, their
// fields and devices), unmanaged requests of every source type with
// limits, filters and context (by number, by address, $context values),
// the visitor by trackingUserId and by cookie, several requests in one
// call, and every error of a call or of one of its responses.
func recomReplays() []replayRequest {
	r := func(name, body string, header ...string) replayRequest {
		return postJSON(name, "/serve/recoms", body, header...)
	}
	// on is a call of one unmanaged request on website; call adds
	// members to the call.
	on := func(website, name, call, request string, header ...string) replayRequest {
		return r(name, `{"websiteUuid":"`+website+`"`+call+`,"requests":[`+request+`]}`, header...)
	}
	one := func(name, call, request string, header ...string) replayRequest {
		return on(replayShop, name, call, request, header...)
	}
	const fields = `"fields":["productNumber","title","brand","price","inStock"]`
	source := func(typ string) string {
		return `{"trackingKey":"replay-` + strings.ReplaceAll(strings.ToLower(typ), "_", "-") + `","count":4,` + fields + `,"sources":[{"type":"` + typ + `"}]}`
	}
	withContext := func(typ, context string) string {
		return `{"trackingKey":"replay","count":4,` + fields + `,"context":` + context + `,"sources":[{"type":"` + typ + `"}]}`
	}
	out := []replayRequest{
		r("the README's boxes", `{"websiteUuid":"`+replayShop+`","requests":[{"key":"demo-top"},{"key":"demo-alternatives","context":{"productNumbers":["AI-000001"]}}]}`),
		r("a box without websiteUuid", `{"requests":[{"key":"demo-top"}]}`),
		r("every box, no product twice", `{"requests":[{"key":"demo-top"},{"key":"demo-alternatives","context":{"productNumbers":["AI-000004"]}},{"key":"demo-bought-together","context":{"productNumbers":["AI-000004"]}}]}`),
		r("a box in html", `{"requests":[{"key":"demo-bought-together","format":"html","context":{"productNumbers":["AI-000002"]}}]}`),
		r("a box's fields replaced", `{"requests":[{"key":"demo-top","fields":["productNumber","extraData.color"]}]}`),
		r("a box on a phone", `{"requests":[{"key":"demo-top","deviceType":"MOBILE"}]}`),
		r("error: alternatives without context", `{"requests":[{"key":"demo-alternatives"}]}`),
		r("alternatives by address", `{"requests":[{"key":"demo-alternatives","context":{"urls":["https://demo.aisle.shop/p/zenitron-grey-true-wireless-earbuds-ai-000005"]}}]}`),
		r("alternatives by address, another host and a slash", `{"requests":[{"key":"demo-alternatives","context":{"urls":["http://www.example/p/zenitron-grey-true-wireless-earbuds-ai-000005/?utm=x"]}}]}`),
		r("a context product not in the catalog", `{"requests":[{"key":"demo-alternatives","context":{"productNumbers":["NOPE-1"]}}]}`),
		r("the box's websiteUuid given", `{"websiteUuid":"`+replayShop+`","requests":[{"key":"demo-top","fields":["productNumber"]}]}`),
		r("error: a box of another website", `{"requests":[{"key":"demo-top","fields":["productNumber"]}],"websiteUuid":"`+replayButik+`"}`),
	}
	for _, typ := range []string{"TOP", "MOST_BOUGHT", "MOST_VIEWED"} {
		out = append(out,
			one("source "+typ, "", source(typ)),
			on(replayButik, "source "+typ+" for the Danish shop", "", source(typ)),
		)
	}
	for _, typ := range []string{"ALTERNATIVES", "BOUGHT_TOGETHER"} {
		out = append(out,
			one("source "+typ+" of one product", "", withContext(typ, `{"productNumbers":["AI-000009"]}`)),
			one("source "+typ+" of two products", "", withContext(typ, `{"productNumbers":["AI-000002","AI-000005"]}`)),
			one("source "+typ+" by address", "", withContext(typ, `{"urls":["https://demo.aisle.shop/p/copperleaf-stainless-steel-wok-set-ai-000009"]}`)),
			one("error: source "+typ+" without context", "", source(typ)),
		)
	}
	for _, typ := range []string{"RETARGETED", "RECENTLY_BOUGHT"} {
		out = append(out,
			one("source "+typ+" of a demo visitor", `,"trackingUserId":"demo-visitor-0007"`, source(typ)),
			one("source "+typ+" of another demo visitor", `,"trackingUserId":"demo-visitor-0042"`, source(typ)),
			one("source "+typ+" of the cookie's visitor", "", source(typ), "Cookie: retail_id=demo-visitor-0007"),
			one("source "+typ+" of an unknown visitor", `,"trackingUserId":"replay-nobody"`, source(typ)),
			one("error: source "+typ+" without a visitor", "", source(typ)),
		)
	}
	sources := func(name, srcs string) replayRequest {
		return one("sources "+name, `,"trackingUserId":"demo-visitor-0007"`,
			`{"trackingKey":"replay","count":6,`+fields+`,"context":{"productNumbers":["AI-000009"],"brand":"Copperleaf","hierarchies":[["Kitchen","Cookware"]]},"sources":`+srcs+`}`)
	}
	out = append(out,
		sources("in order with limits", `[{"type":"RETARGETED","limit":2},{"type":"ALTERNATIVES","limit":2},{"type":"TOP"}]`),
		sources("a brand", `[{"type":"TOP","filters":{"brand":"Zenitron"}}]`),
		sources("a brand by $eq", `[{"type":"TOP","filters":{"brand":{"$eq":"Zenitron"}}}]`),
		sources("brands by $in", `[{"type":"MOST_VIEWED","filters":{"brand":{"$in":["Zenitron","Peakform"]}}}]`),
		sources("colours by $all", `[{"type":"TOP","filters":{"extraData.color":{"$all":["White"]}}}]`),
		sources("a price range", `[{"type":"TOP","filters":{"price":"20,60"}}]`),
		sources("out of stock asked for", `[{"type":"TOP","filters":{"inStock":false}}]`),
		sources("a category", `[{"type":"MOST_BOUGHT","filters":{"hierarchies":"Kitchen$"}}]`),
		sources("the context's brand", `[{"type":"TOP","filters":{"brand":"$context.brand"}}]`),
		sources("the context's category", `[{"type":"TOP","filters":{"hierarchies":"$context.hierarchies"}}]`),
		sources("several filters", `[{"type":"TOP","filters":{"inStock":true,"isOnSale":true,"price":"0,30"}}]`),
		one("additional variants kept", "", `{"trackingKey":"replay","count":6,"hideAdditionalVariants":false,"fields":["productNumber","groupingKey"],"sources":[{"type":"TOP","filters":{"hierarchies":"Kitchen$"}}]}`),
		one("additional variants hidden", "", `{"trackingKey":"replay","count":6,"fields":["productNumber","groupingKey"],"sources":[{"type":"TOP","filters":{"hierarchies":"Kitchen$"}}]}`),
		one("every field", "", `{"trackingKey":"replay","count":1,"sources":[{"type":"TOP"}]}`),
		one("on a phone", "", `{"trackingKey":"replay","count":2,"deviceType":"MOBILE","fields":["productNumber"],"sources":[{"type":"TOP"}]}`),
		one("as text/plain", "", `{"trackingKey":"replay","count":2,"fields":["productNumber"],"sources":[{"type":"MOST_BOUGHT"}]}`).withType("text/plain"),
		r("managed and unmanaged in one call", `{"websiteUuid":"`+replayShop+`","requests":[{"key":"demo-top","fields":["productNumber"]},`+source("MOST_BOUGHT")+`]}`),
	)
	ten := strings.TrimSuffix(strings.Repeat(`{"key":"demo-top","fields":["productNumber"]},`, 10), ",")
	out = append(out,
		r("ten requests", `{"requests":[`+ten+`]}`),
		r("error: eleven requests", `{"requests":[`+ten+`,{"key":"demo-top"}]}`),
		r("error: unknown box", `{"requests":[{"key":"nope"},{"key":"demo-top","fields":["productNumber"]}]}`),
		one("error: unknown source", "", `{"trackingKey":"replay","count":2,"sources":[{"type":"BEST"}]}`),
		one("error: count 0", "", `{"trackingKey":"replay","count":0,"sources":[{"type":"TOP"}]}`),
		one("error: count 101", "", `{"trackingKey":"replay","count":101,"sources":[{"type":"TOP"}]}`),
		one("error: no sources", "", `{"trackingKey":"replay","count":2}`),
		one("error: a bad trackingKey", "", `{"trackingKey":"replay key!","count":2,"sources":[{"type":"TOP"}]}`),
		one("error: a filter on a field not indexed", "", `{"trackingKey":"replay","count":2,"sources":[{"type":"TOP","filters":{"description":"x"}}]}`),
		one("error: a filter's operator", "", `{"trackingKey":"replay","count":2,"sources":[{"type":"TOP","filters":{"brand":{"$ne":"x"}}}]}`),
		one("error: $in not a list", "", `{"trackingKey":"replay","count":2,"sources":[{"type":"TOP","filters":{"brand":{"$in":"x"}}}]}`),
		one("error: eleven sources", "", `{"trackingKey":"replay","count":2,"sources":[`+strings.TrimSuffix(strings.Repeat(`{"type":"TOP"},`, 11), ",")+`]}`),
		one("error: 51 context products", "", withContext("ALTERNATIVES", `{"productNumbers":[`+numbers(51)+`]}`)),
		r("error: unmanaged without websiteUuid", `{"requests":[`+source("TOP")+`]}`),
		r("error: unknown website", `{"websiteUuid":"00000000-0000-4000-8000-0000000000ff","requests":[`+source("TOP")+`]}`),
		r("error: not a website id", `{"websiteUuid":"shop","requests":[`+source("TOP")+`]}`),
		one("error: trackingUserId and email", `,"trackingUserId":"a","email":"a@example.com"`, source("TOP")),
		one("error: email without a key", `,"email":"a@example.com"`, source("RETARGETED")),
		one("error: customerId with a wrong key", `,"customerId":"c-1"`, source("RETARGETED"), "Authorization: Bearer wrong"),
		one("error: an email no event linked, with the admin key", `,"email":"nobody@example.com"`, source("RETARGETED"), "Authorization: Bearer "+replayAdminKey),
		r("error: no requests", `{"websiteUuid":"`+replayShop+`"}`),
		r("error: empty requests", `{"websiteUuid":"`+replayShop+`","requests":[]}`),
		r("error: unknown member", `{"websiteUuid":"`+replayShop+`","requests":[{"key":"demo-top"}],"user":"x"}`),
		r("error: malformed JSON", `{"requests":[`),
		r("error: empty body", ``),
		replayRequest{name: "error: GET", method: "GET", path: "/serve/recoms"},
		replayRequest{name: "error: xml", method: "POST", path: "/serve/recoms", header: []string{"Content-Type: application/xml"}, body: `<recoms/>`},
	)
	return out
}

// numbers is n demo product numbers as a JSON list's members.
func numbers(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"AI-%06d"`, i+1)
	}
	return b.String()
}
