package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/demo"
)

func TestSmoke(t *testing.T) {
	cfg := demo.Config()
	start := time.Now()
	g, err := Build(&cfg.Websites[0], analysis.English, Source{
		Products: func(fn func(*catalog.Product) error) error { return demo.Each(25000, 42, fn) },
		Content: func(fn func(*catalog.Content) error) error {
			for _, c := range demo.Content(42) {
				if err := fn(&c); err != nil {
					return err
				}
			}
			return nil
		},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("build", time.Since(start))
	for _, body := range []string{"cordless drill", "drill", "makita", "sofa", "*", "drll", "lamp"} {
		q := body
		key := "demo"
		count := 3
		req := &SearchRequest{Query: &q, Key: &key, Products: &ProductSettings{ContentSettings: ContentSettings{PageSettings: PageSettings{Count: &count}, Fields: []string{"title", "price", "extraData.color"}}, ReturnFilters: true, Sorting: nil}, Categories: &ContentSettings{PageSettings: PageSettings{Count: &count}}}
		st := time.Now()
		res, err := g.Search(req)
		if err != nil {
			t.Fatal(err)
		}
		el := time.Since(st)
		out := res.AppendJSON(nil)
		if len(out) > 1500 {
			out = out[:1500]
		}
		fmt.Println(q, el, string(out))
	}
}
