package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/ranking"
)

// TestTopPagesMatchExhaustive answers searches of one and two words
// (some relaxed, a word matching nothing) twice through the whole
// search, with every result set read from the impact lists and with
// none, under popularity, stock, sale and newness boosts, filters,
// proximity and pages further down: the same products with the same
// scores in the same order.
func TestTopPagesMatchExhaustive(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 12))
	words := []string{"steel", "hammer", "hammers", "drill", "drills", "oak", "table", "lamp", "red", "garden", "hose", "saw", "blade", "cordless"}
	var products []catalog.Product
	for i := range 3000 {
		p := catalog.Product{ProductNumber: fmt.Sprint("p", i), Price: float64(1 + r.IntN(100))}
		var title []string
		for range 1 + r.IntN(3) {
			title = append(title, words[r.IntN(len(words))])
		}
		p.Title = strings.Join(title, " ")
		p.InStock = r.IntN(2) == 0
		p.IsOnSale = r.IntN(5) == 0
		p.Created = boostNow.Add(-time.Duration(r.IntN(200*24)) * time.Hour)
		products = append(products, p)
	}
	g := boostShop(t, &config.Boosts{Popularity: 0.3, InStock: 0.05, OnSale: 0.1, Newness: 0.1}, products)
	plain := boostShop(t, nil, products)
	for _, gen := range []*Generation{g, plain} {
		for _, imp := range gen.impacts {
			imp.ReadCost = 0 // a small catalog: read the lists whatever they cost
		}
	}
	m := behaviour.New()
	for range 2000 {
		pn := fmt.Sprint("p", int(3000*math.Pow(r.Float64(), 4)))
		m.Fold(&events.Event{Kind: events.View, Website: shopUUID, User: fmt.Sprint("u", r.IntN(300)), ProductNumber: pn,
			Time: boostNow.Add(-time.Duration(r.IntN(48)) * time.Hour).UnixMilli()})
	}
	answered, answeredBoosted, answeredRelaxed := 0, 0, 0
	for i := range 300 {
		gen := g
		if i%3 == 0 {
			gen = plain
		}
		word := words[r.IntN(len(words))]
		switch r.IntN(4) {
		case 0:
			word = word[:1+r.IntN(3)]
		case 1: // two words: re-ranked by proximity
			word += " " + words[r.IntN(len(words))]
		case 2: // a word matching nothing: relaxed to the other
			word = "qzxvw " + word
		}
		body := fmt.Sprintf(`{"query":%q,"key":"b","products":{"start":%d,"count":%d`, word, r.IntN(3)*10, 1+r.IntN(30))
		if r.IntN(3) == 0 {
			body += fmt.Sprintf(`,"filters":["price:%d,100"]`, r.IntN(90))
		}
		body += "}}"
		var pages [2]string
		for j, min := range []int{math.MaxInt, 1} {
			gen.tune.topMin = min
			res, err := gen.SearchWith(shopRequest(t, body), m, boostNow)
			if err != nil {
				t.Fatal(err)
			}
			pages[j] = fmt.Sprint(res.Products.Total, res.Products.Hits)
		}
		if pages[0] != pages[1] {
			t.Fatalf("%s: exhaustively %s, from the lists %s", body, pages[0], pages[1])
		}
		v, _ := gen.searchVersion("b", nil)
		q := ranking.Parse(gen.Products, gen.an, word, ranking.Options{PrefixLast: true, Synonyms: v.synonyms, Fields: v.fields, TypedTypos: v.typed})
		all, _, relaxed := ranking.Match(gen.Products, &q)
		if _, ok := gen.top(v, &q, relaxed, false, all, all, gen.boost(v, m, boostNow), 10); ok {
			answered++
			if gen == g {
				answeredBoosted++
			}
			if relaxed {
				answeredRelaxed++
			}
		}
	}
	if answered < 100 || answeredBoosted < 50 || answeredRelaxed < 20 {
		t.Fatalf("the lists answered %d of 300 searches, %d of them boosted, %d relaxed; want at least 100, 50 and 20", answered, answeredBoosted, answeredRelaxed)
	}
}
