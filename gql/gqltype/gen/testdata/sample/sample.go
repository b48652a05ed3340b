// Package sample holds the comment shapes the generator reads.
package sample

// Kind is a string type whose constants are its values.
type Kind string

// The kinds.
const (
	KindA Kind = "a" // the first kind
	// KindB is the second kind.
	KindB Kind = "b"
	KindC Kind = "c"
)

// Listed introduces a list in its first paragraph. Its last sentence
// ends with a colon:
//
//   - one
//   - two
type Listed struct {
	// Style and JavaScript go around the html.
	Style      string `json:"style"`
	JavaScript string `json:"javascript"`
	Plain      string `json:"plain"`

	// Weights A and B are both
	// between 0 and 1.
	//
	// A second paragraph.
	A, B     float64
	Trailing int `json:"trailing"` // a trailing comment

	Lone    bool   `json:"lone"`
	Skipped string `json:"-"`
	hidden  string
}

type Undocumented struct {
	X int
}
