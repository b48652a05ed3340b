package engine

import (
	"slices"
	"testing"

	"github.com/goccy/go-json"
)

// TestContextValues: a context member as filter and product values,
// decoded as a request's JSON is: product numbers written as JSON
// integers are their digits (docs/decisions.md, "Real clients'
// requests"), lists of names are category paths.
func TestContextValues(t *testing.T) {
	for _, tc := range []struct {
		json string
		want []string
	}{
		{`"AI-000001"`, []string{"AI-000001"}},
		{`[123456, "B2", 5701234567890]`, []string{"123456", "B2", "5701234567890"}},
		{`[["Garden", "Tools"], ["Kitchen"]]`, []string{"Garden$Tools$", "Kitchen$"}},
		{`true`, []string{"true"}},
		{`{"a": 1}`, nil},
	} {
		var v any
		if err := json.Unmarshal([]byte(tc.json), &v); err != nil {
			t.Fatal(err)
		}
		if got := contextValues(v); !slices.Equal(got, tc.want) {
			t.Errorf("contextValues(%s) = %q, want %q", tc.json, got, tc.want)
		}
	}
}
