package gqltype

import (
	"reflect"
	"sync"
	"testing"

	"github.com/aisle-search/aisle/config"
)

// TestEnumFirstUseConcurrent: two requests that are an enum's first
// users, serialising and parsing at once, do not race (graphql-go builds
// an enum's lookup tables on first use, unguarded: Enum builds them);
// run with -race, as CI does. Both get the Go value for the name and the
// name for the Go value.
func TestEnumFirstUseConcurrent(t *testing.T) {
	r := NewConfigRegistry()
	e := r.enums[reflect.TypeFor[config.FieldType]()].gql
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			if got := e.Serialize("keyword"); got != "KEYWORD" {
				t.Errorf("Serialize(keyword) = %v", got)
			}
			if got := e.ParseValue("KEYWORD"); got != "keyword" {
				t.Errorf("ParseValue(KEYWORD) = %v", got)
			}
		})
	}
	wg.Wait()
}
