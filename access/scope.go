package access

import (
	"fmt"
	"slices"
	"strings"
)

// Scope is what a key may do.
type Scope string

// The scopes. ScopeAdmin covers the others on the key's websites.
const (
	// ScopeAdmin: everything on the key's websites: the admin API, the
	// GraphQL admin schema, keys, and what the other scopes cover.
	ScopeAdmin Scope = "admin"
	// ScopeSearch: the /serve endpoints, and their server-to-server
	// calls (a visitor looked up by email or customer id).
	ScopeSearch Scope = "search"
	// ScopeAudit: reading the audit log.
	ScopeAudit Scope = "audit"
	// ScopeAnalytics: reading analytics.
	ScopeAnalytics Scope = "analytics"
)

// Scopes are every scope, in the order they are listed.
var Scopes = []Scope{ScopeAdmin, ScopeSearch, ScopeAudit, ScopeAnalytics}

// ParseScopes reads a comma-separated list of scopes ("admin",
// "search,audit"), in any case; an unknown or repeated scope, or none,
// is an error naming it.
func ParseScopes(s string) ([]Scope, error) {
	var out []Scope
	for part := range strings.SplitSeq(s, ",") {
		sc := Scope(strings.ToLower(strings.TrimSpace(part)))
		if err := sc.check(); err != nil {
			return nil, err
		}
		if slices.Contains(out, sc) {
			return nil, fmt.Errorf("scope %q is listed twice", sc)
		}
		out = append(out, sc)
	}
	return out, nil
}

// check is nil for a known scope.
func (s Scope) check() error {
	if !slices.Contains(Scopes, s) {
		return fmt.Errorf("%w: %q is not a scope: one of admin, search, audit, analytics", ErrInvalid, s)
	}
	return nil
}

// covers reports whether a key of scopes may do what want covers.
func covers(scopes []Scope, want Scope) bool {
	return slices.Contains(scopes, want) || slices.Contains(scopes, ScopeAdmin)
}
