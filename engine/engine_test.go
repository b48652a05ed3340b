package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/aisle-search/aisle/access"
)

// TestAuthorize: a website that requires an API key accepts its own keys
// and the admin key, and refuses a missing or unknown key as
// unauthorized (docs/decisions.md, API keys); one that does not require
// a key accepts anything.
func TestAuthorize(t *testing.T) {
	g := shopGen(t)
	open := New("admin-secret", g)
	for _, key := range []string{"", "anything"} {
		if err := open.Authorize(g, key); err != nil {
			t.Errorf("no key required, key %q: %v", key, err)
		}
	}
	locked := *g
	w := *g.Website
	w.RequireAPIKey, w.APIKeys = true, []string{"shop-key-1", "shop-key-2"}
	locked.Website = &w
	for _, tc := range []struct {
		admin, key string
		ok         bool
	}{
		{"admin-secret", "shop-key-1", true},
		{"admin-secret", "shop-key-2", true},
		{"admin-secret", "admin-secret", true},
		{"", "", false},
		{"admin-secret", "", false},
		{"admin-secret", "shop-key-3", false},
		{"admin-secret", "admin-secre", false},
		{"", "admin-secret", false},
	} {
		e := New(tc.admin, &locked)
		err := e.Authorize(&locked, tc.key)
		var ee *Error
		switch {
		case tc.ok && err != nil:
			t.Errorf("admin key %q, key %q refused: %v", tc.admin, tc.key, err)
		case !tc.ok && (!errors.As(err, &ee) || ee.Kind != KindUnauthorized):
			t.Errorf("admin key %q, key %q: %v, want unauthorized", tc.admin, tc.key, err)
		}
		// Search authorises on the current generation before answering.
		_, err = e.Search(context.Background(), shopRequest(t, `{"query":"drill","key":"shop"}`), tc.key)
		if (err == nil) != tc.ok {
			t.Errorf("search with admin key %q, key %q: %v", tc.admin, tc.key, err)
		}
	}
}

// TestAuthorizeAdmin: only the operator's admin key may change the
// whole configuration; without one configured no key may.
func TestAuthorizeAdmin(t *testing.T) {
	g := shopGen(t)
	for _, tc := range []struct {
		admin, key string
		ok         bool
	}{
		{"admin-secret", "admin-secret", true},
		{"admin-secret", "", false},
		{"admin-secret", "admin-secre", false},
		{"", "", false},
		{"", "anything", false},
	} {
		_, err := New(tc.admin, g).Admit(tc.key, access.ScopeAdmin, "")
		var ee *Error
		if tc.ok != (err == nil) || !tc.ok && (!errors.As(err, &ee) || ee.Kind != KindUnauthorized) {
			t.Errorf("admin key %q, key %q: %v", tc.admin, tc.key, err)
		}
	}
}
