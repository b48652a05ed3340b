package engine

import "fmt"

// WebsiteFailure is a website of the configuration that could not be
// opened (its stored data or its configuration cannot be served): it is
// not served, and the others are.
type WebsiteFailure struct {
	UUID string
	Err  error
}

func (f WebsiteFailure) Error() string { return fmt.Sprintf("website %s: %v", f.UUID, f.Err) }
func (f WebsiteFailure) Unwrap() error { return f.Err }
