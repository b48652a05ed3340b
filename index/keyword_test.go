package index

import (
	"fmt"
	"testing"

	"github.com/aisle-search/aisle/analysis"
)

// TestChainColumnUpToMulti16Values: the chain column is "Nil when the
// field has Multi16 values or more" (segment.go ChainColumn), since a
// value id must not be mistaken for Multi16 or NoValue16. A hierarchy of
// Multi16-1 top-level values keeps it; Multi16 values lose it.
func TestChainColumnUpToMulti16Values(t *testing.T) {
	for _, tc := range []struct {
		values int
		column bool
	}{{Multi16 - 1, true}, {Multi16, false}} {
		b := NewBuilder(analysis.New(analysis.None))
		const perDoc = 256
		for d := 0; d*perDoc < tc.values; d++ {
			doc := Doc{Key: fmt.Sprintf("%05d", d)}
			for v := d * perDoc; v < min((d+1)*perDoc, tc.values); v++ {
				doc.Keywords = append(doc.Keywords, KeywordValue{"cat", fmt.Sprintf("v%05d$", v)})
			}
			if err := b.Add(&doc); err != nil {
				t.Fatal(err)
			}
		}
		k := b.Build().Keyword("cat")
		if len(k.Values) != tc.values || k.Parent == nil {
			t.Fatalf("%d hierarchy values, want %d", len(k.Values), tc.values)
		}
		if col := k.ChainColumn(); (col != nil) != tc.column {
			t.Fatalf("%d values: chain column present %v, want %v", tc.values, col != nil, tc.column)
		}
	}
}
