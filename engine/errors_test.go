package engine

import (
	"errors"
	"fmt"
	"testing"
)

// TestErrorKinds: "Every REST failure is {"success": false, "error":
// {"code", "message", "field"}}" with "field ... the dotted request member
// at fault ... when there is one" and "500 INTERNAL (never for bad input;
// the detail goes to the log, not the client)" (docs/decisions.md): the
// engine's errors carry that code, field and message, and anything else
// is internal with a fixed message.
func TestErrorKinds(t *testing.T) {
	secret := errors.New("pebble: disk on fire at /var/lib/shop")
	for _, tc := range []struct {
		err                  error
		kind                 Kind
		code, field, message string
		text                 string
	}{
		{Invalid("products.count", "must be at most %d, got %d", 1000, 1001), KindInvalid, "INVALID_REQUEST", "products.count",
			"must be at most 1000, got 1001", "products.count: must be at most 1000, got 1001"},
		{Invalid("", "no field"), KindInvalid, "INVALID_REQUEST", "", "no field", "no field"},
		{NotFound("key", "no search configuration with key %q", "x"), KindNotFound, "NOT_FOUND", "key",
			`no search configuration with key "x"`, `key: no search configuration with key "x"`},
		{Unauthorized("the API key is not valid"), KindUnauthorized, "UNAUTHORIZED", "", "the API key is not valid", "the API key is not valid"},
		{fmt.Errorf("search: %w", Invalid("filters", "bad")), KindInvalid, "INVALID_REQUEST", "filters", "bad", "search: filters: bad"},
		{secret, KindInternal, "INTERNAL", "", "internal error", secret.Error()},
		{fmt.Errorf("open: %w", secret), KindInternal, "INTERNAL", "", "internal error", "open: " + secret.Error()},
	} {
		if tc.err.Error() != tc.text {
			t.Errorf("Error() = %q, want %q", tc.err.Error(), tc.text)
		}
		e := AsError(tc.err)
		if e.Kind != tc.kind || e.Code != tc.code || e.Field != tc.field || e.Message != tc.message {
			t.Errorf("AsError(%v) = %+v, want %v %s %q %q", tc.err, *e, tc.kind, tc.code, tc.field, tc.message)
		}
	}
}
