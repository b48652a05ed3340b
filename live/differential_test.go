package live

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/store"
)

// diffSteps is how many random writes TestLiveEqualsFreshBuild applies;
// -diff.steps raises it for a longer run.
var diffSteps = flag.Int("diff.steps", 60, "TestLiveEqualsFreshBuild: random steps")

// The differential test's vocabulary: titles from these words (with
// stems, prefixes and typos to find), brands and categories.
var (
	diffNouns  = []string{"drill", "drills", "hammer", "sofa", "couch", "lamp", "lamps", "kettle", "ladder", "saw", "hose", "rake"}
	diffAdjs   = []string{"cordless", "brass", "copper", "folding", "garden", "heavy", "compact", "red", "blue", "oak"}
	diffBrands = []string{"Makita", "Bosch", "Müller", "Acme", "Nordlys"}
	diffCats   = [][]string{{"Tools", "Power Tools"}, {"Tools", "Hand Tools"}, {"Home", "Lighting"}, {"Home", "Furniture"}, {"Garden"}}
	diffWords  = []string{"drill", "drils", "hamm", "sofa", "couch", "lamp", "brass", "coper", "garden", "oak", "makita", "muller", "tools", "*", "", "cordless drill", "red lamp", "ladder saw"}
)

// TestLiveEqualsFreshBuild is the write side's differential test: random
// upserts, partial updates, deletes, content writes, configuration
// changes and restarts against two websites in one store; after every
// step, random searches (text, filters, facets, sorts, typos, prefixes,
// content) on each website's live generation answer exactly, byte for
// byte, what a from-scratch build of that website's stored state
// answers, and no website's search finds another's products. The writer
// publishes every change to a replicated log (memLog), which a replica
// with a store of its own follows now and then (runs of entries,
// ApplyLoggedRun), restarting now and then; after every step it
// followed the replica answers the same searches byte for byte as the
// writer.
func TestLiveEqualsFreshBuild(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 4))
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	a := shopWebsite()
	b := shopWebsite()
	b.UUID, b.Language = "00000000-0000-4000-8000-00000000a002", "da"
	for i := range b.Search {
		b.Search[i].Key += "-b"
	}
	cfg := &config.File{Websites: []config.Website{*a, *b}}
	sites := []string{a.UUID, b.UUID}
	prefix := map[string]string{a.UUID: "A", b.UUID: "B"} // each website's product numbers
	// Warnings (a write that fell back to a rebuild, a replay that
	// failed) fail the test: the fast paths must hold on their own.
	var warned lockedBuffer
	quiet := slog.New(slog.NewTextHandler(&warned, &slog.HandlerOptions{Level: slog.LevelWarn}))
	defer func() {
		if w := warned.String(); w != "" {
			t.Errorf("warnings logged:\n%s", w)
		}
	}()
	eng := engine.New("")
	live := New(st, eng, analysis.English, quiet)
	defer func() { live.Close(); st.Close() }()
	log := &memLog{last: map[string]uint64{}}
	live.PublishTo(log)
	replica := openNode(t, t.TempDir(), quiet)
	defer replica.close()
	if _, err := live.SetConfig(cfg); err != nil {
		t.Fatal(err)
	}
	restart := func() {
		t.Helper()
		live.Close()
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		if st, err = store.Open(dir); err != nil {
			t.Fatal(err)
		}
		stored, err := st.Config()
		if err != nil {
			t.Fatal(err)
		}
		gens, err := OpenAll(st, stored, analysis.English, quiet)
		if err != nil {
			t.Fatal(err)
		}
		eng = engine.New("", gens...)
		live = New(st, eng, analysis.English, quiet)
		live.PublishTo(log)
	}
	searches := 0
	for step := range *diffSteps {
		site := sites[r.IntN(2)]
		var what string
		switch op := r.IntN(10); {
		case op < 4:
			n := 1 + r.IntN(12)
			var bt store.Batch
			for range n {
				p := diffProduct(r, prefix[site])
				if err := bt.PutProduct(&p); err != nil {
					t.Fatal(err)
				}
			}
			_, err = live.Apply(site, &bt)
			what = fmt.Sprintf("upsert %d into %s", n, prefix[site])
		case op < 6:
			var patches [][]byte
			for range 1 + r.IntN(5) {
				pn := fmt.Sprintf("%s%02d", prefix[site], r.IntN(40))
				switch r.IntN(6) {
				case 0: // the text changes: not a column write
					patches = append(patches, fmt.Appendf(nil, `{"productNumber":%q,"title":"%s %s"}`,
						pn, diffAdjs[r.IntN(len(diffAdjs))], diffNouns[r.IntN(len(diffNouns))]))
				case 1: // refused, left out
					patches = append(patches, fmt.Appendf(nil, `{"productNumber":%q,"price":"free"}`, pn))
				default:
					patches = append(patches, fmt.Appendf(nil, `{"productNumber":%q,"price":%d,"inStock":%v}`,
						pn, 1+r.IntN(300), r.IntN(2) == 0))
				}
			}
			_, _, err = live.PatchProducts(site, patches, func(i int) string { return fmt.Sprint(i) }, true)
			what = fmt.Sprintf("partial update of %d in %s", len(patches), prefix[site])
		case op < 7:
			var pns []string
			for range 1 + r.IntN(4) {
				pns = append(pns, fmt.Sprintf("%s%02d", prefix[site], r.IntN(40)))
			}
			_, _, err = live.DeleteProducts(site, pns)
			what = fmt.Sprintf("delete %v", pns)
		case op < 8:
			var bt store.Batch
			c := catalog.Content{Kind: catalog.KindBrand, ID: fmt.Sprintf("brand-%d", r.IntN(5)),
				Title: diffBrands[r.IntN(len(diffBrands))] + " " + diffNouns[r.IntN(len(diffNouns))]}
			if err := bt.PutContent(&c); err != nil {
				t.Fatal(err)
			}
			_, err = live.Apply(site, &bt)
			what = "content into " + prefix[site]
		case op < 9:
			// A configuration change: new synonyms, indexed fields as they were.
			v := &cfg.Websites[r.IntN(2)].Search[0].Versions[0]
			v.Synonyms = append(v.Synonyms[:0:0], config.Synonym{Terms: []string{diffNouns[r.IntN(len(diffNouns))], diffAdjs[r.IntN(len(diffAdjs))]}})
			_, err = live.SetConfig(cfg)
			what = "configuration"
		default:
			if r.IntN(2) == 0 {
				restart()
				what = "restart"
			} else {
				replica.restart(t)
				what = "replica restart"
			}
		}
		if err != nil {
			t.Fatalf("step %d (%s): %v", step, what, err)
		}
		// The replica follows now and then, so it is handed runs of
		// entries of every kind.
		followed := r.IntN(3) == 0 || step == *diffSteps-1
		if followed {
			log.follow(t, replica)
		}
		for _, uuid := range sites {
			g, ok := eng.Website(uuid)
			if !ok {
				t.Fatalf("step %d (%s): website %s not served", step, what, uuid)
			}
			fresh := freshBuild(t, st, g.Website)
			for range 8 {
				body := diffRequest(r, g.Website.Search[0].Key)
				got, want := answer(t, g, body), answer(t, fresh, body)
				if !bytes.Equal(got, want) {
					t.Fatalf("step %d (%s), %s: live and fresh build differ for %s\nlive:  %.600s\nfresh: %.600s", step, what, prefix[uuid], body, got, want)
				}
				if followed {
					rg, ok := replica.eng.Website(uuid)
					if !ok {
						t.Fatalf("step %d (%s): the replica does not serve %s", step, what, uuid)
					}
					if got := answer(t, rg, body); !bytes.Equal(got, want) {
						t.Fatalf("step %d (%s), %s: the replica and the writer differ for %s\nreplica: %.600s\nwriter:  %.600s", step, what, prefix[uuid], body, got, want)
					}
				}
				other := prefix[sites[0]]
				if uuid == sites[0] {
					other = prefix[sites[1]]
				}
				if bytes.Contains(got, []byte(`"productNumber":"`+other)) {
					t.Fatalf("step %d: %s's search finds another website's product: %.600s", step, prefix[uuid], got)
				}
				searches++
			}
		}
	}
	t.Logf("%d steps, %d searches compared", *diffSteps, searches)
}

// freshBuild is a from-scratch generation of w's stored products and
// content, as engine.Build makes it.
func freshBuild(t *testing.T, st *store.Store, w *config.Website) *engine.Generation {
	t.Helper()
	g, err := engine.Build(w, w.Lang(analysis.English), engine.Source{
		Products: func(fn func(*catalog.Product) error) error { return st.Products(w.UUID, fn) },
		Content:  func(fn func(*catalog.Content) error) error { return st.Content(w.UUID, fn) },
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// answer is g's JSON answer to body; an error answers its text.
func answer(t *testing.T, g *engine.Generation, body string) []byte {
	t.Helper()
	res, err := g.Search(shopRequest(t, body))
	if err != nil {
		return []byte("error: " + err.Error())
	}
	return res.AppendJSON(nil)
}

// diffProduct is a random product numbered prefix and 00–39.
func diffProduct(r *rand.Rand, prefix string) catalog.Product {
	p := catalog.Product{
		ProductNumber: fmt.Sprintf("%s%02d", prefix, r.IntN(40)),
		Title: diffBrands[r.IntN(len(diffBrands))] + " " + diffAdjs[r.IntN(len(diffAdjs))] + " " +
			diffAdjs[r.IntN(len(diffAdjs))] + " " + diffNouns[r.IntN(len(diffNouns))],
		Price:       float64(1 + r.IntN(500)),
		InStock:     r.IntN(4) > 0,
		Brand:       diffBrands[r.IntN(len(diffBrands))],
		Hierarchies: [][]string{diffCats[r.IntN(len(diffCats))]},
		Created:     time.Date(2026, 1, 1+r.IntN(300), 0, 0, 0, 0, time.UTC),
		Description: "A " + diffAdjs[r.IntN(len(diffAdjs))] + " " + diffNouns[r.IntN(len(diffNouns))] + " for the " + diffCats[r.IntN(len(diffCats))][0],
	}
	if r.IntN(4) == 0 {
		p.PreviousPrice = p.Price + float64(1+r.IntN(50))
	}
	if err := p.Check(); err != nil {
		panic(err)
	}
	return p
}

// diffRequest is a random search under key: a word or phrase, maybe
// filters, facets, a sort, a page, content kinds.
func diffRequest(r *rand.Rand, key string) string {
	q := diffWords[r.IntN(len(diffWords))]
	products := map[string]any{"count": 1 + r.IntN(12), "start": r.IntN(3)}
	var filters []string
	if r.IntN(3) == 0 {
		filters = append(filters, "brand:"+diffBrands[r.IntN(len(diffBrands))])
	}
	if r.IntN(3) == 0 {
		filters = append(filters, fmt.Sprintf("price:%d,%d", r.IntN(200), 200+r.IntN(300)))
	}
	if r.IntN(4) == 0 {
		filters = append(filters, "inStock:true")
	}
	if r.IntN(4) == 0 {
		filters = append(filters, "hierarchies:"+strings.Join(diffCats[r.IntN(len(diffCats))][:1], "$")+"$")
	}
	if filters != nil {
		products["filters"] = filters
	}
	if r.IntN(2) == 0 {
		products["returnFilters"] = true
		if r.IntN(2) == 0 {
			products["excludeSiblingFilters"] = []string{"brand"}
		}
	}
	if s := r.IntN(4); s > 0 {
		products["sorting"] = []string{[]string{"", "price asc", "title desc", "created"}[s]}
	}
	req := map[string]any{"query": q, "key": key, "products": products}
	if r.IntN(3) == 0 {
		req["brands"] = map[string]any{"count": 5}
	}
	b, _ := json.Marshal(req)
	return string(b)
}
