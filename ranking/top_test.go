package ranking

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/internal/background"
)

// TestTopMatchesExhaustive answers random one-word searches (and
// some of two or three words, some with synonyms) both
// ways, from the impact lists and by scoring every candidate, over
// catalogs full of ties (few words, short titles), a WithDocs segment
// (holes, docs out of key order), random field weights, filters, boosts
// and page sizes: the same docs, the same scores to the bit, in the same
// order. Most searches must be answered from the lists, so a Top
// that always gave up would fail.
func TestTopMatchesExhaustive(t *testing.T) { testTopMatchesExhaustive(t, DefaultTermWeightsShare) }

// TestTopMatchesExhaustiveWithLists is TestTopMatchesExhaustive with the
// common terms keeping lists of a by doc (termlist.go), which Top reads
// a doc's a from, rather than weights by doc id.
func TestTopMatchesExhaustiveWithLists(t *testing.T) { testTopMatchesExhaustive(t, 0) }

// testTopMatchesExhaustive is TestTopMatchesExhaustive with the impact
// lists' TermWeightsShare at share.
func testTopMatchesExhaustive(t *testing.T, share uint64) {
	r := rand.New(rand.NewPCG(7, 11))
	vocab := strings.Fields("drill drills driller lamp lamps table chair cordless hammer garden hose steel black white set with for bulb light lights outdoor door doorbell doorknob doormat doorstop")
	cat := newRandomCatalog(t, r, strings.Join(vocab, " "), 8000, 4, 1, 8, []uint32{0, 7, 300, 4001}, "drill", "lamp", "drill drill")
	built, live, text := cat.built, cat.live, cat.text
	if live.Order() == nil {
		t.Fatal("the WithDocs segment keeps its docs in key order: the test does not reach order ties")
	}
	synonyms, err := NewSynonyms(an, []config.Synonym{
		{From: "lamp", Terms: []string{"bulb", "light"}},
		{Terms: []string{"drill", "hammer"}},
		{From: "door", Terms: []string{"garden hose"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var impacts = map[*index.Segment]map[Params]*Impacts{built: {}, live: {}}
	answered, answeredWords, answeredRelaxed, plain, searches := 0, 0, 0, 0, 600
	for i := range searches {
		seg := built
		if i%2 == 1 {
			seg = live
		}
		word := vocab[r.IntN(len(vocab))]
		if i%4 == 3 { // two or three words
			word = text(2, 3)
		}
		if i%4 == 1 { // a word the catalog does not hold, nor a typo of it: relaxed
			word = []string{"qzxv ", "mmwwjj "}[r.IntN(2)] + word
		}
		switch r.IntN(5) {
		case 0:
			word = word[:1+r.IntN(min(3, len(word)))] // as typed: a prefix
		case 1:
			word = word[:len(word)-1] + "x" // a typo
		case 2:
			word += vocab[r.IntN(len(vocab))] // two words written as one
		}
		opt := Options{PrefixLast: r.IntN(3) > 0, TypedTypos: true, CompoundWords: r.IntN(2) == 0}
		if r.IntN(2) == 0 {
			opt.Synonyms = synonyms // suggested routes: weighed, and not capping IDF
		}
		q := Parse(seg, an, word, opt)
		all, _, relaxed := Match(seg, &q)
		if !relaxed {
			plain++
		}
		cand := all.Clone()
		switch r.IntN(4) {
		case 0:
			f := roaring.New()
			for d := uint32(r.IntN(5)); d < uint32(seg.Slots()); d += uint32(1 + r.IntN(4)) {
				f.Add(d)
			}
			cand.And(f)
		case 1: // selective: a list's kept docs may not fill the page
			f := roaring.New()
			for d := uint32(r.IntN(50)); d < uint32(seg.Slots()); d += 40 + uint32(r.IntN(30)) {
				f.Add(d)
			}
			cand.And(f)
		}
		p := DefaultParams()
		switch r.IntN(3) {
		case 0:
			for f := range p.Weights {
				p.Weights[f], p.B[f] = float32(r.IntN(6))*r.Float32(), r.Float32()
			}
		case 1:
			p.K1 = 0.5 + r.Float32()
		}
		var boost []float32
		switch r.IntN(4) {
		case 0: // sparse, like popularity
			boost = make([]float32, seg.Slots()-r.IntN(50))
			for range 40 {
				j := r.IntN(len(boost))
				boost[j] = 0.1 * r.Float32()
			}
		case 1: // present, all zero
			boost = make([]float32, 10)
		}
		k := 1 + r.IntN(60)
		pk := p
		pk.K1 = 0
		imp := impacts[seg][pk]
		if imp == nil {
			imp = unboundedImpacts(seg, &p)
			imp.TermWeightsShare = share
			impacts[seg][pk] = imp
		}
		var bo *BoostOrder
		if boost != nil {
			bo = NewBoostOrder(boost, seg.Order())
		}
		top := imp.Top
		if relaxed { // read from the lists only when its words but one match nothing
			top = imp.TopRelaxed
		}
		got, ok := top(&q, cand, &p, boost, bo, k, nil)

		sc := GetScratch()
		sc.ScoreBM25F(seg, &q, cand, &p, relaxed, boost)
		want := TopNOrdered(sc.Docs, sc.Score, nil, seg.Order(), k, nil)
		PutScratch(sc)
		if !ok {
			continue
		}
		switch {
		case relaxed:
			answeredRelaxed++
		case len(q.Words) > 1:
			answered++
			answeredWords++
		default:
			answered++
		}
		if len(got) != len(want) {
			t.Fatalf("search %d %q k=%d: %d hits from the lists, %d exhaustively", i, word, k, len(got), len(want))
		}
		for j := range want {
			if got[j] != want[j] {
				t.Fatalf("search %d %q k=%d: hit %d is %+v from the lists, %+v exhaustively", i, word, k, j, got[j], want[j])
			}
		}
	}
	if answered < plain/2 || answeredWords < 40 || answeredRelaxed < 20 {
		t.Fatalf("the lists answered %d of %d searches not relaxed, %d of several words, and %d relaxed; want at least half, 40 and 20", answered, plain, answeredWords, answeredRelaxed)
	}
	t.Logf("the lists answered %d of %d searches not relaxed, %d of several words, and %d relaxed", answered, plain, answeredWords, answeredRelaxed)
}

// TestTopWordTiesAcrossRoutes: typed "door" exists, so its completions'
// IDF is capped at its own and "doorbell" and "doorknob" (one-word
// titles, in alternating doc ids) weigh the same: the page's last places
// are ties between two routes, which key order settles.
func TestTopWordTiesAcrossRoutes(t *testing.T) {
	var titles, descs []string
	for i := range 3000 {
		titles = append(titles, []string{"doorbell", "doorknob", "lamp"}[i%3])
		descs = append(descs, "")
		if i%3 == 2 {
			descs[i] = "door " + strings.Repeat("lamp ", 30)
		}
	}
	b := index.NewBuilder(an)
	for i := range titles {
		d := index.Doc{Key: fmt.Sprintf("P%05d", i), Stored: []byte("{}")}
		d.Text[index.FieldTitle] = []string{titles[i]}
		d.Text[index.FieldDescription] = []string{descs[i]}
		if err := b.Add(&d); err != nil {
			t.Fatal(err)
		}
	}
	seg := b.Build()
	p := DefaultParams()
	imp := unboundedImpacts(seg, &p)
	q := Parse(seg, an, "door", Options{PrefixLast: true})
	all, _, _ := Match(seg, &q)
	for k := 1; k <= 40; k++ {
		got, ok := imp.Top(&q, all, &p, nil, nil, k, nil)
		if !ok {
			t.Fatalf("k=%d: not answered from the lists", k)
		}
		sc := GetScratch()
		sc.ScoreBM25F(seg, &q, all, &p, false, nil)
		want := TopNOrdered(sc.Docs, sc.Score, nil, seg.Order(), k, nil)
		PutScratch(sc)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("k=%d: %v from the lists, %v exhaustively", k, got, want)
		}
	}
}

// TestTopTiesSettleInKeyOrder: "door" completes to "doorbell" and
// "doorknob", each the title of every other doc, so both routes weigh
// every doc alike and a page of k holds the first k keys, half from
// each route. Top reads one route's list first: its page settles only
// once the other route's head is past the page's last key.
func TestTopTiesSettleInKeyOrder(t *testing.T) {
	titles := make([]string, 400)
	for i := range titles {
		titles[i] = []string{"doorbell", "doorknob"}[i%2]
	}
	seg := shop(t, titled(titles...)...)
	p := DefaultParams()
	imp := unboundedImpacts(seg, &p)
	q := Parse(seg, an, "door", Options{PrefixLast: true})
	if len(q.Words) != 1 || len(q.Words[0].Exp) != 2 {
		t.Fatalf("door: %+v, want one word of two routes", q.Words)
	}
	all, _, _ := Match(seg, &q)
	for k := 1; k <= 20; k++ {
		got, ok := imp.Top(&q, all, &p, nil, nil, k, nil)
		if !ok {
			t.Fatalf("k=%d: not answered from the lists", k)
		}
		for i, h := range got {
			if key := fmt.Sprintf("P%03d", i); seg.Key(h.Doc) != key {
				t.Fatalf("k=%d: hit %d is %s, want %s", k, i, seg.Key(h.Doc), key)
			}
		}
	}
}

// TestSettledKeepsClearOfRounding: a full page settles when its last
// hit beats the bound by more than boundSlack; else, when that hit ties
// the best head's weight vmax (one word), once every route's head and
// next weight down score clear of vmax by boundSlack, where rounding
// could lift a doc of that weight to vmax. At exactly the slack's edge
// the page does not settle.
func TestSettledKeepsClearOfRounding(t *testing.T) {
	const scale, k1, a = 3, 1.2, float32(5)
	v := func(a float32) float32 { return scale * a / (k1 + a) }
	vmax := v(a)
	// edge is the weight under a whose part, widened by boundSlack, is
	// vmax to the bit.
	edge := a
	for v(edge)*(1+boundSlack) > vmax {
		edge = math.Nextafter32(edge, 0)
	}
	if v(edge)*(1+boundSlack) != vmax {
		t.Fatalf("no weight under %v scores vmax once widened by boundSlack", a)
	}
	key := func(d uint32) uint32 { return d }
	for _, c := range []struct {
		name    string
		worst   float32
		bound   float32
		tieRule bool
		a       []float32 // the route's list, read up to its second doc
		settled bool
	}{
		{"beats the bound", vmax, v(a / 2), false, []float32{a, a, a}, true},
		{"at the bound's edge", vmax, v(edge), false, []float32{a, a, a}, false},
		{"next weight clear", vmax, vmax, true, []float32{a, a, a / 2}, true},
		{"next weight within the slack", vmax, vmax, true, []float32{a, a, math.Nextafter32(a, 0)}, false},
		{"next weight at the slack's edge", vmax, vmax, true, []float32{a, a, edge}, false},
		{"head at the slack's edge", vmax, vmax, true, []float32{a, edge, edge}, false},
	} {
		runs := []int32{0}
		for i := 1; i < len(c.a); i++ {
			if c.a[i] != c.a[i-1] {
				runs = append(runs, int32(i))
			}
		}
		l := &impactList{docs: []uint32{0, 1, 2}, a: c.a, runs: runs, rest: -1, below: -1}
		routes := []topRoute{{scale: scale, list: l, pos: 1}}
		h := topHeap{hits: []Hit{{Doc: 0, Score: c.worst}}}
		if got := h.settled(c.bound, c.tieRule, routes, vmax, k1, key); got != c.settled {
			t.Errorf("%s: settled %v, want %v", c.name, got, c.settled)
		}
	}
}

// TestTopWordBoostsDecide: every doc weighs the same for "lamp", so the
// boosts alone order the page, ties among them by key: read in boost
// order, the page settles from the lists, and equals the exhaustive one.
func TestTopWordBoostsDecide(t *testing.T) {
	b := index.NewBuilder(an)
	for i := range 5000 {
		d := index.Doc{Key: fmt.Sprintf("P%05d", i), Stored: []byte("{}")}
		d.Text[index.FieldTitle] = []string{"lamp"}
		if err := b.Add(&d); err != nil {
			t.Fatal(err)
		}
	}
	seg := b.Build()
	r := rand.New(rand.NewPCG(1, 9))
	boost := make([]float32, seg.Slots())
	for range 300 {
		boost[r.IntN(len(boost))] = float32(1+r.IntN(20)) / 100 // ties among boosts too
	}
	p := DefaultParams()
	imp := unboundedImpacts(seg, &p)
	bo := NewBoostOrder(boost, seg.Order())
	q := Parse(seg, an, "lamp", Options{})
	all, _, _ := Match(seg, &q)
	check := func(cand *roaring.Bitmap, boost []float32, bo *BoostOrder, k int, mustAnswer bool) {
		t.Helper()
		got, ok := imp.Top(&q, cand, &p, boost, bo, k, nil)
		if !ok {
			if mustAnswer {
				t.Fatalf("k=%d: not answered from the lists", k)
			}
			return
		}
		sc := GetScratch()
		sc.ScoreBM25F(seg, &q, cand, &p, false, boost)
		want := TopNOrdered(sc.Docs, sc.Score, nil, seg.Order(), k, nil)
		PutScratch(sc)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("k=%d: %v from the lists, %v exhaustively", k, got, want)
		}
	}
	for k := 1; k <= 60; k += 7 {
		check(all, boost, bo, k, true)
	}
	// More boosted docs than a BoostOrder keeps (64 here): the kept ones
	// are not candidates, so the best candidates lie past its end,
	// bounded by its Rest ("lamp"'s list is short and complete, read in
	// key order, while boosts rise with the key).
	for d := range boost {
		boost[d] = float32(d) / 10000
		if d < 100 {
			boost[d] = 0.9
		}
	}
	cand := roaring.New()
	cand.AddRange(100, 700)
	check(cand, boost, newBoostOrder(boost, seg.Order(), 64), 10, false)
}

// TestTopAnswersPagesUpToMaxTop: Top answers a page of 1 to maxTop
// hits, as exhaustively, and leaves a deeper page (or none) to
// exhaustive scoring. Every doc weighs the same for "lamp": the page is
// the first k in key order.
func TestTopAnswersPagesUpToMaxTop(t *testing.T) {
	titles := make([]string, 2000)
	for i := range titles {
		titles[i] = "lamp"
	}
	seg := segment(t, titles...)
	p := DefaultParams()
	imp := unboundedImpacts(seg, &p)
	q := Parse(seg, an, "lamp", Options{})
	all, _, _ := Match(seg, &q)
	for _, k := range []int{0, 1, maxTop, maxTop + 1} {
		got, ok := imp.Top(&q, all, &p, nil, nil, k, nil)
		if want := k >= 1 && k <= maxTop; ok != want {
			t.Fatalf("k=%d: answered %v, want %v", k, ok, want)
		}
		if !ok {
			continue
		}
		sc := GetScratch()
		sc.ScoreBM25F(seg, &q, all, &p, false, nil)
		want := TopNOrdered(sc.Docs, sc.Score, nil, seg.Order(), k, nil)
		PutScratch(sc)
		if !slices.Equal(got, want) {
			t.Fatalf("k=%d: %v from the lists, %v exhaustively", k, got, want)
		}
	}
	// The ties settle once the page is read: within a read budget of
	// four reads a hit.
	budget := NewImpacts(seg, &p)
	for _, k := range []int{1, 10} {
		if _, ok := budget.Top(&q, all, &p, nil, nil, k, nil); !ok {
			t.Fatalf("k=%d: a page of ties not answered within the read budget", k)
		}
	}
}

// TestTopPagesPastTheWeighedDocs: once every doc a route weighs is
// read, Top answers a page they fill or that holds every candidate,
// and leaves to exhaustive scoring one that candidates of no weight
// (matched in a field of weight 0) would fill. "lamp" is in 10 titles
// and 5 descriptions, weighted 0.
func TestTopPagesPastTheWeighedDocs(t *testing.T) {
	b := index.NewBuilder(an)
	for i := range 40 {
		d := index.Doc{Key: fmt.Sprintf("P%05d", i), Stored: []byte("{}")}
		switch {
		case i < 10:
			d.Text[index.FieldTitle] = []string{"lamp"}
		case i < 15:
			d.Text[index.FieldTitle] = []string{"chair"}
			d.Text[index.FieldDescription] = []string{"lamp"}
		default:
			d.Text[index.FieldTitle] = []string{"chair"}
		}
		if err := b.Add(&d); err != nil {
			t.Fatal(err)
		}
	}
	seg := b.Build()
	p := DefaultParams()
	p.Weights[index.FieldDescription] = 0
	imp := unboundedImpacts(seg, &p)
	for _, c := range []struct {
		fields   index.FieldMask
		k        int
		answered bool
	}{
		{0, 10, true},                       // the 10 titles fill it
		{0, 12, false},                      // 2 descriptions' 0 would
		{index.FieldTitle.Mask(), 20, true}, // every candidate read
	} {
		q := Parse(seg, an, "lamp", Options{Fields: c.fields})
		all, _, _ := Match(seg, &q)
		got, ok := imp.Top(&q, all, &p, nil, nil, c.k, nil)
		if ok != c.answered {
			t.Fatalf("fields %b, k=%d: answered %v, want %v", c.fields, c.k, ok, c.answered)
		}
		if !ok {
			continue
		}
		sc := GetScratch()
		sc.ScoreBM25F(seg, &q, all, &p, false, nil)
		want := TopNOrdered(sc.Docs, sc.Score, nil, seg.Order(), c.k, nil)
		PutScratch(sc)
		if !slices.Equal(got, want) {
			t.Fatalf("fields %b, k=%d: %v from the lists, %v exhaustively", c.fields, c.k, got, want)
		}
	}
}

// TestTopReadBudget: Top gives up past its read budget, four reads a
// hit here (ReadCost's share of these few postings is less): a page of
// one settled by its fourth read is answered, one still tied after it
// is not. In the first catalog "lamp" and "shade" each weigh most in a
// title of their own, then in "lamp shade", which scores most, then in
// longer titles; in the second every title is "lamp shade".
func TestTopReadBudget(t *testing.T) {
	first := []string{"lamp", "shade", "lamp shade"}
	for range 20 {
		first = append(first, "lamp brass brass brass brass", "shade brass brass brass brass")
	}
	second := make([]string, 50)
	for i := range second {
		second[i] = "lamp shade"
	}
	for _, c := range []struct {
		titles   []string
		answered bool
	}{{first, true}, {second, false}} {
		seg := segment(t, c.titles...)
		p := DefaultParams()
		imp := NewImpacts(seg, &p)
		q := Parse(seg, an, "lamp shade", Options{})
		all, _, _ := Match(seg, &q)
		got, ok := imp.Top(&q, all, &p, nil, nil, 1, nil)
		if ok != c.answered {
			t.Fatalf("%q…: answered %v, want %v", c.titles[:3], ok, c.answered)
		}
		if !ok {
			continue
		}
		sc := GetScratch()
		sc.ScoreBM25F(seg, &q, all, &p, false, nil)
		want := TopNOrdered(sc.Docs, sc.Score, nil, seg.Order(), 1, nil)
		PutScratch(sc)
		if !slices.Equal(got, want) || seg.Key(got[0].Doc) != "SKU-2" {
			t.Fatalf("%v from the lists, %v exhaustively; want SKU-2 first", got, want)
		}
	}
}

// TestTopSortsShortRoutesUpToMaxShortDocs: Top sorts the routes under
// ImpactMinDocs docs for the search while their docs number at most
// maxShortDocs, and leaves a search with more to exhaustive scoring; a
// route in ImpactMinDocs docs has a kept list and does not count. The
// prefix "lamp" completes to eight words in 1,023 titles each and one
// in n.
func TestTopSortsShortRoutesUpToMaxShortDocs(t *testing.T) {
	short := 8 * (ImpactMinDocs - 1)
	for _, c := range []struct {
		n        int
		answered bool
	}{
		{maxShortDocs - short, true},
		{maxShortDocs - short + 1, false},
		{ImpactMinDocs, true},
	} {
		var titles []string
		for i, w := range strings.Fields("lampa lampb lampc lampd lampe lampf lampg lamph") {
			for range ImpactMinDocs - 1 {
				titles = append(titles, w)
			}
			if i == 0 {
				for range c.n {
					titles = append(titles, "lampi")
				}
			}
		}
		seg := segment(t, titles...)
		p := DefaultParams()
		imp := unboundedImpacts(seg, &p)
		q := Parse(seg, an, "lamp", Options{PrefixLast: true})
		if len(q.Words) != 1 || len(q.Words[0].Exp) != 9 {
			t.Fatalf("lamp: %+v, want one word of nine routes", q.Words)
		}
		all, _, _ := Match(seg, &q)
		got, ok := imp.Top(&q, all, &p, nil, nil, 10, nil)
		if ok != c.answered {
			t.Fatalf("lampi in %d docs: answered %v, want %v", c.n, ok, c.answered)
		}
		if !ok {
			continue
		}
		sc := GetScratch()
		sc.ScoreBM25F(seg, &q, all, &p, false, nil)
		want := TopNOrdered(sc.Docs, sc.Score, nil, seg.Order(), 10, nil)
		PutScratch(sc)
		if !slices.Equal(got, want) {
			t.Fatalf("lampi in %d docs: %v from the lists, %v exhaustively", c.n, got, want)
		}
	}
}

// TestTopBuildsListsInTheBackground: in Background mode a search whose
// long route has no list yet is not answered from the lists (so it waits
// for no build), a background thread builds the list, and the searches
// after it are answered, as exhaustively; Warm queues every long list.
func TestTopBuildsListsInTheBackground(t *testing.T) {
	b := index.NewBuilder(an)
	for i := range 3000 {
		d := index.Doc{Key: fmt.Sprintf("P%05d", i), Stored: []byte("{}")}
		d.Text[index.FieldTitle] = []string{[]string{"lamp", "lamp shade", "desk lamp", "chair"}[i%4]}
		if err := b.Add(&d); err != nil {
			t.Fatal(err)
		}
	}
	seg := b.Build()
	p := DefaultParams()
	q := Parse(seg, an, "lamp", Options{})
	all, _, _ := Match(seg, &q)
	answered := func(imp *Impacts) bool {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			if got, ok := imp.Top(&q, all, &p, nil, nil, 10, nil); ok {
				sc := GetScratch()
				sc.ScoreBM25F(seg, &q, all, &p, false, nil)
				want := TopNOrdered(sc.Docs, sc.Score, nil, seg.Order(), 10, nil)
				PutScratch(sc)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%v from the lists, %v exhaustively", got, want)
				}
				return true
			}
			time.Sleep(time.Millisecond)
		}
		return false
	}
	imp := unboundedImpacts(seg, &p)
	imp.Background = true
	threads := background.Started()
	if _, ok := imp.Top(&q, all, &p, nil, nil, 10, nil); ok {
		t.Fatal("answered before the list was built: the search waited for it")
	}
	if !answered(imp) {
		t.Fatal("the list was never built")
	}
	if background.Started() == threads {
		t.Fatal("no background thread built the list")
	}
	warm := unboundedImpacts(seg, &p)
	warm.Background = true
	if warm.Warming() {
		t.Fatal("warming before Warm")
	}
	warm.Warm()
	lamp, _ := seg.Term("lamp")
	deadline := time.Now().Add(10 * time.Second)
	for warm.Warming() {
		if time.Now().After(deadline) {
			t.Fatal("Warm did not finish")
		}
		time.Sleep(time.Millisecond)
	}
	if !warm.Built(lamp) {
		t.Fatal("Warm finished without building the list of a term in 1,024 docs or more")
	}
	if _, ok := warm.Top(&q, all, &p, nil, nil, 10, nil); !ok {
		t.Fatal("not answered from a warmed list")
	}
}

// TestTopAllocatesNothingPerDoc: reading the lists allocates per search
// (the routes' bookkeeping), never per doc met: the same for 4,000
// candidates as for 40,000, and a handful, short routes sorted for the
// search included.
func TestTopAllocatesNothingPerDoc(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop Top's scratch at random: allocation counts mean nothing")
	}
	seg, q, sets := matchSets(t)
	p := DefaultParams()
	imp := unboundedImpacts(seg, &p)
	hits := make([]Hit, 0, 20)
	var allocs []float64
	for _, name := range []string{"4000", "40000"} {
		cand := sets[name]
		if _, ok := imp.Top(q, cand, &p, nil, nil, 20, hits); !ok { // builds the list, warms the scratch
			t.Fatalf("%s candidates: not answered from the lists", name)
		}
		allocs = append(allocs, testing.AllocsPerRun(20, func() { hits, _ = imp.Top(q, cand, &p, nil, nil, 20, hits[:0]) }))
	}
	if allocs[0] != allocs[1] || allocs[1] > 2 {
		t.Fatalf("allocations per search: %v with 4,000 candidates, %v with 40,000; want the same, at most 2", allocs[0], allocs[1])
	}
	// Short routes, sorted for the search, reuse the scratch's lists.
	cat := newRandomCatalog(t, rand.New(rand.NewPCG(1, 2)), "drill lamp door doorbell doorstop garden hose", 3000, 4, 1, 8, nil, "doorstopper")
	q = &Query{}
	*q = Parse(cat.live, an, "doorst", Options{PrefixLast: true})
	all, _, _ := Match(cat.live, q)
	short := unboundedImpacts(cat.live, &p)
	if _, ok := short.Top(q, all, &p, nil, nil, 20, hits); !ok || len(q.Words[0].Exp) != 2 || cat.live.DocFreq(q.Words[0].Exp[1].Term) >= ImpactMinDocs {
		t.Fatal(`"doorst" is not answered from a long list ("doorstop") and a short one ("doorstopp")`)
	}
	if got := testing.AllocsPerRun(20, func() { hits, _ = short.Top(q, all, &p, nil, nil, 20, hits[:0]) }); got > 2 {
		t.Fatalf("allocations per search with short routes: %v, want at most 2", got)
	}
}

// TestTopRelaxedRoundsLikeTheScore: a relaxed search whose other word
// matches nothing is read from its one word's list, and the bonus each
// matched word adds rounds: docs whose boosted scores differ by less
// than the bonus's last place become equal, and equal scores go in key
// order. Here every lamp's title is the same and each doc is boosted a
// little more than the one before it in key order, by about that much,
// so the page's order after the bonus is not the order before it.
func TestTopRelaxedRoundsLikeTheScore(t *testing.T) {
	b := index.NewBuilder(an)
	for i := range 30000 { // a lamp in one title of ten: scores near 2.5
		d := index.Doc{Key: fmt.Sprintf("P%05d", i), Stored: []byte("{}")}
		d.Text[index.FieldTitle] = []string{"chair"}
		if i%10 == 0 {
			d.Text[index.FieldTitle] = []string{"lamp shade"}
		}
		if err := b.Add(&d); err != nil {
			t.Fatal(err)
		}
	}
	seg := b.Build()
	boost := make([]float32, seg.Slots())
	for d := range boost {
		boost[d] = 0.01 + float32(d)*2e-7 // apart before the bonus, not always after
	}
	p := DefaultParams()
	imp := unboundedImpacts(seg, &p)
	bo := NewBoostOrder(boost, seg.Order())
	q := Parse(seg, an, "qzxv lamp", Options{})
	all, _, relaxed := Match(seg, &q)
	if !relaxed {
		t.Fatal("the search is not relaxed")
	}
	answered, reordered := 0, 0
	for k := 1; k <= 60; k++ {
		got, ok := imp.TopRelaxed(&q, all, &p, boost, bo, k, nil)
		sc := GetScratch()
		sc.ScoreBM25F(seg, &q, all, &p, true, boost)
		want := TopNOrdered(sc.Docs, sc.Score, nil, seg.Order(), k, nil)
		PutScratch(sc)
		if !ok {
			continue
		}
		answered++
		if !slices.Equal(got, want) {
			t.Fatalf("k=%d: %v from the lists, %v exhaustively", k, got, want)
		}
		for i := 1; i < len(got); i++ {
			if got[i].Doc > got[i-1].Doc { // boosted more, after: put in key order by the rounding
				reordered++
				break
			}
		}
	}
	if answered < 10 || reordered == 0 {
		t.Fatalf("%d pages answered, %d put in key order by the rounding: the test shows nothing", answered, reordered)
	}
}

// TestTopRelaxedAnswers: TopRelaxed answers a relaxed search whose
// words but one match nothing, whichever word that is and whatever the
// page's size up to the docs that word matches, as exhaustively; and
// not one of two words with routes, nor one whose page ties every doc
// it reads (the page's last could tie docs not read). "lamp" is in 60
// titles of distinct lengths in the first catalog, in 100 alike in the
// second.
func TestTopRelaxedAnswers(t *testing.T) {
	distinct, alike := make([]string, 1060), make([]string, 1100)
	for i := range distinct {
		distinct[i] = "chair"
		if i < 60 {
			distinct[i] = "lamp" + strings.Repeat(" shade", i)
		}
	}
	for i := range alike {
		alike[i] = "chair"
		if i < 100 {
			alike[i] = "lamp"
		}
	}
	segs := []*index.Segment{segment(t, distinct...), segment(t, alike...)}
	for _, c := range []struct {
		seg      int
		phrase   string
		k        int
		answered bool
	}{
		{0, "qzxv lamp", 1, true},
		{0, "lamp qzxv", 1, true},
		{0, "lamp qzxv", 10, true},
		{0, "qzxv lamp", 60, true},
		{0, "chair lamp qzxv", 10, false},
		{1, "qzxv lamp", 10, false},
	} {
		seg := segs[c.seg]
		p := DefaultParams()
		imp := unboundedImpacts(seg, &p)
		q := Parse(seg, an, c.phrase, Options{})
		all, _, relaxed := Match(seg, &q)
		if !relaxed {
			t.Fatalf("%q: not relaxed", c.phrase)
		}
		got, ok := imp.TopRelaxed(&q, all, &p, nil, nil, c.k, nil)
		if ok != c.answered {
			t.Fatalf("%q k=%d (catalog %d): answered %v, want %v", c.phrase, c.k, c.seg, ok, c.answered)
		}
		if !ok {
			continue
		}
		sc := GetScratch()
		sc.ScoreBM25F(seg, &q, all, &p, true, nil)
		want := TopNOrdered(sc.Docs, sc.Score, nil, seg.Order(), c.k, nil)
		PutScratch(sc)
		if !slices.Equal(got, want) {
			t.Fatalf("%q k=%d: %v from the lists, %v exhaustively", c.phrase, c.k, got, want)
		}
	}
}

// unboundedImpacts is seg's impact lists under p with no read budget:
// the tests' catalogs are small, and their lists are to be read whatever
// that costs.
func unboundedImpacts(seg *index.Segment, p *Params) *Impacts {
	imp := NewImpacts(seg, p)
	imp.ReadCost = 0
	return imp
}
