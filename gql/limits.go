package gql

import (
	"fmt"
	"strconv"

	"github.com/graphql-go/graphql/language/ast"
)

// The bounds of a document, checked before it is validated or run, so
// a hostile one costs its parse and no more.
const (
	// MaxQueryBytes bounds a request's body (and a GET's query string).
	MaxQueryBytes = 64 << 10
	// MaxDepth bounds how deep selections nest; the spec's operations
	// nest at most 5 deep, introspection's query 13.
	MaxDepth = 15
	// MaxCost bounds a document's cost: each field selected costs 1, and
	// a field's selections cost as many times as the page it asks for
	// (its first argument, defaultPage when not given, at most
	// maxListCost), so aliases and nested pages cannot multiply work
	// unseen. Introspection's query costs about 2,000.
	MaxCost = 20000
	// maxListCost is the most a page multiplies its selections' cost.
	maxListCost = maxPage
)

// limitError is a document over a bound: BAD_USER_INPUT naming it.
func limitError(format string, args ...any) *Error {
	return &Error{Code: CodeBadInput, Message: fmt.Sprintf(format, args...)}
}

// checkLimits measures the operation op of doc (fragments expanded, each
// measured once) against MaxDepth and MaxCost; vars give the values of
// variables a first argument names.
func checkLimits(doc *ast.Document, op *ast.OperationDefinition, vars map[string]any) error {
	m := measurer{frags: map[string]*ast.FragmentDefinition{}, done: map[string]measure{}, vars: vars}
	for _, d := range doc.Definitions {
		if f, ok := d.(*ast.FragmentDefinition); ok && f.Name != nil {
			m.frags[f.Name.Value] = f
		}
	}
	got, err := m.set(op.SelectionSet, map[string]bool{})
	if err != nil {
		return err
	}
	switch {
	case got.depth > MaxDepth:
		return limitError("the document nests %d selections deep, at most %d", got.depth, MaxDepth)
	case got.cost > MaxCost:
		return limitError("the document costs %d (a field 1, times the page a list asks for), at most %d", got.cost, MaxCost)
	}
	return nil
}

// measure is a selection set's depth and cost.
type measure struct{ depth, cost int }

// measurer measures selection sets, memoising fragments.
type measurer struct {
	frags map[string]*ast.FragmentDefinition
	done  map[string]measure
	vars  map[string]any
}

// set measures s; active are the fragments being measured, so a cycle
// (which validation would refuse later) ends here.
func (m *measurer) set(s *ast.SelectionSet, active map[string]bool) (measure, error) {
	var out measure
	if s == nil {
		return out, nil
	}
	for _, sel := range s.Selections {
		var got measure
		var err error
		switch sel := sel.(type) {
		case *ast.Field:
			got, err = m.field(sel, active)
		case *ast.InlineFragment:
			got, err = m.set(sel.SelectionSet, active)
		case *ast.FragmentSpread:
			got, err = m.spread(sel, active)
		}
		if err != nil {
			return out, err
		}
		out.depth = max(out.depth, got.depth)
		out.cost = min(out.cost+got.cost, MaxCost+1)
	}
	return out, nil
}

// field measures a field and what it selects.
func (m *measurer) field(f *ast.Field, active map[string]bool) (measure, error) {
	sub, err := m.set(f.SelectionSet, active)
	if err != nil {
		return sub, err
	}
	if f.SelectionSet == nil {
		return measure{depth: 1, cost: 1}, nil
	}
	return measure{depth: sub.depth + 1, cost: min(1+sub.cost*m.page(f), MaxCost+1)}, nil
}

// spread measures a fragment spread, each fragment once.
func (m *measurer) spread(s *ast.FragmentSpread, active map[string]bool) (measure, error) {
	name := s.Name.Value
	if got, ok := m.done[name]; ok {
		return got, nil
	}
	f, ok := m.frags[name]
	if !ok || active[name] {
		return measure{}, nil // validation names the unknown fragment, or the cycle
	}
	active[name] = true
	got, err := m.set(f.SelectionSet, active)
	delete(active, name)
	if err == nil {
		m.done[name] = got
	}
	return got, err
}

// page is how many times a field's selections count: its first
// argument's value (a literal or a variable), or 1 when it has none.
func (m *measurer) page(f *ast.Field) int {
	for _, a := range f.Arguments {
		if a.Name == nil || a.Name.Value != "first" {
			continue
		}
		n := defaultPage
		switch v := a.Value.(type) {
		case *ast.IntValue:
			if i, err := strconv.Atoi(v.Value); err == nil {
				n = i
			}
		case *ast.Variable:
			switch x := m.vars[v.Name.Value].(type) {
			case float64:
				n = int(x)
			case int:
				n = x
			}
		}
		return min(max(n, 1), maxListCost)
	}
	return 1
}
