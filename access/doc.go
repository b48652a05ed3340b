// Package access is who may call Aisle: API keys, their scopes and the
// websites they cover. A key is named, shown once when it is made
// (New) and kept as the SHA-256 of its secret; a Ring holds the keys a
// server accepts and finds the key a request presents (Authenticate),
// comparing digests in constant time; Key.Allows says whether it may do
// what a scope covers on a website.
//
// Package access decides nothing about storage or transport: the store
// keeps keys (store.Batch.PutKey), the write side swaps the ring after
// each change, and the adapters (httpapi, gql) ask it before serving.
package access
