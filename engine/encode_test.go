package engine

import (
	"math"
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"github.com/goccy/go-json"
)

// TestAppendStringEscapes: appendString writes "s as a JSON string;
// invalid UTF-8 becomes U+FFFD" (engine/encode.go), escaping as
// encoding/json does for HTML safety (<, >, &, U+2028, U+2029), so a body
// can be pasted into a page.
func TestAppendStringEscapes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", `""`},
		{"plain words", `"plain words"`},
		{`say "hi" \ bye`, `"say \"hi\" \\ bye"`},
		{"a\nb\rc\td", `"a\nb\rc\td"`},
		{"\x00\x01\x08\x0c\x1f", `"\u0000\u0001\u0008\u000c\u001f"`},
		{" !~\x7f", "\" !~\x7f\""},
		{"<a href='x'>&amp;</a>", `"\u003ca href='x'\u003e\u0026amp;\u003c/a\u003e"`},
		{"a<b", `"a\u003cb"`}, {"a>b", `"a\u003eb"`}, {"a&b", `"a\u0026b"`}, {`a"b`, `"a\"b"`}, {`a\b`, `"a\\b"`}, {"a\x1fb", `"a\u001fb"`},
		{"Müller € 😀", `"Müller € 😀"`},
		{"\u2028 and \u2029", `"\u2028 and \u2029"`},
		{"\u2027\u202a", "\"\u2027\u202a\""},
		{"\ufffd stays", "\"\ufffd stays\""},
		{"\x80", `"\ufffd"`},
		{"a\xffb\xc3", `"a\ufffdb\ufffd"`},
		{"é\x80é", `"é\ufffdé"`},
	} {
		got := string(appendString([]byte("prefix:"), tc.in))
		if got != "prefix:"+tc.want {
			t.Errorf("appendString(%q) = %s, want %s", tc.in, got[len("prefix:"):], tc.want)
			continue
		}
		// The output is JSON for the same text (invalid bytes replaced).
		var back string
		if err := json.Unmarshal([]byte(tc.want), &back); err != nil {
			t.Errorf("appendString(%q) = %s: not a JSON string: %v", tc.in, tc.want, err)
			continue
		}
		if utf8.ValidString(tc.in) && back != tc.in {
			t.Errorf("appendString(%q) decodes to %q", tc.in, back)
		}
	}
}

// TestProjectionExtras: product results carry suggestedResult always and
// score only when fields is absent or names it (docs/decisions.md
// "Fields"); the members follow the stored ones, in that order, and a
// projection that cannot be read is an empty object.
func TestProjectionExtras(t *testing.T) {
	search := func(score float32, suggested bool) *productExtra {
		return &productExtra{score: score, suggested: suggested, search: true}
	}
	for _, tc := range []struct {
		name   string
		stored string
		fields []string
		extra  *productExtra
		want   string
	}{
		{"empty doc, all fields", `{}`, nil, search(1.5, true), `{"score":1.5,"suggestedResult":true}`},
		{"all fields", `{"a":1}`, nil, search(2, false), `{"a":1,"score":2,"suggestedResult":false}`},
		{"initial content", `{"a":1}`, nil, &productExtra{}, `{"a":1,"score":0}`},
		{"content item", `{"a":1}`, nil, nil, `{"a":1}`},
		{"score named first", `{"a":1,"b":2}`, []string{"score", "b"}, search(3, false), `{"b":2,"score":3,"suggestedResult":false}`},
		{"score not named", `{"a":1,"b":2}`, []string{"b"}, search(3, true), `{"b":2,"suggestedResult":true}`},
		{"nothing found", `{"a":1}`, []string{"z", "z.y"}, search(3, true), `{"suggestedResult":true}`},
		{"initial content projected", `{"a":1}`, []string{"a"}, &productExtra{}, `{"a":1}`},
		{"nested into a list", `{"a":[1,2],"b":{"c":3}}`, []string{"a.x", "b.c"}, nil, `{"b":{"c":3}}`},
		{"unreadable stored", `{"a":`, []string{"a"}, search(1, false), `{}`},
		{"whole and part", `{"b":{"c":3,"d":4}}`, []string{"b.d", "b"}, nil, `{"b":{"c":3,"d":4}}`},
		{"parts in request order", `{"b":{"c":3,"d":4,"e":5}}`, []string{"b.e", "b.x", "b.c"}, nil, `{"b":{"e":5,"c":3}}`},
	} {
		got := string(appendProjected([]byte("x"), []byte(tc.stored), nil, tc.fields, tc.extra))
		if got != "x"+tc.want {
			t.Errorf("%s: appendProjected(%s, %q) = %s, want %s", tc.name, tc.stored, tc.fields, got[1:], tc.want)
		}
	}
}

// TestScoreClamp: a score at or above float32's largest value is written
// as 1e6, so a body never holds a number JSON readers overflow on
// (engine/encode.go productExtra.appendTo); others in six digits.
func TestScoreClamp(t *testing.T) {
	for _, tc := range []struct {
		score float32
		want  string
	}{
		{float32(math.Inf(1)), `"score":1e+06`},
		{math.MaxFloat32, `"score":1e+06`},
		{math.Nextafter32(math.MaxFloat32, 0), `"score":3.40282e+38`},
		{1.23456789, `"score":1.23457`},
		{0, `"score":0`},
	} {
		e := productExtra{score: tc.score}
		if got := string(e.appendTo(nil, true, nil)); got != tc.want {
			t.Errorf("score %g: %s, want %s", tc.score, got, tc.want)
		}
	}
}

// TestAppendSortingAsMarshal: the sorting block written by hand is
// json.Marshal's, byte for byte, for no options, none at all (null), and
// random options whose texts need escaping.
func TestAppendSortingAsMarshal(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 1))
	texts := []string{"", "price", "Price: low to high", `say "hi"`, "<b>&</b>", "Müller 😀", "a\nb\x01", "\u2028", "\xff"}
	text := func() string { return texts[r.IntN(len(texts))] }
	cases := [][]SortOut{nil, {}}
	for range 500 {
		var s []SortOut
		for range r.IntN(4) {
			s = append(s, SortOut{
				Name:       text(),
				Settings:   SortSettingOut{Name: text(), Title: text(), AscendingText: text(), DescendingText: text()},
				Ascending:  SortChoiceOut{Query: text(), Selected: r.IntN(2) == 0},
				Descending: SortChoiceOut{Query: text(), Selected: r.IntN(2) == 0},
			})
		}
		cases = append(cases, s)
	}
	for _, s := range cases {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendSorting([]byte("x"), s); string(got) != "x"+string(want) {
			t.Fatalf("%+v:\n got  %s\n want %s", s, got[1:], want)
		}
	}
}
