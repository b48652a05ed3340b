package gql_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/gql/graphiql"
	"github.com/aisle-search/aisle/internal/browser"
)

// TestGraphiQLServed: a browser's GET of /graphql is GraphiQL with its
// policy, its assets are served beside it, and a client's GET with a
// query still runs the query.
func TestGraphiQLServed(t *testing.T) {
	s := twoShops(t)
	req, _ := http.NewRequest("GET", s.url+"/graphql?apiKey=whatever", nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || resp.Header.Get("Content-Security-Policy") != graphiql.CSP {
		t.Errorf("GraphiQL page: %d %q, CSP %q", resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Security-Policy"))
	}
	for _, name := range []string{"graphiql.min.js", "graphiql.min.css", "react.production.min.js", "nope.js"} {
		resp, err := http.Get(s.url + "/graphql/assets/" + name)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		want := 200
		if name == "nope.js" {
			want = 404
		}
		if resp.StatusCode != want {
			t.Errorf("asset %s: %d, want %d", name, resp.StatusCode, want)
		}
	}
}

// TestGraphiQLInChromium opens GraphiQL from the real server in
// headless Chromium with the operator's key and runs a query of the
// admin schema; the screenshot is kept in the test's temporary folder.
func TestGraphiQLInChromium(t *testing.T) {
	s := twoShops(t)
	ctx := browser.New(t)
	res, err := browser.RunGraphiQL(ctx, s.url, browser.GraphiQLRun{APIKey: operator, Query: "{ websites { name companyId } }", Want: "Shop B"})
	for _, m := range res.Console {
		t.Logf("console: %s", m)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Result, "globex") {
		t.Errorf("the result pane shows %q, want both websites", res.Result)
	}
	shot := filepath.Join(t.TempDir(), "graphiql.png")
	if err := os.WriteFile(shot, res.Screenshot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", shot)
}
