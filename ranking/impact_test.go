package ranking

import (
	"cmp"
	"math/rand/v2"
	"slices"
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

// TestImpactListMatchesASort holds a list's fill and lower to a sort of
// a term's docs by weight then doc id, over random weights full of
// ties and lists cut anywhere: the kept docs and weights, where each
// run of equal weights starts, rest (the next weight past the list, -1
// when none) and below (the highest weight under rest, -1 when none),
// and for each kept doc the highest weight below its own that a doc
// after it may have.
func TestImpactListMatchesASort(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 4))
	for range 500 {
		n, keep := r.IntN(30), 1+r.IntN(20)
		docs, ws := make([]uint32, n), make([]float32, n)
		for i := range docs {
			docs[i], ws[i] = uint32(i), float32(1+r.IntN(5))/2
		}
		sorted := slices.Clone(docs)
		slices.SortFunc(sorted, func(a, b uint32) int { return cmp.Or(cmp.Compare(ws[b], ws[a]), cmp.Compare(a, b)) })
		rest, below := float32(-1), float32(-1)
		if n > keep {
			rest = ws[sorted[keep]]
			for _, a := range ws {
				if a < rest {
					below = max(below, a)
				}
			}
			sorted = sorted[:keep]
		}
		var l impactList
		l.fill(TopNOrdered(docs, ws, nil, nil, keep+1, nil), keep, ws)
		if !slices.Equal(l.docs, sorted) || l.rest != rest || l.below != below {
			t.Fatalf("weights %v, %d kept: docs %v, rest %v, below %v; want %v, %v, %v", ws, keep, l.docs, l.rest, l.below, sorted, rest, below)
		}
		for i, d := range sorted {
			if l.a[i] != ws[d] {
				t.Fatalf("weights %v: doc %d weighs %v in the list", ws, d, l.a[i])
			}
			if start := i == 0 || ws[d] != ws[sorted[i-1]]; start != slices.Contains(l.runs, int32(i)) {
				t.Fatalf("weights %v, %d kept: runs %v", ws, keep, l.runs)
			}
			lower := rest // past the list
			if rest == ws[d] {
				lower = below
			}
			for _, e := range sorted[i+1:] {
				if ws[e] < ws[d] {
					lower = ws[e]
					break
				}
			}
			if got := l.lower(i); got != lower {
				t.Fatalf("weights %v, %d kept: lower(%d) %v, want %v", ws, keep, i, got, lower)
			}
		}
	}
}
