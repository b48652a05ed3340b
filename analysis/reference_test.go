package analysis

// The tokenizer as it was before its ASCII fast paths, kept to check the
// fast one gives the same tokens.

import (
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
