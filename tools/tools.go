// Package tools pins the developer tools that .ci/run and
// scripts/mutation build: staticcheck, gotestsum and gremlins. It is a
// module of its own so their dependencies never move the versions Aisle
// itself builds with. Build one with
//
//	cd tools && go build -o DIR honnef.co/go/tools/cmd/staticcheck
package tools
