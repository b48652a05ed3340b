package gqltype

import (
	"fmt"
	"slices"
	"strings"

	"github.com/graphql-go/graphql"
)

// builtIn are the scalars every schema has, which SDL leaves out.
var builtIn = map[string]bool{"String": true, "Int": true, "Float": true, "Boolean": true, "ID": true}

// namedTypes are the named types roots reach, by name.
func namedTypes(roots ...graphql.Type) map[string]graphql.Type {
	seen := map[string]graphql.Type{}
	var walk func(graphql.Type)
	walk = func(t graphql.Type) {
		n, ok := graphql.GetNamed(t).(graphql.Type)
		if !ok || seen[n.Name()] != nil || builtIn[n.Name()] {
			return
		}
		seen[n.Name()] = n
		switch n := n.(type) {
		case *graphql.Object:
			for _, f := range n.Fields() {
				walk(f.Type)
			}
		case *graphql.InputObject:
			for _, f := range n.Fields() {
				walk(f.Type)
			}
		}
	}
	for _, r := range roots {
		walk(r)
	}
	return seen
}

// printSDL writes the named types roots reach in GraphQL's schema
// definition language, types, fields and enum values sorted by name (as
// graphql-go's introspection sorts fields), each description as a block
// string above what it describes.
func printSDL(roots ...graphql.Type) string {
	types := namedTypes(roots...)
	var b strings.Builder
	for i, name := range slices.Sorted(mapKeys(types)) {
		if i > 0 {
			b.WriteString("\n")
		}
		t := types[name]
		describe(&b, "", t.Description())
		switch t := t.(type) {
		case *graphql.Scalar:
			fmt.Fprintf(&b, "scalar %s\n", name)
		case *graphql.Enum:
			fmt.Fprintf(&b, "enum %s {\n", name)
			vals := t.Values()
			slices.SortFunc(vals, func(a, b *graphql.EnumValueDefinition) int { return strings.Compare(a.Name, b.Name) })
			for _, v := range vals {
				describe(&b, "  ", v.Description)
				fmt.Fprintf(&b, "  %s\n", v.Name)
			}
			b.WriteString("}\n")
		case *graphql.Object:
			fmt.Fprintf(&b, "type %s {\n", name)
			fields := t.Fields()
			for _, n := range slices.Sorted(mapKeys(fields)) {
				describe(&b, "  ", fields[n].Description)
				fmt.Fprintf(&b, "  %s: %s\n", n, fields[n].Type)
			}
			b.WriteString("}\n")
		case *graphql.InputObject:
			fmt.Fprintf(&b, "input %s {\n", name)
			fields := t.Fields()
			for _, n := range slices.Sorted(mapKeys(fields)) {
				describe(&b, "  ", fields[n].Description())
				fmt.Fprintf(&b, "  %s: %s\n", n, fields[n].Type)
			}
			b.WriteString("}\n")
		default:
			fmt.Fprintf(&b, "# %s: a %T, not printed\n", name, t)
		}
	}
	return b.String()
}

func describe(b *strings.Builder, indent, desc string) {
	if desc != "" {
		fmt.Fprintf(b, "%s\"\"\"\n%s%s\n%s\"\"\"\n", indent, indent, desc, indent)
	}
}

func mapKeys[M ~map[string]V, V any](m M) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
