package gql

import "github.com/graphql-go/graphql"

// Pages of a connection: first defaults to defaultPage and may ask for
// at most maxPage.
const (
	defaultPage = 20
	maxPage     = 100
)

// pageInfo is the Relay PageInfo of the spec: the last edge's cursor and
// whether more edges follow it.
var pageInfo = graphql.NewObject(graphql.ObjectConfig{
	Name:        "PageInfo",
	Description: "Where a page of a connection ends, and whether another follows.",
	Fields: graphql.Fields{
		"endCursor":   &graphql.Field{Type: graphql.String, Description: "The cursor of the page's last edge: pass it as after for the next page; null on an empty page."},
		"hasNextPage": &graphql.Field{Type: graphql.NewNonNull(graphql.Boolean), Description: "Whether edges follow this page."},
	},
})

// pageInfoOut is a PageInfo's value.
type pageInfoOut struct {
	EndCursor   *string `json:"endCursor"`
	HasNextPage bool    `json:"hasNextPage"`
}

// pageArgs are the Relay arguments of a forward connection.
func pageArgs(what string) graphql.FieldConfigArgument {
	return graphql.FieldConfigArgument{
		"first": &graphql.ArgumentConfig{Type: graphql.Int, Description: "How many " + what + " to return: 1 to 100, default 20."},
		"after": &graphql.ArgumentConfig{Type: graphql.String, Description: "The endCursor of the previous page; omit it for the first page."},
	}
}

// first is a connection's page size from its first argument.
func first(p graphql.ResolveParams) (int, error) {
	n, ok := p.Args["first"].(int)
	if !ok {
		return defaultPage, nil
	}
	if n < 1 || n > maxPage {
		return 0, badInput("first", "must be from 1 to 100")
	}
	return n, nil
}

// connection is a Relay connection type named name+"Connection" of
// node, with its edge type name+"Edge": edges, pageInfo and the extra
// fields given (a totalCount); what and whats name a node and nodes in
// descriptions.
func connection(name string, node *graphql.Object, what, whats string, extra graphql.Fields) *graphql.Object {
	edge := graphql.NewObject(graphql.ObjectConfig{
		Name:        name + "Edge",
		Description: "A " + what + " and its place in the list.",
		Fields: graphql.Fields{
			"node":   &graphql.Field{Type: graphql.NewNonNull(node), Description: "The " + what + "."},
			"cursor": &graphql.Field{Type: graphql.NewNonNull(graphql.String), Description: "Where the " + what + " is: pass it as after to list what follows it."},
		},
	})
	fields := graphql.Fields{
		"edges":    &graphql.Field{Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(edge))), Description: "The page's " + whats + "."},
		"pageInfo": &graphql.Field{Type: graphql.NewNonNull(pageInfo), Description: "Where the page ends."},
	}
	for k, f := range extra {
		fields[k] = f
	}
	return graphql.NewObject(graphql.ObjectConfig{Name: name + "Connection", Description: "A page of " + whats + ".", Fields: fields})
}
