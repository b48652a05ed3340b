package demo

import (
	"math/rand/v2"
	"strings"
	"unicode/utf8"
)

// pTypo is the share of queries with a misspelt word.
const pTypo = 0.12

// Queries returns n search phrases of one to three words drawn from the
// catalog's vocabulary, deterministically from seed, so benchmarks search
// for what shoppers would: nouns and synonyms, colour, material or
// adjective plus noun, brand names (alone or with a noun), and a share with
// a typo. Popular departments and brands come up more often, as they would
// in a query log.
func Queries(n int, seed uint64) []string {
	if n < 0 {
		n = 0
	}
	r := rand.New(rand.NewPCG(seed, seed^0xbf58476d1ce4e5b9))
	out := make([]string, n)
	for i := range out {
		d := &shop.depts[pick(shop.deptCum, r.Float64())]
		db := &d.brands[pick(d.brandCum, r.Float64())]
		l := &shop.leaves[db.leaves[r.IntN(len(db.leaves))]]
		brandName := strings.ToLower(shop.brands[db.brand].name)
		term := l.syns[r.IntN(len(l.syns))]
		var q string
		switch x := r.IntN(100); {
		case x < 25:
			q = term
		case x < 35:
			q = l.nounLower
		case x < 45:
			q = l.labelLower
		case x < 55:
			q = shop.colLower[pick(shop.colourCum, r.Float64())] + " " + term
		case x < 63:
			c := &d.cats[l.cat]
			q = c.matLower[r.IntN(len(c.matLower))] + " " + term
		case x < 70:
			q = d.adjLower[r.IntN(len(d.adjLower))] + " " + term
		case x < 80:
			q = brandName
		case x < 92:
			q = brandName + " " + term
		default:
			q = term
			if vals := sizeValues[l.size]; len(vals) > 0 {
				q = term + " " + strings.ToLower(vals[r.IntN(len(vals))])
			}
		}
		if strings.Count(q, " ") > 2 {
			q = term
		}
		if strings.Count(q, " ") > 2 {
			q = l.syns[0]
		}
		if r.Float64() < pTypo {
			q = typo(q, r)
		}
		out[i] = strings.ToLower(q)
	}
	return out
}

// typo misspells the longest word of q the way people do: a swapped,
// dropped, doubled or neighbouring letter.
func typo(q string, r *rand.Rand) string {
	words := strings.Split(q, " ")
	best := -1
	for i, w := range words {
		if utf8.RuneCountInString(w) >= 4 && (best < 0 || len(w) > len(words[best])) {
			best = i
		}
	}
	if best < 0 {
		return q
	}
	w := []rune(words[best])
	j := 1 + r.IntN(len(w)-2) // never the first letter
	switch r.IntN(4) {
	case 0:
		w[j], w[j+1] = w[j+1], w[j]
		if w[j] == w[j+1] {
			w = append(w[:j], w[j+1:]...)
		}
	case 1:
		w = append(w[:j], w[j+1:]...)
	case 2:
		w = append(w[:j+1], w[j:]...)
	default:
		w[j] = neighbour(w[j], r)
	}
	words[best] = string(w)
	return strings.Join(words, " ")
}

// keyboardRows gives each letter's QWERTY neighbours.
var keyboardRows = []string{"qwertyuiop", "asdfghjkl", "zxcvbnm"}

func neighbour(c rune, r *rand.Rand) rune {
	for _, row := range keyboardRows {
		if i := strings.IndexRune(row, c); i >= 0 {
			if i == 0 || (i < len(row)-1 && r.IntN(2) == 0) {
				return rune(row[i+1])
			}
			return rune(row[i-1])
		}
	}
	return 'e'
}
