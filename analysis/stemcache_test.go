package analysis

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// stemWords is a vocabulary for the stem cache's tests: real words of
// every language's stemmer, and made-up ones, three times as many as
// the cache has slots, so that words share slots and push each other
// out.
func stemWords() []string {
	words := []string{"running", "drills", "bangles", "ceilings", "fluorescent", "hängematten", "gulvtæpper", "cykelhjelmer", "läskedrycker", "ab", "abc"}
	r := rand.New(rand.NewPCG(4, 2))
	const letters = "abcdeilnorstuyæøåäöü"
	for len(words) < 3*stemCacheSlots {
		rs := []rune(letters)
		w := make([]rune, 3+r.IntN(9))
		for i := range w {
			w[i] = rs[r.IntN(len(rs))]
		}
		words = append(words, string(w)+[]string{"", "s", "ing", "ed", "ies", "er", "en"}[r.IntN(7)])
	}
	return words
}

// TestStemCacheAnswersAsTheStemmer: for every language, Stem (cached)
// gives StemOnce's answer for every word, first and again, after other
// words took its slot, and from goroutines stemming at once (run with
// -race); a word whose stem is cached is stemmed without allocating.
func TestStemCacheAnswersAsTheStemmer(t *testing.T) {
	words := stemWords()
	for _, lang := range []Language{English, Danish, Norwegian, Swedish, German, None} {
		a := New(lang)
		want := make([]string, len(words))
		for i, w := range words {
			want[i] = a.StemOnce(w)
		}
		for round := range 3 {
			for i, w := range words {
				if got := a.Stem(w); got != want[i] {
					t.Fatalf("%s, round %d: Stem(%q) = %q, StemOnce %q", lang, round, w, got, want[i])
				}
			}
		}
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				r := rand.New(rand.NewPCG(uint64(g), 7))
				for range 20000 {
					i := r.IntN(len(words))
					if got := a.Stem(words[i]); got != want[i] {
						t.Errorf("%s, goroutine %d: Stem(%q) = %q, StemOnce %q", lang, g, words[i], got, want[i])
						return
					}
				}
			})
		}
		wg.Wait()
		if lang == None {
			continue
		}
		a.Stem("bangles")
		if n := testing.AllocsPerRun(100, func() { a.Stem("bangles") }); n != 0 {
			t.Errorf("%s: a cached stem allocates %v times", lang, n)
		}
	}
}

// BenchmarkStem: a query word's stem from the cache, and from the
// stemmer.
func BenchmarkStem(b *testing.B) {
	a := New(English)
	for _, way := range []string{"cached", "once"} {
		b.Run(way, func(b *testing.B) {
			b.ReportAllocs()
			stem := a.Stem
			if way == "once" {
				stem = a.StemOnce
			}
			for b.Loop() {
				stem("bangles")
			}
		})
	}
}
