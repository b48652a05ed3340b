package access

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"slices"
)

// ErrUnauthorized marks a secret no key of the ring has.
var ErrUnauthorized = errors.New("the API key is not valid")

// Ring is the keys a server accepts: the stored keys, and the plain
// ones a configuration names (each website's apiKeys, which are search
// keys of their website, and --admin-key, the operator's admin key named
// "cli"). A ring is never changed; the write side makes a new one. What
// a lookup answers is made here, once, so a request's lookup allocates
// nothing.
type Ring struct {
	byID   map[string]Principal // a stored key's principal, by its id
	sorted []*Key               // the stored keys, oldest first
	plain  []plainGroup
}

// plainGroup is the plain keys that share one secret (one configuration
// may give two websites one key), and their digest.
type plainGroup struct {
	hash []byte
	who  Principal
}

// NewRing is a ring of keys (the store's) and plain (Plain's).
func NewRing(keys []*Key, plain ...*Key) *Ring {
	r := &Ring{byID: make(map[string]Principal, len(keys)), sorted: slices.Clone(keys)}
	for _, k := range keys {
		r.byID[k.ID] = Principal{keys: []*Key{k}}
	}
	slices.SortFunc(r.sorted, func(a, b *Key) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		if a.ID < b.ID {
			return -1
		}
		return 1
	})
	for _, k := range plain {
		i := slices.IndexFunc(r.plain, func(g plainGroup) bool { return string(g.hash) == string(k.Hash) })
		if i < 0 {
			r.plain = append(r.plain, plainGroup{hash: k.Hash})
			i = len(r.plain) - 1
		}
		r.plain[i].who.keys = append(r.plain[i].who.keys, k)
	}
	return r
}

// Plain is a key whose secret is written in a configuration: its
// digest is taken here, and it is never stored.
func Plain(id, name, secret string, scopes []Scope, website string) *Key {
	return &Key{ID: id, Name: name, Scopes: scopes, Website: website, Hash: digest(secret)}
}

// Authenticate is who presents secret to the rings, the first that
// knows it: the stored key it is the secret of, or every plain key it
// is. The secret's digest is taken once and compared in constant time;
// a secret of the form New makes is looked up by its id, any other is
// compared with every plain key.
func Authenticate(secret string, rings ...*Ring) (Principal, error) {
	if secret == "" {
		return Principal{}, fmt.Errorf("%w: none was sent", ErrUnauthorized)
	}
	var buf [128]byte // a secret New makes is 87 bytes: hashed without an allocation
	d := sha256.Sum256(append(buf[:0], secret...))
	id := idOf(secret)
	for _, r := range rings {
		if p, ok := r.lookup(id, d[:]); ok {
			return p, nil
		}
	}
	return Principal{}, ErrUnauthorized
}

// Authenticate is the package's Authenticate with r alone.
func (r *Ring) Authenticate(secret string) (Principal, error) { return Authenticate(secret, r) }

// lookup is who has digest d: the stored key id, or a group of plain
// keys.
func (r *Ring) lookup(id string, d []byte) (Principal, bool) {
	if p, ok := r.byID[id]; ok && subtle.ConstantTimeCompare(d, p.keys[0].Hash) == 1 {
		return p, true
	}
	found := -1
	for i, g := range r.plain {
		if subtle.ConstantTimeCompare(d, g.hash) == 1 {
			found = i
		}
	}
	if found < 0 {
		return Principal{}, false
	}
	return r.plain[found].who, true
}

// Key is the stored key id, if the ring has it.
func (r *Ring) Key(id string) (*Key, bool) {
	p, ok := r.byID[id]
	if !ok {
		return nil, false
	}
	return p.keys[0], true
}

// Keys are the ring's stored keys, oldest first (then by id); the slice
// is the ring's, not to be changed.
func (r *Ring) Keys() []*Key { return r.sorted }

// Len is how many stored keys the ring has.
func (r *Ring) Len() int { return len(r.sorted) }
