package bench

import (
	"fmt"
	"testing"

	"github.com/aisle-search/aisle/ranking"
	"github.com/aisle-search/aisle/analysis"
)

func TestZZTerm(t *testing.T) {
	g, _ := benchCatalog(&testing.B{})
	seg := g.Products
	for _, w := range []string{"northbound", "voltmax", "bed", "steel"} {
		q := ranking.Parse(seg, analysis.New(analysis.English), w, ranking.Options{PrefixLast: true})
		for _, wd := range q.Words {
			for _, e := range wd.Exp {
				fmt.Printf("%s -> %s w=%.2f df=%d:", w, seg.TermString(e.Term), e.Weight, seg.DocFreq(e.Term))
				for _, fp := range seg.TermPostings(e.Term) {
					fmt.Printf(" f%d:%d", fp.Field, len(fp.Docs))
				}
				fmt.Println()
			}
		}
	}
}
