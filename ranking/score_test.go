package ranking

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/internal/expect"
)

// bm25Doc is one product of the BM25F oracle's catalog: its text per
// field as the test wrote it.
type bm25Doc struct {
	key  string
	text map[index.TextField]string
}

// bm25Oracle scores docs with BM25F written doc at a time from the
// catalog's own text, independently of the index's postings and of the
// term-at-a-time merge: for each query word, the best of its routes,
//
//	min(idf(term), idf(the word as typed)) · weight · (k1+1) · a/(k1+a),
//	a = Σ_fields w_f · tf / (1 − b_f + b_f · len/avglen_f),
//	idf = ln(1 + (N − df + 0.5)/(df + 0.5)),
//
// plus 100 per matched word when relaxed; the exact product number scores
// MaxFloat32.
type bm25Oracle struct {
	n      int
	tf     []map[index.TextField]map[string]int // doc → field → term → count
	length []map[index.TextField]int
	avg    map[index.TextField]float64
	df     map[string]int
}

func newBM25Oracle(docs []bm25Doc) *bm25Oracle {
	o := &bm25Oracle{n: len(docs), avg: map[index.TextField]float64{}, df: map[string]int{}}
	sum, cnt := map[index.TextField]float64{}, map[index.TextField]float64{}
	for _, d := range docs {
		tf, ln := map[index.TextField]map[string]int{}, map[index.TextField]int{}
		seen := map[string]bool{}
		for f, text := range d.text {
			toks := an.Analyze(nil, text)
			tf[f], ln[f] = map[string]int{}, len(toks)
			for _, tk := range toks {
				tf[f][tk.Term]++
				if !seen[tk.Term] {
					seen[tk.Term] = true
					o.df[tk.Term]++
				}
			}
			if len(toks) > 0 {
				sum[f] += float64(len(toks))
				cnt[f]++
			}
		}
		o.tf, o.length = append(o.tf, tf), append(o.length, ln)
	}
	for f := range sum {
		o.avg[f] = sum[f] / cnt[f]
	}
	return o
}

func (o *bm25Oracle) idf(term string) float64 {
	d := float64(o.df[term])
	return math.Log(1 + (float64(o.n)-d+0.5)/(d+0.5))
}

func (o *bm25Oracle) score(seg *index.Segment, q *Query, doc uint32, p *Params, relaxed bool) float64 {
	if q.HasSKU && q.SKU == doc {
		return math.MaxFloat32
	}
	k1 := float64(p.K1)
	total := 0.0
	for _, w := range q.Words {
		capIDF := math.Inf(1)
		for _, e := range w.Exp {
			if e.Weight == 1 && !e.Suggested && !e.ScoreOnly {
				capIDF = o.idf(seg.TermString(e.Term))
			}
		}
		best := 0.0
		for _, e := range w.Exp {
			term := seg.TermString(e.Term)
			a := 0.0
			for f, tfs := range o.tf[doc] {
				wf, b := float64(p.Weights[f]), float64(p.B[f])
				if tf := tfs[term]; tf > 0 {
					a += wf * float64(tf) / (1 - b + b*float64(o.length[doc][f])/o.avg[f])
				}
			}
			if a > 0 {
				best = max(best, min(o.idf(term), capIDF)*float64(e.Weight)*(k1+1)*a/(k1+a))
			}
		}
		if best > 0 {
			total += best
			if relaxed {
				total += 100
			}
		}
	}
	return total
}

// TestScoreIsBM25F: docs/architecture.md "Scoring: term-at-a-time BM25F":
// every candidate's score equals BM25F computed doc at a time from the
// catalog's text (field weights and length normalisation, IDF capped by
// the word as typed, saturation, each word's best route), for queries
// through every route and in relaxed mode, under the default and other
// parameters.
func TestScoreIsBM25F(t *testing.T) {
	words := []string{"drill", "drills", "cordless", "hammer", "lamp", "lampshade", "table", "steel", "black", "garden", "hose", "sofa", "couch", "pruning", "shears", "bits"}
	r := rand.New(rand.NewPCG(5, 5))
	phrase := func(n int) string {
		s := ""
		for i := range n {
			if i > 0 {
				s += " "
			}
			s += words[r.IntN(len(words))]
		}
		return s
	}
	var docs []bm25Doc
	b := index.NewBuilder(an)
	for i := range 300 {
		d := bm25Doc{key: fmt.Sprintf("SKU%04d", i), text: map[index.TextField]string{
			index.FieldTitle:         phrase(1 + r.IntN(6)),
			index.FieldProductNumber: fmt.Sprintf("SKU%04d", i),
		}}
		if i%3 == 0 {
			d.text[index.FieldBrand] = phrase(1 + r.IntN(2))
		}
		if i%2 == 0 {
			d.text[index.FieldDescription] = phrase(5 + r.IntN(25))
		}
		docs = append(docs, d)
		id := index.Doc{Key: d.key, Stored: []byte("{}")}
		for f, text := range d.text {
			id.Text[f] = []string{text}
		}
		if err := b.Add(&id); err != nil {
			t.Fatal(err)
		}
	}
	seg := b.Build()
	o := newBM25Oracle(docs)
	syn := synonyms(t, config.Synonym{Terms: []string{"sofa", "couch"}}, config.Synonym{From: "secateurs", Terms: []string{"pruning shears"}})
	def := DefaultParams()
	other := DefaultParams()
	other.K1 = 2
	other.Weights[index.FieldDescription] = 0 // a field weighted 0 adds nothing
	other.B[index.FieldTitle] = 1
	checked := expect.Counter{What: "scores compared", Min: 1000}
	for _, p := range []*Params{&def, &other} {
		for _, ph := range []string{
			"drill", "drills hammer", "lamp", "lamps", "lam", "cordles", "sofa", "secateurs",
			"black steel table", "hose garden", "sku0042", "SKU0007", "pruning shears", "zzz drill",
		} {
			q := Parse(seg, an, ph, Options{PrefixLast: true, Synonyms: syn})
			all, _, relaxed := Match(seg, &q)
			var sc Scratch
			sc.ScoreBM25F(seg, &q, all, p, relaxed, nil)
			for i, d := range expect.Some(t, ph+": candidates", sc.Docs) {
				want := o.score(seg, &q, d, p, relaxed)
				if got := float64(sc.Score[i]); math.Abs(got-want) > 1e-5*max(1, want) {
					t.Fatalf("%q (k1 %v) %s: score %v, BM25F %v", ph, p.K1, seg.Key(d), got, want)
				}
				checked.N++
			}
		}
	}
	checked.Check(t)
}

// Personalize lifts a text score by its factor and, in relaxed mode,
// never across a tier of matched words; a product number's match stays
// first.
func TestPersonalize(t *testing.T) {
	for _, c := range []struct {
		s, factor float32
		relaxed   bool
		want      float32
	}{
		{10, 0.5, false, 15},
		{10, 0, false, 10},
		{210, 0.5, true, 215},
		{290, 0.5, true, math.Nextafter32(300, 0)}, // capped below the next tier
		{math.MaxFloat32, 1, false, math.MaxFloat32},
		{math.MaxFloat32, 1, true, math.MaxFloat32},
	} {
		if got := Personalize(c.s, c.factor, c.relaxed); got != c.want {
			t.Errorf("Personalize(%v, %v, %v) = %v, want %v", c.s, c.factor, c.relaxed, got, c.want)
		}
	}
}
