package main

import (
	"fmt"
	"strings"
)

// collectReplays are POST /serve/collect/{kind} and the batch route
// POST /serve/collect: every kind, the visitor by trackingUserId, by
// cookie and by a new id (over http and https), bodies the route
// refuses, then the recommendations that read the visitors' collected
// history (RETARGETED, RECENTLY_BOUGHT, BOUGHT_TOGETHER of the cart,
// by email once an event linked it).
func collectReplays() []replayRequest {
	c := func(name, kind, body string, header ...string) replayRequest {
		return postJSON(name, "/serve/collect/"+kind, body, header...)
	}
	batch := func(name, body string, header ...string) replayRequest {
		return postJSON(name, "/serve/collect", body, header...)
	}
	// ev is an event of the English shop: its websiteUuid and members.
	ev := func(members string) string { return `{"websiteUuid":"` + replayShop + `",` + members + `}` }
	// kev is ev with its kind, as a batch holds it.
	kev := func(kind, members string) string { return `{"kind":"` + kind + `",` + ev(members)[1:] }
	const who = `"trackingUserId":"replay-shopper"`
	recoms := func(name, call, request string, header ...string) replayRequest {
		return postJSON(name, "/serve/recoms", `{"websiteUuid":"`+replayShop+`"`+call+`,"requests":[`+request+`]}`, header...)
	}
	src := func(typ string) string {
		return `{"trackingKey":"replay","count":5,"fields":["productNumber","title"],"sources":[{"type":"` + typ + `"}]}`
	}
	out := []replayRequest{
		c("view by number", "view", ev(who+`,"productNumber":"AI-000009"`)),
		c("view by address", "view", ev(who+`,"url":"https://demo.aisle.shop/p/zenitron-grey-true-wireless-earbuds-ai-000005"`)),
		c("view of a number in another spelling", "view", ev(who+`,"productNumber":" ai-000012 "`)),
		c("view of a product not in the catalog", "view", ev(who+`,"productNumber":"NOPE-1"`)),
		c("click from a search", "click", ev(who+`,"productNumber":"AI-000007","shown":{"source":"search","key":"demo","position":2}`)),
		c("click from a box", "click", ev(who+`,"productNumber":"AI-000010","shown":{"source":"recoms","key":"demo-top","position":1}`)),
		c("cart", "cart", ev(who+`,"productNumbers":["AI-000009","AI-000007"]`)),
		c("search", "search", ev(who+`,"query":"wok","results":12`)),
		c("pageview", "pageview", ev(who+`,"url":"https://demo.aisle.shop/c/kitchen"`)),
		c("purchase by numbers", "purchase", ev(who+`,"orderNumber":"REPLAY-1","productNumbers":["AI-000009"]`)),
		c("purchase by lines", "purchase", ev(who+`,"orderNumber":"REPLAY-2","lines":[{"productNumber":"AI-000007","quantity":2,"price":45.99}],"total":91.98`)),
		c("cart after the orders", "cart", ev(who+`,"productNumbers":["AI-000001"]`)),
		c("cart emptied", "cart", ev(`"trackingUserId":"replay-shopper-2","productNumbers":[]`)),
		c("kind in the body as in the path", "view", ev(`"kind":"view",`+who+`,"productNumber":"AI-000001"`)),
		c("as text/plain, a beacon", "view", ev(who+`,"productNumber":"AI-000002"`)).withType("text/plain;charset=UTF-8"),
		c("the cookie's visitor", "view", ev(`"productNumber":"AI-000002"`), "Cookie: retail_id=replay-cookie-visitor"),
		c("the trackingUserId over the cookie", "view", ev(`"trackingUserId":"replay-shopper-3","productNumber":"AI-000003"`), "Cookie: retail_id=replay-cookie-visitor"),
		c("a new visitor", "view", ev(`"productNumber":"AI-000004"`)),
		c("another new visitor", "cart", ev(`"productNumbers":["AI-000004"]`)),
		c("a new visitor over https", "view", ev(`"productNumber":"AI-000004"`), "X-Forwarded-Proto: https"),
		c("a new visitor from the demo's own origin", "view", ev(`"productNumber":"AI-000004"`), "Origin: http://127.0.0.1:0"),
		c("a cookie that is no id, replaced", "view", ev(`"productNumber":"AI-000004"`), "Cookie: retail_id="+strings.Repeat("x", 300)),
		c("an email linked", "purchase", ev(`"trackingUserId":"replay-buyer","email":"Buyer@Example.com","orderNumber":"REPLAY-3","productNumbers":["AI-000010"]`)),
		c("a customer id linked with the admin key", "view", ev(`"trackingUserId":"replay-buyer","customerId":"C-77","productNumber":"AI-000011"`), "Authorization: Bearer "+replayAdminKey),
		c("the Danish shop", "view", `{"websiteUuid":"`+replayButik+`",`+who+`,"productNumber":"DK-00001"}`),
		batch("a batch", `{"events":[`+
			kev("view", `"trackingUserId":"replay-batch","productNumber":"AI-000020"`)+`,`+
			kev("view", `"trackingUserId":"replay-batch","productNumber":"AI-000021"`)+`,`+
			kev("cart", `"trackingUserId":"replay-batch","productNumbers":["AI-000021"]`)+`]}`),
		batch("a batch of a new visitor", `{"events":[`+kev("view", `"productNumber":"AI-000022"`)+`,`+kev("view", `"productNumber":"AI-000023"`)+`]}`),
		batch("a batch of the cookie's visitor", `{"events":[`+kev("view", `"productNumber":"AI-000024"`)+`]}`, "Cookie: retail_id=replay-cookie-visitor"),
		batch("a batch of two websites", `{"events":[`+kev("view", `"trackingUserId":"replay-batch","productNumber":"AI-000025"`)+`,`+
			`{"kind":"view","websiteUuid":"`+replayButik+`","trackingUserId":"replay-batch","productNumber":"DK-00002"}]}`),
		batch("a batch of 500", `{"events":[`+repeatJoin(`{"kind":"pageview","websiteUuid":"`+replayShop+`","trackingUserId":"replay-batch","url":"https://demo.aisle.shop/"}`, 500)+`]}`),
	}
	out = append(out,
		recoms("the shopper's views", `,"trackingUserId":"replay-shopper"`, src("RETARGETED")),
		recoms("the shopper's purchases", `,"trackingUserId":"replay-shopper"`, src("RECENTLY_BOUGHT")),
		recoms("bought with the shopper's cart", `,"trackingUserId":"replay-shopper"`, src("BOUGHT_TOGETHER")),
		recoms("the cookie's visitor's views", "", src("RETARGETED"), "Cookie: retail_id=replay-cookie-visitor"),
		recoms("the batch's views", `,"trackingUserId":"replay-batch"`, src("RETARGETED")),
		recoms("the buyer by email, with the admin key", `,"email":" buyer@example.com"`, src("RECENTLY_BOUGHT"), "Authorization: Bearer "+replayAdminKey),
		recoms("the buyer by customer id, with the admin key", `,"customerId":"C-77"`, src("RETARGETED"), "Authorization: Bearer "+replayAdminKey),
		recoms("error: the buyer by email, without a key", `,"email":"buyer@example.com"`, src("RECENTLY_BOUGHT")),
	)
	out = append(out,
		c("error: impression", "impression", ev(who+`,"productNumber":"AI-000001"`)),
		c("error: unknown kind", "like", ev(who+`,"productNumber":"AI-000001"`)),
		c("error: no kind", "", ev(who+`,"productNumber":"AI-000001"`)),
		c("error: kind in the body differs", "view", ev(`"kind":"cart",`+who+`,"productNumber":"AI-000001"`)),
		c("error: view of nothing", "view", ev(who)),
		c("error: a member of another kind", "view", ev(who+`,"productNumber":"AI-000001","orderNumber":"X"`)),
		c("error: unknown member", "view", ev(who+`,"productNumber":"AI-000001","colour":"red"`)),
		c("error: click without shown", "click", ev(who+`,"productNumber":"AI-000001"`)),
		c("error: click shown from nowhere", "click", ev(who+`,"productNumber":"AI-000001","shown":{"source":"email","key":"x","position":1}`)),
		c("error: purchase without order number", "purchase", ev(who+`,"productNumbers":["AI-000001"]`)),
		c("error: purchase with numbers and lines", "purchase", ev(who+`,"orderNumber":"X","productNumbers":["AI-000001"],"lines":[{"productNumber":"AI-000001","quantity":1,"price":1}]`)),
		c("error: a client's emailHash", "view", ev(who+`,"productNumber":"AI-000001","emailHash":12`)),
		c("error: email and a wrong key", "view", ev(who+`,"email":"a@example.com","productNumber":"AI-000001"`), "Authorization: Bearer wrong"),
		c("error: no website", "view", `{`+who+`,"productNumber":"AI-000001"}`),
		c("error: unknown website", "view", `{"websiteUuid":"00000000-0000-4000-8000-0000000000ff",`+who+`,"productNumber":"AI-000001"}`),
		c("error: id over 256 bytes", "view", ev(`"trackingUserId":"`+strings.Repeat("u", 257)+`","productNumber":"AI-000001"`)),
		c("error: wrong type", "view", ev(who+`,"productNumber":true`)),
		c("error: malformed JSON", "view", `{"websiteUuid":`),
		c("error: empty body", "view", ``),
		c("error: over 64 KiB", "view", ev(who+`,"productNumber":"AI-000001","url":"`+strings.Repeat("u", 64<<10)+`"`)),
		batch("error: a bad event named", `{"events":[`+kev("view", who+`,"productNumber":"AI-000001"`)+`,`+kev("purchase", who+`,"productNumbers":["AI-000001"]`)+`]}`),
		batch("error: an impression in a batch", `{"events":[`+kev("impression", who+`,"productNumber":"AI-000001"`)+`]}`),
		batch("error: an event without kind", `{"events":[`+ev(who+`,"productNumber":"AI-000001"`)+`]}`),
		batch("error: a batch of an unknown website", `{"events":[{"kind":"view","websiteUuid":"00000000-0000-4000-8000-0000000000ff",`+who+`,"productNumber":"AI-000001"}]}`),
		batch("error: no events", `{"events":[]}`),
		batch("error: 501 events", `{"events":[`+repeatJoin(`{"kind":"pageview","websiteUuid":"`+replayShop+`","trackingUserId":"replay-batch","url":"https://demo.aisle.shop/"}`, 501)+`]}`),
		batch("error: not a batch", `[{"kind":"view"}]`),
		replayRequest{name: "error: GET", method: "GET", path: "/serve/collect/view"},
		replayRequest{name: "error: GET the batch route", method: "GET", path: "/serve/collect"},
		c("error: xml", "view", `<view/>`).withType("application/xml"),
		recoms("nothing of the refused events", `,"trackingUserId":"replay-shopper"`, src("RETARGETED")),
	)
	// The bodies over 64 KiB and of 500 events are not worth reading.
	for i, r := range out {
		if len(r.body) > 4096 {
			out[i].show = fmt.Sprintf("(%d bytes: %.160s…)", len(r.body), r.body)
		}
	}
	return out
}

// repeatJoin is n copies of s, comma-separated.
func repeatJoin(s string, n int) string {
	return strings.TrimSuffix(strings.Repeat(s+",", n), ",")
}
