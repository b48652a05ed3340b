// Package gqltype builds the GraphQL types of the admin schema (package
// gql, github.com/graphql-go/graphql) from Go struct types, so that the
// schema cannot drift from package config: one Registry maps each Go type
// to one GraphQL output type, one input type and one decoder.
//
// The mapping, the same for every type:
//
//   - A struct is an object type named as the Go type (RenameType gives
//     another name) and an input object type named that plus "Input".
//     Its fields are its exported fields that JSON encodes, named by
//     their json tags (RenameField gives another name); "omitempty" and
//     "omitzero" change nothing.
//   - string is String, bool Boolean, the int kinds Int (32 bits, as
//     GraphQL's), float32 and float64 Float, time.Time a String in RFC
//     3339. A named string type that Enum registered is an enum whose
//     values are the UPPER_CASE forms of the Go values.
//   - On output a field of a non-pointer type is non-null (T!), a
//     pointer is nullable, a slice []T is [T!]! (empty for a nil slice).
//     On input every member is nullable (null and absent leave the Go
//     zero value: config.Validate says what is required), a slice is
//     [T!].
//   - A map[string]T is a list of entries, an object {key: String!,
//     value: T!} named "<T>Entry" ("<T>EntryInput" on input), in key
//     order on output; Decode makes the map again.
//   - interface{} is the scalar JSON, any JSON value, and so is
//     map[string]any as a whole: an object whose members are not typed.
//
// Every type, field and enum value is described: from the Go doc comments
// of package config (descriptions_gen.go, written by ./gen), else from its
// name, which Undocumented lists.
//
// Output resolvers read the Go value they are given (a struct or a pointer
// to one) by reflection, so a resolver elsewhere returns a
// config.SearchVersion and its fields resolve. Decode turns the input
// value graphql-go coerced back into the Go value, naming a bad member by
// its path.
package gqltype

//go:generate go run ./gen
