package analysis

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/internal/golden"
)

// TestTokensGolden writes every token of a table of inputs per language:
// position, term (what the index stores: folded and stemmed unless it
// holds a digit), folded form (for prefix and exact matching) and the
// numeric flag. testdata/tokens.txt is the readable record of
// docs/architecture.md "analysis/ tokenizing, Unicode folding, Snowball
// stemming (en, da, no, sv, de)" and docs/decisions.md "Language. One
// stemming language per catalog (--lang: en, da, no, sv, de, none)";
// regenerate with go test ./analysis -run TestTokensGolden -update.
func TestTokensGolden(t *testing.T) {
	long := "x" + strings.Repeat("ab", 40) // 81 letters: cut at MaxTokenLen bytes
	cases := []struct {
		lang   Language
		inputs []string
	}{
		{English, []string{
			"Cordless Drills 18V Lithium-Ion",
			"Women's Running Shoes, men’s too",
			"BEHR Premium 1-gal. #SC-141 Tugboat",
			"3/4 in. copper pipe",
			"2,5 kg 1.000,50 3.5. 12, 7,x",
			"9,0 0.9 9.9",
			"Crème Brûlée ÆØÅ straße",
			"organizational organizing generously",
			"its was as a I",
			"drill--bit // set- -kit 9-",
			"AI-000002 x-100/200 sc-141-b",
			"tab\tnew\nline",
			"'quoted' women's rock'",
			"a'a z'z 0'0 9'9 sc'-141 sc-'141",
			"bad\x80byte \u0080",
			"\xff\xfe bad bytes \xc3",
			"ﬁ ligature ½ fraction ① İstanbul",
			"\u0663\u0664-mm дрель Ключ",
			"18-Volt 18 volts 18v 6in 6 inches 6 in. 12mm 3M 1.5gal",
			"2x4 4x8x10 1.5x2 2 in. x 4 in. 2x 4xl x4 2xl",
			"sc141 m18 t5 br30 120v-140v 250ft foot stool volt meter",
			long,
			"éé" + strings.Repeat("a", 63),
			strings.Repeat("a", 63) + "дд", // a 2-byte letter across the cut: dropped whole
			"",
		}},
		{German, []string{"Häuser Lampen Straße Müller", "Fußballschuhe Gärten"}},
		{Danish, []string{"Blåbær lamper lampen Søstrene Grøn", "bøgerne lampernes gutter"}},
		{Norwegian, []string{"biler bilen Ørsted støvsugere", "bøgerne gutter bilene"}},
		{Swedish, []string{"stolar stolen Fjällräven köksbänkar", "lamporna hundarna bilene"}},
		{None, []string{"Running Drills Häuser women's 18V-X"}},
	}
	var b strings.Builder
	for _, tc := range cases {
		an := New(tc.lang)
		for _, in := range tc.inputs {
			fmt.Fprintf(&b, "%s %q\n", tc.lang, in)
			for _, tk := range an.Analyze(nil, in) {
				num := ""
				if tk.Numeric {
					num = " numeric"
				}
				fmt.Fprintf(&b, "  %d term=%s folded=%s%s\n", tk.Pos, tk.Term, tk.Folded, num)
			}
		}
	}
	golden.Check(t, "tokens.txt", []byte(b.String()))
}
