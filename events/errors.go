package events

import "fmt"

// Error is an event that Parse refused: the member at fault (dotted, as
// "lines.2.quantity"; empty for the body as a whole) and why.
type Error struct {
	Field   string
	Message string
}

func (e *Error) Error() string {
	if e.Field == "" {
		return e.Message
	}
	return e.Field + ": " + e.Message
}

func invalid(field, format string, args ...any) *Error {
	return &Error{Field: field, Message: fmt.Sprintf(format, args...)}
}
