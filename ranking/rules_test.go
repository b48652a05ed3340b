package ranking

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/index"
)

// The tests in this file each cover one rule of docs/decisions.md
// ("Search" section) at the ranking level: Parse, Match, ScoreBM25F and
// TopN run as the engine runs them, and the test reads which products
// come back in which order.

// item is one product of a test shop: its product number, title and the
// variant numbers that also find it exactly.
type item struct {
	key, title string
	variants   []string
}

// shop indexes items as the engine does for products: the title, and the
// product number as text. Doc ids follow product-number order whatever
// order items come in.
func shop(t testing.TB, items ...item) *index.Segment {
	t.Helper()
	b := index.NewBuilder(an)
	for _, it := range items {
		d := index.Doc{Key: it.key, AltKeys: it.variants, Stored: []byte("{}")}
		d.Text[index.FieldTitle] = []string{it.title}
		d.Text[index.FieldProductNumber] = []string{it.key}
		if err := b.Add(&d); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

// titled is one item per title, numbered P000, P001, … in title order.
func titled(titles ...string) []item {
	items := make([]item, len(titles))
	for i, title := range titles {
		items[i] = item{key: fmt.Sprintf("P%03d", i), title: title}
	}
	return items
}

// result is what one search found.
type result struct {
	keys    []string // every matched product, best first
	direct  []string // those matched without a synonym, in product-number order
	relaxed bool
}

func run(t testing.TB, seg *index.Segment, phrase string, opt Options) result {
	t.Helper()
	q := Parse(seg, an, phrase, opt)
	all, direct, relaxed := Match(seg, &q)
	var sc Scratch
	p := DefaultParams()
	sc.ScoreBM25F(seg, &q, all, &p, relaxed, nil)
	r := result{relaxed: relaxed}
	for _, h := range TopN(sc.Docs, sc.Score, nil, len(sc.Docs), nil) {
		r.keys = append(r.keys, seg.Key(h.Doc))
	}
	for _, d := range direct.ToArray() {
		r.direct = append(r.direct, seg.Key(d))
	}
	return r
}

// stable fails the test unless every word analyses to itself: the
// boundary tests count a word's letters, and a stemmer that shortened
// one would move it across the boundary silently.
func stable(t *testing.T, words ...string) {
	t.Helper()
	for _, w := range words {
		toks := an.Analyze(nil, w)
		if len(toks) != 1 || toks[0].Term != w || toks[0].Folded != w {
			t.Fatalf("%q analyses to %+v, want itself: pick another word for this test", w, toks)
		}
	}
}

// TestEveryWordMustMatchFromTenFullMatches: docs/decisions.md "Matching":
// "Every query word must match … When fewer than 10 products match every
// word of a multi-word query, products matching some of the words follow
// them".
func TestEveryWordMustMatchFromTenFullMatches(t *testing.T) {
	for _, tc := range []struct {
		full        int // products holding both words
		wantRelaxed bool
	}{
		{full: 11},
		{full: 10},
		{full: 9, wantRelaxed: true},
		{full: 1, wantRelaxed: true},
		{full: 0, wantRelaxed: true},
	} {
		var titles []string
		for i := range tc.full {
			titles = append(titles, fmt.Sprintf("cordless drill model%c", 'a'+i))
		}
		titles = append(titles, "cordless screwdriver", "hammer drill")
		items := titled(titles...)
		partial := []string{items[tc.full].key, items[tc.full+1].key}
		r := run(t, shop(t, items...), "cordless drill", Options{})
		if r.relaxed != tc.wantRelaxed {
			t.Errorf("%d full matches: relaxed %v, want %v", tc.full, r.relaxed, tc.wantRelaxed)
		}
		want := tc.full
		if tc.wantRelaxed {
			want += len(partial)
		}
		if len(r.keys) != want {
			t.Errorf("%d full matches: found %v, want %d products", tc.full, r.keys, want)
			continue
		}
		for i, k := range r.keys {
			if isPartial := slices.Contains(partial, k); isPartial != (i >= tc.full) {
				t.Errorf("%d full matches: %s at %d in %v: products matching every word come first", tc.full, k, i, r.keys)
			}
		}
	}
}

// TestOneWordQueryNeverRelaxes: docs/decisions.md "Matching": relaxing is
// for "a multi-word query"; a single word with few matches is not relaxed.
func TestOneWordQueryNeverRelaxes(t *testing.T) {
	seg := shop(t, titled("cordless drill", "table lamp")...)
	for _, phrase := range []string{"drill", "nothing"} {
		if r := run(t, seg, phrase, Options{}); r.relaxed {
			t.Errorf("%q: relaxed with %v", phrase, r.keys)
		}
	}
}

// TestRelaxedMoreMatchedWordsFirst: docs/decisions.md "Matching": partial
// matches follow, "those matching more words first", even when a product
// matching fewer words holds a rarer word many times.
func TestRelaxedMoreMatchedWordsFirst(t *testing.T) {
	var titles []string
	for i := range 30 { // common words: a low IDF
		titles = append(titles, fmt.Sprintf("steel drill set item%c%c", 'a'+i/26, 'a'+i%26))
	}
	titles = append(titles,
		"rare steel drill",              // all three words: first
		"rare rare rare rare",           // one word, rare and repeated
		"steel drill long title filler", // two common words
	)
	items := titled(titles...)
	r := run(t, shop(t, items...), "rare steel drill", Options{})
	if !r.relaxed {
		t.Fatalf("not relaxed: %v", r.keys)
	}
	all3, one, two := items[30].key, items[31].key, items[32].key
	pos := func(k string) int { return slices.Index(r.keys, k) }
	if pos(all3) != 0 || pos(two) < 0 || pos(one) < 0 || pos(two) > pos(one) {
		t.Fatalf("ranked %v: want %s (3 words) first and %s (2 words) before %s (1 word)", r.keys, all3, two, one)
	}
	// Every two-word product comes before the one-word one.
	if pos(one) != len(r.keys)-1 {
		t.Fatalf("ranked %v: the one-word product %s must come last", r.keys, one)
	}
}

// TestStopWordsOptionalWhenRelaxed: docs/decisions.md "Matching": with
// OptionalStopWords, a relaxed query's function words do not count among
// the words a product matches, and a product matching only them is not
// a match; without it they count as any word.
func TestStopWordsOptionalWhenRelaxed(t *testing.T) {
	items := titled(
		"brass mail slot",            // the two words that say what it is
		"mail box with lock and key", // one of them, and two stop words
		"with and the",               // stop words only
	)
	seg := shop(t, items...)
	const q = "mail slot with and "
	on := run(t, seg, q, Options{OptionalStopWords: true})
	if !on.relaxed || !slices.Equal(on.keys, []string{items[0].key, items[1].key}) {
		t.Errorf("optional stop words: %v, want %s (two words) then %s (one; its stop words do not count), and not %s (stop words only)",
			on.keys, items[0].key, items[1].key, items[2].key)
	}
	off := run(t, seg, q, Options{})
	if len(off.keys) != 3 || off.keys[0] != items[1].key {
		t.Errorf("stop words counted: %v, want %s (three of the words, stop words too) first, and all three found", off.keys, items[1].key)
	}
}

// TestAsYouTypeLastWordIsPrefix: docs/decisions.md "As-you-type": "The last
// word also matches as a prefix unless the query ends in a space." Only
// the last word, and from two letters (runes, not bytes).
func TestAsYouTypeLastWordIsPrefix(t *testing.T) {
	items := titled("cordless drill", "table lamp", "дрель ударная", "d")
	seg := shop(t, items...)
	on := Options{PrefixLast: true}
	for _, tc := range []struct {
		phrase string
		opt    Options
		want   []string
	}{
		{"dri", on, []string{"P000"}},
		{"dri ", on, nil},            // ends in a space
		{"dri", Options{}, nil},      // prefix matching off in the configuration
		{"dr", on, []string{"P000"}}, // two letters
		{"d", on, []string{"P003"}},  // one letter: only the word itself
		{"др", on, []string{"P002"}}, // two letters of two bytes each
		{"д", on, nil},               // one letter of two bytes
		{"cordless dril", on, []string{"P000"}},
		{"tab lamp", on, []string{"P001"}}, // "tab" is not the last word; relaxed to lamp alone
	} {
		r := run(t, seg, tc.phrase, tc.opt)
		if !slices.Equal(r.keys, tc.want) {
			t.Errorf("%q (prefix %v): found %v, want %v", tc.phrase, tc.opt.PrefixLast, r.keys, tc.want)
		}
	}

	// With ten products holding both words a search is strict: a first
	// word typed in part matches nothing, so the search relaxes.
	var titles []string
	for i := range 10 {
		titles = append(titles, fmt.Sprintf("cordless drill model%c", 'a'+i))
	}
	seg = shop(t, titled(titles...)...)
	for _, tc := range []struct {
		phrase      string
		wantRelaxed bool
	}{
		{"cordless dril", false},
		{"cordl drill", true},
	} {
		if r := run(t, seg, tc.phrase, on); r.relaxed != tc.wantRelaxed || len(r.keys) != 10 {
			t.Errorf("%q: relaxed %v with %v, want relaxed %v", tc.phrase, r.relaxed, r.keys, tc.wantRelaxed)
		}
	}
}

// TestPrefixExpandsToAtMost32Words: a prefix expands to the first 32 words
// of the catalog starting with it (ranking/query.go maxPrefixExp); the
// typed word itself is matched exactly and does not take one of them.
func TestPrefixExpandsToAtMost32Words(t *testing.T) {
	var titles []string
	for i := range 40 {
		titles = append(titles, fmt.Sprintf("zorbx%c%c", 'a'+i/10, 'a'+i%10))
	}
	seg := shop(t, titled(titles...)...)
	r := run(t, seg, "zorb", Options{PrefixLast: true})
	if want := titled(titles[:32]...); len(r.keys) != 32 || !slices.Equal(sorted(r.keys), keys(want)) {
		t.Fatalf("%q found %d products %v, want the first 32 in word order", "zorb", len(r.keys), r.keys)
	}

	// The word as typed exists: it is found exactly, and 32 completions
	// follow it.
	withWord := append([]string{"zorb"}, titles...)
	seg = shop(t, titled(withWord...)...)
	r = run(t, seg, "zorb", Options{PrefixLast: true})
	if len(r.keys) != 33 || r.keys[0] != "P000" {
		t.Fatalf("%q found %d products %v, want P000 first and 32 completions", "zorb", len(r.keys), r.keys)
	}
}

func keys(items []item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.key
	}
	return out
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// TestTypoEditsByWordLength: docs/decisions.md "Typos": "One edit from 5
// letters, two from 9 (transpositions count as one), counted on the
// word's stem (lamps is lamp, 4 letters); never for words containing
// digits." Letters are runes, not bytes.
func TestTypoEditsByWordLength(t *testing.T) {
	words := []string{"lamp", "brush", "keyboard", "sprinkler", "ключ", "дрель", "brutx", "keyboardx"}
	stable(t, words...)
	// The rows that count on the stem: one letter shorter than typed.
	for typed, stem := range map[string]string{"lamxs": "lamx", "bruts": "brut", "keyboaxds": "keyboaxd", "kexboaxds": "kexboaxd"} {
		if got := an.Analyze(nil, typed)[0].Term; got != stem {
			t.Fatalf("%q stems to %q, want %q: pick another word for this test", typed, got, stem)
		}
	}
	seg := shop(t, titled(words...)...)
	for _, tc := range []struct {
		phrase string
		want   string // the product found, "" for none
	}{
		{"lamx", ""},            // 4 letters, 1 substitution: no typos under 5
		{"brsh", ""},            // 4 letters typed (a deletion from brush): none
		{"brosh", "P001"},       // 5 letters, 1 substitution
		{"bursh", "P001"},       // 5 letters, 1 transposition
		{"brushy", "P001"},      // 6 letters, 1 insertion
		{"borsh", ""},           // 5 letters, 2 edits
		{"keyboaxd", "P002"},    // 8 letters, 1 edit
		{"keybaord", "P002"},    // 8 letters, 1 transposition
		{"kexboaxd", ""},        // 8 letters, 2 edits: two only from 9
		{"sprinkxxr", "P003"},   // 9 letters, 2 substitutions
		{"sprinkelx", "P003"},   // 9 letters, a transposition and a substitution
		{"spirnkelr", "P003"},   // 9 letters, two transpositions
		{"sprinxxxr", ""},       // 9 letters, 3 edits
		{"sprinklerxx", "P003"}, // 11 letters, 2 insertions
		{"клюк", ""},            // 4 letters (8 bytes), 1 edit
		{"дрелб", "P005"},       // 5 letters, 1 edit
		{"brus1", ""},           // a digit: never corrected
		{"brush1", ""},          // a digit: never corrected
		{"lamxs", ""},           // 5 letters typed, stem lamx has 4
		{"bruts", ""},           // stem brut has 4 letters: not brutx, 1 edit from bruts
		{"keyboaxds", "P002"},   // stem keyboaxd: 8 letters, 1 edit from keyboard, 2 from keyboardx
		{"kexboaxds", ""},       // 9 letters typed, stem kexboaxd has 8: 2 edits is too many
	} {
		r := run(t, seg, tc.phrase, Options{})
		var want []string
		if tc.want != "" {
			want = []string{tc.want}
		}
		if !slices.Equal(r.keys, want) {
			t.Errorf("%q found %v, want %v", tc.phrase, r.keys, want)
		}
	}
}

// TestTyposOnlyWithoutExactOrPrefix: docs/decisions.md "Typos": "Typo
// routes are tried only when a word has no exact or prefix match."
func TestTyposOnlyWithoutExactOrPrefix(t *testing.T) {
	stable(t, "brush", "blush", "brisk", "brist", "brusk", "brusj")
	seg := shop(t, titled("brush", "blush", "brisk", "bristlecone")...)
	for _, tc := range []struct {
		phrase string
		opt    Options
		want   []string
	}{
		{"brush", Options{}, []string{"P000"}},                  // exact: blush (1 edit) is not tried
		{"brist", Options{PrefixLast: true}, []string{"P003"}},  // prefix of bristlecone: brisk (1 edit) is not tried
		{"brist ", Options{PrefixLast: true}, []string{"P002"}}, // no prefix after a space: brisk by a typo
		{"brist", Options{}, []string{"P002"}},                  // no prefix matching: brisk by a typo
		{"brusk", Options{}, []string{"P000", "P002"}},          // no exact: brush and brisk one edit away
		{"blush brisk", Options{}, []string{"P001", "P002"}},    // exact words, relaxed
		{"blush brusj", Options{}, []string{"P000", "P001"}},    // typos per word: brusj has no exact match
	} {
		r := run(t, seg, tc.phrase, tc.opt)
		if !slices.Equal(sorted(r.keys), tc.want) {
			t.Errorf("%q (prefix %v): found %v, want %v", tc.phrase, tc.opt.PrefixLast, r.keys, tc.want)
		}
	}
}

// TestTypoExpandsToAtMost16Words: a word's typo routes stop at 16 terms
// (ranking/query.go maxTypoExp).
func TestTypoExpandsToAtMost16Words(t *testing.T) {
	var titles []string
	for c := 'a'; c < 'a'+20; c++ {
		titles = append(titles, string(c)+"rusk") // each one substitution from zrusk
	}
	stable(t, titles...)
	seg := shop(t, titled(titles...)...)
	r := run(t, seg, "zrusk", Options{})
	if len(r.keys) != 16 {
		t.Fatalf("zrusk found %d products %v, want 16", len(r.keys), r.keys)
	}
}

// TestTypoFewerEditsFirst: a typo route's weight falls with its edits, so
// of two equally good products the closer spelling comes first.
func TestTypoFewerEditsFirst(t *testing.T) {
	stable(t, "sprinkler", "sprinklog")
	seg := shop(t, titled("sprinklog", "sprinkler")...)
	r := run(t, seg, "sprinklex", Options{}) // 1 edit from sprinkler, 2 from sprinklog
	if want := []string{"P001", "P000"}; !slices.Equal(r.keys, want) {
		t.Fatalf("ranked %v, want %v", r.keys, want)
	}
}

// TestRouteWeightsOrderRanking: ranking/query.go "an exact term beats a
// stemmed prefix … a synonym beats a typo": of products that differ only
// in the route their word matched through, the better route ranks first.
func TestRouteWeightsOrderRanking(t *testing.T) {
	stable(t, "sofa", "couch")
	syn := synonyms(t, config.Synonym{Terms: []string{"sofa", "couch"}}, config.Synonym{From: "settee", Terms: []string{"couch"}})
	// Same title length and document frequency for every word (sofabed,
	// settee and settle stem to sofab, sette and settl).
	seg := shop(t, titled("sofa", "couch", "sofabed", "settle")...)
	for _, tc := range []struct {
		phrase string
		want   []string
	}{
		{"sofa", []string{"P000", "P001", "P002"}}, // exact, then the others
		{"settee", []string{"P001", "P003"}},       // synonym couch before typo settle
		{"couch", []string{"P001", "P000"}},        // exact before synonym
	} {
		r := run(t, seg, tc.phrase, Options{PrefixLast: true, Synonyms: syn})
		if !slices.Equal(r.keys, tc.want) {
			t.Errorf("%q ranked %v, want %v", tc.phrase, r.keys, tc.want)
		}
	}
}

// TestExactProductNumberFirst: docs/decisions.md "Exact product number":
// "A query equal to a product number or variant number puts that product
// first."
func TestExactProductNumberFirst(t *testing.T) {
	seg := shop(t,
		item{key: "AB-100", title: "garden hose"},
		item{key: "AB-200", title: "ab 100 ab 100 hose ab100", variants: []string{"XY-9"}},
		item{key: "AB-300", title: "ab 100 ab100 hose", variants: []string{"VAR-77-RED"}},
		item{key: "ZZ-1", title: "xy 9 xy9 xy9"},
	)
	for _, tc := range []struct {
		phrase string
		first  string
		found  bool // the product is also found when the phrase is not its number
	}{
		{"AB-100", "AB-100", true},
		{"ab-100", "AB-100", true},    // case-insensitive
		{"  Ab-100 ", "AB-100", true}, // surrounding spaces
		{"xy-9", "AB-200", false},     // a variant number, not in any text
		{"var-77-red", "AB-300", false},
	} {
		r := run(t, seg, tc.phrase, Options{PrefixLast: true})
		if len(r.keys) == 0 || r.keys[0] != tc.first {
			t.Errorf("%q ranked %v, want %s first", tc.phrase, r.keys, tc.first)
		}
		if !slices.Contains(r.direct, tc.first) {
			t.Errorf("%q: %s is not a direct match (direct %v)", tc.phrase, tc.first, r.direct)
		}
	}
	// Not the whole phrase: no product number route.
	if r := run(t, seg, "xy-9 hose", Options{}); slices.Contains(r.keys, "AB-200") && r.keys[0] == "AB-200" {
		t.Errorf("%q ranked %v: a phrase holding a variant number is not that number", "xy-9 hose", r.keys)
	}
	q := Parse(seg, an, "ab-100 hose", Options{})
	if q.HasSKU {
		t.Errorf("%q is taken as a product number", "ab-100 hose")
	}
}

// TestExactProductNumberWithSynonyms: the product of an exact number is a
// direct match ("suggestedResult": false) even when another word of the
// search has a synonym, so the direct set is computed apart.
func TestExactProductNumberWithSynonyms(t *testing.T) {
	seg := shop(t,
		item{key: "AR-1", title: "armchair", variants: []string{"SOFA-RED"}},
		item{key: "AR-2", title: "red couch"},
		item{key: "AR-3", title: "red lamp"},
	)
	syn := synonyms(t, config.Synonym{Terms: []string{"sofa", "couch"}})
	r := run(t, seg, "sofa-red", Options{Synonyms: syn})
	if want := []string{"AR-1", "AR-2"}; !slices.Equal(r.keys, want) || !slices.Equal(r.direct, want[:1]) {
		t.Fatalf("ranked %v, direct %v: want %v, with AR-1 direct and AR-2 (found through the synonym couch) not", r.keys, r.direct, want)
	}
}

// TestProductNumberNotRelaxed: a query that is a product number finds
// that product and the products matching all its words, not those
// matching some (docs/decisions.md "Product numbers"): every product of
// a shop whose numbers share a prefix would match one word.
func TestProductNumberNotRelaxed(t *testing.T) {
	items := []item{{key: "AI-000123", title: "drill"}}
	for i := range 20 {
		items = append(items, item{key: fmt.Sprintf("AI-%06d", 200+i), title: "lamp"})
	}
	seg := shop(t, items...)
	r := run(t, seg, "AI-000123", Options{})
	if want := []string{"AI-000123"}; !slices.Equal(r.keys, want) {
		t.Errorf("a product number ranked %v, want %v", r.keys, want)
	}
	// The same words, not a product number: fewer than 10 products
	// match both, so those matching one follow.
	if r := run(t, seg, "AI 000123 lamp", Options{}); len(r.keys) < 20 {
		t.Errorf("a phrase of the same words ranked %d products, want it relaxed to all 21", len(r.keys))
	}
}

// TestTieBreakByProductNumber: docs/decisions.md "Tie-break": "Equal scores
// are ordered by doc id (product-number order), so paging is stable."
func TestTieBreakByProductNumber(t *testing.T) {
	// Fed out of order; equal titles score equally.
	var items []item
	for _, k := range []string{"K07", "K02", "K09", "K01", "K05", "K03", "K08", "K04", "K06"} {
		items = append(items, item{key: k, title: "garden hose"})
	}
	items = append(items, item{key: "K00", title: "hose"}) // shorter: scores higher
	seg := shop(t, items...)
	r := run(t, seg, "hose", Options{})
	want := []string{"K00", "K01", "K02", "K03", "K04", "K05", "K06", "K07", "K08", "K09"}
	if !slices.Equal(r.keys, want) {
		t.Fatalf("ranked %v, want %v", r.keys, want)
	}
	// Pages of any size agree with the full ranking.
	q := Parse(seg, an, "hose", Options{})
	all, _, relaxed := Match(seg, &q)
	var sc Scratch
	p := DefaultParams()
	sc.ScoreBM25F(seg, &q, all, &p, relaxed, nil)
	for k := 1; k <= len(want); k++ {
		var got []string
		for _, h := range TopN(sc.Docs, sc.Score, nil, k, nil) {
			got = append(got, seg.Key(h.Doc))
		}
		if !slices.Equal(got, want[:k]) {
			t.Errorf("top %d: %v, want %v", k, got, want[:k])
		}
	}
}

func synonyms(t *testing.T, entries ...config.Synonym) *Synonyms {
	t.Helper()
	syn, err := NewSynonyms(an, entries)
	if err != nil {
		t.Fatal(err)
	}
	return syn
}

// TestSynonymRoutes: docs/configuration.md "synonyms": "{"terms": [...]}
// finds each term from any other (two-way); {"from": "tv", "terms": [...]}
// is one-way. Terms may be phrases ("pruning shears"): every word of a
// phrase must be in the product. Products found only through a synonym are
// suggestedResult: true"; docs/decisions.md "Multi-word synonyms are
// supported on both sides; a multi-word source is recognised as
// consecutive words of the query."
func TestSynonymRoutes(t *testing.T) {
	items := titled(
		"sofa",                  // P000
		"couch",                 // P001
		"settee",                // P002
		"television",            // P003
		"tv stand",              // P004
		"pruning shears",        // P005
		"shears",                // P006
		"pruning saw",           // P007
		"garden scissors",       // P008
		"scissors for garden",   // P009
		"hedge trimmer",         // P010
		"electric hedge cutter", // P011
		"cutter",                // P012
	)
	seg := shop(t, items...)
	syn := synonyms(t,
		config.Synonym{Terms: []string{"sofa", "couch", "settee"}},                     // two-way, three terms
		config.Synonym{From: "tv", Terms: []string{"television"}},                      // one-way
		config.Synonym{From: "secateurs", Terms: []string{"pruning shears"}},           // one-way to a phrase
		config.Synonym{From: "garden scissors", Terms: []string{"shears"}},             // one-way from a phrase
		config.Synonym{Terms: []string{"hedge trimmer", "hedge cutter"}},               // phrases on both sides
		config.Synonym{From: "clippers", Terms: []string{"garden scissors", "cutter"}}, // a phrase and a word
	)
	for _, tc := range []struct {
		phrase string
		found  []string // in product-number order
		direct []string // the products found without a synonym
	}{
		{"sofa", []string{"P000", "P001", "P002"}, []string{"P000"}},
		{"couch", []string{"P000", "P001", "P002"}, []string{"P001"}},
		{"settee", []string{"P000", "P001", "P002"}, []string{"P002"}},
		{"tv", []string{"P003", "P004"}, []string{"P004"}},
		{"television", []string{"P003"}, []string{"P003"}},                                     // one-way: not back to tv
		{"secateurs", []string{"P005"}, nil},                                                   // both words of the phrase, not shears or pruning alone
		{"pruning shears", []string{"P005", "P006", "P007"}, []string{"P005", "P006", "P007"}}, // not a source: relaxed
		{"shears", []string{"P005", "P006"}, []string{"P005", "P006"}},                         // one-way: not back to garden scissors
		{"garden scissors", []string{"P005", "P006", "P008", "P009"}, []string{"P008", "P009"}},
		{"scissors garden", []string{"P008", "P009"}, []string{"P008", "P009"}}, // not consecutive in this order
		{"hedge trimmer", []string{"P010", "P011"}, []string{"P010"}},
		{"hedge cutter", []string{"P010", "P011"}, []string{"P011"}},
		{"clippers", []string{"P008", "P009", "P011", "P012"}, nil}, // both words of garden scissors, in any order, or cutter
	} {
		r := run(t, seg, tc.phrase, Options{Synonyms: syn})
		if got := sorted(r.keys); !slices.Equal(got, tc.found) {
			t.Errorf("%q found %v, want %v", tc.phrase, got, tc.found)
		}
		if !slices.Equal(r.direct, tc.direct) {
			t.Errorf("%q: direct %v, want %v", tc.phrase, r.direct, tc.direct)
		}
		// A single word found as typed outranks its synonyms.
		if len(tc.direct) == 1 && !strings.Contains(tc.phrase, " ") && r.keys[0] != tc.direct[0] {
			t.Errorf("%q ranked %v: %s, found as typed, must come first", tc.phrase, r.keys, tc.direct[0])
		}
	}
}

// TestSynonymsLongestSourceFirst: a multi-word source wins over a shorter
// one starting at the same word, and words after it are still matched.
func TestSynonymsLongestSourceFirst(t *testing.T) {
	seg := shop(t, titled("shears", "lawn", "garden hose", "rake")...)
	syn := synonyms(t,
		config.Synonym{From: "garden", Terms: []string{"lawn"}},
		config.Synonym{From: "garden scissors", Terms: []string{"shears"}},
	)
	for _, tc := range []struct {
		phrase string
		found  []string
	}{
		{"garden", []string{"P001", "P002"}},
		{"garden scissors", []string{"P000"}},
		{"garden scissors rake", []string{"P000", "P003"}}, // relaxed: the phrase and rake
	} {
		r := run(t, seg, tc.phrase, Options{Synonyms: syn})
		if got := sorted(r.keys); !slices.Equal(got, tc.found) {
			t.Errorf("%q found %v, want %v", tc.phrase, got, tc.found)
		}
	}
}

// TestNewSynonymsRejectsEmptyTerms: a synonym entry whose term or source
// has no searchable word is an error naming the entry.
func TestNewSynonymsRejectsEmptyTerms(t *testing.T) {
	for _, tc := range []struct {
		entry config.Synonym
		want  string
	}{
		{config.Synonym{Terms: []string{"sofa", "!!"}}, `synonyms[1]: "!!" has no searchable word`},
		{config.Synonym{From: " - ", Terms: []string{"sofa"}}, `synonyms[1]: from " - " has no searchable word`},
	} {
		_, err := NewSynonyms(an, []config.Synonym{{Terms: []string{"a", "b"}}, tc.entry})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%+v: error %v, want %q", tc.entry, err, tc.want)
		}
	}
}

// TestSynonymsListEachTargetOnce: a term is not its own synonym, and a
// target listed twice (or reached by two entries) is one route.
func TestSynonymsListEachTargetOnce(t *testing.T) {
	syn := synonyms(t,
		config.Synonym{Terms: []string{"sofa", "couch", "Couch", "sofas"}},
		config.Synonym{From: "sofa", Terms: []string{"couch", "settee"}},
	)
	var got []string
	for _, p := range syn.lookup("sofa") {
		got = append(got, strings.Join(p, " "))
	}
	if want := []string{"couch", "sette"}; !slices.Equal(got, want) {
		t.Fatalf("sofa's synonyms %q, want %q", got, want)
	}
	if syn.maxLen != 1 {
		t.Fatalf("maxLen %d, want 1", syn.maxLen)
	}
}

// TestDirectRouteBeatsSynonymForSuggested: docs/configuration.md
// "synonyms": "Products found only through a synonym are suggestedResult:
// true". A product a word also finds through its prefix or a typo is
// found directly, even when a synonym reaches the same term with a
// higher weight.
func TestDirectRouteBeatsSynonymForSuggested(t *testing.T) {
	seg := shop(t, titled("bed", "bedframe", "brush", "couch")...)
	syn := synonyms(t,
		config.Synonym{Terms: []string{"bed", "bedframe"}},               // bedframe: also bed's prefix completion
		config.Synonym{From: "brusk", Terms: []string{"brush", "couch"}}, // brush: also a typo of brusk
	)
	for _, tc := range []struct {
		phrase string
		found  []string
		direct []string
	}{
		{"bed", []string{"P000", "P001"}, []string{"P000", "P001"}},
		{"bed ", []string{"P000", "P001"}, []string{"P000"}}, // no prefix: bedframe only through the synonym
		{"brusk", []string{"P002", "P003"}, []string{"P002"}},
	} {
		r := run(t, seg, tc.phrase, Options{PrefixLast: true, Synonyms: syn})
		if got := sorted(r.keys); !slices.Equal(got, tc.found) || !slices.Equal(r.direct, tc.direct) {
			t.Errorf("%q found %v, direct %v; want %v, direct %v", tc.phrase, got, r.direct, tc.found, tc.direct)
		}
	}
}

// TestWildcardListsInProductNumberOrder: docs/decisions.md "Empty query":
// "" (or only spaces) is the wildcard, like *; "Default sort": "a
// wildcard without sorting lists the catalog in product-number order".
func TestWildcardListsInProductNumberOrder(t *testing.T) {
	seg := shop(t,
		item{key: "B-2", title: "lamp"},
		item{key: "A-9", title: "drill drill drill"},
		item{key: "C-1", title: "hose"},
		item{key: "A-10", title: "table"},
	)
	want := []string{"A-10", "A-9", "B-2", "C-1"}
	for _, phrase := range []string{"", "*", "   ", " * "} {
		r := run(t, seg, phrase, Options{PrefixLast: true})
		if !slices.Equal(r.keys, want) || !slices.Equal(r.direct, want) || r.relaxed {
			t.Errorf("%q: %v (direct %v, relaxed %v), want %v", phrase, r.keys, r.direct, r.relaxed, want)
		}
	}
}

// TestJoinedTokensOnlyScore: units and dimensions written against their
// number match them written apart (analysis: units), in either
// direction; a query's joined token ("1gal" of "1-gal") is not a word
// the products need; and the last word a product needs is still a
// prefix. want is the products matching every word.
func TestJoinedTokensOnlyScore(t *testing.T) {
	seg := segment(t,
		"Wall Paint 1 gal. White",    // 0
		"Wall Paint 1-gal. White",    // 1
		"Cordless Drill 18 V",        // 2
		"Cordless Drill 18-Volt Kit", // 3
		"Stud 2 in. x 4 in. x 8 ft.", // 4
		"Galvanized Post Base 4x4",   // 5
		"Ceiling Fan 52 in. Brushed", // 6
		"Wall Paint 5 gal. Eggshell", // 7
	)
	opt := Options{PrefixLast: true}
	for _, tc := range []struct {
		phrase string
		want   []string
	}{
		{"1-gal paint ", []string{"SKU-0", "SKU-1"}},
		{"1 gallon paint ", []string{"SKU-0", "SKU-1"}},
		{"18v drill ", []string{"SKU-2", "SKU-3"}},
		{"18 volts drill ", []string{"SKU-2", "SKU-3"}},
		{"2x4 stud ", []string{"SKU-4"}},
		{"4x4 post ", []string{"SKU-5"}},
		{"52in ceiling fan ", []string{"SKU-6"}},
		{"52 inches fan ", []string{"SKU-6"}},
		{"fan 52in bru", []string{"SKU-6"}}, // "bru" ends the words: a prefix
		{"paint 5gal", []string{"SKU-7"}},   // the joined "5gal" last: "gal" is the prefix
	} {
		if got := fullMatches(seg, Parse(seg, an, tc.phrase, opt)); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v match every word, want %v", tc.phrase, got, tc.want)
		}
	}
}

// fullMatches is the product numbers of the products matching every word
// of q, sorted: Match's set before any relaxing.
func fullMatches(seg *index.Segment, q Query) []string {
	var sets []*roaring.Bitmap
	for i := range q.Words {
		sets = append(sets, wordDocs(seg, &q.Words[i], q.Fields, true))
	}
	var out []string
	for _, d := range intersect(sets).ToArray() {
		out = append(out, seg.Key(d))
	}
	return sorted(out)
}

// TestJoinedTokenNotNeeded: every product holding the parts of a joined
// group matches it fully, with or without the joined form: "1-gal paint"
// finds the twelve "1 gal." paints and the one "1-gal." paint without
// relaxing to partial matches.
func TestJoinedTokenNotNeeded(t *testing.T) {
	var titles []string
	for i := range 12 {
		titles = append(titles, fmt.Sprintf("Wall Paint 1 gal. Color %c", 'a'+i))
	}
	titles = append(titles, "Wall Paint 1-gal. White", "Cordless Drill 18-Volt", "Cordless Drill 18V")
	seg := segment(t, titles...)
	for _, tc := range []struct {
		phrase string
		want   uint64
	}{{"1-gal paint ", 13}, {"1gal paint ", 13}, {"18v drill ", 2}} {
		q := Parse(seg, an, tc.phrase, Options{PrefixLast: true})
		all, _, relaxed := Match(seg, &q)
		if n := all.GetCardinality(); n != tc.want || relaxed && tc.want >= relaxBelow {
			t.Errorf("%q: %d products (relaxed %v), want %d matching every word", tc.phrase, n, relaxed, tc.want)
		}
	}
}

// TestCompoundWords: words the catalog writes together match typed apart
// and the other way round (Options.CompoundWords): "lawn mower" finds the
// Lawnmower, "doorknob" the Door Knob; a word with a match as typed is
// not cut, words with digits take no part, and without the option
// neither route exists.
func TestCompoundWords(t *testing.T) {
	seg := segment(t,
		"Lawnmower Blade",        // 0
		"Lawn Mower Cover",       // 1
		"Brass Door Knob Set",    // 2
		"Doorknob Lock",          // 3
		"Garden Hose Reel 50 ft", // 4
		"Doghouse Roof",          // 5
		"Sun Hat Straw",          // 6
		"Door Mat Coir",          // 7
		"Carmat Rubber",          // 8
	)
	on, off := Options{CompoundWords: true}, Options{}
	for _, tc := range []struct {
		phrase string
		opt    Options
		want   []string // matching every word, sorted
	}{
		{"lawn mower ", on, []string{"SKU-0", "SKU-1"}},
		{"lawnmower ", on, []string{"SKU-0"}}, // matched as typed: not cut
		{"doorknob ", on, []string{"SKU-3"}},
		{"doorknobs ", on, []string{"SKU-3"}},
		{"door knob ", on, []string{"SKU-2", "SKU-3"}},
		{"hosereel ", on, []string{"SKU-4"}},
		{"dog house ", on, []string{"SKU-5"}}, // a word of 3 bytes joins
		{"car mat ", on, []string{"SKU-8"}},   // and two
		{"sunhat ", on, []string{"SKU-6"}},    // a word of 6 bytes is cut
		{"doormat ", on, []string{"SKU-7"}},   // at its last cut, leaving 3
		{"zzzzzzzz ", on, nil},                // no cut holds two terms
		{"lawn mower ", off, []string{"SKU-1"}},
		{"hosereel ", off, nil},
	} {
		got := fullMatches(seg, Parse(seg, an, tc.phrase, tc.opt))
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q (compounds %v): %v, want %v", tc.phrase, tc.opt.CompoundWords, got, tc.want)
		}
	}
}

// TestRareWordTypos: docs/decisions.md "Typos": a word that exists as
// typed but in few products (at most rareTypoMaxDocs) beside a typo of
// it in rareTypoRatio times as many also matches the typo, after the
// products that hold it as typed; a common word, a typo not common
// enough, or the option off takes no such route.
func TestRareWordTypos(t *testing.T) {
	titles := []string{"Toiled Soil Sack"} // "toiled", stemmed "toil": one product
	for range 60 {
		titles = append(titles, "Toilet Seat")
	}
	for range 30 {
		titles = append(titles, "Garden Spade")
	}
	titles = append(titles, "Garden Spode") // "spode": one product, "spade" in 30
	for range 25 {
		titles = append(titles, "Brass Lamb") // "lamb": 25 products, over the 20 checked
	}
	for range 2000 {
		titles = append(titles, "Brass Lamp") // one typo from "lamb", 80 times as many
	}
	for range 20 {
		titles = append(titles, "Brass Lame") // "lame": 20 products, checked; "lamp" in 100 times as many
	}
	for range 50 {
		titles = append(titles, "Garden Rake")
	}
	titles = append(titles, "Garden Rike") // "rike": one product, "rake" in exactly 50 times as many
	seg := shop(t, titled(titles...)...)
	on := Options{TypedTypos: true, RareWordTypos: true}
	off := on
	off.RareWordTypos = false
	for _, tc := range []struct {
		phrase string
		opt    Options
		want   int    // products matched
		first  string // the best match
	}{
		{"toiled", on, 61, "P000"},                          // the word as typed first, then the toilets
		{"toiled", off, 1, "P000"},                          // option off
		{"spode", on, 1, "P091"},                            // "spade" is in 30, not 50 times as many
		{"lamb", on, 25, ""},                                // not rare enough to be checked
		{"lame", on, 2020, ""},                              // rare enough; "lamb" in 25 is not 50 times as many
		{"rike", on, 51, ""},                                // "rake" in 50: just enough
		{"toiled", Options{RareWordTypos: true}, 1, "P000"}, // needs typed typos
	} {
		r := run(t, seg, tc.phrase, Options{PrefixLast: false, TypedTypos: tc.opt.TypedTypos, RareWordTypos: tc.opt.RareWordTypos})
		if len(r.keys) != tc.want || tc.first != "" && r.keys[0] != tc.first {
			t.Errorf("%q %+v: %d matches, first %v; want %d, first %s", tc.phrase, tc.opt, len(r.keys), r.keys[:min(1, len(r.keys))], tc.want, tc.first)
		}
	}
}

// TestRareWordTyposCountTheSearchedFields: whether a word is rare, and
// its typo common, is counted in the fields searched. "rike" is in one
// title and 30 descriptions, "rake" in 60 titles.
func TestRareWordTyposCountTheSearchedFields(t *testing.T) {
	b := index.NewBuilder(an)
	n := 0
	add := func(title, desc string) {
		d := index.Doc{Key: fmt.Sprintf("P%03d", n), Stored: []byte("{}")}
		n++
		d.Text[index.FieldTitle] = []string{title}
		d.Text[index.FieldDescription] = []string{desc}
		if err := b.Add(&d); err != nil {
			t.Fatal(err)
		}
	}
	add("Garden Rike", "")
	for range 30 {
		add("Box", "rike")
	}
	for range 60 {
		add("Garden Rake", "")
	}
	seg := b.Build()
	for _, tc := range []struct {
		fields index.FieldMask
		want   int
	}{
		{index.FieldTitle.Mask(), 61}, // rare in titles: the rakes too
		{0, 31},                       // in 31 products: not rare
	} {
		r := run(t, seg, "rike", Options{TypedTypos: true, RareWordTypos: true, Fields: tc.fields})
		if len(r.keys) != tc.want {
			t.Errorf("fields %b: %d matches, want %d", tc.fields, len(r.keys), tc.want)
		}
	}
}
