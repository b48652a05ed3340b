// Package engine is Aisle's read side: it executes requests against each
// website's current generation (Engine): searches, managed pages,
// recommendations and retail media; it compiles configurations, applies
// filters, counts facets, ranks, and projects the page of results into
// JSON. It also makes generations (IndexProducts, IndexStoredProducts,
// IndexKeeping, IndexContent, Assemble) and keeps the visitors'
// behaviour they read (Behaviours), but it writes nothing: package live
// changes the store and hands engine the generations to serve
// (Engine.Swap, Engine.Replace). It knows nothing of HTTP or of the
// store.
package engine

import (
	"errors"
	"fmt"
)

// Kind classifies an error for the adapters, which map it to a status code
// in one place each.
type Kind int

// The error kinds.
const (
	KindInternal Kind = iota
	KindInvalid
	KindNotFound
	KindUnauthorized
	KindTooLarge
	// KindUnavailable is a request the server cannot take now: a write
	// the disk refused (the write side's live.AsError tells it; nothing
	// changed, and the same write succeeds once the disk takes writes
	// again), or any request while the server starts.
	KindUnavailable
	// KindForbidden is a valid key that may not do what was asked: its
	// scope does not cover it, or it covers other websites.
	KindForbidden
)

// Error is a client-facing failure: a stable code, the request field it is
// about (dotted, empty when none) and a sentence for a person.
type Error struct {
	Kind    Kind
	Code    string
	Field   string
	Message string
	err     error // the failure it reports, when it wraps one
}

func (e *Error) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("%s: %s", e.Field, e.Message)
	}
	return e.Message
}

// Unwrap is the failure e reports, if any: a template's (render's
// errors) for TEMPLATE_ERROR.
func (e *Error) Unwrap() error { return e.err }

// Invalid is a 400-class error about one request field.
func Invalid(field, format string, args ...any) *Error {
	return &Error{Kind: KindInvalid, Code: "INVALID_REQUEST", Field: field, Message: fmt.Sprintf(format, args...)}
}

// NotFound is an error about a key or id that does not exist.
func NotFound(field, format string, args ...any) *Error {
	return &Error{Kind: KindNotFound, Code: "NOT_FOUND", Field: field, Message: fmt.Sprintf(format, args...)}
}

// Unauthorized is an error about a missing or wrong API key.
func Unauthorized(format string, args ...any) *Error {
	return &Error{Kind: KindUnauthorized, Code: "UNAUTHORIZED", Message: fmt.Sprintf(format, args...)}
}

// Forbidden is a valid key's refusal: what it asked is outside its scope
// or its websites.
func Forbidden(format string, args ...any) *Error {
	return &Error{Kind: KindForbidden, Code: "FORBIDDEN", Message: fmt.Sprintf(format, args...)}
}

// templateError is a configured template that failed to render, or
// that a bound stopped (render.ErrTooLarge, ErrTimeout, ErrCanceled): the
// shop's to fix, so its message is shown, and no half page is.
func templateError(err error) *Error {
	return &Error{Kind: KindInternal, Code: "TEMPLATE_ERROR", Message: err.Error(), err: err}
}

// AsError finds the client-facing error in err's chain; anything else
// is internal and its text is not shown to clients.
func AsError(err error) *Error {
	if e, ok := errors.AsType[*Error](err); ok {
		return e
	}
	return &Error{Kind: KindInternal, Code: "INTERNAL", Message: "internal error"}
}
