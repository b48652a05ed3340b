package gql

import "strconv"

// maxQuoted bounds how much of a client's value an error message
// repeats.
const maxQuoted = 100

// quote is s quoted for a message, cut at maxQuoted bytes.
func quote(s string) string {
	if len(s) > maxQuoted {
		return strconv.Quote(s[:maxQuoted]) + "…"
	}
	return strconv.Quote(s)
}
