package bench

import (
	"cmp"
	"math"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/datasets"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/facets"
)

func TestNDCG(t *testing.T) {
	j := Judgments{
		"drill": {"a": 2, "b": 1, "c": 0},
		"lamp":  {"x": 0}, // no gain anywhere: skipped
		"sofa":  {"s": 1},
	}
	ranked := map[string][]string{"drill": {"b", "z", "a"}, "sofa": {"q", "s"}, "lamp": {"x"}}
	mean, n, err := NDCG(j, 10, func(term string, k int) ([]string, error) { return ranked[term], nil })
	if err != nil || n != 2 {
		t.Fatalf("n=%d err=%v", n, err)
	}
	// drill: dcg = 1/log2(2) + 2/log2(4) = 2; ideal = 2 + 1/log2(3).
	drill := 2 / (2 + 1/math.Log2(3))
	sofa := 1 / math.Log2(3)
	if want := (drill + sofa) / 2; math.Abs(mean-want) > 1e-12 {
		t.Fatalf("NDCG %v, want %v", mean, want)
	}
	// k cuts the ranking.
	mean, _, _ = NDCG(Judgments{"d": {"a": 1}}, 1, func(string, int) ([]string, error) { return []string{"b", "a"}, nil })
	if mean != 0 {
		t.Fatalf("NDCG@1 %v, want 0", mean)
	}
}

// TestHomeDepotNDCG measures relevance on the real judgments, as aisle
// eval does.
func TestHomeDepotNDCG(t *testing.T) {
	data := datasets.SkipOrDir(t)
	ev, err := EvalHomeDepot(data, 10)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("NDCG@10 = %.4f over %d search terms (%d products indexed in %s)", ev.NDCG, ev.Terms, ev.Products, ev.BuildTime)
	if ev.Terms < 5000 || ev.NDCG < 0.40 {
		t.Fatalf("NDCG@10 = %.4f over %d terms, below the 0.40 floor", ev.NDCG, ev.Terms)
	}
}

var fixture struct {
	once sync.Once
	g    *engine.Generation
	reqs map[Class][]Request
	err  error
}

// benchCatalog is the catalog the benchmarks search: 50,000 generated
// products (the in-process target), or AISLE_BENCH_PRODUCTS of
// them; AISLE_BENCH_CATALOG=flipkart (or homedepot) searches that real
// catalog from the shared data instead, with its own queries.
func benchCatalog(b *testing.B) (*engine.Generation, map[Class][]Request) {
	fixture.once.Do(func() {
		n := 50000
		if v, err := strconv.Atoi(os.Getenv("AISLE_BENCH_PRODUCTS")); err == nil && v > 0 {
			n = v
		}
		name := cmp.Or(os.Getenv("AISLE_BENCH_CATALOG"), "demo")
		s, err := LoadSuite(name, n, "")
		if err != nil {
			fixture.err = err
			return
		}
		fixture.g, fixture.err = Build(s.Website, s.Products)
		if fixture.err != nil {
			return
		}
		fixture.reqs = map[Class][]Request{}
		qs := s.Queries(fixture.g)
		for _, c := range s.Classes {
			fixture.reqs[c], fixture.err = Requests(fixture.g, s.Key, qs, c, 500, 11)
			if fixture.err != nil {
				return
			}
		}
	})
	if fixture.err != nil {
		b.Fatal(fixture.err)
	}
	return fixture.g, fixture.reqs
}

func BenchmarkIntersect(b *testing.B) {
	g, _ := benchCatalog(b)
	seg := g.Products
	t1, ok1 := seg.Term("black")
	t2, ok2 := seg.Term("steel")
	if !ok1 || !ok2 {
		b.Skip("terms missing from the catalog")
	}
	dst := roaring.New()
	b.ReportAllocs()
	for b.Loop() {
		dst.Clear()
		dst.Or(seg.TermDocs(t1))
		dst.And(seg.TermDocs(t2))
	}
}

func BenchmarkFacetCount(b *testing.B) {
	g, _ := benchCatalog(b)
	seg := g.Products
	half := roaring.New()
	for d := 0; d < seg.Len(); d += 2 {
		half.Add(uint32(d))
	}
	var c facets.Counter
	b.Run("brand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c.Keyword(seg.Keyword("brand"), half)
		}
	})
	b.Run("hierarchies", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c.Keyword(seg.Keyword("hierarchies"), half)
		}
	})
	b.Run("price-range", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c.Range(seg.Numeric("price"), half)
		}
	})
}

func BenchmarkSearch(b *testing.B) {
	g, reqs := benchCatalog(b)
	for _, c := range Classes {
		rs := reqs[c]
		if len(rs) == 0 {
			continue // a class the catalog cannot express
		}
		b.Run(c.String(), func(b *testing.B) {
			buf := make([]byte, 0, 64<<10)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				res, err := g.Search(rs[i%len(rs)].Req)
				if err != nil {
					b.Fatal(err)
				}
				buf = res.AppendJSON(buf[:0])
				i++
			}
		})
	}
}
