package httpapi

import (
	"testing"

	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/engine"
)

func FuzzSearchBody(f *testing.F) {
	for _, s := range []string{
		`{"query":"lamp","key":"demo","products":{"count":5,"returnFilters":true,"filters":["brand:Nordlys","price:1,100"],"sorting":["price desc"]}}`,
		`{"query":"*","key":"demo","products":{"count":0,"start":99999},"categories":{"count":3},"redirects":{"count":1},"format":"html"}`,
		`{"query":"gift card","key":"demo","id":2,"deviceType":"MOBILE","products":{"count":1,"fields":["extraData.size","title"],"excludeSiblingFilters":["brand"]}}`,
		`{"query":`, `[]`, `null`, `{"query":"x","key":"demo","products":{"count":-1}}`, "\xff\xfe",
	} {
		f.Add([]byte(s))
	}
	cfg := demo.Config()
	g, err := engine.Build(&cfg.Websites[0], analysis.English, engine.Source{
		Products: func(fn func(*catalog.Product) error) error { return demo.Each(500, 1, fn) },
		Content: func(fn func(*catalog.Content) error) error {
			for _, c := range demo.Content(1) {
				if err := fn(&c); err != nil {
					return err
				}
			}
			return nil
		},
	}, nil)
	if err != nil {
		f.Fatal(err)
	}
	srv := New(engine.New("", g), Options{})
	f.Fuzz(func(t *testing.T, body []byte) {
		var ctx fasthttp.RequestCtx
		ctx.Request.SetRequestURI("/serve/search")
		ctx.Request.Header.SetMethod("POST")
		ctx.Request.Header.SetContentType("application/json")
		ctx.Request.SetBody(body)
		srv.Handle(&ctx)
		if code := ctx.Response.StatusCode(); code >= 500 {
			t.Fatalf("status %d for %q: %s", code, body, ctx.Response.Body())
		}
		if !json.Valid(ctx.Response.Body()) {
			t.Fatalf("invalid JSON for %q: %s", body, ctx.Response.Body())
		}
	})
}
