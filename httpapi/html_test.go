package httpapi

import (
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/config"
)

// TestHTMLEscapesProductData: product data is untrusted. A title holding
// a script comes out escaped from every kind's html: a search's, a
// recommendation box's (pages: TestPageHTML), default templates and
// the shop's own.
func TestHTMLEscapesProductData(t *testing.T) {
	const evil = `Claw <script>alert("x")</script> hammer`
	const escaped = `Claw &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; hammer`
	w := pagesSite()
	w.Search = append(w.Search, config.SearchConfig{Key: "own", Versions: []config.SearchVersion{{ID: 1, Status: config.StatusLive,
		Fields: []config.SearchField{{Name: "title", Weight: 1}}, Template: `{{range .Products}}<b title="{{index . "title"}}">{{index . "title"}}</b>{{end}}`}}})
	w.Boxes = []config.Box{
		{Key: "alt", Count: 4, Format: "html", Sources: []config.BoxSource{{Type: "ALTERNATIVES"}}},
		{Key: "alt-own", Count: 4, Format: "html", Sources: []config.BoxSource{{Type: "ALTERNATIVES"}},
			Template: `{{range .Products}}<i data-t="{{index . "title"}}">{{index . "title"}}</i>{{end}}`},
	}
	products := hardware()
	products[1].Title = evil
	url := serveShop(t, w, products, nil, Options{})
	for _, key := range []string{"shop", "own"} {
		r := searchOK(t, url, `{"query":"hammer","key":"`+key+`","format":"html","products":{"count":5}}`)
		html, _ := r.get("html").(string)
		if strings.Contains(html, "<script>") || !strings.Contains(html, escaped) {
			t.Errorf("search %s: %s", key, html)
		}
	}
	for _, key := range []string{"alt", "alt-own"} {
		status, _, raw := send(t, "POST", url+"/serve/recoms", "application/json",
			`{"websiteUuid":"`+shopUUID+`","requests":[{"key":"`+key+`","context":{"productNumbers":["P02"]}}]}`)
		var res struct{ Responses []struct{ HTML string } }
		if err := json.Unmarshal(raw, &res); status != 200 || err != nil || len(res.Responses) != 1 {
			t.Fatalf("box %s: %d %s", key, status, raw)
		}
		if html := res.Responses[0].HTML; strings.Contains(html, "<script>") || !strings.Contains(html, escaped) {
			t.Errorf("box %s: %s", key, html)
		}
	}
}

// TestHTMLStyleScriptAndFailures: a search version's and a box's style
// and javascript go around their html (the spec's answer has only html);
// a search template failing while it renders (on one query: one failing
// on the sample data is refused with the configuration) is a 500
// TEMPLATE_ERROR naming the failure, with no half page.
func TestHTMLStyleScriptAndFailures(t *testing.T) {
	w := pagesSite()
	w.Search[0].Versions[0].Style, w.Search[0].Versions[0].JavaScript = "b{}", "go()"
	w.Search = append(w.Search, config.SearchConfig{Key: "broken", Versions: []config.SearchVersion{{ID: 1, Status: config.StatusLive,
		Fields: []config.SearchField{{Name: "title", Weight: 1}}, Template: `<ul>{{range .Products}}<li>{{index . "title"}}</li>{{end}}</ul>{{if eq .Query "hammer"}}{{index .Products 99}}{{end}}`}}})
	w.Boxes = []config.Box{{Key: "alt", Count: 2, Format: "html", Style: ".r{}", Sources: []config.BoxSource{{Type: "ALTERNATIVES"}}}}
	url := serveShop(t, w, hardware(), nil, Options{})
	html, _ := searchOK(t, url, `{"query":"hammer","key":"shop","format":"html","products":{"count":2}}`).get("html").(string)
	if !strings.HasPrefix(html, "<style>b{}</style><div") || !strings.HasSuffix(html, "</div><script>go()</script>") {
		t.Errorf("search html: %s", html)
	}
	status, _, raw := send(t, "POST", url+"/serve/recoms", "application/json", `{"websiteUuid":"`+shopUUID+`","requests":[{"key":"alt","context":{"productNumbers":["P02"]}}]}`)
	var res struct{ Responses []struct{ HTML string } }
	if err := json.Unmarshal(raw, &res); status != 200 || err != nil || !strings.HasPrefix(res.Responses[0].HTML, "<style>.r{}</style><div") {
		t.Errorf("box html: %d %s", status, raw)
	}
	r := post(t, url, "application/json", `{"query":"hammer","key":"broken","format":"html","products":{"count":2}}`)
	if r.status != 500 || r.get("error", "code") != "TEMPLATE_ERROR" || !strings.Contains(r.raw, "index out of range") || strings.Contains(r.raw, "<ul>") {
		t.Errorf("a search template failing: %d %s", r.status, r.raw)
	}
}
