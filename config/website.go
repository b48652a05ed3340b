package config

import (
	"crypto/rand"
	"fmt"

	"github.com/aisle-search/aisle/analysis"
)

// DemoUUID is the demo website's id: fixed, so the README's requests and
// the SDK's examples name it.
const DemoUUID = "00000000-0000-4000-8000-000000000001"

// NewUUID is a random (version 4) UUID in the form Validate accepts: a
// website id for a catalog imported without a configuration.
func NewUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails: crypto/rand panics instead
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// checkUUID accepts the spec's websiteUuid: 36 characters, lowercase
// hexadecimal digits in groups of 8-4-4-4-12. One spelling per website
// keeps store keys and URLs unambiguous.
func checkUUID(s string) error {
	if s == "" {
		return fmt.Errorf("is required")
	}
	ok := len(s) == 36
	for i := 0; ok && i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			ok = c == '-'
		default:
			ok = '0' <= c && c <= '9' || 'a' <= c && c <= 'f'
		}
	}
	if !ok {
		return fmt.Errorf("%q is not a UUID: 32 lowercase hexadecimal digits as 8-4-4-4-12, like %s", s, DemoUUID)
	}
	return nil
}

// DefaultCompany owns the websites whose configuration names no company.
const DefaultCompany = "default"

// maxCompanyLen bounds a company id, in bytes.
const maxCompanyLen = 64

// Company is the id of the company that owns w: its companyId, or
// DefaultCompany.
func (w *Website) Company() string {
	if w.CompanyID == "" {
		return DefaultCompany
	}
	return w.CompanyID
}

// CheckCompany accepts a company id: at most maxCompanyLen letters,
// digits, '-', '_' and '.', so it is safe in keys, URLs and logs.
func CheckCompany(s string) error {
	if len(s) > maxCompanyLen {
		return fmt.Errorf("has %d bytes, at most %d", len(s), maxCompanyLen)
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return fmt.Errorf("%q may hold only letters, digits, '-', '_' and '.'", s)
		}
	}
	return nil
}

// Lang is the website's stemming language: its language setting, or def
// when it has none. Validate has checked the setting.
func (w *Website) Lang(def analysis.Language) analysis.Language {
	if w.Language == "" {
		return def
	}
	l, err := analysis.ParseLanguage(w.Language)
	if err != nil {
		return def
	}
	return l
}

// Website finds a website by UUID.
func (f *File) Website(uuid string) (*Website, bool) {
	for i := range f.Websites {
		if f.Websites[i].UUID == uuid {
			return &f.Websites[i], true
		}
	}
	return nil, false
}
