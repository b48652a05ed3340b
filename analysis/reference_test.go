package analysis

// The tokenizer as it was before its ASCII fast paths, kept to check the
// fast one gives the same tokens.

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

func (a *Analyzer) eachReference(text string, fn func(folded []byte, numeric bool, pos int)) {
	sc := a.pool.Get().(*scratch)
	sc.buf = foldForTokensReference(sc.buf[:0], text)
	buf := sc.buf
	parts := sc.parts[:0]
	// Split the folded text into runs of letters and digits. A '.' or ','
	// between digits stays inside a number; '-' or '/' joins parts.
	i := 0
	joinNext := false
	for i < len(buf) {
		r, size := rune(buf[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(buf[i:])
		}
		if !isWordRuneReference(r) {
			joinNext = (r == '-' || r == '/') && len(parts) > 0 && parts[len(parts)-1].end == i
			i += size
			continue
		}
		p := part{start: i, joined: joinNext}
		joinNext = false
		for i < len(buf) {
			r, size := rune(buf[i]), 1
			if r >= utf8.RuneSelf {
				r, size = utf8.DecodeRune(buf[i:])
			}
			if isWordRuneReference(r) {
				if r >= '0' && r <= '9' || unicode.IsDigit(r) {
					p.digit = true
				}
				i += size
				continue
			}
			if (r == '.' || r == ',') && p.digit && i+1 < len(buf) && buf[i+1] >= '0' && buf[i+1] <= '9' && buf[i-1] >= '0' && buf[i-1] <= '9' {
				buf[i] = '.'
				i++
				continue
			}
			break
		}
		p.end = i
		parts = append(parts, p)
	}
	parts = splitUnitsReference(buf, parts)
	pos := 0
	prevNumeric := false
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
		var words []string
		for _, p := range parts[j:k] {
			w := string(buf[p.start:p.end])
			if p.end > p.start {
				if prevNumeric && a.lang == English && unitAliasReference[w] != "" {
					w = unitAliasReference[w]
				}
				fn(truncate([]byte(w)), p.digit, pos)
				prevNumeric = p.digit
			}
			words = append(words, w)
			pos++
		}
		if k-j > 1 && groupDigit {
			fn(truncate([]byte(strings.Join(words, ""))), true, first)
		}
		j = k - 1
	}
	a.pool.Put(sc)
}

// The unit rules, by regular expression.
var (
	numberUnitRE = regexp.MustCompile(`^([0-9.]+)([^0-9.]+)$`)
	dimensionRE  = regexp.MustCompile(`^[0-9.]+(x[0-9.]+)+$`)
	numberRunRE  = regexp.MustCompile(`[0-9.]+|[^0-9.]+`)
)

var unitSymbolsReference = strings.Fields("in ft v w amp amps gal lb lbs oz mm cm m kg g ml l mah ah hp btu psi pc pcs pk qt yd kw kwh inch volt watt")

var unitAliasReference = map[string]string{
	"inch": "in", "inches": "in", "feet": "ft", "foot": "ft", "volt": "v", "volts": "v", "watt": "w", "watts": "w",
	"amps": "amp", "ampere": "amp", "amperes": "amp", "gallon": "gal", "gallons": "gal",
	"pound": "lb", "pounds": "lb", "lbs": "lb", "ounce": "oz", "ounces": "oz",
}

func splitUnitsReference(buf []byte, parts []part) []part {
	var out []part
	for _, p := range parts {
		w := string(buf[p.start:p.end])
		m := numberUnitRE.FindStringSubmatch(w)
		if !p.digit || !(m != nil && slices.Contains(unitSymbolsReference, m[2]) || dimensionRE.MatchString(w)) {
			out = append(out, p)
			continue
		}
		at := p.start
		for i, run := range numberRunRE.FindAllString(w, -1) {
			out = append(out, part{start: at, end: at + len(run), digit: run[0] >= '0' && run[0] <= '9' || run[0] == '.', joined: i > 0 || p.joined})
			at += len(run)
		}
	}
	return out
}

func foldForTokensReference(dst []byte, s string) []byte {
	start := len(dst)
	dst = foldReference(dst, s)
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

func foldReference(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, ' ')
			continue
		}
		if rep, ok := special[r]; ok {
			dst = append(dst, rep...)
			continue
		}
		r = unicode.ToLower(r)
		if r < utf8.RuneSelf {
			dst = append(dst, byte(r))
			continue
		}
		var tmp [utf8.UTFMax]byte
		n := utf8.EncodeRune(tmp[:], r)
		var it norm.Iter
		it.Init(norm.NFD, tmp[:n])
		for !it.Done() {
			seg := it.Next()
			for len(seg) > 0 {
				sr, ss := utf8.DecodeRune(seg)
				seg = seg[ss:]
				if unicode.Is(unicode.Mn, sr) {
					continue
				}
				if rep, ok := special[sr]; ok {
					dst = append(dst, rep...)
					continue
				}
				dst = utf8.AppendRune(dst, sr)
			}
		}
	}
	return dst
}

func isWordRuneReference(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 'A' && r <= 'Z'
	}
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}
