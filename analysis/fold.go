package analysis

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// special maps letters that decomposition does not reduce to ASCII.
var special = map[rune]string{
	'æ': "ae", 'Æ': "ae", 'ø': "o", 'Ø': "o", 'ß': "ss", 'ẞ': "ss", 'œ': "oe", 'Œ': "oe",
	'þ': "th", 'Þ': "th", 'ð': "d", 'Ð': "d", 'đ': "d", 'Đ': "d", 'ł': "l", 'Ł': "l",
	'ı': "i", 'ħ': "h", 'Ħ': "h", 'ŧ': "t", 'Ŧ': "t", 'ŀ': "l", 'Ŀ': "l", 'ĸ': "k",
	'\u2019': "'", '\u2018': "'",
}

// Fold appends the lower-case, accent-free form of s to dst, so keyword
// values and words compare equal however they were typed. Invalid UTF-8
// bytes become spaces.
func Fold(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			// A run of ASCII: one grow, then a table per byte.
			j := i + 1
			for j < len(s) && s[j] < utf8.RuneSelf {
				j++
			}
			n := len(dst)
			dst = slices.Grow(dst, j-i)[:n+j-i]
			out := dst[n:]
			for k, c := range []byte(s[i:j]) {
				out[k] = asciiLower[c]
			}
			i = j
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

var asciiLower = func() (t [utf8.RuneSelf]byte) {
	for c := range t {
		t[c] = byte(c)
		if c >= 'A' && c <= 'Z' {
			t[c] = byte(c) + 'a' - 'A'
		}
	}
	return t
}()

// FoldPhrase is a phrase folded with its spaces collapsed: how a shop's
// configured phrases (redirects, campaign targets) and the phrases
// shoppers search for are compared, however they were typed.
func FoldPhrase(q string) string {
	return strings.Join(strings.Fields(FoldString(q)), " ")
}

// FoldString is Fold for callers that need a string key.
func FoldString(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || c >= 'A' && c <= 'Z' {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var buf [128]byte
	return string(Fold(buf[:0], s))
}
