// Package analysis turns text into index terms. The indexer and the query
// side share it, so a word typed by a shopper and the same word in a
// product title always meet in the same term.
package analysis

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	snowballstem "github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/danish"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/german"
	"github.com/blevesearch/snowballstem/norwegian"
	"github.com/blevesearch/snowballstem/swedish"
)

// Language selects the Snowball stemmer of a catalog.
type Language string

// The supported languages.
const (
	English   Language = "en"
	Danish    Language = "da"
	Norwegian Language = "no"
	Swedish   Language = "sv"
	German    Language = "de"
	None      Language = "none"
)

// ParseLanguage reads a language flag or setting.
func ParseLanguage(s string) (Language, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "en", "english":
		return English, nil
	case "da", "danish":
		return Danish, nil
	case "no", "nb", "norwegian":
		return Norwegian, nil
	case "sv", "swedish":
		return Swedish, nil
	case "de", "german":
		return German, nil
	case "none":
		return None, nil
	}
	return "", fmt.Errorf("unknown language %q (en, da, no, sv, de, none)", s)
}

// MaxTokenLen caps a token's bytes so garbage input cannot bloat the
// dictionary.
const MaxTokenLen = 64

// Token is one analysed word.
type Token struct {
	Term    string // folded and stemmed (unless Numeric): what the index stores
	Folded  string // folded, not stemmed: for prefix and exact matching
	Numeric bool   // holds a digit: never stemmed nor typo-corrected
	Pos     int    // position in the field
}

// Analyzer tokenizes, folds and stems. Safe for concurrent use.
type Analyzer struct {
	lang Language
	stem func(*snowballstem.Env) bool
	pool sync.Pool
}

// New makes an analyzer for lang.
func New(lang Language) *Analyzer {
	a := &Analyzer{lang: lang}
	switch lang {
	case English:
		a.stem = english.Stem
	case Danish:
		a.stem = danish.Stem
	case Norwegian:
		a.stem = norwegian.Stem
	case Swedish:
		a.stem = swedish.Stem
	case German:
		a.stem = german.Stem
	}
	a.pool.New = func() any { return &scratch{} }
	return a
}

type scratch struct {
	buf, joined []byte
	parts       []part
}

type part struct {
	start, end int
	digit      bool
	joined     bool // joined to the previous part by - or /
}

// Stem stems one folded word; numeric words come back unchanged.
func (a *Analyzer) Stem(word string) string {
	if a.stem == nil || len(word) < 3 || hasDigit(word) {
		return word
	}
	env := snowballstem.NewEnv(word)
	a.stem(env)
	if s := env.Current(); s != "" {
		return s
	}
	return word
}

// Analyze appends the tokens of text to dst.
func (a *Analyzer) Analyze(dst []Token, text string) []Token {
	a.Each(text, func(folded []byte, numeric bool, pos int) {
		f := string(folded)
		t := Token{Term: f, Folded: f, Numeric: numeric, Pos: pos}
		if !numeric {
			t.Term = a.Stem(f)
		}
		dst = append(dst, t)
	})
	return dst
}

// Each calls fn with every token's folded, unstemmed bytes, valid only
// during the call. The indexer uses it to stem each distinct word once.
func (a *Analyzer) Each(text string, fn func(folded []byte, numeric bool, pos int)) {
	sc := a.pool.Get().(*scratch)
	sc.buf = foldForTokens(sc.buf[:0], text)
	buf := sc.buf
	parts := sc.parts[:0]
	// Split the folded text into runs of letters and digits. A '.' or ','
	// between digits stays inside a number; '-' or '/' joins parts. ASCII
	// bytes are classed by a table; other runes are decoded.
	i := 0
	joinNext := false
	for i < len(buf) {
		c := buf[i]
		size, word := 1, false
		if c < utf8.RuneSelf {
			word = asciiClass[c] != 0
		} else {
			var r rune
			r, size = utf8.DecodeRune(buf[i:])
			word = isWordRune(r)
		}
		if !word {
			joinNext = (c == '-' || c == '/') && len(parts) > 0 && parts[len(parts)-1].end == i
			i += size
			continue
		}
		p := part{start: i, joined: joinNext}
		joinNext = false
	run:
		for i < len(buf) {
			c := buf[i]
			if c >= utf8.RuneSelf {
				r, size := utf8.DecodeRune(buf[i:])
				if !isWordRune(r) {
					break
				}
				p.digit = p.digit || unicode.IsDigit(r)
				i += size
				continue
			}
			switch asciiClass[c] {
			case classLetter:
				i++
			case classDigit:
				p.digit = true
				i++
			default:
				if (c == '.' || c == ',') && p.digit && i+1 < len(buf) && buf[i+1] >= '0' && buf[i+1] <= '9' && buf[i-1] >= '0' && buf[i-1] <= '9' {
					buf[i] = '.'
					i++
					continue
				}
				break run
			}
		}
		p.end = i
		parts = append(parts, p)
	}
	pos := 0
	for j := 0; j < len(parts); j++ {
		// A group is a part and the parts joined to it.
		k := j + 1
		for k < len(parts) && parts[k].joined {
			k++
		}
		groupDigit := false
		for _, p := range parts[j:k] {
			groupDigit = groupDigit || p.digit
		}
		first := pos
		for _, p := range parts[j:k] {
			if p.end > p.start {
				fn(truncate(buf[p.start:p.end]), p.digit, pos)
			}
			pos++
		}
		if k-j > 1 && groupDigit {
			sc.joined = sc.joined[:0]
			for _, p := range parts[j:k] {
				sc.joined = append(sc.joined, buf[p.start:p.end]...)
			}
			fn(truncate(sc.joined), true, first)
		}
		j = k - 1
	}
	sc.parts = parts
	a.pool.Put(sc)
}

func truncate(b []byte) []byte {
	if len(b) <= MaxTokenLen {
		return b
	}
	b = b[:MaxTokenLen]
	for len(b) > 0 && !utf8.Valid(b) {
		b = b[:len(b)-1]
	}
	return b
}

// ASCII byte classes for splitting words.
const (
	classOther = iota
	classLetter
	classDigit
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = classLetter, classLetter
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = classDigit
	}
	return t
}()

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 'A' && r <= 'Z'
	}
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			return true
		}
	}
	return false
}

// foldForTokens folds text and drops apostrophes inside words, so
// "women's" is one word.
func foldForTokens(dst []byte, s string) []byte {
	start := len(dst)
	dst = Fold(dst, s)
	if bytes.IndexByte(dst[start:], '\'') < 0 {
		return dst
	}
	out := dst[:start]
	for i := start; i < len(dst); i++ {
		c := dst[i]
		if c == '\'' && i > start && i+1 < len(dst) && isASCIIAlnum(dst[i-1]) && isASCIIAlnum(dst[i+1]) {
			continue
		}
		out = append(out, c)
	}
	return out
}

func isASCIIAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
