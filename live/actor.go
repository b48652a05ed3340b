package live

import (
	"crypto/rand"
	"encoding/hex"
)

// Actor is who makes a change, as the audit log records it: the name of
// the API key (cli for the operator's), the session it is part of (the
// client's, or the request's id) and what the request does (its
// mutations' names, or its REST route).
type Actor struct {
	Name    string
	Session string
	Events  []string
}

// As is a Writer whose changes are recorded as made by a: it writes
// through l's state (one lock, one saver), so As is cheap and its
// result lives as long as the request that asked.
func (l *Writer) As(a Actor) *Writer {
	return &Writer{writer: l.writer, by: a}
}

// maxSessionLen bounds a client's session id.
const maxSessionLen = 64

// Session is the audit session of a request whose client names its
// session given (a console sends its browser session's, as the
// X-Aisle-Session header): given when it is a token of at most 64
// letters, digits, '-' and '_', else a new random id of the request's
// own.
func Session(given []byte) string {
	if len(given) > 0 && len(given) <= maxSessionLen && token(given) {
		return string(given)
	}
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails: crypto/rand panics instead
	return hex.EncodeToString(b[:])
}

// token reports whether b holds only letters, digits, '-' and '_'.
func token(b []byte) bool {
	for _, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
