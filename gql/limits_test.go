package gql

import (
	"errors"
	"strconv"
	"testing"

	"github.com/graphql-go/graphql/language/ast"
	"github.com/graphql-go/graphql/language/parser"
)

// TestCheckLimits measures documents whose depth and cost are known by
// hand: fragments count where they are spread (each measured once, so a
// fragment spread by many costs no extra work to measure), pages
// multiply their selections, and a cycle ends.
func TestCheckLimits(t *testing.T) {
	fanout := "query { ...F0 } "
	for i := range 30 { // each fragment spreads the next twice: 2^30 fields if expanded naively, 31 deep
		fanout += "fragment F" + itoa(i) + " on Query { a: websites { ...F" + itoa(i+1) + " } b: websites { ...F" + itoa(i+1) + " } } "
	}
	fanout += "fragment F30 on Query { websites { uuid } }"
	for _, c := range []struct {
		name, doc string
		vars      map[string]any
		depth     int // wanted depth and cost, or 0 with fail
		cost      int
		fail      bool
	}{
		{"flat", "{ websites { uuid name } }", nil, 2, 3, false},
		{"a page of 100", "{ auditLogs(first: 100) { edges { node { id } } } }", nil, 4, 1 + 100*3, false},
		{"a page from a variable", "query ($n: Int) { auditLogs(first: $n) { edges { cursor } } }", map[string]any{"n": 50.0}, 3, 1 + 50*2, false},
		{"a page past 100 counts 100", "{ auditLogs(first: 1000) { edges { cursor } } }", nil, 3, 1 + 100*2, false},
		{"a fragment", "query { ...W } fragment W on Query { websites { uuid } }", nil, 2, 2, false},
		{"an inline fragment", "query { ... on Query { websites { uuid } } }", nil, 2, 2, false},
		{"a cycle", "query { ...A } fragment A on Query { websites { uuid } ...B } fragment B on Query { ...A }", nil, 2, 2, false},
		{"fragments fanning out", fanout, nil, 0, 0, true},
		{"pages nested in pages", "{ a: auditLogs(first: 100) { edges { node { id } } } b: auditLogs(first: 100) { edges { node { id } } } }", nil, 4, 2 * (1 + 100*3), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, err := parser.Parse(parser.ParseParams{Source: c.doc})
			if err != nil {
				t.Fatal(err)
			}
			op := doc.Definitions[0].(*ast.OperationDefinition)
			m := measurer{frags: map[string]*ast.FragmentDefinition{}, done: map[string]measure{}, vars: c.vars}
			for _, d := range doc.Definitions {
				if f, ok := d.(*ast.FragmentDefinition); ok {
					m.frags[f.Name.Value] = f
				}
			}
			got, _ := m.set(op.SelectionSet, map[string]bool{})
			err = checkLimits(doc, op, c.vars)
			var e *Error
			switch {
			case c.fail && (!errors.As(err, &e) || e.Code != CodeBadInput):
				t.Fatalf("checkLimits = %v, want BAD_USER_INPUT", err)
			case !c.fail && err != nil:
				t.Fatalf("checkLimits = %v", err)
			case !c.fail && (got.depth != c.depth || got.cost != c.cost):
				t.Errorf("depth %d cost %d, want %d and %d", got.depth, got.cost, c.depth, c.cost)
			}
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
