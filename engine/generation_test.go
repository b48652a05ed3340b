package engine

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
)

// TestCompileErrors: a configuration the engine cannot serve fails when
// the generation is assembled, naming the configuration and version,
// rather than on a shopper's request (render.Compile: "errors surface
// when the configuration loads").
func TestCompileErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(v *config.SearchVersion)
		want string
	}{
		{"unknown searchable field", func(v *config.SearchVersion) {
			v.Fields = append(v.Fields, config.SearchField{Name: "colour", Weight: 1})
		},
			`search config shop version 2: field "colour" is not searchable`},
		{"template", func(v *config.SearchVersion) { v.Template = "{{.Query" }, "search config shop version 2: template search:"},
		{"synonyms", func(v *config.SearchVersion) { v.Synonyms = []config.Synonym{{Terms: []string{"", "  "}}} }, "search config shop version 2:"},
	} {
		w := shopWebsite()
		tc.edit(&w.Search[0].Versions[1])
		_, err := shopBuild(w, shopProducts(), nil)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error starting %q", tc.name, err, tc.want)
		}
	}
}

// TestBuildEmptySources: a website without products or content serves
// empty answers (a new shop before its first import).
func TestBuildEmptySources(t *testing.T) {
	g, err := Build(shopWebsite(), analysis.English, Source{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g.Products.Len() != 0 || len(g.Content) != len(catalog.ContentKinds) {
		t.Fatalf("%d products, %d content indexes", g.Products.Len(), len(g.Content))
	}
	out := shopSearch(t, g, `{"query":"drill","key":"shop","products":{"count":5},"blogPosts":{"count":5}}`)
	for _, kind := range []string{"products", "blogPosts"} {
		if n := out[kind].(map[string]any)["totalCount"]; n != float64(0) {
			t.Errorf("%s: totalCount %v", kind, n)
		}
	}
}

// TestBuildErrors: a product the engine cannot encode or a content item
// of an unknown kind fails the build, naming it; a source's own error
// comes back unchanged.
func TestBuildErrors(t *testing.T) {
	products := shopProducts()
	products[3].Price = math.NaN()
	_, err := shopBuild(shopWebsite(), products, nil)
	if err == nil || !strings.Contains(err.Error(), "product B200:") {
		t.Errorf("a NaN price: %v, want an error naming B200", err)
	}
	_, err = shopBuild(shopWebsite(), shopProducts(), []catalog.Content{{Kind: "recipes", ID: "r1", Title: "Soup"}})
	if err == nil || !strings.Contains(err.Error(), `content r1: unknown kind "recipes"`) {
		t.Errorf("an unknown content kind: %v", err)
	}
	bad := catalog.Content{Kind: catalog.KindBrand, ID: "b1", Title: "x", ExtraData: map[string]string{}}
	_, err = shopBuild(shopWebsite(), shopProducts(), []catalog.Content{bad, {Kind: catalog.KindBrand, ID: "b1", Title: "again"}})
	if err == nil || !strings.Contains(err.Error(), "index content:") {
		t.Errorf("a repeated content id: %v", err)
	}
	boom := errors.New("content feed broke")
	_, err = Build(shopWebsite(), analysis.English, Source{Content: func(func(*catalog.Content) error) error { return boom }}, nil)
	if !errors.Is(err, boom) {
		t.Errorf("a content source error: %v", err)
	}
}

// TestProgressEvery10000: a build reports its progress every 10,000
// products and once at the end (engine.Progress, used by the import
// command's progress line).
func TestProgressEvery10000(t *testing.T) {
	products := make([]catalog.Product, 10001)
	for i := range products {
		products[i] = catalog.Product{ProductNumber: "N" + strconv.Itoa(100000+i), Title: "t"}
	}
	var calls []int
	seg, err := IndexProducts(&config.Website{}, analysis.New(analysis.None), sliceSource(products), func(n int) { calls = append(calls, n) })
	if err != nil {
		t.Fatal(err)
	}
	if seg.Len() != len(products) || !slices.Equal(calls, []int{10000, 10001}) {
		t.Fatalf("%d docs, progress %v, want [10000 10001]", seg.Len(), calls)
	}
	calls = nil
	if _, err := IndexProducts(&config.Website{}, analysis.New(analysis.None), sliceSource(products[:300]), func(n int) { calls = append(calls, n) }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(calls, []int{300}) {
		t.Fatalf("progress %v, want [300]", calls)
	}
}
