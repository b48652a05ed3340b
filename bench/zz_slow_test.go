package bench

import (
	"fmt"
	"sort"
	"testing"
	"time"
)

func TestZZSlow(t *testing.T) {
	g, reqs := benchCatalog(&testing.B{})
	for _, c := range Classes {
		type s struct {
			d    time.Duration
			body string
			tot  int
		}
		var all []s
		for _, r := range reqs[c] {
			best := time.Hour
			var tot int
			for range 3 {
				t0 := time.Now()
				res, err := g.Search(r.Req)
				if err != nil {
					t.Fatal(err)
				}
				best = min(best, time.Since(t0))
				tot = res.Products.Total
			}
			all = append(all, s{best, string(r.Body), tot})
		}
		sort.Slice(all, func(i, j int) bool { return all[i].d > all[j].d })
		fmt.Printf("== %s p50 %v p99 %v\n", c, all[len(all)/2].d, all[len(all)/100].d)
		for _, x := range all[:6] {
			fmt.Printf("  %v total=%d %s\n", x.d, x.tot, x.body)
		}
	}
}
