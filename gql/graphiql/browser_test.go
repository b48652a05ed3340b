package graphiql_test

import (
	"context"
	"encoding/json"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aisle-search/aisle/gql/graphiql"
	"github.com/aisle-search/aisle/internal/browser"
	"github.com/chromedp/chromedp"
	"github.com/graphql-go/graphql"
)

// standInKey is the only API key the stand-in endpoint takes.
const standInKey = "k"

// probeHeader is a header the stand-in's field "header" answers with.
const probeHeader = "X-Aisle-Probe"

// standIn serves the GraphiQL page and its assets as the gql handler
// does, and a trivial GraphQL endpoint (query { hello header }) that
// refuses requests without ?apiKey=k or not application/json. It
// records the paths it served, and fails the test on any other path.
type standIn struct {
	t      *testing.T
	schema graphql.Schema
	mu     sync.Mutex
	served map[string]int
}

type probeKey struct{}

func newStandIn(t *testing.T) *standIn {
	schema, err := graphql.NewSchema(graphql.SchemaConfig{
		Query: graphql.NewObject(graphql.ObjectConfig{
			Name: "Query",
			Fields: graphql.Fields{
				"hello": &graphql.Field{
					Type:    graphql.String,
					Resolve: func(graphql.ResolveParams) (any, error) { return "world", nil },
				},
				"header": &graphql.Field{
					Type:        graphql.String,
					Description: "The request's " + probeHeader + " header.",
					Resolve: func(p graphql.ResolveParams) (any, error) {
						return p.Context.Value(probeKey{}), nil
					},
				},
			},
		}),
	})
	if err != nil {
		t.Fatal(err)
	}
	return &standIn{t: t, schema: schema, served: map[string]int{}}
}

func (s *standIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.served[r.Method+" "+r.URL.Path]++
	s.mu.Unlock()
	switch {
	case r.Method == http.MethodGet && r.URL.Path == browser.GraphiQLPath:
		if !strings.Contains(r.Header.Get("Accept"), "text/html") {
			http.Error(w, "GraphiQL is for browsers", http.StatusNotAcceptable)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", graphiql.CSP)
		w.Write(graphiql.Page(browser.GraphiQLPath))
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, browser.GraphiQLPath+"/assets/"):
		body, contentType, ok := graphiql.Asset(strings.TrimPrefix(r.URL.Path, browser.GraphiQLPath+"/assets/"))
		if !ok {
			s.t.Errorf("the page asked for %s, not an asset", r.URL.Path)
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", contentType)
		w.Write(body)
	case r.Method == http.MethodPost && r.URL.Path == browser.GraphiQLPath:
		s.graphql(w, r)
	default:
		s.t.Errorf("the page asked for %s %s", r.Method, r.URL)
		http.NotFound(w, r)
	}
}

func (s *standIn) graphql(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	refuse := func(status int, message string) {
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]any{"errors": []map[string]string{{"message": message}}})
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		refuse(http.StatusUnsupportedMediaType, "the body must be application/json, not "+r.Header.Get("Content-Type"))
		return
	}
	if r.URL.Query().Get("apiKey") != standInKey {
		refuse(http.StatusUnauthorized, "401: no apiKey or a wrong one")
		return
	}
	var req struct {
		Query         string         `json:"query"`
		Variables     map[string]any `json:"variables"`
		OperationName string         `json:"operationName"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
		refuse(http.StatusBadRequest, "the body is not a GraphQL request: "+err.Error())
		return
	}
	res := graphql.Do(graphql.Params{
		Schema:         s.schema,
		RequestString:  req.Query,
		VariableValues: req.Variables,
		OperationName:  req.OperationName,
		Context:        context.WithValue(r.Context(), probeKey{}, r.Header.Get(probeHeader)),
	})
	json.NewEncoder(w).Encode(res)
}

// servedPaths are the method and path of each request served, sorted.
func (s *standIn) servedPaths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var paths []string
	for p := range s.served {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return paths
}

// TestGraphiQLInChromium opens the page in chromium against the
// stand-in endpoint: with the key in the page's URL a query answers, a
// header set in the headers editor reaches the endpoint, and without
// the key the endpoint's refusal shows; GraphiQL's dialogs open and
// close. The page loads only its own assets and logs no error (a
// Content-Security-Policy violation, a failed load, an exception).
func TestGraphiQLInChromium(t *testing.T) {
	ctx := browser.New(t)
	s := newStandIn(t)
	srv := httptest.NewServer(s)
	defer srv.Close()

	for _, tc := range []struct {
		name  string
		run   browser.GraphiQLRun
		clean bool // no console errors or warnings
	}{
		{"key from the page URL", browser.GraphiQLRun{APIKey: standInKey, Query: "{ hello }", Want: `"hello": "world"`}, true},
		{"header from the headers editor", browser.GraphiQLRun{
			APIKey: standInKey, Query: "{ header }",
			Headers: `{"` + probeHeader + `": "set in the editor"}`,
			Want:    `"header": "set in the editor"`,
		}, true},
		// The endpoint refuses a request without the key (so the cases
		// above fail when the page does not pass it on); the browser logs
		// the 401.
		{"no key", browser.GraphiQLRun{Query: "{ hello }", Want: "401: no apiKey or a wrong one"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := browser.RunGraphiQL(ctx, srv.URL, tc.run)
			for _, m := range res.Console {
				t.Logf("console: %s", m)
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.clean && len(res.Console) > 0 {
				t.Errorf("the page logged %d errors or warnings (above)", len(res.Console))
			}
			if tc.run.APIKey == "" && strings.Contains(res.Result, "world") {
				t.Errorf("answered without the key: %s", res.Result)
			}
			shot := filepath.Join(t.TempDir(), "graphiql.png")
			if err := os.WriteFile(shot, res.Screenshot, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot: %s", shot)
		})
	}

	// GraphiQL's dialogs lock the page's scroll with an inline style
	// element, which CSP allows by its hash.
	t.Run("dialogs", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(ctx, browser.DefaultGraphiQLTimeout)
		defer cancel()
		console := browser.WatchConsole(ctx)
		steps := []chromedp.Action[chromedp.Void]{
			chromedp.Navigate(srv.URL + browser.GraphiQLPath + "?apiKey=" + standInKey),
			chromedp.WaitVisible(chromedp.CSS(".graphiql-execute-button")),
		}
		for _, button := range []string{"Open settings dialog", "Open short keys dialog"} {
			steps = append(steps,
				chromedp.Click(chromedp.CSS(`button[aria-label="`+button+`"]`)),
				chromedp.WaitVisible(chromedp.CSS(".graphiql-dialog .graphiql-dialog-title")),
				chromedp.Click(chromedp.CSS(".graphiql-dialog .graphiql-dialog-close")),
				chromedp.WaitNotPresent(chromedp.CSS(".graphiql-dialog")),
			)
		}
		err := chromedp.Do(ctx, steps...)
		msgs := console.Stop()
		for _, m := range msgs {
			t.Logf("console: %s", m)
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(msgs) > 0 {
			t.Errorf("the page logged %d errors or warnings (above)", len(msgs))
		}
	})

	want := []string{"GET " + browser.GraphiQLPath, "POST " + browser.GraphiQLPath}
	for _, name := range []string{"graphiql.min.css", "graphiql.min.js", "page.css", "page.js", "react-dom.production.min.js", "react.production.min.js"} {
		want = append(want, "GET "+browser.GraphiQLPath+"/assets/"+name)
	}
	slices.Sort(want)
	if got := s.servedPaths(); !slices.Equal(got, want) {
		t.Errorf("served %q, want %q", got, want)
	}
}
