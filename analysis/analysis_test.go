package analysis

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestFold(t *testing.T) {
	f := func(in, want string) {
		t.Helper()
		if got := FoldString(in); got != want {
			t.Errorf("FoldString(%q) = %q, want %q", in, got, want)
		}
	}
	f("drill", "drill")
	f("Cordless DRILL", "cordless drill")
	f("Søstrene Grøn", "sostrene gron")
	f("Blåbær", "blabaer")
	f("Æble", "aeble")
	f("Fjällräven", "fjallraven")
	f("Straße", "strasse")
	f("Müller & Söhne", "muller & sohne")
	f("Crème brûlée", "creme brulee")
	f("Niño", "nino")
	f("Français", "francais")
	f("Œuvre", "oeuvre")
	f("Þór", "thor")
	f("women’s", "women's")
	f("bad\xffbyte", "bad byte")
	f("Tools$Power Tools$", "tools$power tools$")
	f("A", "a") // the first and last upper-case letters, alone (FoldString's fast path)
	f("Z", "z")
	f("AZ az", "az az")
	f("a\x80", "a ")           // a stray continuation byte, after ASCII
	f("\x80a", " a")           // and first
	f("\u0080", "\u0080")      // the first rune past ASCII is kept
	f("\u212a", "k")           // Kelvin sign: lower-cases to ASCII
	f("\u212aelvin", "kelvin") // and joins the ASCII after it
}

// TestStemLeavesNumbers: analysis.go Stem: "numeric words come back
// unchanged", whichever digit they hold, and words under three letters
// are not stemmed.
func TestStemLeavesNumbers(t *testing.T) {
	an := New(English)
	for _, w := range []string{"0drills", "9drills", "drills5", "12gauges", "as", "is"} {
		if got := an.Stem(w); got != w {
			t.Errorf("Stem(%q) = %q, want it unchanged", w, got)
		}
	}
	for w, want := range map[string]string{"drills": "drill", "its": "it"} {
		if got := an.Stem(w); got != want {
			t.Errorf("Stem(%q) = %q, want %q", w, got, want)
		}
	}
	if got := New(None).Stem("drills"); got != "drills" {
		t.Errorf("none: Stem(drills) = %q", got)
	}
}

// TestWordRunesAreLettersAndDigits: a word is made of Unicode letters and
// digits, the ASCII ones by the byte table (analysis.go isWordRune,
// asciiClass).
func TestWordRunesAreLettersAndDigits(t *testing.T) {
	for r := rune(0); r < 0x3000; r++ {
		want := r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
		if got := isWordRune(r); got != want {
			t.Fatalf("isWordRune(%U) = %v, want %v", r, got, want)
		}
		if r < utf8.RuneSelf {
			class := asciiClass[r]
			if (class != classOther) != want || (class == classDigit) != unicode.IsDigit(r) {
				t.Fatalf("asciiClass[%q] = %d", r, class)
			}
		}
	}
}

func TestFoldASCIIFastPathDoesNotAllocate(t *testing.T) {
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { buf = Fold(buf[:0], "cordless drill 18v") }); n != 0 {
		t.Fatalf("Fold allocated %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = FoldString("already folded") }); n != 0 {
		t.Fatalf("FoldString allocated %v times", n)
	}
}

func folded(toks []Token) []string {
	out := make([]string, len(toks))
	for i, tk := range toks {
		out[i] = tk.Folded
	}
	return out
}

func terms(toks []Token) []string {
	out := make([]string, len(toks))
	for i, tk := range toks {
		out[i] = tk.Term
	}
	return out
}

func TestTokenize(t *testing.T) {
	an := New(None)
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Women's Cycling Shorts", []string{"womens", "cycling", "shorts"}},
		{"Whirlpool 1.9 cu. ft. Over the Range Microwave", []string{"whirlpool", "1.9", "cu", "ft", "over", "the", "range", "microwave"}},
		{"BEHR Premium 1-gal. #SC-141 Tugboat", []string{"behr", "premium", "1", "gal", "1gal", "sc", "141", "sc141", "tugboat"}},
		{"Simpson Strong-Tie 12-Gauge Angle", []string{"simpson", "strong", "tie", "12", "gauge", "12gauge", "angle"}},
		{"3/4 in. pipe", []string{"3", "4", "34", "in", "pipe"}},
		{"2,5 kg", []string{"2.5", "kg"}},
		{"  ", []string{}},
		{"bad\xff\xfebytes", []string{"bad", "bytes"}},
		{"Ørsted Blåhval", []string{"orsted", "blahval"}},
	} {
		got := folded(an.Analyze(nil, tc.in))
		if !slices.Equal(got, tc.want) {
			t.Errorf("Analyze(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCompoundSharesPosition(t *testing.T) {
	toks := New(English).Analyze(nil, "paint SC-141 now")
	var pos []int
	for _, tk := range toks {
		pos = append(pos, tk.Pos)
	}
	if want := []int{0, 1, 2, 1, 3}; !slices.Equal(pos, want) {
		t.Fatalf("positions %v, want %v (tokens %q)", pos, want, folded(toks))
	}
	if !toks[3].Numeric || toks[3].Term != "sc141" {
		t.Fatalf("compound token %+v", toks[3])
	}
}

func TestStemmingMeetsAtBothSides(t *testing.T) {
	for _, tc := range []struct {
		lang     Language
		variants []string
	}{
		{English, []string{"drill", "drills", "drilling"}},
		{English, []string{"run", "running", "runs"}},
		{English, []string{"women's", "women"}},
		{German, []string{"Häuser", "häuser", "HAUSER"}},
		{German, []string{"Lampe", "Lampen"}},
		{Swedish, []string{"stol", "stolar", "stolen"}},
		{Danish, []string{"lampe", "lamper", "lampen"}},
		{Norwegian, []string{"bil", "biler", "bilen"}},
	} {
		an := New(tc.lang)
		first := terms(an.Analyze(nil, tc.variants[0]))
		for _, v := range tc.variants[1:] {
			if got := terms(an.Analyze(nil, v)); !slices.Equal(got, first) {
				t.Errorf("%s: %q → %q, but %q → %q", tc.lang, v, got, tc.variants[0], first)
			}
		}
	}
}

func TestNumericNotStemmed(t *testing.T) {
	toks := New(English).Analyze(nil, "sc141 batteries 12gauges")
	if toks[0].Term != "sc141" || !toks[0].Numeric {
		t.Fatalf("sc141: %+v", toks[0])
	}
	if toks[2].Term != "12gauges" {
		t.Fatalf("12gauges was stemmed: %+v", toks[2])
	}
	if toks[1].Term == "batteries" {
		t.Fatalf("batteries was not stemmed: %+v", toks[1])
	}
}

func TestParseLanguage(t *testing.T) {
	for in, want := range map[string]Language{"": English, "english": English, "DA": Danish, "nb": Norwegian, "sv": Swedish, "german": German, "none": None} {
		if got, err := ParseLanguage(in); err != nil || got != want {
			t.Errorf("ParseLanguage(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseLanguage("klingon"); err == nil {
		t.Error("ParseLanguage(klingon) did not fail")
	}
}

func TestLongTokensAreCut(t *testing.T) {
	long := string(make([]byte, 0)) + "ø" + string(slices.Repeat([]byte("a"), 200))
	for _, tk := range New(English).Analyze(nil, long) {
		if len(tk.Folded) > MaxTokenLen || !utf8.ValidString(tk.Folded) {
			t.Fatalf("token %q", tk.Folded)
		}
	}
}

func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{"Cordless Drill 18V", "1-gal. #SC-141", "Søstrene Grøn", "3/4 in.", "2,5,6", "a-b-c-1", "\xff\xfe", "women's", "--", "1.2.3"} {
		f.Add(s)
	}
	an := New(English)
	f.Fuzz(func(t *testing.T, s string) {
		toks := an.Analyze(nil, s)
		for _, tk := range toks {
			if tk.Term == "" || tk.Folded == "" {
				t.Fatalf("empty token in %q", s)
			}
			if !utf8.ValidString(tk.Term) || !utf8.ValidString(tk.Folded) {
				t.Fatalf("invalid UTF-8 token %q", tk.Folded)
			}
			if len(tk.Folded) > MaxTokenLen {
				t.Fatalf("token longer than %d: %q", MaxTokenLen, tk.Folded)
			}
			if tk.Pos < 0 || tk.Pos >= len(toks) {
				t.Fatalf("position %d out of range for %d tokens", tk.Pos, len(toks))
			}
		}
	})
}

func BenchmarkAnalyze(b *testing.B) {
	an := New(English)
	text := "Makita 18V LXT Lithium-Ion Brushless Cordless 1/2 in. Driver-Drill Kit. A compact drill with 2-speed gearbox, 530 in.-lbs. of torque and an LED light for dark work areas."
	var toks []Token
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		toks = an.Analyze(toks[:0], text)
	}
}

func BenchmarkEach(b *testing.B) {
	an := New(English)
	text := "Makita 18V LXT Lithium-Ion Brushless Cordless 1/2 in. Driver-Drill Kit. A compact drill with 2-speed gearbox, 530 in.-lbs. of torque and an LED light for dark work areas."
	n := 0
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		an.Each(text, func([]byte, bool, int) { n++ })
	}
}

type tok struct {
	folded  string
	numeric bool
	pos     int
}

func collect(each func(string, func([]byte, bool, int)), text string) []tok {
	var out []tok
	each(text, func(b []byte, numeric bool, pos int) { out = append(out, tok{string(b), numeric, pos}) })
	return out
}

// sameTokens checks the tokenizer against the reference it replaced.
func sameTokens(t *testing.T, an *Analyzer, text string) {
	t.Helper()
	got, want := collect(an.Each, text), collect(an.eachReference, text)
	if !slices.Equal(got, want) {
		t.Fatalf("%q:\n got  %v\n want %v", text, got, want)
	}
	if got, want := Fold(nil, text), foldReference(nil, text); string(got) != string(want) {
		t.Fatalf("Fold(%q) = %q, want %q", text, got, want)
	}
}

func TestEachMatchesReference(t *testing.T) {
	an := New(English)
	for _, text := range []string{
		"", "Makita 18V LXT Lithium-Ion 1/2 in. Driver-Drill", "3.5,7 1,000.25 a.b 12.", "women's men’s 'quoted'",
		"Crème Brûlée ÆØÅ straße İstanbul", "\xff\xfe bad utf8 \xc3", "AI-000002 ai000002 x-100/200", "\u0663\u0664-mm",
		strings.Repeat("k", 70) + "7 end", "tab\tnew\nline--double//slash", "ﬁ ligature ½ fraction ①",
	} {
		sameTokens(t, an, text)
	}
}

func FuzzEachMatchesReference(f *testing.F) {
	for _, s := range []string{"Makita 18V LXT Lithium-Ion", "3.5,7 a-1/b", "Crème women's", "\xff1.2"} {
		f.Add(s)
	}
	an := New(English)
	f.Fuzz(func(t *testing.T, text string) { sameTokens(t, an, text) })
}

// TestStopWords: each language's function words are stop words, folded;
// words that name things are not; a language-less analyzer has none.
func TestStopWords(t *testing.T) {
	for _, tc := range []struct {
		lang       Language
		stop, word string
	}{
		{English, "with", "slot"}, {Danish, "pa", "stol"}, {Norwegian, "og", "stol"},
		{Swedish, "och", "stol"}, {German, "fur", "stuhl"}, {None, "", "with"},
	} {
		a := New(tc.lang)
		if tc.stop != "" && !a.IsStop(tc.stop) {
			t.Errorf("%s: %q is not a stop word", tc.lang, tc.stop)
		}
		if a.IsStop(tc.word) {
			t.Errorf("%s: %q is a stop word", tc.lang, tc.word)
		}
	}
}

// TestFoldPhrase: redirect "queries ... (compared folded, spaces
// collapsed)" (docs/configuration.md).
func TestFoldPhrase(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Returns Policy", "returns policy"},
		{"  RETURNS \t\n policy  ", "returns policy"},
		{"Rétürns", "returns"},
		{"", ""},
		{"   ", ""},
	} {
		if got := FoldPhrase(tc.in); got != tc.want {
			t.Errorf("FoldPhrase(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestForm: an English word's form drops its plural ending (Harman's
// S-stemmer) and keeps the rest; other languages, numbers and short
// words keep the word.
func TestForm(t *testing.T) {
	en, de := New(English), New(German)
	for _, tc := range []struct {
		an         *Analyzer
		word, want string
	}{
		{en, "drills", "drill"},
		{en, "drill", "drill"},
		{en, "drilling", "drilling"},
		{en, "batteries", "battery"},
		{en, "series", "sery"}, // the rule's known quirk: both sides alike
		{en, "hoses", "hose"},
		{en, "boxes", "boxe"},
		{en, "trees", "tree"},
		{en, "shoes", "shoe"},
		{en, "glass", "glass"},
		{en, "cactus", "cactus"},
		{en, "gas", "gas"},
		{en, "2x4s", "2x4s"},
		{de, "schrauben", "schrauben"},
		{de, "autos", "autos"},
	} {
		if got := tc.an.Form(tc.word); got != tc.want {
			t.Errorf("%s Form(%q) = %q, want %q", tc.an.lang, tc.word, got, tc.want)
		}
	}
}

// FuzzFoldIdempotent: folding a folded string changes nothing. The store
// keys products by their folded number (store.ProductID) and the engine
// looks such an id up by folding it again.
func FuzzFoldIdempotent(f *testing.F) {
	for _, s := range []string{"SEC-Ä", "Straße", "İstanbul", "ǅ", "Æble\xff", "ﬁ", "ß̈", "Ω", "ǰ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		once := FoldString(s)
		if twice := FoldString(once); twice != once {
			t.Errorf("FoldString(%q) = %q, folded again %q", s, once, twice)
		}
	})
}
