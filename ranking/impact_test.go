package ranking

import (
	"testing"
	"time"
)

// TestListsKeptFromImpactMinDocs: a term in ImpactMinDocs docs keeps an
// impact list, built by Warm or by the first search that reads it, with
// its weights by doc id when it is in one doc id in TermWeightsShare or
// more, else its list of a by doc; a term in one doc fewer keeps
// neither, and Top sorts its docs for the search. "lamp" is in 1,024
// of 2,048 docs, "chair" in 1,023.
func TestListsKeptFromImpactMinDocs(t *testing.T) {
	titles := make([]string, 2*ImpactMinDocs)
	for i := range titles {
		titles[i] = "lamp"
		if i >= ImpactMinDocs {
			titles[i] = "chair"
		}
	}
	titles[len(titles)-1] = "stool"
	seg := segment(t, titles...)
	lamp, _ := seg.Term("lamp")
	chair, _ := seg.Term("chair")
	if seg.DocFreq(lamp) != ImpactMinDocs || seg.DocFreq(chair) != ImpactMinDocs-1 || seg.Slots() != 2*ImpactMinDocs {
		t.Fatalf("lamp in %d docs, chair in %d, %d slots", seg.DocFreq(lamp), seg.DocFreq(chair), seg.Slots())
	}
	p := DefaultParams()

	imp := NewImpacts(seg, &p)
	imp.TermWeightsShare = 2 // lamp's 1,024 docs are one doc id in 2
	if imp.termWeights(lamp) == nil || imp.termList(lamp) != nil {
		t.Fatal("a term in one doc id in TermWeightsShare keeps no weights, or a list of a by doc besides")
	}
	if imp.termWeights(chair) != nil || imp.termList(chair) != nil {
		t.Fatal("a term under ImpactMinDocs docs keeps weights or a list of a by doc")
	}
	imp = NewImpacts(seg, &p)
	imp.TermWeightsShare = 1
	if imp.termWeights(lamp) != nil || imp.termList(lamp) == nil {
		t.Fatal("a term in fewer than one doc id in TermWeightsShare keeps weights, or no list of a by doc")
	}

	for _, c := range []struct {
		phrase string
		term   uint32
		built  bool
	}{{"lamp", lamp, true}, {"chair", chair, false}} {
		imp := unboundedImpacts(seg, &p)
		q := Parse(seg, an, c.phrase, Options{})
		all, _, _ := Match(seg, &q)
		if _, ok := imp.Top(&q, all, &p, nil, nil, 10, nil); !ok {
			t.Fatalf("%q: not answered from the lists", c.phrase)
		}
		if imp.Built(c.term) != c.built {
			t.Fatalf("%q: a search built its list: %v, want %v", c.phrase, imp.Built(c.term), c.built)
		}
	}

	warm := NewImpacts(seg, &p)
	warm.Background = true
	warm.Warm()
	for deadline := time.Now().Add(10 * time.Second); warm.Warming(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("Warm did not finish")
		}
	}
	if !warm.Built(lamp) || warm.Built(chair) {
		t.Fatalf("after Warm, lamp's list built: %v, chair's: %v; want true, false", warm.Built(lamp), warm.Built(chair))
	}
}
