package bench

import (
	"fmt"
	"math"
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
	ClassPrefix   Class = 6 // the first one or two letters of a word, as typed
	ClassFields   Class = 7 // class 1 with a field list of four fields
)

// Classes lists every class in order.
var Classes = []Class{ClassWords, ClassFiltered, ClassFacets, ClassCategory, ClassTypo, ClassPrefix, ClassFields}

// FieldList is the field list of ClassFields: what a shop's result list
// shows.
var FieldList = []string{"productNumber", "title", "price", "url"}

func (c Class) String() string {
	return [...]string{"", "words", "words+filters", "words+filters+facets", "category page", "typo", "prefix", "words+fields"}[c]
}

// Request is one search body as JSON and as the engine's request.
type Request struct {
	Body []byte
	Req  *engine.SearchRequest
}

// Requests makes n requests of class c for generation g and search
// configuration key, with words drawn from queries. Filter values come
// from a product the words match, so filtered requests find products.
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
			q := words()
			body["query"] = q
			filters, err := shopperFilters(g, key, q, r, brands)
			if err != nil {
				return nil, err
			}
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
		case ClassPrefix:
			w := []rune(strings.Fields(words())[0])
			body["query"] = string(w[:min(len(w), 1+r.IntN(2))])
		case ClassFields:
			body["query"] = words()
			p["fields"] = FieldList
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

// shopperFilters picks a brand and a price range the way a shopper would
// after searching q: from a product on the first pages of its results, so
// the filtered request finds that product and others like it. Drawing them
// independently of the words left over 90% of the demo's filtered
// requests with no results, which measured empty pages rather than
// filtering and facet counting. When q matches nothing (or the catalog has
// no brands or prices) it falls back to a random brand.
func shopperFilters(g *engine.Generation, key, q string, r *rand.Rand, brands []string) ([]string, error) {
	seg := g.Products
	page := 100
	res, err := g.Search(&engine.SearchRequest{Query: &q, Key: &key, Products: &engine.ProductSettings{
		ContentSettings: engine.ContentSettings{PageSettings: engine.PageSettings{Count: &page}},
	}})
	if err != nil {
		return nil, fmt.Errorf("requests: search %q to pick filters: %w", q, err)
	}
	var filters []string
	if hits := res.Products.Hits; len(hits) > 0 {
		doc := hits[r.IntN(len(hits))].Doc
		if kf := seg.Keyword("brand"); kf != nil {
			if vs := kf.DocValues(doc); len(vs) > 0 {
				filters = append(filters, "brand:"+kf.Values[vs[0]])
			}
		}
		if nf := seg.Numeric("price"); nf != nil {
			if v, ok := nf.Value(doc); ok {
				lo := math.Floor(v * (0.3 + 0.6*r.Float64()))
				hi := math.Ceil(v * (1.1 + 2*r.Float64()))
				filters = append(filters, fmt.Sprintf("price:%g,%g", lo, hi))
			}
		}
		return filters, nil
	}
	if len(brands) > 0 {
		filters = append(filters, "brand:"+brands[r.IntN(len(brands))])
	}
	return filters, nil
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
