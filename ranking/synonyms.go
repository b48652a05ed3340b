package ranking

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/config"
)

// Synonyms maps an analysed word or phrase (terms joined by a space) to the
// phrases it also finds; a phrase is one or more terms, all required. Built
// once per configuration version, read by every search.
type Synonyms struct {
	m      map[string][][]string
	maxLen int // longest source phrase, in terms
}

// NewSynonyms analyses a configuration's synonym entries.
func NewSynonyms(an *analysis.Analyzer, entries []config.Synonym) (*Synonyms, error) {
	s := &Synonyms{m: make(map[string][][]string)}
	phrase := func(words string) []string {
		var out []string
		for _, tk := range an.Analyze(nil, words) {
			out = append(out, tk.Term)
		}
		return out
	}
	for i, e := range entries {
		phrases := make([][]string, 0, len(e.Terms))
		for _, w := range e.Terms {
			p := phrase(w)
			if len(p) == 0 {
				return nil, fmt.Errorf("synonyms[%d]: %q has no searchable word", i, w)
			}
			phrases = append(phrases, p)
		}
		if e.From != "" {
			from := phrase(e.From)
			if len(from) == 0 {
				return nil, fmt.Errorf("synonyms[%d]: from %q has no searchable word", i, e.From)
			}
			s.addAll(from, phrases)
			continue
		}
		for _, p := range phrases {
			s.addAll(p, phrases)
		}
	}
	return s, nil
}

func (s *Synonyms) addAll(from []string, phrases [][]string) {
	key := strings.Join(from, " ")
	s.maxLen = max(s.maxLen, len(from))
	for _, p := range phrases {
		if slices.Equal(p, from) {
			continue
		}
		dup := false
		for _, have := range s.m[key] {
			dup = dup || slices.Equal(have, p)
		}
		if !dup {
			s.m[key] = append(s.m[key], p)
		}
	}
}

func (s *Synonyms) lookup(key string) [][]string { return s.m[key] }
