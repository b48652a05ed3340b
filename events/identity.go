package events

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"strings"
)

// IdentityKey turns the shop's names for a customer (an email, a
// customer id) into keyed hashes, so that the change log, the behaviour
// snapshots and memory keep a hash, never the address: HMAC-SHA256 under
// a secret the data directory keeps (store.Secret), cut to 64 bits (two
// of ten million customers share one with a chance of about 1 in
// 370,000). Emails are compared with surrounding spaces trimmed and
// letters lowercased; customer ids as given. Without the secret, a hash
// names nobody and cannot be aimed at anybody.
type IdentityKey struct{ secret []byte }

// NewIdentityKey hashes under secret.
func NewIdentityKey(secret []byte) *IdentityKey { return &IdentityKey{secret: secret} }

// Email is the hash of an email address; 0 for "".
func (k *IdentityKey) Email(email string) uint64 {
	return k.sum("email", strings.ToLower(strings.TrimSpace(email)))
}

// Customer is the hash of a customer id; 0 for "".
func (k *IdentityKey) Customer(id string) uint64 { return k.sum("customer", id) }

func (k *IdentityKey) sum(kind, s string) uint64 {
	if s == "" {
		return 0
	}
	mac := hmac.New(sha256.New, k.secret)
	mac.Write([]byte(kind))
	mac.Write([]byte{0})
	mac.Write([]byte(s))
	return max(binary.LittleEndian.Uint64(mac.Sum(nil)), 1) // 0 is none
}

// Seal replaces e's Email and CustomerID with their hashes, as the log
// keeps an event; trusted says its sender held the website's key
// (Relink). A sealed event is sealed again unchanged.
func (k *IdentityKey) Seal(e *Event, trusted bool) {
	if e.Email != "" {
		e.EmailHash, e.Email = k.Email(e.Email), ""
	}
	if e.CustomerID != "" {
		e.CustomerHash, e.CustomerID = k.Customer(e.CustomerID), ""
	}
	e.Relink = e.Relink || trusted
}
