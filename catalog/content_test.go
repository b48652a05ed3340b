package catalog

import (
	"strings"
	"testing"
)

// TestDecodeContent: a content item is checked as a product row is:
// members and types, then its kind, id, title and hierarchy levels.
func TestDecodeContent(t *testing.T) {
	for _, tc := range []struct{ raw, err string }{
		{`{"kind":"brands","id":" b1 ","title":"Bosch","hierarchy":["Tools"]}`, ""},
		{`{"kind":"brand","id":"b1","title":"Bosch"}`, `field "kind": must be one of categories, brands, sitePages, blogPosts, got "brand"`},
		{`{"kind":"brands","title":"Bosch"}`, `field "id": is required`},
		{`{"kind":"brands","id":"a/b","title":"Bosch"}`, `field "id": must not contain /`},
		{`{"kind":"brands","id":"b1","title":" "}`, `field "title": is required`},
		{`{"kind":"brands","id":"b1","title":"B","hierarchy":["A$"]}`, `field "hierarchy[0]": must not contain $`},
		{`{"kind":"brands","id":"b1","title":"B","hierarchy":[""]}`, `field "hierarchy[0]": is empty`},
		{`{"kind":"brands","id":"b1","titles":"B"}`, `unknown field "titles" (did you mean "title"?)`},
		{`{"kind":"brands","id":1,"title":"B"}`, `field "id": expected string`},
	} {
		c, err := DecodeContent([]byte(tc.raw))
		switch {
		case tc.err == "" && (err != nil || c.ID != "b1"):
			t.Errorf("%s: %+v %v", tc.raw, c, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: %v, want %q", tc.raw, err, tc.err)
		}
	}
}
