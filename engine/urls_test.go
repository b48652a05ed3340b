package engine

import "testing"

// TestURLKey: a page's absolute link, a browser's location and a
// relative link find the same product; the query, fragment, host and a
// trailing slash do not matter.
func TestURLKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://shop.test/p/drill-18v", "url:/p/drill-18v"},
		{"http://shop.test/p/drill-18v/?utm_source=mail#reviews", "url:/p/drill-18v"},
		{"/p/drill-18v", "url:/p/drill-18v"},
		{"  /p/drill-18v  ", "url:/p/drill-18v"},
		{"https://shop.test/", ""},
		{"https://shop.test", ""},
		{"", ""},
		{"/p/100%", "url:/p/100%"}, // not a valid escape: taken as written
	} {
		if got := urlKey(tc.in); got != tc.want {
			t.Errorf("urlKey(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	variants := []string{"A-1", "A-2"}
	keys := altKeys(variants[:1], "/p/a")
	if len(keys) != 2 || keys[1] != "url:/p/a" || variants[1] != "A-2" {
		t.Errorf("altKeys: %q, and the variants became %q", keys, variants)
	}
}
