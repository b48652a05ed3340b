package engine

import (
	"errors"
	"testing"
	"time"

	"github.com/aisle-search/aisle/access"
)

// twoSites is an engine serving two copies of the shop: website A
// (company acme) and website B (company other), with A's configured
// apiKey "a-config".
func twoSites(t *testing.T) (e *Engine, a, b *Generation) {
	t.Helper()
	g := shopGen(t)
	ga, gb := *g, *g
	wa, wb := *g.Website, *g.Website
	wa.UUID, wa.CompanyID, wa.APIKeys, wa.RequireAPIKey = "00000000-0000-4000-8000-00000000000a", "acme", []string{"a-config"}, true
	wb.UUID, wb.CompanyID = "00000000-0000-4000-8000-00000000000b", "other"
	wb.Search = nil // one website per search key
	ga.Website, gb.Website = &wa, &wb
	ga.search, gb.search = g.search, nil
	return New("operator", &ga, &gb), &ga, &gb
}

func newKey(t *testing.T, s access.Spec) (*access.Key, string) {
	t.Helper()
	k, secret, err := access.New(s, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return k, secret
}

func kindOf(err error) Kind {
	var e *Error
	if !errors.As(err, &e) {
		return -1
	}
	return e.Kind
}

// TestAdmit walks keys of every reach and scope over both websites and
// the whole server: a key may what its scope covers on its websites,
// is Forbidden elsewhere, and an unknown secret is Unauthorized.
func TestAdmit(t *testing.T) {
	e, a, b := twoSites(t)
	adminA, sAdminA := newKey(t, access.Spec{Name: "admin A", Scopes: []access.Scope{access.ScopeAdmin}, Website: a.Website.UUID})
	searchA, sSearchA := newKey(t, access.Spec{Name: "search A", Scopes: []access.Scope{access.ScopeSearch}, Website: a.Website.UUID})
	auditAcme, sAuditAcme := newKey(t, access.Spec{Name: "audit acme", Scopes: []access.Scope{access.ScopeAudit}, Company: "acme"})
	_, sRevoked := newKey(t, access.Spec{Name: "revoked", Scopes: []access.Scope{access.ScopeAdmin}})
	e.SetKeys([]*access.Key{adminA, searchA, auditAcme})

	A, B, server := a.Website.UUID, b.Website.UUID, ""
	for _, c := range []struct {
		secret string
		scope  access.Scope
		uuid   string
		want   Kind // -1: allowed
	}{
		{sAdminA, access.ScopeAdmin, A, -1},
		{sAdminA, access.ScopeAudit, A, -1},
		{sAdminA, access.ScopeAdmin, B, KindForbidden},
		{sAdminA, access.ScopeAdmin, server, KindForbidden},
		{sSearchA, access.ScopeSearch, A, -1},
		{sSearchA, access.ScopeAdmin, A, KindForbidden},
		{sSearchA, access.ScopeAudit, A, KindForbidden},
		{sAuditAcme, access.ScopeAudit, A, -1},
		{sAuditAcme, access.ScopeAudit, B, KindForbidden},
		{sAuditAcme, access.ScopeAdmin, A, KindForbidden},
		{"a-config", access.ScopeSearch, A, -1},
		{"a-config", access.ScopeAdmin, A, KindForbidden},
		{"a-config", access.ScopeSearch, B, KindForbidden},
		{"operator", access.ScopeAdmin, A, -1},
		{"operator", access.ScopeAdmin, B, -1},
		{"operator", access.ScopeAdmin, server, -1},
		{"operator", access.ScopeAdmin, "00000000-0000-4000-8000-0000000000ff", KindNotFound},
		{sAdminA, access.ScopeAdmin, "00000000-0000-4000-8000-0000000000ff", KindForbidden},
		{sRevoked, access.ScopeAdmin, A, KindUnauthorized},
		{"", access.ScopeSearch, A, KindUnauthorized},
		{"operator2", access.ScopeAdmin, A, KindUnauthorized},
	} {
		_, err := e.Admit(c.secret, c.scope, c.uuid)
		if got := kindOf(err); got != c.want {
			t.Errorf("secret %.12q, %s on %q: %v (kind %d), want kind %d", c.secret, c.scope, c.uuid, err, got, c.want)
		}
	}

	// AuthorizeKey is the search scope on a website.
	if err := e.AuthorizeKey(a, sSearchA); err != nil {
		t.Errorf("search key of A on A: %v", err)
	}
	if err := e.AuthorizeKey(b, sSearchA); kindOf(err) != KindForbidden {
		t.Errorf("search key of A on B: %v, want forbidden", err)
	}
	if err := e.AuthorizeKey(a, sAuditAcme); kindOf(err) != KindForbidden {
		t.Errorf("audit key on a search: %v, want forbidden", err)
	}

	// Keys swapped out are refused at once.
	e.SetKeys(nil)
	if _, err := e.Admit(sAdminA, access.ScopeAdmin, A); kindOf(err) != KindUnauthorized {
		t.Errorf("a key no longer set: %v, want unauthorized", err)
	}
	if len(e.Keys()) != 0 {
		t.Error("Keys lists keys after SetKeys(nil)")
	}
}
