package live

import (
	"testing"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/engine"
)

// TestKeysBounded: keys past the bound are refused, as bad input, and
// none is stored; revoking one makes room.
func TestKeysBounded(t *testing.T) {
	st, eng, l, _ := liveShop(t)
	l.maxKeys = 2
	spec := access.Spec{Name: "k", Scopes: []access.Scope{access.ScopeSearch}, Website: shopUUID}
	first, _, _, err := l.CreateKey(spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := l.CreateKey(spec); err != nil {
		t.Fatal(err)
	}
	_, _, _, err = l.CreateKey(spec)
	if e := engine.AsError(err); e.Kind != engine.KindInvalid {
		t.Fatalf("a third key: %v, want invalid", err)
	}
	if keys, _ := st.Keys(); len(keys) != 2 || len(eng.Keys()) != 2 {
		t.Fatalf("%d keys stored, %d served, want 2", len(keys), len(eng.Keys()))
	}
	if _, _, err := l.RevokeKey(first.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := l.CreateKey(spec); err != nil {
		t.Errorf("a key after one was revoked: %v", err)
	}
}
