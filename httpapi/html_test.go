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
