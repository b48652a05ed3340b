// Package sdk is Aisle's browser SDK: the script a shop's pages load
// (aisle.js, the global Aisle, and instantsearch.js, its InstantSearch
// searchClient), their TypeScript declarations (aisle.d.ts), and the
// files GET /sdk.js and GET /aisle.d.ts serve.
//
// Its boundary: the script is a client of the public HTTP API and holds
// no search logic (it calls /serve/search, /serve/pages, /serve/recoms
// and /serve/collect as any client may); this package only embeds,
// minifies, compresses and serves it. Routing, methods and error bodies
// are package httpapi's. docs/sdk.md is the script's reference.
package sdk
