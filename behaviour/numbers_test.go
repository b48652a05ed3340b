package behaviour

import (
	"fmt"
	"strings"
	"testing"
)

// TestProductNumbersMatchAMap: interned numbers, across many chunks and
// with a few longer than a chunk, are found and named as a map would.
func TestProductNumbersMatchAMap(t *testing.T) {
	p := newProductNumbers()
	want := map[string]uint32{}
	var all []string
	for i := range 30000 {
		pn := fmt.Sprintf("P-%d-ü", i*7919)
		if i%10000 == 5 {
			pn = strings.Repeat("x", numberChunkSize+i)
		}
		if _, ok := p.find(pn); ok {
			t.Fatalf("%.20s found before it was added", pn)
		}
		want[pn] = p.add(pn)
		all = append(all, pn)
		if i%1000 == 0 {
			clone := p.clone()
			defer func(n int) { // the clone still reads what was added before it
				for id, pn := range all[:n] {
					if clone.number(uint32(id)) != pn {
						t.Fatalf("the clone of %d names id %d %.20q", n, id, clone.number(uint32(id)))
					}
				}
			}(len(all))
		}
	}
	for id, pn := range all {
		if got, ok := p.find(pn); !ok || got != want[pn] || got != uint32(id) {
			t.Fatalf("%.20q: id %d %v, want %d", pn, got, ok, id)
		}
		if p.number(uint32(id)) != pn {
			t.Fatalf("id %d: %.20q, want %.20q", id, p.number(uint32(id)), pn)
		}
	}
	if _, ok := p.find("P-1-ü"); ok {
		t.Error("a number never added was found")
	}
}
