package engine

import (
	"context"
	"errors"
	"testing"
	"time"

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

// TestServedSince: a website's served time is when a generation at its
// log position was first swapped in: a generation at the same position
// keeps it, one at another position, by Swap or Replace, is stamped
// anew.
func TestServedSince(t *testing.T) {
	g := shopGen(t)
	g.Seq = 5
	before := time.Now()
	e := New("", g)
	t0, ok := e.ServedSince(g.Website.UUID)
	if !ok || t0.Before(before) || t0.After(time.Now()) {
		t.Fatalf("served since %v (%v), want the time New was called", t0, ok)
	}
	if _, ok := e.ServedSince("no-such-website"); ok {
		t.Error("a website not served has a served time")
	}
	same := func() *Generation { n := *g; return &n }
	at := func(seq uint64) *Generation { n := *g; n.Seq = seq; return &n }
	for _, step := range []struct {
		name  string
		swap  func()
		fresh bool
	}{
		{"Replace with the same generations", func() { e.Replace([]*Generation{g}, nil) }, false},
		{"Swap at the same position", func() { e.Swap(same()) }, false},
		{"Swap at a later position", func() { e.Swap(at(6)) }, true},
		{"Swap at that position again", func() { e.Swap(at(6)) }, false},
		{"Replace at another position", func() { e.Replace([]*Generation{at(9)}, nil) }, true},
	} {
		prev, _ := e.ServedSince(g.Website.UUID)
		time.Sleep(time.Millisecond)
		before := time.Now()
		step.swap()
		got, ok := e.ServedSince(g.Website.UUID)
		switch {
		case !ok:
			t.Errorf("%s: no served time", step.name)
		case step.fresh && got.Before(before):
			t.Errorf("%s: served since %v, want a time after %v", step.name, got, before)
		case !step.fresh && !got.Equal(prev):
			t.Errorf("%s: served since %v, want %v kept", step.name, got, prev)
		}
	}
}
