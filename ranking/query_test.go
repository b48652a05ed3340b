package ranking

import (
	"cmp"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/internal/golden"
	"github.com/aisle-search/aisle/internal/oracle"
)

// TestEditDistanceIsOSA: docs/decisions.md "Typos": edits counted with
// "transpositions count as one". For every pair of words up to four
// letters over a small alphabet (and a few of several bytes a letter),
// distance is the OSA distance when it is at most k, and more than k
// otherwise; one buffer is reused across all pairs.
func TestEditDistanceIsOSA(t *testing.T) {
	words := []string{""}
	for n := 1; n <= 4; n++ {
		for _, w := range words {
			if len([]rune(w)) == n-1 {
				for _, c := range "abc" {
					words = append(words, w+string(c))
				}
			}
		}
	}
	words = append(words, "øé", "éø", "øøé", "ключ", "клюк", "кулч")
	var e editBuf
	pairs := 0
	for _, a := range words {
		for _, b := range words {
			want := oracle.OSA([]rune(a), []rune(b))
			for k := 0; k <= 3; k++ {
				got := e.distance([]rune(a), b, k)
				if want <= k && got != want || want > k && got <= k {
					t.Fatalf("distance(%q, %q, k=%d) = %d, OSA distance %d", a, b, k, got, want)
				}
				pairs++
			}
		}
	}
	if pairs < 4*121*121 {
		t.Fatalf("only %d pairs", pairs)
	}
}

// TestExpansionsGolden writes, for a fixed small catalog and a table of
// phrases, what Parse makes of each: the wildcard, the exact product
// number, and per word every route (term, weight, suggested, score-only)
// and phrase. testdata/expansions.txt is the readable record of the
// route rules of docs/decisions.md ("As-you-type", "Typos", "Exact product
// number", "Multi-word synonyms") and docs/configuration.md "synonyms";
// regenerate with go test ./ranking -run TestExpansionsGolden -update.
func TestExpansionsGolden(t *testing.T) {
	seg := shop(t,
		item{key: "AB-100", title: "Cordless Drill Driver", variants: []string{"AB-100-RED"}},
		item{key: "AB-200", title: "Hammer Drill drilling drills"},
		item{key: "AB-300", title: "Table Lamp lampshade lampwright"},
		item{key: "AB-400", title: "Sprinkler Head sprinklers"},
		item{key: "AB-500", title: "Sofa couch settee"},
		item{key: "AB-600", title: "Pruning Shears secateurs"},
		item{key: "AB-700", title: "Garden Scissors hose"},
		item{key: "AB-800", title: "Television TV stand 18v battery"},
		item{key: "AB-900", title: "Keyboard keyboards bedframe bed"},
	)
	syn := synonyms(t,
		config.Synonym{Terms: []string{"sofa", "couch"}},
		config.Synonym{From: "tv", Terms: []string{"television"}},
		config.Synonym{From: "clippers", Terms: []string{"pruning shears", "secateurs"}},
		config.Synonym{From: "garden scissors", Terms: []string{"shears"}},
		config.Synonym{Terms: []string{"hedge trimmer", "garden scissors"}},
		config.Synonym{Terms: []string{"bed", "bedframe"}},
	)
	opt := Options{PrefixLast: true, Synonyms: syn}
	var b strings.Builder
	for _, tc := range []struct {
		phrase string
		opt    Options
	}{
		{"", opt},
		{" * ", opt},
		{"!!", opt},
		{"drill", opt},
		{"drills", opt},
		{"dril", opt},
		{"dril ", opt},
		{"drill cordl", opt},
		{"cordl drill", opt},
		{"lamp", opt},
		{"l", opt},
		{"la", opt},
		{"sprinkelr", opt},
		{"sprinklre ", opt},
		{"sprinklxx", opt},
		{"sprnklr", opt},
		{"keybaord", opt},
		{"lamx", opt},
		{"18w", opt},
		{"drill drill", opt},
		{"sofa", opt},
		{"couch", Options{Synonyms: syn}},
		{"tv", opt},
		{"television", Options{Synonyms: syn}},
		{"clippers", opt},
		{"garden scissors", opt},
		{"garden scissors hose", opt},
		{"hedge trimmer", opt},
		{"bed", opt},
		{"bed ", opt},
		{"ab-100", opt},
		{"AB-100-red", opt},
		{"ab-100 drill", opt},
		{"sofa", Options{}},
	} {
		q := Parse(seg, an, tc.phrase, tc.opt)
		fmt.Fprintf(&b, "%q prefix=%v synonyms=%v\n", tc.phrase, tc.opt.PrefixLast, tc.opt.Synonyms != nil)
		if q.Wildcard {
			b.WriteString("  wildcard\n")
		}
		if q.HasSKU {
			fmt.Fprintf(&b, "  product number %s\n", seg.Key(q.SKU))
		}
		for _, w := range q.Words {
			fmt.Fprintf(&b, "  word %q\n", w.Text)
			for _, e := range w.Exp {
				fmt.Fprintf(&b, "    %-14s %s\n", seg.TermString(e.Term), strings.TrimSpace(fmt.Sprintf("%-8.4g%s", e.Weight, flags(e.Suggested, e.ScoreOnly))))
			}
			for _, p := range w.Phrases {
				terms := make([]string, len(p.Terms))
				for i, id := range p.Terms {
					terms[i] = seg.TermString(id)
				}
				fmt.Fprintf(&b, "    phrase %s%s\n", strings.Join(terms, "+"), flags(p.Suggested, false))
			}
		}
	}
	golden.Check(t, "expansions.txt", []byte(b.String()))
}

func flags(suggested, scoreOnly bool) string {
	s := ""
	if suggested {
		s += " suggested"
	}
	if scoreOnly {
		s += " score-only"
	}
	return s
}

// TestTypoRoutesMatchAnOracle: with the segment's typo index built, a
// word without an exact match takes as typo routes the terms within 1
// edit of its stem (from 5 runes) or 2 (from 9), the first maxTypoExp
// by length then term, each weighing weightTypo over its edits: a
// brute force over every term, on typos of a catalog's words.
func TestTypoRoutesMatchAnOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	vocab := strings.Fields("drill drills driller cordless hammer garden gardens hose steel black blank white bulb light lights outdoor lampshade screwdriver screwdrivers flashlight flashlights lawnmower lawnmowers sprinkler")
	cat := newRandomCatalog(t, r, strings.Join(vocab, " "), 2000, 4, 1, 4, nil)
	seg := cat.built
	seg.BuildTypoIndex()
	const letters = "abdeilnorst"
	checked := map[float32]int{}
	for range 400 {
		w := []rune(vocab[r.IntN(len(vocab))])
		for range 1 + r.IntN(2) {
			i := r.IntN(len(w))
			switch r.IntN(3) {
			case 0:
				w[i] = rune(letters[r.IntN(len(letters))])
			case 1:
				w = slices.Insert(w, i, rune(letters[r.IntN(len(letters))]))
			default:
				w = slices.Delete(w, i, i+1)
			}
		}
		q := Parse(seg, an, string(w), Options{})
		if len(q.Words) != 1 {
			continue
		}
		if _, exact := seg.Term(q.Words[0].Term); exact {
			continue
		}
		stem := []rune(q.Words[0].Term)
		k := typoEdits(len(stem), 5)
		type typo struct {
			l int
			t uint32
			d int
		}
		var all []typo
		for id := range uint32(seg.Terms()) {
			s := []rune(seg.TermString(id))
			if d := oracle.OSA(stem, s); d >= 1 && d <= k {
				all = append(all, typo{len(s), id, d})
			}
		}
		slices.SortFunc(all, func(a, b typo) int { return cmp.Or(cmp.Compare(a.l, b.l), cmp.Compare(a.t, b.t)) })
		want := map[uint32]float32{}
		for _, f := range all[:min(len(all), maxTypoExp)] {
			want[f.t] = weightTypo / float32(f.d)
		}
		got := map[uint32]float32{}
		for _, e := range q.Words[0].Exp {
			got[e.Term] = e.Weight
		}
		if !maps.Equal(got, want) {
			t.Fatalf("%q (stem %q, %d edits): routes %v, want %v", string(w), q.Words[0].Term, k, got, want)
		}
		for _, w := range want {
			checked[w]++
		}
	}
	if checked[weightTypo] < 100 || checked[weightTypo/2] < 20 {
		t.Fatalf("routes checked by weight: %v: too few to test", checked)
	}
}
