package demo

import (
	"math"
	"strings"
	"unicode/utf8"
)

// leaf is a compiled leaf subcategory.
type leaf struct {
	dept, cat  int
	path       [3]string
	label      string
	labelLower string
	noun       string
	nounLower  string
	keywords   string   // noun and synonyms, comma-separated
	syns       []string // the synonyms alone
	logPrice   float64  // log of the median price
	weight     float64
	size       sizeKind
	siblings   []int // other leaves of the same category
	slug       string
	plural     bool // the noun is plural ("Pliers", "Swim Goggles")
}

// brand is a compiled brand: its name and the departments it sells in.
type brand struct {
	name  string
	slug  string
	depts []int
}

// deptBrand is a brand as one department sees it: a popularity weight and
// the leaves it sells there.
type deptBrand struct {
	brand  int
	leaves []int
}

// category is a compiled category.
type category struct {
	spec      *catSpec
	slug      string // department/category
	leaves    []int
	matLower  []string
	featNames []string // features without their article
	eco       []bool   // per material
}

// department is a compiled department.
type department struct {
	spec     *deptSpec
	slug     string
	cats     []category
	leaves   []int
	brands   []deptBrand
	brandCum []float64
	adjLower []string
}

// shopData is everything the generators draw from, built once.
type shopData struct {
	depts     []department
	deptCum   []float64
	leaves    []leaf
	brands    []brand
	colourCum []float64
	colLower  []string
}

var shop = buildShop()

// brandExponent is the Zipf exponent of brand popularity within a
// department: the top brand sells about 25 times the median one.
const brandExponent = 1.4

func buildShop() *shopData {
	s := &shopData{}
	brandIndex := map[string]int{}
	addBrand := func(name string, dept int) int {
		if i, ok := brandIndex[name]; ok {
			b := &s.brands[i]
			if b.depts[len(b.depts)-1] != dept {
				b.depts = append(b.depts, dept)
			}
			return i
		}
		brandIndex[name] = len(s.brands)
		s.brands = append(s.brands, brand{name: name, slug: slugify(name), depts: []int{dept}})
		return len(s.brands) - 1
	}
	s.depts = make([]department, len(deptSpecs))
	for di := range deptSpecs {
		ds := &deptSpecs[di]
		d := &s.depts[di]
		d.spec = ds
		d.slug = slugify(ds.name)
		for ci := range ds.cats {
			cs := &ds.cats[ci]
			c := category{spec: cs, slug: d.slug + "/" + slugify(cs.name)}
			for _, m := range cs.materials {
				c.matLower = append(c.matLower, lowerWords(m))
				c.eco = append(c.eco, ecoMaterials[m])
			}
			for _, f := range cs.features {
				f = strings.TrimPrefix(f, "a ")
				f = strings.TrimPrefix(f, "an ")
				c.featNames = append(c.featNames, f)
			}
			for _, ls := range cs.leaves {
				id := len(s.leaves)
				syns := strings.Split(ls.syn, ", ")
				keywords := []string{lowerWords(ls.noun)}
				for _, w := range syns {
					if w != keywords[0] {
						keywords = append(keywords, w)
					}
				}
				s.leaves = append(s.leaves, leaf{
					dept: di, cat: ci,
					path:       [3]string{ds.name, cs.name, ls.label},
					label:      ls.label,
					labelLower: lowerWords(ls.label),
					noun:       ls.noun,
					nounLower:  lowerWords(ls.noun),
					keywords:   strings.Join(keywords, ", "),
					syns:       syns,
					logPrice:   math.Log(ls.price),
					weight:     ls.weight,
					size:       ls.size,
					slug:       c.slug + "/" + slugify(ls.label),
					plural:     strings.HasSuffix(ls.noun, "s") && !strings.HasSuffix(ls.noun, "ss"),
				})
				c.leaves = append(c.leaves, id)
				d.leaves = append(d.leaves, id)
			}
			d.cats = append(d.cats, c)
		}
		for _, a := range ds.adjectives {
			d.adjLower = append(d.adjLower, lowerWords(a))
		}
	}
	for i := range s.leaves {
		l := &s.leaves[i]
		for _, j := range s.depts[l.dept].cats[l.cat].leaves {
			if j != i {
				l.siblings = append(l.siblings, j)
			}
		}
	}
	// Own brands first, so every brand's home department comes first.
	for di := range deptSpecs {
		for _, name := range deptSpecs[di].brands {
			addBrand(name, di)
		}
	}
	// Each department's brand list: its own, with two brands of a related
	// department inserted (a garden brand selling tools, …).
	for di := range deptSpecs {
		ds := &deptSpecs[di]
		rel := deptSpecs[ds.related].brands
		names := append([]string(nil), ds.brands...)
		names = insertAt(names, 4, rel[3])
		names = insertAt(names, 12, rel[9])
		d := &s.depts[di]
		total := 0.0
		for rank, name := range names {
			bi := addBrand(name, di)
			d.brands = append(d.brands, deptBrand{brand: bi, leaves: brandLeaves(d, rank)})
			total += math.Pow(float64(rank+1), -brandExponent)
			d.brandCum = append(d.brandCum, total)
		}
	}
	total := 0.0
	for _, ds := range deptSpecs {
		total += ds.weight
		s.deptCum = append(s.deptCum, total)
	}
	total = 0
	for i, w := range colourWeights {
		total += w
		s.colourCum = append(s.colourCum, total)
		s.colLower = append(s.colLower, strings.ToLower(colours[i]))
	}
	return s
}

// brandLeaves decides which leaves the brand at a popularity rank sells in
// its department: the five biggest sell everything, the rest one or two
// categories, so brand facets differ between categories.
func brandLeaves(d *department, rank int) []int {
	if rank < 5 {
		return d.leaves
	}
	nc := len(d.cats)
	a, b := rank%nc, (rank*7+3)%nc
	out := append([]int(nil), d.cats[a].leaves...)
	if b != a {
		out = append(out, d.cats[b].leaves...)
	}
	return out
}

// leafBrands names the brands that sell a leaf, most popular first.
func leafBrands(li int) []string {
	var out []string
	for _, db := range shop.depts[shop.leaves[li].dept].brands {
		for _, x := range db.leaves {
			if x == li {
				out = append(out, shop.brands[db.brand].name)
				break
			}
		}
	}
	return out
}

// article is "a" or "an" for the phrase that follows it.
func article(next string) string {
	if next == "" {
		return "a"
	}
	vowels := "aeiouAEIOU"
	if w, _, _ := strings.Cut(next, " "); isAcronym(w) {
		vowels = "AEFHILMNORSX" // "an LED", "an HDMI", but "a USB-C"
	}
	if strings.IndexByte(vowels, next[0]) >= 0 {
		return "an"
	}
	return "a"
}

func insertAt(s []string, i int, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	s = append(s, "")
	copy(s[i+1:], s[i:])
	s[i] = v
	return s
}

// pick returns the index whose cumulative weight first exceeds u·total.
func pick(cum []float64, u float64) int {
	x := u * cum[len(cum)-1]
	lo, hi := 0, len(cum)-1
	for lo < hi {
		m := (lo + hi) / 2
		if cum[m] > x {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// lowerWords lower-cases a phrase for running text but keeps acronyms and
// model words ("LED", "4K", "USB-C", "TV") as they are.
func lowerWords(s string) string {
	words := strings.Split(s, " ")
	for i, w := range words {
		if !isAcronym(w) {
			words[i] = strings.ToLower(w)
		}
	}
	return strings.Join(words, " ")
}

func isAcronym(w string) bool {
	for i := 1; i < len(w); i++ {
		c, prev := w[i], w[i-1]
		if c >= 'A' && c <= 'Z' && (prev >= 'A' && prev <= 'Z' || prev >= '0' && prev <= '9') {
			return true
		}
	}
	return false
}

// slugify turns a title into a URL path segment: lower-case ASCII letters
// and digits separated by single hyphens, diacritics folded.
func slugify(s string) string {
	return string(appendSlug(nil, []byte(s)))
}

func appendSlug(b, s []byte) []byte {
	start := len(b)
	dash := false
	for len(s) > 0 {
		r, n := rune(s[0]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(s)
		}
		s = s[n:]
		var c byte
		var fold string
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			c = byte(r)
		case r >= 'A' && r <= 'Z':
			c = byte(r) + 'a' - 'A'
		case r == '\'' || r == '’':
			continue
		case r == '&':
			fold = "and"
		default:
			fold = foldRune(r)
			if fold == "" {
				dash = true
				continue
			}
		}
		if dash && len(b) > start {
			b = append(b, '-')
		}
		dash = false
		if fold != "" {
			b = append(b, fold...)
		} else {
			b = append(b, c)
		}
	}
	return b
}

func foldRune(r rune) string {
	switch r {
	case 'à', 'á', 'â', 'ã', 'ä', 'À', 'Á', 'Â', 'Ã', 'Ä':
		return "a"
	case 'å', 'Å':
		return "a"
	case 'æ', 'Æ':
		return "ae"
	case 'ç', 'Ç':
		return "c"
	case 'è', 'é', 'ê', 'ë', 'È', 'É', 'Ê', 'Ë':
		return "e"
	case 'ì', 'í', 'î', 'ï', 'Ì', 'Í', 'Î', 'Ï':
		return "i"
	case 'ñ', 'Ñ':
		return "n"
	case 'ò', 'ó', 'ô', 'õ', 'ö', 'ø', 'Ò', 'Ó', 'Ô', 'Õ', 'Ö', 'Ø':
		return "o"
	case 'ù', 'ú', 'û', 'ü', 'Ù', 'Ú', 'Û', 'Ü':
		return "u"
	case 'ß':
		return "ss"
	}
	return ""
}
