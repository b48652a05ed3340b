package engine

import (
	"net/url"
	"slices"
	"strings"
)

// A product is found by its page's address as well as its number: its
// url's key is one of its index's alternative keys, so a recommendation
// context's urls and a view event that names only the page resolve to
// the product (docs/decisions.md, Recommendations).

// urlKeyPrefix marks the alternative key of a product's url; no product
// number is looked up with it.
const urlKeyPrefix = "url:"

// urlKey is the key of a page address: its path, without the scheme,
// host, query, fragment or a trailing slash, so the shop's absolute
// links and a browser's location find the same product. "" for an
// address without a path.
func urlKey(raw string) string {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return ""
	}
	path := raw
	if u, err := url.Parse(raw); err == nil {
		path = u.Path
	} else if i := strings.IndexAny(raw, "?#"); i >= 0 {
		path = raw[:i]
	}
	path = strings.TrimRight(path, "/")
	if path == "" {
		return ""
	}
	return urlKeyPrefix + path
}

// altKeys are a product's alternative keys: its variants' numbers and
// its url's key. variants is not modified.
func altKeys(variants []string, pageURL string) []string {
	if k := urlKey(pageURL); k != "" {
		return append(slices.Clip(variants), k)
	}
	return variants
}

// productByURL is the served product whose url is pageURL's.
func (g *Generation) productByURL(pageURL string) (uint32, bool) {
	k := urlKey(pageURL)
	if k == "" {
		return 0, false
	}
	return g.Products.DocByKey(foldString(k))
}
