package events

import (
	"reflect"
	"testing"
)

// TestIdentityKey: emails hash alike whatever their case and surrounding
// spaces, customer ids exactly; kinds and keys keep hashes apart; ""
// hashes to 0 (none); Seal moves the names into their hashes, sets
// Relink when trusted, and sealing again changes nothing.
func TestIdentityKey(t *testing.T) {
	k, other := NewIdentityKey([]byte("one")), NewIdentityKey([]byte("two"))
	if k.Email(" Alice@Example.COM ") != k.Email("alice@example.com") {
		t.Error("an email's case or spaces change its hash")
	}
	if k.Customer("C-1") == k.Customer("c-1") {
		t.Error("customer ids compare without case")
	}
	if k.Email("x") == k.Customer("x") || k.Email("x") == other.Email("x") {
		t.Error("an email and a customer id, or two keys, hash alike")
	}
	if k.Email("") != 0 || k.Customer("") != 0 || k.Email("x") == 0 {
		t.Error("0 is not none alone")
	}
	e := Event{Email: "a@x", CustomerID: "c"}
	k.Seal(&e, true)
	sealed := e
	k.Seal(&e, false)
	if !reflect.DeepEqual(e, sealed) || e.Email != "" || e.CustomerID != "" || e.EmailHash != k.Email("a@x") || e.CustomerHash != k.Customer("c") || !e.Relink {
		t.Errorf("sealed: %+v, sealed again %+v", sealed, e)
	}
}
