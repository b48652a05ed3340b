package gql

import (
	"errors"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/live"
)

// The extensions.code of an error: every error carries one.
const (
	CodeUnauthorized = "UNAUTHORIZED"   // no key, or one no server key is
	CodeForbidden    = "FORBIDDEN"      // a key outside its scope or websites
	CodeBadInput     = "BAD_USER_INPUT" // a document, variable or value refused; nothing changed
	CodeNotFound     = "NOT_FOUND"      // what was named does not exist
	CodeUnavailable  = "UNAVAILABLE"    // the disk refuses writes; nothing changed, retry later
	CodeInternal     = "INTERNAL"       // a fault of the server's, logged there
)

// Error is a GraphQL error of a resolver or of the request: its code,
// the input member it is about (dotted, as "input.facets[0].field";
// empty when none) and a sentence for a person.
type Error struct {
	Code    string
	Field   string
	Message string
}

func (e *Error) Error() string {
	if e.Field != "" {
		return e.Field + ": " + e.Message
	}
	return e.Message
}

// Extensions is what graphql-go puts in the error's extensions.
func (e *Error) Extensions() map[string]any {
	m := map[string]any{"code": e.Code}
	if e.Field != "" {
		m["field"] = e.Field
	}
	return m
}

// badInput is a BAD_USER_INPUT error about field.
func badInput(field, msg string) *Error {
	return &Error{Code: CodeBadInput, Field: field, Message: msg}
}

// asError is err as the client sees it: an engine or write-side error
// keeps its message under its code; anything else is INTERNAL, and
// internal says so (its message stays in the server's log).
func asError(err error) (e *Error, internal bool) {
	if errors.As(err, &e) {
		return e, false
	}
	ee := live.AsError(err)
	switch ee.Kind {
	case engine.KindInvalid, engine.KindTooLarge:
		return &Error{Code: CodeBadInput, Field: ee.Field, Message: ee.Message}, false
	case engine.KindNotFound:
		return &Error{Code: CodeNotFound, Field: ee.Field, Message: ee.Message}, false
	case engine.KindUnauthorized:
		return &Error{Code: CodeUnauthorized, Message: ee.Message}, false
	case engine.KindForbidden:
		return &Error{Code: CodeForbidden, Message: ee.Message}, false
	case engine.KindUnavailable:
		return &Error{Code: CodeUnavailable, Message: ee.Message}, false
	}
	return &Error{Code: CodeInternal, Message: "internal error"}, true
}
