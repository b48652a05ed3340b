//go:build !unix

package httpapi

// watch watches nothing where a connection cannot be peeked at: a
// render then stops at its own bounds only.
func (c *clientContext) watch() {}
