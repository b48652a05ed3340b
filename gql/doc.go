// Package gql is Aisle's GraphQL endpoint (/graphql): the console's API.
// It decodes a request (POST application/json or text/plain, or GET for
// queries), finds who sends it (?apiKey= or Authorization: Bearer, a key
// of package access), bounds the document's depth and cost, and runs it
// on the admin schema built with github.com/graphql-go/graphql: the
// audit log, the configuration a website is managed through, API keys
// and products.
//
// Package gql holds no rules of its own: reads come from the engine's
// current generations and the store through the write side, and every
// mutation is one call of package live, the same change a REST write
// makes, with its audit entries in the same store entry. Errors leave
// as GraphQL errors beside data, each with extensions.code (codes.go).
package gql
