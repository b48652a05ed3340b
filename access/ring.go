package access

import (
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
// "cli"). A ring is never changed; the write side makes a new one.
type Ring struct {
	byID  map[string]*Key
	plain []*Key // keys whose secret is not one New made
}

// NewRing is a ring of keys (the store's) and plain (Plain's).
func NewRing(keys []*Key, plain ...*Key) *Ring {
	r := &Ring{byID: make(map[string]*Key, len(keys)), plain: plain}
	for _, k := range keys {
		r.byID[k.ID] = k
	}
	return r
}

// Plain is a key whose secret is written in a configuration: its
// digest is taken here, and it is never stored.
func Plain(id, name, secret string, scopes []Scope, website string) *Key {
	return &Key{ID: id, Name: name, Scopes: scopes, Website: website, Hash: digest(secret)}
}

// Authenticate is who presents secret: the stored key it is the secret
// of, or every plain key it is (one configuration may give two websites
// one key). The digests are compared in constant time; a secret of the
// form New makes is looked up by its id, any other is compared with
// every plain key.
func (r *Ring) Authenticate(secret string) (Principal, error) {
	if secret == "" {
		return Principal{}, fmt.Errorf("%w: none was sent", ErrUnauthorized)
	}
	d := digest(secret)
	if k, ok := r.byID[idOf(secret)]; ok && subtle.ConstantTimeCompare(d, k.Hash) == 1 {
		return Principal{keys: []*Key{k}}, nil
	}
	var p Principal
	for _, k := range r.plain {
		if subtle.ConstantTimeCompare(d, k.Hash) == 1 {
			p.keys = append(p.keys, k)
		}
	}
	if p.keys == nil {
		return Principal{}, ErrUnauthorized
	}
	return p, nil
}

// Key is the stored key id, if the ring has it.
func (r *Ring) Key(id string) (*Key, bool) {
	k, ok := r.byID[id]
	return k, ok
}

// Keys are the ring's stored keys, oldest first (then by id).
func (r *Ring) Keys() []*Key {
	out := make([]*Key, 0, len(r.byID))
	for _, k := range r.byID {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b *Key) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		if a.ID < b.ID {
			return -1
		}
		return 1
	})
	return out
}
