package live

import (
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/internal/testshop"
)

// The test shop (package testshop), and how the tests search it.

const shopUUID = testshop.UUID

func shopProducts() []catalog.Product { return testshop.Products() }
func shopWebsite() *config.Website    { return testshop.Website() }

// sliceSource feeds a product slice to a build or an import.
func sliceSource(products []catalog.Product) func(fn func(*catalog.Product) error) error {
	return testshop.Source(products)
}

// shopRequest decodes a search body as the server does.
func shopRequest(t testing.TB, body string) *engine.SearchRequest {
	t.Helper()
	var req engine.SearchRequest
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		t.Fatalf("request %s: %v", body, err)
	}
	return &req
}

// shopSearch answers body on g and returns the response body, decoded.
func shopSearch(t testing.TB, g *engine.Generation, body string) map[string]any {
	t.Helper()
	res, err := g.Search(shopRequest(t, body))
	if err != nil {
		t.Fatalf("search %s: %v", body, err)
	}
	var out map[string]any
	if err := json.Unmarshal(res.AppendJSON(nil), &out); err != nil {
		t.Fatalf("search %s: the body is not JSON: %v\n%s", body, err, res.AppendJSON(nil))
	}
	return out
}

// productNumbers lists the productNumber of each item of a results or
// initialContent list.
func productNumbers(t testing.TB, list any) []string {
	t.Helper()
	items, ok := list.([]any)
	if !ok {
		t.Fatalf("%v is not a list", list)
	}
	out := []string{}
	for _, it := range items {
		pn, _ := it.(map[string]any)["productNumber"].(string)
		out = append(out, pn)
	}
	return out
}
