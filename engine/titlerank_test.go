package engine

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/ranking"
)

// TestProximityReranks: with the proximity weight a title holding the
// query's words side by side, in order, passes a shorter title that has
// them reversed or apart; at 0 text order stands; a one-word query and
// a sorted one are untouched.
func TestProximityReranks(t *testing.T) {
	products := []catalog.Product{
		{ProductNumber: "B", Title: "Slot Mail"},
		{ProductNumber: "C", Title: "Mail Box Slot"},
		{ProductNumber: "A", Title: "Wide Brass Mail Slot Cover Plate"},
		{ProductNumber: "D", Title: "Bolt", Price: 1},
	}
	gen := func(weight float64) *Generation {
		return versionGen(t, config.SearchVersion{Fields: []config.SearchField{{Name: "title", Weight: 1}}, Proximity: &weight}, products...)
	}
	order := func(g *Generation, body string) []string { t.Helper(); return searchKeys(t, g, body) }
	off, on := gen(0), gen(1)
	q := `{"query":"mail slot","key":"s","products":{"count":5}}`
	if got := order(off, q); got[0] == "A" {
		t.Fatalf("without proximity %v: A should not lead, or the test shows nothing", got)
	}
	if got := order(on, q); got[0] != "A" {
		t.Errorf("with proximity %v: want A, its words side by side, first", got)
	}
	for _, body := range []string{`{"query":"mail","key":"s","products":{"count":5}}`, `{"query":"mail slot","key":"s","products":{"count":5,"sorting":["price asc"]}}`} {
		if a, b := order(off, body), order(on, body); !slices.Equal(a, b) {
			t.Errorf("%s: %v with proximity, %v without: want the same", body, b, a)
		}
	}
}

// TestExactFormsReranks: with the exact forms' weight a title holding
// the word as typed ("lighting", or its plural) passes a shorter title
// that only shares its stem; at 0 text order stands.
func TestExactFormsReranks(t *testing.T) {
	products := []catalog.Product{
		{ProductNumber: "A", Title: "Light"},
		{ProductNumber: "B", Title: "Lightings Kit Set"},
	}
	gen := func(weight float64) *Generation {
		off := 0.0
		return versionGen(t, config.SearchVersion{Fields: []config.SearchField{{Name: "title", Weight: 1}}, Proximity: &off, ExactForms: &weight}, products...)
	}
	q := `{"query":"lighting","key":"s","products":{"count":5}}`
	if got := searchKeys(t, gen(0), q); !slices.Equal(got, []string{"A", "B"}) {
		t.Fatalf("without exact forms %v: want the shorter title, A, first, or the test shows nothing", got)
	}
	if got := searchKeys(t, gen(1), q); !slices.Equal(got, []string{"B", "A"}) {
		t.Errorf("with exact forms %v: want B, which has lighting (as lightings), first", got)
	}
}

// rerankTitles is the re-ranking as it was before the index kept title
// hashes, the oracle TestTitleRerankMatchesTitles holds rerank to: each
// hit's stored title decoded, tokenized, and each word stemmed and
// compared with the query words' stems, and its form with the query
// words' forms.
func rerankTitles(g *Generation, q *ranking.Query, weight, exactForms float32, hits []ranking.Hit) {
	stems := make([]string, len(q.Words))
	var forms []string
	for i, w := range q.Words {
		stems[i] = g.an.Stem(analysis.FoldString(w.Text))
		if !w.Stop {
			forms = append(forms, g.an.Form(w.Text))
		}
	}
	word := func(folded []byte, numeric bool, prev int) int {
		match := func(j int) bool {
			if numeric {
				return string(folded) == stems[j]
			}
			return g.an.Stem(string(folded)) == stems[j]
		}
		if prev >= 0 && prev+1 < len(stems) && match(prev+1) {
			return prev + 1
		}
		for j := range stems {
			if match(j) {
				return j
			}
		}
		return -1
	}
	n := min(config.ProximityDepth, len(hits))
	for i := range hits[:n] {
		var doc struct{ Title string }
		if err := json.Unmarshal(g.Products.Stored(hits[i].Doc), &doc); err != nil {
			panic(err)
		}
		found := make([]bool, max(len(stems)-1, 0))
		pairs, prev := 0, -1
		var titleForms []string
		g.an.Each(doc.Title, func(folded []byte, numeric bool, _ int) {
			titleForms = append(titleForms, g.an.Form(string(folded)))
			cur := word(folded, numeric, prev)
			if prev >= 0 && cur == prev+1 && !found[prev] {
				found[prev] = true
				pairs++
			}
			prev = cur
		})
		factor := float32(1)
		if pairs > 0 && len(stems) >= 2 {
			factor *= 1 + weight*float32(pairs)/float32(len(found))
		}
		exact := 0
		for _, f := range forms {
			if slices.Contains(titleForms, f) {
				exact++
			}
		}
		if exact > 0 {
			factor *= 1 + exactForms*float32(exact)/float32(len(forms))
		}
		hits[i].Score *= factor
	}
	slices.SortStableFunc(hits[:n], func(a, b ranking.Hit) int { return cmp.Compare(b.Score, a.Score) })
}

// TestTitleRerankMatchesTitles: over 600 demo queries of one to four
// words, each re-ranking its best 40 products (scores with ties), the
// re-ranking from the index's title hashes (proximity and exact forms)
// gives the scores and order the re-ranking of the stored titles gives.
func TestTitleRerankMatchesTitles(t *testing.T) {
	g := demoGeneration(t, 20000, 42, nil)
	r := rand.New(rand.NewPCG(2, 7))
	checked, raised := 0, 0
	for _, phrase := range demo.Queries(3000, 11) {
		q := ranking.Parse(g.Products, g.an, phrase, ranking.Options{OptionalStopWords: true})
		if len(q.Words) < 1 {
			continue
		}
		all, _, _ := ranking.Match(g.Products, &q)
		var hits []ranking.Hit
		it := all.Iterator()
		for it.HasNext() && len(hits) < 40 {
			hits = append(hits, ranking.Hit{Doc: it.Next(), Score: float32(1 + r.IntN(4))})
		}
		want := slices.Clone(hits)
		rerankTitles(g, &q, 0.05, 0.2, want)
		g.titleRerank(&q, 0.05, 0.2)(hits)
		for i := range hits {
			if hits[i] != want[i] {
				t.Fatalf("%q: place %d: doc %d at %v, want doc %d at %v", phrase, i, hits[i].Doc, hits[i].Score, want[i].Doc, want[i].Score)
			}
			if math.Float32bits(hits[i].Score)&0x3fffff != 0 { // not a whole number: raised
				raised++
			}
		}
		if checked++; checked == 600 {
			break
		}
	}
	if checked < 600 || raised < 1000 {
		t.Fatalf("%d queries, %d products raised: too few to test", checked, raised)
	}
}
