package access

import (
	"errors"
	"strings"
	"testing"
	"time"
)

var now = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)

func mustNew(t *testing.T, s Spec) (*Key, string) {
	t.Helper()
	k, secret, err := New(s, now)
	if err != nil {
		t.Fatal(err)
	}
	return k, secret
}

func TestNewKeepsOnlyTheDigest(t *testing.T) {
	k, secret := mustNew(t, Spec{Name: "console", Scopes: []Scope{ScopeAdmin}, Website: "w1"})
	if !strings.HasPrefix(secret, "aisle_"+k.ID+"_") || len(secret) != len("aisle_")+16+1+64 {
		t.Fatalf("secret %q does not have the form aisle_<id>_<64 hex>", secret)
	}
	if strings.Contains(string(k.Hash), secret) || len(k.Hash) != 32 {
		t.Fatalf("hash %x is not a SHA-256 digest", k.Hash)
	}
	k2, secret2 := mustNew(t, Spec{Name: "console", Scopes: []Scope{ScopeAdmin}, Website: "w1"})
	if k2.ID == k.ID || secret2 == secret {
		t.Fatal("two keys share an id or a secret")
	}
}

func TestNewRefuses(t *testing.T) {
	for _, s := range []Spec{
		{Scopes: []Scope{ScopeAdmin}},
		{Name: "  ", Scopes: []Scope{ScopeAdmin}},
		{Name: strings.Repeat("n", maxNameLen+1), Scopes: []Scope{ScopeAdmin}},
		{Name: "n"},
		{Name: "n", Scopes: []Scope{"root"}},
		{Name: "n", Scopes: []Scope{ScopeSearch}, Website: "w", Company: "c"},
	} {
		if _, _, err := New(s, now); !errors.Is(err, ErrInvalid) {
			t.Errorf("New(%+v) = %v, want ErrInvalid", s, err)
		}
	}
}

func TestParseScopes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []Scope
		ok   bool
	}{
		{"admin", []Scope{ScopeAdmin}, true},
		{"Search, audit", []Scope{ScopeSearch, ScopeAudit}, true},
		{"analytics", []Scope{ScopeAnalytics}, true},
		{"", nil, false},
		{"search,search", nil, false},
		{"search,owner", nil, false},
	} {
		got, err := ParseScopes(c.in)
		if (err == nil) != c.ok || strings.Join(scopeStrings(got), ",") != strings.Join(scopeStrings(c.want), ",") {
			t.Errorf("ParseScopes(%q) = %v, %v; want %v ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

func scopeStrings(s []Scope) []string {
	out := make([]string, len(s))
	for i, sc := range s {
		out[i] = string(sc)
	}
	return out
}

func TestAllows(t *testing.T) {
	site, _ := mustNew(t, Spec{Name: "a", Scopes: []Scope{ScopeSearch}, Website: "w1"})
	company, _ := mustNew(t, Spec{Name: "b", Scopes: []Scope{ScopeAudit}, Company: "acme"})
	admin, _ := mustNew(t, Spec{Name: "c", Scopes: []Scope{ScopeAdmin}, Website: "w1"})
	server, _ := mustNew(t, Spec{Name: "d", Scopes: []Scope{ScopeAdmin}})
	for _, c := range []struct {
		k       *Key
		scope   Scope
		uuid    string
		company string
		want    bool
	}{
		{site, ScopeSearch, "w1", "acme", true},
		{site, ScopeSearch, "w2", "acme", false},
		{site, ScopeAdmin, "w1", "acme", false},
		{site, ScopeAudit, "w1", "acme", false},
		{company, ScopeAudit, "w1", "acme", true},
		{company, ScopeAudit, "w9", "acme", true},
		{company, ScopeAudit, "w1", "other", false},
		{company, ScopeSearch, "w1", "acme", false},
		{admin, ScopeSearch, "w1", "x", true},
		{admin, ScopeAnalytics, "w1", "x", true},
		{admin, ScopeAdmin, "w2", "x", false},
		{server, ScopeAudit, "anything", "any", true},
	} {
		if got := c.k.Allows(c.scope, c.uuid, c.company); got != c.want {
			t.Errorf("key %s %v on %s/%s: Allows(%s) = %v, want %v", c.k.Name, c.k.Scopes, c.company, c.uuid, c.scope, got, c.want)
		}
	}
	if !server.Server() || site.Server() || company.Server() {
		t.Error("Server is true only for a key of neither website nor company")
	}
}

func TestAuthenticate(t *testing.T) {
	k1, s1 := mustNew(t, Spec{Name: "one", Scopes: []Scope{ScopeAdmin}, Website: "w1"})
	k2, s2 := mustNew(t, Spec{Name: "two", Scopes: []Scope{ScopeAudit}})
	cli := Plain("cli", "cli", "secret-admin", []Scope{ScopeAdmin}, "")
	shared1 := Plain("config-w1-0", "w1 key", "shared", []Scope{ScopeSearch}, "w1")
	shared2 := Plain("config-w2-0", "w2 key", "shared", []Scope{ScopeSearch}, "w2")
	r := NewRing([]*Key{k1, k2}, cli, shared1, shared2)

	for _, c := range []struct {
		secret string
		want   []string
	}{
		{s1, []string{"one"}},
		{s2, []string{"two"}},
		{"secret-admin", []string{"cli"}},
		{"shared", []string{"w1 key", "w2 key"}},
	} {
		p, err := r.Authenticate(c.secret)
		if err != nil {
			t.Fatalf("Authenticate(%q): %v", c.secret, err)
		}
		var names []string
		for _, k := range p.Keys() {
			names = append(names, k.Name)
		}
		if strings.Join(names, ",") != strings.Join(c.want, ",") {
			t.Errorf("Authenticate(%q) = %v, want %v", c.secret, names, c.want)
		}
	}
	// A secret of the right form with another key's id, a secret one
	// character off, a plain key's secret with a suffix, none.
	forged := "aisle_" + k1.ID + s2[len("aisle_")+16:]
	for _, bad := range []string{forged, s1[:len(s1)-1] + "x", "secret-admin ", "", "aisle_", "aisle_" + k1.ID} {
		if p, err := r.Authenticate(bad); !errors.Is(err, ErrUnauthorized) || p.Name() != "" {
			t.Errorf("Authenticate(%q) = %v, %v; want ErrUnauthorized and no one", bad, p.Keys(), err)
		}
	}
	p, _ := r.Authenticate("shared")
	if !p.Allows(ScopeSearch, "w2", "") || p.Allows(ScopeSearch, "w3", "") || p.Allows(ScopeAdmin, "w1", "") {
		t.Error("a shared plain secret allows what either of its keys allows, and nothing more")
	}
	if !Of(cli).Server() || Of(k1).Server() || (Principal{}).Allows(ScopeSearch, "w1", "") {
		t.Error("Server or the zero Principal wrong")
	}
	if keys := r.Keys(); len(keys) != 2 {
		t.Errorf("Keys lists %d stored keys, want 2 (plain keys are not stored)", len(keys))
	}
}

func BenchmarkAuthenticate(b *testing.B) {
	k, secret, _ := New(Spec{Name: "k", Scopes: []Scope{ScopeSearch}, Website: "w"}, now)
	r := NewRing([]*Key{k}, Plain("cli", "cli", "admin", []Scope{ScopeAdmin}, ""))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Authenticate(secret); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAuthenticateAllocatesNothing: a request's key lookup, stored or
// plain, through one ring or two, allocates nothing (every answer is
// made when the ring is).
func TestAuthenticateAllocatesNothing(t *testing.T) {
	k, secret := mustNew(t, Spec{Name: "k", Scopes: []Scope{ScopeSearch}, Website: "w"})
	stored := NewRing([]*Key{k})
	plain := NewRing(nil, Plain("a", "a", "shared", []Scope{ScopeSearch}, "w1"), Plain("b", "b", "shared", []Scope{ScopeSearch}, "w2"))
	for _, c := range []struct {
		secret string
		want   int
	}{{secret, 1}, {"shared", 2}} {
		p, err := Authenticate(c.secret, stored, plain)
		if err != nil || len(p.Keys()) != c.want {
			t.Fatalf("Authenticate(%.8q) = %d keys, %v; want %d", c.secret, len(p.Keys()), err, c.want)
		}
		if n := testing.AllocsPerRun(100, func() { _, _ = Authenticate(c.secret, stored, plain) }); n != 0 {
			t.Errorf("Authenticate(%.8q) allocates %.0f times, want 0", c.secret, n)
		}
	}
}
