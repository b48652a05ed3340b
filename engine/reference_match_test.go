package engine

// An independent reference for which products a query matches, written
// plainly from the documented rules (docs/decisions.md "Matching",
// "As-you-type", "Typos", "Exact product number"; synonyms in
// docs/configuration.md) over the catalog's own products. It uses neither
// the ranking package nor the index: it tokenizes and folds on its own,
// keeps its postings in maps and its sets as plain bit slices. Only the
// Snowball stemmer itself is shared with the analysis package.

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	snowballstem "github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/danish"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/german"
	"github.com/blevesearch/snowballstem/norwegian"
	"github.com/blevesearch/snowballstem/swedish"
	"golang.org/x/text/unicode/norm"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/internal/oracle"
)

// Expansion caps, as ranking applies them. The reference applies the same
// caps over its own sorted vocabulary (prefixes: the first refMaxPrefix
// catalog words in byte order; typos: the first refMaxTypo terms by length,
// then byte order), so queries whose caps bind still compare exactly. The
// prefix cap binds on Flipkart queries; the typo cap binds on neither test
// catalog (no term of 5 runes or more has 16 terms within reach).
const (
	refMaxPrefix = 32
	refMaxTypo   = 16
	// refRelaxBelow: a multi-word query with fewer products matching every
	// word also finds those matching some (docs/decisions.md "Matching").
	refRelaxBelow = 10
)

// refSet is a set of product indexes (places in the catalog slice).
type refSet []uint64

func newRefSet(n int) refSet { return make(refSet, (n+63)/64) }

func (s refSet) add(i int)      { s[i/64] |= 1 << (i % 64) }
func (s refSet) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }

func (s refSet) clone() refSet { return slices.Clone(s) }

func (s refSet) or(o refSet) {
	for i := range s {
		s[i] |= o[i]
	}
}

func (s refSet) and(o refSet) {
	for i := range s {
		s[i] &= o[i]
	}
}

func (s refSet) count() int {
	n := 0
	for i := range s {
		for w := s[i]; w != 0; w &= w - 1 {
			n++
		}
	}
	return n
}

// members lists the set's product indexes in order.
func (s refSet) members() []int {
	var out []int
	for i := range len(s) * 64 {
		if s.has(i) {
			out = append(out, i)
		}
	}
	return out
}

// refSpecial is the folding of letters that Unicode decomposition does not
// reduce to ASCII (the analysis package's documented table), and curly
// apostrophes.
var refSpecial = map[rune]string{
	'æ': "ae", 'Æ': "ae", 'ø': "o", 'Ø': "o", 'ß': "ss", 'ẞ': "ss", 'œ': "oe", 'Œ': "oe",
	'þ': "th", 'Þ': "th", 'ð': "d", 'Ð': "d", 'đ': "d", 'Đ': "d", 'ł': "l", 'Ł': "l",
	'ı': "i", 'ħ': "h", 'Ħ': "h", 'ŧ': "t", 'Ŧ': "t", 'ŀ': "l", 'Ŀ': "l", 'ĸ': "k",
	'\u2019': "'", '\u2018': "'",
}

// refFold lower-cases s and drops its accents, one rune at a time: a
// special letter becomes its spelling, any other is lower-cased and
// decomposed, and its combining marks dropped. An invalid byte becomes a
// space.
func refFold(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == utf8.RuneError && size == 1 {
			b.WriteByte(' ')
			continue
		}
		if r < utf8.RuneSelf {
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		if rep, ok := refSpecial[r]; ok {
			b.WriteString(rep)
			continue
		}
		for _, d := range norm.NFD.String(string(unicode.ToLower(r))) {
			if unicode.Is(unicode.Mn, d) {
				continue
			}
			if rep, ok := refSpecial[d]; ok {
				b.WriteString(rep)
				continue
			}
			b.WriteRune(d)
		}
	}
	return b.String()
}

func refASCIIAlnum(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }
func refASCIIDigit(r rune) bool { return r >= '0' && r <= '9' }

func refWordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// refToken is one word of a text: folded, and whether it holds a digit
// (then it is never stemmed nor typo-corrected).
type refToken struct {
	folded  string
	numeric bool
	joined  bool // a joined group's concatenation: not a word a query needs
}

// refTokens splits text into words by the analysis package's rules: fold;
// drop an apostrophe between two letters or digits ("women's" is one word);
// a word is a run of letters and digits, where a '.' or ',' between two
// digits stays inside a number (as '.'); a '-' or '/' right between two
// runs joins them, and a joined group holding a digit is also one more
// word, its runs concatenated ("usb-3" is usb, 3 and usb3). A run that is
// a number against a unit symbol ("18v") or dimensions ("2x4") is cut
// into joined runs; in English a unit word after a number is its symbol
// ("18 volts": 18 v). Words are cut to 64 bytes.
func refTokens(text string, lang analysis.Language) []refToken {
	folded := []rune(refFold(text))
	var rs []rune
	for i, r := range folded {
		if r == '\'' && i > 0 && i+1 < len(folded) && refASCIIAlnum(folded[i-1]) && refASCIIAlnum(folded[i+1]) {
			continue
		}
		rs = append(rs, r)
	}
	var runs []refRun
	for i := 0; i < len(rs); {
		if !refWordRune(rs[i]) {
			i++
			continue
		}
		joined := i > 0 && (rs[i-1] == '-' || rs[i-1] == '/') && i > 1 && refWordRune(rs[i-2]) && len(runs) > 0
		cur := refRun{joined: joined}
		for i < len(rs) {
			r := rs[i]
			switch {
			case refWordRune(r):
				cur.digit = cur.digit || unicode.IsDigit(r)
				cur.text = append(cur.text, r)
			case (r == '.' || r == ',') && i > 0 && refASCIIDigit(rs[i-1]) && i+1 < len(rs) && refASCIIDigit(rs[i+1]):
				cur.text = append(cur.text, '.')
			default:
				goto done
			}
			i++
		}
	done:
		runs = append(runs, refUnitRuns(cur)...)
	}
	var out []refToken
	for j := 0; j < len(runs); {
		k := j + 1
		for k < len(runs) && runs[k].joined {
			k++
		}
		var whole []rune
		digit := false
		for _, r := range runs[j:k] {
			text := r.text
			if lang == analysis.English && len(out) > 0 && out[len(out)-1].numeric && !out[len(out)-1].joined {
				if u, ok := refUnitWords[string(text)]; ok {
					text = []rune(u)
				}
			}
			out = append(out, refToken{folded: refCut(text), numeric: r.digit})
			whole = append(whole, text...)
			digit = digit || r.digit
		}
		if k-j > 1 && digit {
			out = append(out, refToken{folded: refCut(whole), numeric: true, joined: true})
		}
		j = k
	}
	return out
}

// refUnitWords are English unit words after a number, and their symbols.
var refUnitWords = map[string]string{
	"inch": "in", "inches": "in", "feet": "ft", "foot": "ft", "volt": "v", "volts": "v", "watt": "w", "watts": "w",
	"amps": "amp", "ampere": "amp", "amperes": "amp", "gallon": "gal", "gallons": "gal",
	"pound": "lb", "pounds": "lb", "lbs": "lb", "ounce": "oz", "ounces": "oz",
}

// refUnitSymbols are the units a number is written against.
var refUnitSymbols = strings.Fields("in ft v w amp amps gal lb lbs oz mm cm m kg g ml l mah ah hp btu psi pc pcs pk qt yd kw kwh inch volt watt")

// refRun is a run of letters and digits of a text.
type refRun struct {
	text   []rune
	digit  bool
	joined bool // to the run before, by one '-' or '/'
}

// refUnitRuns cuts a run holding a digit that is a number then a unit
// symbol, or numbers with x between, where it changes from digits (and
// '.') to other runes; any other run stays whole.
func refUnitRuns(r refRun) []refRun {
	if !r.digit {
		return []refRun{r}
	}
	isNum := func(c rune) bool { return c >= '0' && c <= '9' || c == '.' }
	var pieces [][]rune
	for i := 0; i < len(r.text); {
		j := i + 1
		for j < len(r.text) && isNum(r.text[j]) == isNum(r.text[i]) {
			j++
		}
		pieces = append(pieces, r.text[i:j])
		i = j
	}
	unit := len(pieces) == 2 && isNum(pieces[0][0]) && slices.Contains(refUnitSymbols, string(pieces[1]))
	dims := len(pieces) >= 3 && len(pieces)%2 == 1
	for i, p := range pieces {
		if i%2 == 0 && !isNum(p[0]) || i%2 == 1 && string(p) != "x" {
			dims = false
		}
	}
	if !unit && !dims {
		return []refRun{r}
	}
	out := make([]refRun, len(pieces))
	for i, p := range pieces {
		out[i] = refRun{text: p, digit: isNum(p[0]), joined: r.joined || i > 0}
	}
	return out
}

// refCut is the runes of a word up to 64 bytes.
func refCut(rs []rune) string {
	var b strings.Builder
	for _, r := range rs {
		if b.Len()+utf8.RuneLen(r) > analysis.MaxTokenLen {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

// refStemmer stems a folded word in the catalog's language. Words under
// three bytes and words with a digit are kept as they are.
func refStemmer(lang analysis.Language) func(string) string {
	var stem func(*snowballstem.Env) bool
	switch lang {
	case analysis.English:
		stem = english.Stem
	case analysis.Danish:
		stem = danish.Stem
	case analysis.Norwegian:
		stem = norwegian.Stem
	case analysis.Swedish:
		stem = swedish.Stem
	case analysis.German:
		stem = german.Stem
	}
	return func(w string) string {
		if stem == nil || len(w) < 3 || strings.ContainsAny(w, "0123456789") {
			return w
		}
		env := snowballstem.NewEnv(w)
		stem(env)
		if s := env.Current(); s != "" {
			return s
		}
		return w
	}
}

// refTerm is the term a token is indexed under: its folded form when it
// holds a digit, its stem otherwise.
func refTerm(stem func(string) string, tk refToken) string {
	if tk.numeric {
		return tk.folded
	}
	return stem(tk.folded)
}

// refProductTexts is a product's searchable text by search field name
// (docs/configuration.md `fields`): hierarchies are every level of every
// path, productNumber includes the variant numbers, extraData every
// extraData and extraDataList value.
func refProductTexts(p *catalog.Product) map[string][]string {
	m := map[string][]string{
		"title":         {p.Title},
		"brand":         {p.Brand},
		"keywords":      {p.Keywords},
		"description":   {p.Description},
		"productNumber": append([]string{p.ProductNumber}, p.VariantProductNumbers...),
	}
	for _, h := range p.Hierarchies {
		m["hierarchies"] = append(m["hierarchies"], h...)
	}
	for _, v := range p.ExtraData {
		m["extraData"] = append(m["extraData"], v)
	}
	for _, vs := range p.ExtraDataList {
		m["extraData"] = append(m["extraData"], vs...)
	}
	return m
}

// refVocabWord is one distinct folded word of the catalog and its term.
type refVocabWord struct{ folded, term string }

// refMatcher decides which products of a catalog a query matches.
type refMatcher struct {
	n    int
	lang analysis.Language
	stem func(string) string
	// docs maps a term to the products holding it in a searched field,
	// ascending.
	docs map[string][]int
	// terms is every term in a searched field: a word whose term is here
	// has an exact match, so no typo routes; a word whose term is not is
	// no prefix route either.
	terms map[string]bool
	// words is every folded word of the catalog, sorted: prefix routes.
	words []refVocabWord
	// byLen is, per rune count, the sorted terms without a digit: typo
	// routes.
	byLen map[int][]string
	// keys maps folded product numbers, then variant numbers not taken,
	// to products.
	keys map[string]int
	// synonyms maps a source phrase (terms joined by a space) to the
	// phrases it also finds; synMax is the longest source, in terms.
	synonyms map[string][][]string
	synMax   int
	// typed: typos of the word as typed too (config TypedTypos).
	typed bool
	// compounds: words written apart or together (config CompoundWords).
	compounds bool
	// rare: rare words' typos (config RareWordTypos).
	rare bool
	// isStop reports a function word of the language (config
	// OptionalStopWords); nil when they are not optional.
	isStop func(folded string) bool
}

// newRefMatcher indexes products for the search configuration version v
// (its synonyms). searched reports which text fields (refProductTexts
// names) the version searches: terms are only those of searched fields.
func newRefMatcher(products []catalog.Product, v *config.SearchVersion, lang analysis.Language, searched func(field string) bool) *refMatcher {
	m := &refMatcher{n: len(products), lang: lang, stem: refStemmer(lang), docs: map[string][]int{}, byLen: map[int][]string{}, keys: map[string]int{}, synonyms: map[string][][]string{},
		typed: v.TypedTypos == nil || *v.TypedTypos, compounds: v.CompoundWords == nil || *v.CompoundWords,
		rare: v.RareWordTypos == nil || *v.RareWordTypos}
	if v.OptionalStopWords == nil || *v.OptionalStopWords {
		m.isStop = analysis.New(lang).IsStop
	}
	words := map[string]string{}
	inSearched := map[string]bool{}
	for i := range products {
		for field, texts := range refProductTexts(&products[i]) {
			for _, text := range texts {
				for _, tk := range refTokens(text, lang) {
					term, ok := words[tk.folded]
					if !ok {
						term = refTerm(m.stem, tk)
						words[tk.folded] = term
					}
					if !searched(field) {
						continue
					}
					inSearched[term] = true
					if ds := m.docs[term]; len(ds) == 0 || ds[len(ds)-1] != i {
						m.docs[term] = append(ds, i)
					}
				}
			}
		}
	}
	m.terms = inSearched
	for w, t := range words {
		m.words = append(m.words, refVocabWord{w, t})
	}
	slices.SortFunc(m.words, func(a, b refVocabWord) int { return strings.Compare(a.folded, b.folded) })
	for t := range m.terms {
		if !strings.ContainsAny(t, "0123456789") {
			l := utf8.RuneCountInString(t)
			m.byLen[l] = append(m.byLen[l], t)
		}
	}
	for _, ts := range m.byLen {
		slices.Sort(ts)
	}
	for i := range products {
		m.keys[refFold(products[i].ProductNumber)] = i
	}
	for i := range products {
		for _, vn := range products[i].VariantProductNumbers {
			if _, taken := m.keys[refFold(vn)]; !taken {
				m.keys[refFold(vn)] = i
			}
		}
	}
	// Synonyms: {"terms": [...]} finds each term from any other;
	// {"from": f, "terms": [...]} finds the terms from f only.
	phrase := func(s string) []string {
		var out []string
		for _, tk := range refTokens(s, lang) {
			out = append(out, refTerm(m.stem, tk))
		}
		return out
	}
	add := func(from []string, to [][]string) {
		key := strings.Join(from, " ")
		m.synMax = max(m.synMax, len(from))
		for _, p := range to {
			if slices.Equal(p, from) || slices.ContainsFunc(m.synonyms[key], func(q []string) bool { return slices.Equal(p, q) }) {
				continue
			}
			m.synonyms[key] = append(m.synonyms[key], p)
		}
	}
	for _, e := range v.Synonyms {
		var to [][]string
		for _, t := range e.Terms {
			to = append(to, phrase(t))
		}
		if e.From != "" {
			add(phrase(e.From), to)
			continue
		}
		for _, p := range to {
			add(p, to)
		}
	}
	return m
}

// searchedFields is the rule of docs/configuration.md: `fields` lists the
// searchable text fields, so a word matches a product only through a
// field the version lists (whatever its weight), and a word found only in
// other fields is no route at all: not exact, nor a prefix, typo or
// synonym target. It maps the configuration's names onto
// refProductTexts' plainly.
func searchedFields(v *config.SearchVersion) func(field string) bool {
	listed := map[string]bool{}
	for _, f := range v.Fields {
		name := f.Name
		switch {
		case name == "hierarchy" || name == "category" || name == "categories":
			name = "hierarchies"
		case name == "variantProductNumbers":
			name = "productNumber"
		case strings.HasPrefix(name, "extraData.") || strings.HasPrefix(name, "extraDataList.") || name == "extraDataList":
			name = "extraData"
		}
		listed[name] = true
	}
	return func(field string) bool { return listed[field] }
}

// termDocs is the products holding a term in a searched field.
func (m *refMatcher) termDocs(t string) refSet {
	s := newRefSet(m.n)
	for _, i := range m.docs[t] {
		s.add(i)
	}
	return s
}

// phraseDocs is the products holding every term of a phrase.
func (m *refMatcher) phraseDocs(terms []string) refSet {
	s := m.termDocs(terms[0])
	for _, t := range terms[1:] {
		s.and(m.termDocs(t))
	}
	return s
}

// refRoutes says which routes found something in a query, so a test can
// require that each kind was exercised.
type refRoutes struct {
	prefix, typo, synonym, relaxed bool
}

// refMatch is what a query matches: every product found (all) and those
// found without a synonym (direct); all minus direct are the suggested
// results.
type refMatch struct {
	all, direct refSet
	routes      refRoutes
}

// match applies the documented rules to a phrase.
func (m *refMatcher) match(phrase string) refMatch {
	trimmed := strings.TrimSpace(phrase)
	toks := refTokens(trimmed, m.lang)
	// As-you-type applies to the last word a product needs: the last
	// token that is not a joined group's concatenation.
	last := len(toks) - 1
	for last > 0 && toks[last].joined {
		last--
	}
	if trimmed == "" || trimmed == "*" || len(toks) == 0 {
		// The empty query (or only spaces) is the wildcard, like "*".
		all := newRefSet(m.n)
		for i := range m.n {
			all.add(i)
		}
		return refMatch{all: all, direct: all}
	}
	var res refMatch
	// Each query word (or synonym source phrase) matches a set of
	// products, directly or through synonyms.
	var alls, directs []refSet
	var stops []bool // a function word, optional in a relaxed match
	// Each word as compound routes see it: a synonym phrase takes no part.
	type wordInfo struct {
		folded          string
		numeric, phrase bool
		exactOrPrefix   bool
	}
	var infos []wordInfo
	seen := map[string]bool{}
	for i := 0; i < len(toks); i++ {
		// A multi-word synonym source is recognised as consecutive words,
		// the longest first; the words themselves must all be in a product.
		if n := m.sourceAt(toks[i:]); n > 0 {
			own := make([]string, n)
			for j := range own {
				own[j] = refTerm(m.stem, toks[i+j])
			}
			direct := m.phraseDocs(own)
			all := direct.clone()
			if m.synonymDocs(strings.Join(own, " "), all, direct) {
				res.routes.synonym = true
			}
			alls, directs, stops = append(alls, all), append(directs, direct), append(stops, false)
			infos = append(infos, wordInfo{phrase: true})
			i += n - 1
			continue
		}
		tk := toks[i]
		if tk.joined {
			continue // it only adds to the score where it is
		}
		term := refTerm(m.stem, tk)
		if seen[term] {
			continue // a repeated word is one word
		}
		seen[term] = true
		direct := m.termDocs(term)
		exact := m.terms[term]
		// As-you-type: the last word also matches as a prefix (of 2 runes
		// or more) unless the phrase ends in a space.
		var prefixes []string
		if i == last && !strings.HasSuffix(phrase, " ") && utf8.RuneCountInString(tk.folded) >= 2 {
			prefixes = m.prefixTerms(tk.folded)
			res.routes.prefix = m.widen(direct, prefixes) || res.routes.prefix
		}
		// Typos only when the word has no exact or prefix match, and never
		// for words with a digit.
		if !tk.numeric && !exact && len(prefixes) == 0 {
			res.routes.typo = m.widen(direct, m.typoTerms(term)) || res.routes.typo
			if m.typed {
				res.routes.typo = m.widen(direct, m.typedTypoTerms(tk.folded)) || res.routes.typo
			}
		}
		// A word that exists but is rare (in at most 20 products) beside
		// a typo of it as typed in 50 times as many also matches that typo.
		if df := m.termDocs(term).count(); !tk.numeric && exact && m.typed && m.rare && df <= 20 {
			var rare []string
			for _, t := range m.typedTypoTerms(tk.folded) {
				if m.termDocs(t).count() >= 50*df {
					rare = append(rare, t)
				}
			}
			res.routes.typo = m.widen(direct, rare) || res.routes.typo
		}
		all := direct.clone()
		if m.synonymDocs(term, all, direct) {
			res.routes.synonym = true
		}
		alls, directs, stops = append(alls, all), append(directs, direct), append(stops, m.isStop != nil && m.isStop(tk.folded))
		infos = append(infos, wordInfo{folded: tk.folded, numeric: tk.numeric, exactOrPrefix: exact || len(prefixes) > 0})
	}
	if m.compounds {
		// Two consecutive words the catalog writes as one each match it.
		for i := 0; i+1 < len(infos); i++ {
			a, b := infos[i], infos[i+1]
			if a.phrase || b.phrase || a.numeric || b.numeric || stops[i] || stops[i+1] || len(a.folded) < 3 || len(b.folded) < 3 {
				continue
			}
			if joined := m.stem(a.folded + b.folded); m.terms[joined] {
				d := m.termDocs(joined)
				for _, j := range []int{i, i + 1} {
					alls[j].or(d)
					directs[j].or(d)
					infos[j].exactOrPrefix = true
				}
			}
		}
		// A word with no exact, prefix or joined match that the catalog
		// writes as two matches both, cut at the first place that works.
		for i, w := range infos {
			if w.phrase || w.numeric || w.exactOrPrefix || len(w.folded) < 6 {
				continue
			}
			for cut := 3; cut <= len(w.folded)-3; cut++ {
				if !utf8.RuneStart(w.folded[cut]) {
					continue
				}
				l, r := m.stem(w.folded[:cut]), m.stem(w.folded[cut:])
				if m.terms[l] && m.terms[r] {
					d := m.phraseDocs([]string{l, r})
					alls[i].or(d)
					directs[i].or(d)
					break
				}
			}
		}
	}
	every := func(sets []refSet) refSet {
		s := sets[0].clone()
		for _, o := range sets[1:] {
			s.and(o)
		}
		return s
	}
	some := func(sets []refSet) refSet {
		s := sets[0].clone()
		for _, o := range sets[1:] {
			s.or(o)
		}
		return s
	}
	res.all, res.direct = every(alls), every(directs)
	_, isNumber := m.keys[refFold(trimmed)]
	if res.all.count() < refRelaxBelow && len(alls) > 1 && !isNumber {
		// Fewer than 10 products match every word, and the query is not
		// a product or variant number: those matching some follow.
		// A function word is optional there: products matching only
		// such words are not among them (unless every word is one).
		needed := func(sets []refSet) []refSet {
			var out []refSet
			for i, set := range sets {
				if !stops[i] {
					out = append(out, set)
				}
			}
			if len(out) == 0 {
				return sets
			}
			return out
		}
		res.all, res.direct = some(needed(alls)), some(needed(directs))
		res.routes.relaxed = true
	}
	// A query equal to a product or variant number finds that product.
	if i, ok := m.keys[refFold(trimmed)]; ok {
		res.all.add(i)
		res.direct.add(i)
	}
	return res
}

// widen adds the products of terms to set and reports whether that added
// any.
func (m *refMatcher) widen(set refSet, terms []string) bool {
	before := set.count()
	for _, t := range terms {
		set.or(m.termDocs(t))
	}
	return set.count() > before
}

// sourceAt is how many tokens from toks[0] form the longest multi-word
// synonym source, or 0.
func (m *refMatcher) sourceAt(toks []refToken) int {
	for n := min(m.synMax, len(toks)); n >= 2; n-- {
		terms := make([]string, n)
		for i := range terms {
			terms[i] = refTerm(m.stem, toks[i])
		}
		if len(m.synonyms[strings.Join(terms, " ")]) > 0 {
			return n
		}
	}
	return 0
}

// synonymDocs adds to all the products a source's synonyms find (a phrase
// needs every word) and reports whether they found any product that the
// direct routes did not.
func (m *refMatcher) synonymDocs(source string, all, direct refSet) bool {
	for _, p := range m.synonyms[source] {
		all.or(m.phraseDocs(p))
	}
	for i := range all {
		if all[i]&^direct[i] != 0 {
			return true
		}
	}
	return false
}

// prefixTerms is the terms of the catalog words starting with prefix, in
// word order, other than prefix itself, at most refMaxPrefix words.
func (m *refMatcher) prefixTerms(prefix string) []string {
	var out []string
	n := 0
	from, _ := slices.BinarySearchFunc(m.words, prefix, func(w refVocabWord, p string) int { return strings.Compare(w.folded, p) })
	for _, w := range m.words[from:] {
		if !strings.HasPrefix(w.folded, prefix) {
			break
		}
		if w.term == prefix || !m.terms[w.term] {
			continue
		}
		out = append(out, w.term)
		if n++; n == refMaxPrefix {
			break
		}
	}
	return out
}

// typedTypoTerms is the terms of the catalog's words (as typed, without
// a digit, in a searched field) within one edit of the word as typed
// from 4 runes, two from 9: the closest first, then the shorter word,
// then in byte order of the term; at most refMaxTypo terms.
func (m *refMatcher) typedTypoTerms(folded string) []string {
	rs := []rune(folded)
	k := 0
	switch {
	case len(rs) >= 9:
		k = 2
	case len(rs) >= 4:
		k = 1
	default:
		return nil
	}
	type cand struct {
		d, l int
		term string
	}
	var cs []cand
	for _, w := range m.words {
		if strings.ContainsAny(w.folded, "0123456789") || !m.terms[w.term] {
			continue
		}
		if d := oracle.OSA(rs, []rune(w.folded)); d >= 1 && d <= k {
			cs = append(cs, cand{d, utf8.RuneCountInString(w.folded), w.term})
		}
	}
	slices.SortFunc(cs, func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.d, b.d), cmp.Compare(a.l, b.l), strings.Compare(a.term, b.term))
	})
	var out []string
	for _, c := range cs {
		if len(out) == refMaxTypo {
			break
		}
		if !slices.Contains(out, c.term) {
			out = append(out, c.term)
		}
	}
	return out
}

// typoTerms is the terms within one edit of term from 5 runes, two from 9
// (a transposition is one edit), at most refMaxTypo of them, by length
// then in byte order.
func (m *refMatcher) typoTerms(term string) []string {
	rs := []rune(term)
	k := 0
	switch {
	case len(rs) >= 9:
		k = 2
	case len(rs) >= 5:
		k = 1
	default:
		return nil
	}
	var out []string
	for l := len(rs) - k; l <= len(rs)+k; l++ {
		for _, t := range m.byLen[l] {
			if d := oracle.OSA(rs, []rune(t)); d >= 1 && d <= k {
				out = append(out, t)
				if len(out) == refMaxTypo {
					return out
				}
			}
		}
	}
	return out
}
