package access

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// ErrInvalid marks a key that cannot be made as asked: no name, an
// unknown scope, a website and a company both.
var ErrInvalid = errors.New("invalid API key")

// Key is an API key without its secret: what the store keeps and what a
// listing shows. It covers one website (Website), or every website of
// one company (Company), or, when both are empty, every website the
// server serves (the operator's key, --admin-key).
type Key struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Scopes  []Scope   `json:"scopes"`
	Website string    `json:"websiteUuid,omitempty"`
	Company string    `json:"companyId,omitempty"`
	Created time.Time `json:"createdAt"`
	// Hash is the SHA-256 of the secret.
	Hash []byte `json:"hash"`
}

// Spec is what a new key is asked to be.
type Spec struct {
	Name    string
	Scopes  []Scope
	Website string
	Company string
}

// secretPrefix starts every secret New makes: "aisle_<id>_<64 hex
// digits>", so a leaked one is recognisable and its key found by id.
const secretPrefix = "aisle_"

// maxNameLen bounds a key's name, in characters.
const maxNameLen = 100

// New makes a key as s asks, created at now, and its secret: shown
// once, to the one who asked; the key keeps only its digest.
func New(s Spec, now time.Time) (*Key, string, error) {
	if err := s.check(); err != nil {
		return nil, "", err
	}
	var id [8]byte
	var sec [32]byte
	_, _ = rand.Read(id[:]) // never fails: crypto/rand panics instead
	_, _ = rand.Read(sec[:])
	k := &Key{ID: hex.EncodeToString(id[:]), Name: s.Name, Scopes: s.Scopes, Website: s.Website, Company: s.Company, Created: now.UTC()}
	secret := secretPrefix + k.ID + "_" + hex.EncodeToString(sec[:])
	k.Hash = digest(secret)
	return k, secret, nil
}

// check is nil for a spec New can make.
func (s Spec) check() error {
	switch {
	case strings.TrimSpace(s.Name) == "":
		return fmt.Errorf("%w: a key needs a name", ErrInvalid)
	case utf8.RuneCountInString(s.Name) > maxNameLen:
		return fmt.Errorf("%w: a key's name has at most %d characters", ErrInvalid, maxNameLen)
	case len(s.Scopes) == 0:
		return fmt.Errorf("%w: a key needs a scope: admin, search, audit or analytics", ErrInvalid)
	case s.Website != "" && s.Company != "":
		return fmt.Errorf("%w: a key covers one website or one company's websites, not both", ErrInvalid)
	}
	for _, sc := range s.Scopes {
		if err := sc.check(); err != nil {
			return err
		}
	}
	return nil
}

// digest is the SHA-256 of a secret.
func digest(secret string) []byte {
	d := sha256.Sum256([]byte(secret))
	return d[:]
}

// idOf is the key id a secret New made names, or "".
func idOf(secret string) string {
	rest, ok := strings.CutPrefix(secret, secretPrefix)
	if !ok {
		return ""
	}
	id, _, ok := strings.Cut(rest, "_")
	if !ok || len(id) != 16 {
		return ""
	}
	return id
}

// Allows reports whether k may do what scope covers on the website
// uuid of company.
func (k *Key) Allows(scope Scope, uuid, company string) bool {
	if !covers(k.Scopes, scope) {
		return false
	}
	switch {
	case k.Website != "":
		return k.Website == uuid
	case k.Company != "":
		return k.Company == company
	}
	return true
}

// Server reports whether k covers every website: the operator's key.
func (k *Key) Server() bool { return k.Website == "" && k.Company == "" }
