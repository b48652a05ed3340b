package sdk_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// helperBatch is the batch algoliasearch-helper 3.30.1 sends
// (requestBuilder._getQueries) for a refinement list on brand (Bosch),
// a hierarchical menu on hierarchies.lvl0-2 refined to "Tools > Power
// Tools", and a range on price (10 to 500): the hits query, one query per
// refined disjunctive facet (brand, hierarchies.lvl0, price), and one for
// the menu's parent level.
const helperBatch = `[
 {"indexName": "shop", "params": {"query": "", "hitsPerPage": 2, "page": 0, "maxValuesPerFacet": 10,
  "highlightPreTag": "__ais-highlight__", "highlightPostTag": "__/ais-highlight__",
  "facets": ["brand", "hierarchies.lvl0", "hierarchies.lvl1", "hierarchies.lvl2", "price"],
  "facetFilters": [["brand:Bosch"], ["hierarchies.lvl1:Tools > Power Tools"]],
  "numericFilters": ["price>=10", "price<=500"]}},
 {"indexName": "shop", "params": {"query": "", "hitsPerPage": 0, "page": 0, "analytics": false, "clickAnalytics": false,
  "facets": "brand", "facetFilters": [["hierarchies.lvl1:Tools > Power Tools"]], "numericFilters": ["price>=10", "price<=500"]}},
 {"indexName": "shop", "params": {"query": "", "hitsPerPage": 0, "page": 0, "analytics": false, "clickAnalytics": false,
  "facets": ["hierarchies.lvl0", "hierarchies.lvl1"], "facetFilters": [["brand:Bosch"], ["hierarchies.lvl0:Tools"]],
  "numericFilters": ["price>=10", "price<=500"]}},
 {"indexName": "shop", "params": {"query": "", "hitsPerPage": 0, "page": 0, "analytics": false, "clickAnalytics": false,
  "facets": "price", "facetFilters": [["brand:Bosch"], ["hierarchies.lvl1:Tools > Power Tools"]]}},
 {"indexName": "shop", "params": {"query": "", "hitsPerPage": 0, "page": 0, "analytics": false, "clickAnalytics": false,
  "facets": ["hierarchies.lvl0"], "facetFilters": [["brand:Bosch"]], "numericFilters": ["price>=10", "price<=500"]}}
]`

type algoliaResult struct {
	Hits []struct {
		ObjectID  string `json:"objectID"`
		Title     string `json:"title"`
		Highlight map[string]struct {
			Value string `json:"value"`
		} `json:"_highlightResult"`
	} `json:"hits"`
	NbHits      int                           `json:"nbHits"`
	Page        int                           `json:"page"`
	NbPages     int                           `json:"nbPages"`
	HitsPerPage int                           `json:"hitsPerPage"`
	Facets      map[string]map[string]int     `json:"facets"`
	Stats       map[string]map[string]float64 `json:"facets_stats"`
	FacetHits   []map[string]any              `json:"facetHits"`
}

// aisleFacets is what POST /serve/search answers for filters: its total
// and each facet's values by query (the part after "field:"), a RANGE
// facet's as "min" and "max".
func aisleFacets(t *testing.T, a *api, filters ...string) (int, map[string]map[string]string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"key": "shop", "query": "", "products": map[string]any{"count": 0, "filters": filters, "returnFilters": true}})
	res, err := http.Post(a.url+"/serve/search", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var ans struct {
		Products struct {
			TotalCount int `json:"totalCount"`
			Filters    []struct {
				Name     string `json:"name"`
				Min, Max string
				Values   []struct {
					Count int
					Query string
				}
			}
		}
	}
	if err := json.NewDecoder(res.Body).Decode(&ans); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]string{}
	for _, f := range ans.Products.Filters {
		m := map[string]string{}
		for _, v := range f.Values {
			_, val, _ := strings.Cut(v.Query, ":")
			m[val] = itoa(v.Count)
		}
		if f.Min != "" {
			m["min"], m["max"] = f.Min, f.Max
		}
		out[f.Name] = m
	}
	return ans.Products.TotalCount, out
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// searches counts the /serve/search requests from the n-th on.
func searches(a *api, n int) (count int, last map[string]any) {
	for _, r := range a.since(n) {
		if r.Path == "/serve/search" {
			count++
			json.Unmarshal(r.Body, &last) //nolint:errcheck // the SDK's JSON
		}
	}
	return count, last
}

func testInstantSearch(t *testing.T, ctx context.Context, a *api) {
	eval(t, ctx, `window.client = Aisle.instantsearch.searchClient({key: "shop"}); return true;`, nil)
	run := func(t *testing.T, batch string) ([]algoliaResult, int, map[string]any) {
		t.Helper()
		n := a.count()
		var got struct{ Results []algoliaResult }
		eval(t, ctx, `return client.search(`+batch+`)`, &got)
		c, last := searches(a, n)
		return got.Results, c, last
	}

	t.Run("a helper's batch from one search", func(t *testing.T) {
		res, sent, _ := run(t, helperBatch)
		if sent != 1 || len(res) != 5 {
			t.Fatalf("%d searches sent, %d results; want 1 and 5", sent, len(res))
		}
		total, want := aisleFacets(t, a, "brand:Bosch", "hierarchies:Tools$Power Tools$", "price:10,500")
		main := res[0]
		if main.NbHits != total || len(main.Hits) != 1 || main.Hits[0].ObjectID != "A200" || main.NbPages != 1 || main.HitsPerPage != 2 {
			t.Errorf("hits query: %+v, want A200 of %d", main, total)
		}
		// Refinement counts are /serve/search's: brand's counted without
		// the brand filter, in the hits query and the brand query alike.
		for _, r := range []algoliaResult{main, res[1]} {
			for v, c := range r.Facets["brand"] {
				if want["brand"][v] != itoa(c) {
					t.Errorf("brand %s: %d, /serve/search says %s", v, c, want["brand"][v])
				}
			}
			if len(r.Facets["brand"]) != len(want["brand"]) {
				t.Errorf("brand values %v, /serve/search's %v", r.Facets["brand"], want["brand"])
			}
		}
		// The menu: the refined path and its children in the hits query;
		// the siblings of each level in the others.
		node := want["hierarchies"]
		if got := canon(main.Facets["hierarchies.lvl1"]); got != `{"Tools \u003e Power Tools":`+node["Tools$Power Tools$"]+`}` {
			t.Errorf("lvl1 %s", got)
		}
		if got := canon(main.Facets["hierarchies.lvl2"]); got != `{"Tools \u003e Power Tools \u003e Drills":`+node["Tools$Power Tools$Drills$"]+`}` {
			t.Errorf("lvl2 %s", got)
		}
		lvl0 := res[4].Facets["hierarchies.lvl0"]
		for v, c := range lvl0 {
			if node[v+"$"] != itoa(c) {
				t.Errorf("parent level %s: %d, /serve/search says %s", v, c, node[v+"$"])
			}
		}
		if lvl0["Tools"] == 0 || lvl0["Deals"] == 0 {
			t.Errorf("parent level %v, want Tools and Deals", lvl0)
		}
		if got := res[2].Facets["hierarchies.lvl1"]; got["Tools > Power Tools"] == 0 {
			t.Errorf("siblings of Power Tools %v", got)
		}
		// The range's bounds are /serve/search's, without the price filter.
		st := res[3].Stats["price"]
		if itoa(int(st["min"]*100)) != itoa(int(mustFloat(t, want["price"]["min"])*100)) || itoa(int(st["max"])) != itoa(int(mustFloat(t, want["price"]["max"]))) {
			t.Errorf("price stats %v, /serve/search says %s..%s", st, want["price"]["min"], want["price"]["max"])
		}
		if h := main.Hits[0].Highlight["title"].Value; h != "Hammer Drill" {
			t.Errorf("highlight %q", h)
		}
	})

	t.Run("sort-by, pagination and highlighting", func(t *testing.T) {
		res, sent, body := run(t, `[{"indexName": "shop:price desc", "params": {"query": "dri", "page": 1, "hitsPerPage": 1,
			"highlightPreTag": "<mark>", "highlightPostTag": "</mark>"}}]`)
		p, _ := body["products"].(map[string]any)
		if sent != 1 || canon(p) != `{"count":1,"sorting":["price desc"],"start":1}` {
			t.Fatalf("%d searches, products %s", sent, canon(p))
		}
		r := res[0]
		if r.NbHits != 2 || r.Page != 1 || r.NbPages != 2 || len(r.Hits) != 1 || r.Hits[0].ObjectID != "A100" ||
			r.Hits[0].Highlight["title"].Value != "Cordless <mark>Dri</mark>ll 18V" {
			t.Errorf("page 2 by price desc: %+v", r)
		}
	})

	t.Run("a conjunctive facet counts within the results", func(t *testing.T) {
		res, _, body := run(t, `[{"indexName": "shop", "params": {"query": "", "facets": ["brand"], "facetFilters": ["brand:Nordic"]}}]`)
		p, _ := body["products"].(map[string]any)
		if canon(p["excludeSiblingFilters"]) != `["brand"]` || canon(res[0].Facets["brand"]) != `{"Nordic":2}` {
			t.Errorf("sent %s, brand facet %v", canon(p), res[0].Facets["brand"])
		}
	})

	t.Run("search for facet values", func(t *testing.T) {
		var got []algoliaResult
		eval(t, ctx, `return client.searchForFacetValues([{indexName: "shop", params: {facetName: "brand", facetQuery: "ma", maxFacetHits: 5, query: "", facets: ["brand"]}}])`, &got)
		if len(got) != 1 || canon(got[0].FacetHits) != `[{"count":1,"highlighted":"\u003cem\u003eMa\u003c/em\u003ekita","value":"Makita"}]` {
			t.Errorf("facet hits %+v", got)
		}
	})

	t.Run("what is not mapped is refused", func(t *testing.T) {
		var got map[string]any
		eval(t, ctx, `return client.search([{indexName: "shop", params: {facetFilters: ["brand:-Bosch"]}}]).catch(e => e)`, &got)
		if got["code"] != "NOT_MAPPED" || !strings.Contains(got["message"].(string), "brand:-Bosch") {
			t.Errorf("a negative filter: %v", got)
		}
	})
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	var f float64
	if err := json.Unmarshal([]byte(s), &f); err != nil {
		t.Fatal(err)
	}
	return f
}
