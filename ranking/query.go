// Package ranking turns a search phrase into weighted term expansions
// (Parse), matches them (Match, MatchSets), and scores candidate docs
// with BM25F, walking postings or looking common terms' weights up. A
// page is read from the impact-ordered lists when they settle it (Top),
// and otherwise picked from every candidate's score with a bounded heap
// (TopN).
package ranking

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/index"
)

// Expansion is one indexed term a query word may match, with the weight of
// that route. Suggested marks a route through a synonym.
type Expansion struct {
	Term      uint32
	Weight    float32
	Suggested bool
	// ScoreOnly routes belong to a phrase: they add to the score but
	// match only through Word.Phrases.
	ScoreOnly bool
}

// Word is one query word (or a phrase with synonyms) and the terms it may
// match.
type Word struct {
	pos     int // the token's position in the phrase
	numeric bool
	// Stop: a function word of the language (Options.OptionalStopWords).
	Stop bool
	Text string // folded, as typed
	// Term is the word's term as the index analyses it (its stem; a
	// number as it is), whether or not the index holds it.
	Term    string
	Exp     []Expansion
	Phrases []Phrase
}

// Phrase is a route that needs every one of its terms in the doc: a
// multi-word synonym, or a multi-word synonym source as typed.
type Phrase struct {
	Terms     []uint32
	Suggested bool
}

// Query is an analysed phrase, ready to match and score.
type Query struct {
	Phrase   string
	Wildcard bool
	Words    []Word
	// SKU is the doc whose product number equals the whole phrase.
	SKU    uint32
	HasSKU bool
	// Fields are the text fields the words match in.
	Fields index.FieldMask
}

// Route weights: an exact term beats a synonym the shop configured,
// which beats an as-you-type prefix completion, which beats a typo.
const (
	weightExact   = 1.0
	weightPrefix  = 0.6
	weightSynonym = 0.8
	weightTypo    = 0.45
	// weightJoined is two query words' route through the word the
	// catalog writes them as; weightCut each half of a word the catalog
	// writes as two. Home Depot NDCG@10 moved little between 0.3 and 0.8
	// for the joined word (docs/benchmarks.md, Relevance levers).
	weightJoined = 0.6
	weightCut    = 0.5
	maxPrefixExp = 32
	maxTypoExp   = 16
)

// Options tune expansion per search configuration.
type Options struct {
	// PrefixLast matches the last word as a prefix (as-you-type) unless the
	// phrase ends in a space.
	PrefixLast bool
	Synonyms   *Synonyms
	// Fields are the text fields words match in: a configuration
	// version's searchable fields. A term found only in other fields is
	// no route at all (not exact, not a prefix, typo or synonym target).
	// Zero means every field.
	Fields index.FieldMask
	// OptionalStopWords lets a query's function words ("with", "and")
	// go unmatched when it is relaxed to partial matches (Match): a
	// product matching only them is not a match, and they do not count
	// among the words a product matches, so the rarer words decide.
	OptionalStopWords bool
	// TypedTypos matches typos of a word as typed, not only of its stem:
	// a word without an exact match finds the terms of the indexed words
	// within 1 edit of it (from 4 letters) or 2 (from 9), so "celing"
	// finds "ceiling", whose stem is two edits from "celing"'s.
	TypedTypos bool
	// RareWordTypos treats a word that exists as typed but is rare beside
	// a word one typo away as a likely misspelling of it: the word also
	// matches the terms of its typos as typed (TypedTypos, which it
	// needs) that are in rareTypoRatio times as many docs, as typo
	// routes (the closest maxTypoExp of those). "toiled" (in 1 title, stemmed "toil") also finds "toilet"
	// (in 631); "cabinent", stemmed "cabin", finds "cabinet". Only words
	// in at most rareTypoMaxDocs docs are checked.
	RareWordTypos bool
	// CompoundWords matches words written apart or together (compounds):
	// "lawn mower" finds "Lawnmower", "doorknob" finds "Door Knob".
	CompoundWords bool
}

// WildcardPhrase reports whether phrase is the wildcard as written: only
// "*", or nothing but spaces. Parse also makes a phrase the analyzer
// keeps no word of the wildcard.
func WildcardPhrase(phrase string) bool {
	t := strings.TrimSpace(phrase)
	return t == "" || t == "*"
}

// Parse analyses phrase against seg. A phrase of only "*" (or nothing but
// spaces) is the wildcard.
func Parse(seg *index.Segment, an *analysis.Analyzer, phrase string, opt Options) Query {
	q := Query{Phrase: phrase, Fields: opt.Fields}
	if q.Fields == 0 {
		q.Fields = index.AllFields
	}
	trimmed := strings.TrimSpace(phrase)
	if WildcardPhrase(trimmed) {
		q.Wildcard = true
		return q
	}
	if d, ok := seg.DocByKey(analysis.FoldString(trimmed)); ok {
		q.SKU, q.HasSKU = d, true
	}
	toks := an.Analyze(nil, trimmed)
	if len(toks) == 0 {
		q.Wildcard = true
		return q
	}
	endsInSpace := strings.HasSuffix(phrase, " ")
	// As-you-type applies to the last word a product needs: the last
	// token that is not a joined group's concatenation.
	last := len(toks) - 1
	for last > 0 && toks[last].Pos <= toks[last-1].Pos {
		last--
	}
	seen := make(map[string]bool, len(toks))
	for i := 0; i < len(toks); i++ {
		if n := multiWordSynonym(seg, opt.Synonyms, toks[i:], &q); n > 0 {
			i += n - 1
			continue
		}
		tk := toks[i]
		if i > 0 && tk.Pos <= toks[i-1].Pos && len(q.Words) > 0 {
			// A joined token ("1gal" of "1-gal", "18v" of "18v"): not a
			// word the products need, since a catalog writes "1 gal." as
			// often; a route of its group's first word that only scores.
			if id, ok := termIn(seg, tk.Term, q.Fields); ok {
				for wi := len(q.Words) - 1; wi >= 0; wi-- {
					if q.Words[wi].pos == tk.Pos {
						q.Words[wi].add(Expansion{Term: id, Weight: weightExact, ScoreOnly: true})
						break
					}
				}
			}
			continue
		}
		if seen[tk.Term] {
			continue
		}
		seen[tk.Term] = true
		w := Word{Text: tk.Folded, Term: tk.Term, Stop: opt.OptionalStopWords && an.IsStop(tk.Folded), pos: tk.Pos, numeric: tk.Numeric}
		exact, hasTerm := termIn(seg, tk.Term, q.Fields)
		if hasTerm {
			w.Exp = append(w.Exp, Expansion{Term: exact, Weight: weightExact})
		}
		if i == last && opt.PrefixLast && !endsInSpace {
			addPrefix(seg, &w, tk.Folded, q.Fields)
		}
		if opt.Synonyms != nil {
			for _, p := range opt.Synonyms.lookup(tk.Term) {
				addSynonym(seg, &w, p, q.Fields)
			}
		}
		if !tk.Numeric && !hasExact(&w) {
			addTypos(seg, &w, tk.Term, q.Fields)
			if opt.TypedTypos {
				addTypedTypos(seg, &w, tk.Folded, q.Fields, 0)
			}
		} else if !tk.Numeric && hasTerm && opt.TypedTypos && opt.RareWordTypos {
			addRareTypos(seg, &w, tk.Folded, exact, q.Fields)
		}
		q.Words = append(q.Words, w)
	}
	if opt.CompoundWords {
		compounds(seg, an, &q)
	}
	return q
}

// compounds adds the routes of words written apart or together: two
// consecutive words that the catalog writes as one ("lawn mower",
// "lawnmower") each take the joined word as a route; a word without an
// exact or prefix match that the catalog writes as two ("doorknob",
// "door knob") takes both as a phrase route, its first cut (from the
// third byte on, leaving three) whose halves are both terms. Words with
// a digit, function words (when optional), words of under 3 bytes and
// synonym phrases take part in neither. Joins come first: a word that
// gains one is not cut.
func compounds(seg *index.Segment, an *analysis.Analyzer, q *Query) {
	for i := 0; i+1 < len(q.Words); i++ {
		a, b := &q.Words[i], &q.Words[i+1]
		if a.numeric || b.numeric || a.Stop || b.Stop || len(a.Text) < 3 || len(b.Text) < 3 || strings.Contains(a.Text, " ") || strings.Contains(b.Text, " ") {
			continue
		}
		if id, ok := termIn(seg, an.Stem(a.Text+b.Text), q.Fields); ok {
			a.add(Expansion{Term: id, Weight: weightJoined})
			b.add(Expansion{Term: id, Weight: weightJoined})
		}
	}
	for i := range q.Words {
		w := &q.Words[i]
		if w.numeric || hasExact(w) || len(w.Text) < 6 || strings.Contains(w.Text, " ") {
			continue
		}
		for cut := 3; cut <= len(w.Text)-3; cut++ {
			if !utf8.RuneStart(w.Text[cut]) {
				continue
			}
			lid, ok1 := termIn(seg, an.Stem(w.Text[:cut]), q.Fields)
			rid, ok2 := termIn(seg, an.Stem(w.Text[cut:]), q.Fields)
			if ok1 && ok2 {
				w.Phrases = append(w.Phrases, Phrase{Terms: []uint32{lid, rid}})
				w.add(Expansion{Term: lid, Weight: weightCut, ScoreOnly: true})
				w.add(Expansion{Term: rid, Weight: weightCut, ScoreOnly: true})
				break
			}
		}
	}
}

// multiWordSynonym turns the longest synonym source phrase starting at
// toks[0] into one word: its own terms as a direct phrase, the synonyms as
// suggested routes. It returns how many tokens it took, 0 for none.
func multiWordSynonym(seg *index.Segment, syn *Synonyms, toks []analysis.Token, q *Query) int {
	if syn == nil || syn.maxLen < 2 {
		return 0
	}
	for n := min(syn.maxLen, len(toks)); n >= 2; n-- {
		terms := make([]string, n)
		for i := range terms {
			terms[i] = toks[i].Term
		}
		targets := syn.lookup(strings.Join(terms, " "))
		if targets == nil {
			continue
		}
		var w Word
		own := make([]uint32, 0, n)
		for i, t := range terms {
			if i > 0 {
				w.Text += " "
			}
			w.Text += toks[i].Folded
			if id, ok := termIn(seg, t, q.Fields); ok {
				own = append(own, id)
			}
		}
		if len(own) == n {
			w.Phrases = append(w.Phrases, Phrase{Terms: own})
			for _, id := range own {
				w.add(Expansion{Term: id, Weight: weightExact / float32(n), ScoreOnly: true})
			}
		}
		for _, p := range targets {
			addSynonym(seg, &w, p, q.Fields)
		}
		q.Words = append(q.Words, w)
		return n
	}
	return 0
}

// addSynonym adds a synonym route: one term, or a phrase whose terms
// score as routes but match only together.
func addSynonym(seg *index.Segment, w *Word, phrase []string, fields index.FieldMask) {
	ids := make([]uint32, 0, len(phrase))
	for _, t := range phrase {
		id, ok := termIn(seg, t, fields)
		if !ok {
			return
		}
		ids = append(ids, id)
	}
	if len(ids) == 1 {
		w.add(Expansion{Term: ids[0], Weight: weightSynonym, Suggested: true})
		return
	}
	w.Phrases = append(w.Phrases, Phrase{Terms: ids, Suggested: true})
	for _, id := range ids {
		w.add(Expansion{Term: id, Weight: weightSynonym / float32(len(ids)), Suggested: true, ScoreOnly: true})
	}
}

// termIn is the id of term t when it occurs in a field of fields.
func termIn(seg *index.Segment, t string, fields index.FieldMask) (uint32, bool) {
	id, ok := seg.Term(t)
	if !ok || !seg.TermIn(id, fields) {
		return 0, false
	}
	return id, true
}

// hasExact reports whether a word matches as typed: through an exact,
// prefix or joined route (routes that only score, and synonyms, aside).
// Such a word takes no typo routes and is not cut in two.
func hasExact(w *Word) bool {
	for _, e := range w.Exp {
		if !e.ScoreOnly && !e.Suggested && e.Weight >= weightPrefix {
			return true
		}
	}
	return false
}

// add keeps one expansion per term: the best route, preferring a direct
// one over a synonym at equal weight. A term that any matching route
// reaches directly stays direct, so a product the word finds as typed
// (by prefix or typo too) is not marked as found through a synonym.
func (w *Word) add(e Expansion) {
	for i := range w.Exp {
		if w.Exp[i].Term == e.Term {
			if e.ScoreOnly && !w.Exp[i].ScoreOnly {
				return
			}
			direct := !w.Exp[i].ScoreOnly && !w.Exp[i].Suggested || !e.ScoreOnly && !e.Suggested
			if !e.ScoreOnly && w.Exp[i].ScoreOnly || e.Weight > w.Exp[i].Weight || e.Weight == w.Exp[i].Weight && !e.Suggested {
				w.Exp[i] = e
			}
			if direct {
				w.Exp[i].Suggested = false
			}
			return
		}
	}
	w.Exp = append(w.Exp, e)
}

func addPrefix(seg *index.Segment, w *Word, prefix string, fields index.FieldMask) {
	if utf8.RuneCountInString(prefix) < 2 {
		return
	}
	n := 0
	seg.PrefixTerms(prefix, func(t uint32) bool {
		if seg.TermString(t) == prefix || !seg.TermIn(t, fields) {
			return true
		}
		w.add(Expansion{Term: t, Weight: weightPrefix})
		n++
		return n < maxPrefixExp
	})
}

// addTypos adds terms within 1 edit (from 5 runes) or 2 edits (from 9).
func addTypos(seg *index.Segment, w *Word, term string, fields index.FieldMask) {
	rs := []rune(term)
	k := typoEdits(len(rs), 5)
	if k == 0 {
		return
	}
	var buf editBuf
	// From the segment's typo index: the candidates within k, taken in
	// the order the scan below meets them (by length, then term), so the
	// first maxTypoExp are the same.
	type typo struct {
		l int
		t uint32
		d int
	}
	var found []typo
	if seg.TypoCandidates(rs, k, func(t uint32) {
		s := seg.TermString(t)
		if d := buf.distance(rs, s, k); d >= 1 && d <= k && seg.TermIn(t, fields) {
			found = append(found, typo{utf8.RuneCountInString(s), t, d})
		}
	}) {
		slices.SortFunc(found, func(a, b typo) int { return cmp.Or(cmp.Compare(a.l, b.l), cmp.Compare(a.t, b.t)) })
		for _, f := range found[:min(len(found), maxTypoExp)] {
			w.add(Expansion{Term: f.t, Weight: weightTypo / float32(f.d)})
		}
		return
	}
	n := 0
	for l := len(rs) - k; l <= len(rs)+k; l++ {
		for _, t := range seg.TermsOfLen(l) {
			if d := buf.distance(rs, seg.TermString(t), k); d >= 1 && d <= k && seg.TermIn(t, fields) {
				w.add(Expansion{Term: t, Weight: weightTypo / float32(d)})
				n++
				if n >= maxTypoExp {
					return
				}
			}
		}
	}
}

// typoEdits is how many edits a word of n runes may be off: 2 from 9
// runes, 1 from one, 0 below it.
func typoEdits(n, one int) int {
	switch {
	case n >= 9:
		return 2
	case n >= one:
		return 1
	}
	return 0
}

type editBuf struct {
	b         []rune
	prev, cur []int
	pprev     []int
}

// distance is the optimal-string-alignment distance between a and b, or
// k+1 as soon as it must exceed k.
func (e *editBuf) distance(a []rune, bs string, k int) int {
	e.b = e.b[:0]
	for _, r := range bs {
		e.b = append(e.b, r)
	}
	b := e.b
	if abs(len(a)-len(b)) > k {
		return k + 1
	}
	n := len(b)
	if cap(e.prev) < n+1 {
		e.prev, e.cur, e.pprev = make([]int, n+1), make([]int, n+1), make([]int, n+1)
	}
	prev, cur, pprev := e.prev[:n+1], e.cur[:n+1], e.pprev[:n+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= n; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, pprev[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > k {
			return k + 1
		}
		pprev, prev, cur = prev, cur, pprev
	}
	return prev[n]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Options.RareWordTypos: a word in at most rareTypoMaxDocs docs takes
// its typos' terms that are in rareTypoRatio times as many docs or more.
// Home Depot NDCG@10 by ratio: docs/benchmarks.md, Relevance levers.
var (
	rareTypoRatio   uint64 = 50
	rareTypoMaxDocs uint64 = 20
)

// addRareTypos adds the typo routes of a word that exists as typed
// (term exact) but is rare beside them (Options.RareWordTypos). Doc
// counts are over the searched fields.
func addRareTypos(seg *index.Segment, w *Word, typed string, exact uint32, fields index.FieldMask) {
	df := fieldDocFreq(seg, exact, fields)
	if df > rareTypoMaxDocs {
		return
	}
	addTypedTypos(seg, w, typed, fields, rareTypoRatio*df)
}

// fieldDocFreq is how many docs hold term in the fields.
func fieldDocFreq(seg *index.Segment, term uint32, fields index.FieldMask) uint64 {
	if fields == index.AllFields {
		return seg.DocFreq(term)
	}
	return seg.TermDocsIn(term, fields).GetCardinality()
}

// addTypedTypos adds the terms of the indexed words (unstemmed, without
// a digit) within 1 edit of typed (from 4 runes) or 2 (from 9): the
// closest first, then the shorter word, then by term, at most
// maxTypoExp terms, among the terms in minDocs docs of the fields or
// more (0: any). The segment's typo index finds the candidates, among
// the common surfaces alone when minDocs reaches
// index.CommonSurfaceDocs; until it is built every word is scanned.
func addTypedTypos(seg *index.Segment, w *Word, typed string, fields index.FieldMask, minDocs uint64) {
	rs := []rune(typed)
	k := typoEdits(len(rs), 4)
	if k == 0 {
		return
	}
	type typo struct {
		d, l int
		t    uint32
	}
	var found []typo
	var buf editBuf
	check := func(i int) {
		s, t := seg.Surface(i)
		if d := buf.distance(rs, s, k); d >= 1 && d <= k && seg.TermIn(t, fields) &&
			(minDocs == 0 || fieldDocFreq(seg, t, fields) >= minDocs) {
			found = append(found, typo{d, utf8.RuneCountInString(s), t})
		}
	}
	candidates := seg.SurfaceTypoCandidates
	if minDocs >= index.CommonSurfaceDocs {
		candidates = seg.CommonSurfaceTypoCandidates
	}
	if !candidates(rs, k, check) {
		for i := range seg.Surfaces() {
			if s, _ := seg.Surface(i); !strings.ContainsAny(s, "0123456789") {
				check(i)
			}
		}
	}
	slices.SortFunc(found, func(a, b typo) int {
		return cmp.Or(cmp.Compare(a.d, b.d), cmp.Compare(a.l, b.l), cmp.Compare(a.t, b.t))
	})
	var added [maxTypoExp]uint32
	n := 0
	for _, f := range found {
		if n == maxTypoExp {
			break
		}
		if slices.Contains(added[:n], f.t) { // another word of the same term
			continue
		}
		added[n] = f.t
		n++
		w.add(Expansion{Term: f.t, Weight: weightTypo / float32(f.d)})
	}
}
