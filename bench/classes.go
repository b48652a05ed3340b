package bench

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/engine"
)

// Class is one of the benchmark's query shapes.
type Class int

// The query classes, as the performance issue defines them.
const (
	ClassWords    Class = 1 // one or two words
	ClassFiltered Class = 2 // words + a LIST value + a price range
	ClassFacets   Class = 3 // class 2 + returnFilters over 4 facets, disjunctive
	ClassCategory Class = 4 // * + a hierarchy filter, sorted by price
	ClassTypo     Class = 5 // a typo'd word
)

// Classes lists every class in order.
var Classes = []Class{ClassWords, ClassFiltered, ClassFacets, ClassCategory, ClassTypo}

func (c Class) String() string {
	return [...]string{"", "words", "words+filters", "words+filters+facets", "category page", "typo"}[c]
}

// Request is one search body as JSON and as the engine's request.
type Request struct {
	Body []byte
	Req  *engine.SearchRequest
}

// Requests makes n requests of class c for generation g and search
// configuration key, with words drawn from queries. Filter values come
// from the catalog itself so they select real products.
func Requests(g *engine.Generation, key string, queries []string, c Class, n int, seed uint64) ([]Request, error) {
	r := rand.New(rand.NewPCG(seed, uint64(c)))
	seg := g.Products
	var brands, tops []string
	if kf := seg.Keyword("brand"); kf != nil {
		brands = kf.Values
	}
	if kf := seg.Keyword("hierarchies"); kf != nil {
		for _, v := range kf.Values {
			if strings.Count(v, "$") == 2 { // second-level categories
				tops = append(tops, v)
			}
		}
		if len(tops) == 0 {
			tops = kf.Values
		}
	}
	words := func() string {
		q := queries[r.IntN(len(queries))]
		if f := strings.Fields(q); len(f) > 2 {
			q = strings.Join(f[:2], " ")
		}
		return q
	}
	out := make([]Request, 0, n)
	for range n {
		p := map[string]any{"count": 20}
		body := map[string]any{"key": key, "products": p}
		switch c {
		case ClassWords:
			body["query"] = words()
		case ClassFiltered, ClassFacets:
			body["query"] = words()
			var filters []string
			if len(brands) > 0 {
				filters = append(filters, "brand:"+brands[r.IntN(len(brands))])
			}
			lo := r.IntN(100)
			filters = append(filters, fmt.Sprintf("price:%d,%d", lo, lo+50+r.IntN(1000)))
			p["filters"] = filters
			if c == ClassFacets {
				p["returnFilters"] = true
				p["excludeSiblingFilters"] = []string{}
			}
		case ClassCategory:
			body["query"] = "*"
			if len(tops) > 0 {
				p["filters"] = []string{"hierarchies:" + tops[r.IntN(len(tops))]}
			}
			p["sorting"] = []string{"price asc"}
		case ClassTypo:
			body["query"] = typo(r, words())
		}
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		var req engine.SearchRequest
		if err := json.Unmarshal(b, &req); err != nil {
			return nil, err
		}
		out = append(out, Request{Body: b, Req: &req})
	}
	return out, nil
}

// typo swaps two inner letters of the longest word.
func typo(r *rand.Rand, q string) string {
	f := strings.Fields(q)
	if len(f) == 0 {
		return q
	}
	best := 0
	for i, w := range f {
		if len(w) > len(f[best]) {
			best = i
		}
	}
	w := []rune(f[best])
	if len(w) >= 5 {
		i := 1 + r.IntN(len(w)-3)
		w[i], w[i+1] = w[i+1], w[i]
	}
	f[best] = string(w)
	return strings.Join(f, " ")
}
