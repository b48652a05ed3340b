package config

import (
	"strings"
	"testing"
)

func TestDefaultIsValid(t *testing.T) {
	if err := Default().Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestParseErrors(t *testing.T) {
	base := func(search string) string {
		return `{"websites":[{"uuid":"w","indexedFields":[{"name":"brand","type":"keyword"},{"name":"price","type":"number","sortable":true}],"searchConfigs":[` + search + `]}]}`
	}
	ok := `{"key":"s","versions":[{"id":1,"status":"live","fields":[{"name":"title","weight":5}]}]}`
	if _, err := Parse([]byte(base(ok))); err != nil {
		t.Fatalf("valid config rejected: %v", err)
	}
	for _, tc := range []struct{ doc, want string }{
		{`{"websites":[]}`, "at least one website"},
		{`{"websites":[{"uuid":"w","bogus":1}]}`, "bogus"},
		{`{"websites":[{"name":"x"}]}`, "uuid"},
		{base(`{"key":"s","versions":[{"id":1,"status":"draft","fields":[{"name":"title","weight":5}]}]}`), "exactly one must be live"},
		{base(`{"key":"s","versions":[{"id":1,"status":"live","fields":[{"name":"colour","weight":5}]}]}`), `"colour" is not a searchable`},
		{base(`{"key":"s","versions":[{"id":1,"status":"live","fields":[{"name":"title","weight":5}],"facets":[{"field":"brand","type":"RANGE"}]}]}`), "takes a LIST facet"},
		{base(`{"key":"s","versions":[{"id":1,"status":"live","fields":[{"name":"title","weight":5}],"facets":[{"field":"size","type":"LIST"}]}]}`), `"size" is not an indexed field`},
		{base(`{"key":"s","versions":[{"id":1,"status":"live","fields":[{"name":"title","weight":5}],"sorting":[{"field":"brand"}]}]}`), "not an indexed sortable field"},
		{base(ok + "," + ok), `key "s" used twice`},
		{base(`{"key":"s","versions":[{"id":1,"status":"live","fields":[{"name":"title","weight":5}],"devices":{"TV":{}}}]}`), `unknown device "TV"`},
		{`{"websites":[{"uuid":"w","indexedFields":[{"name":"x","type":"blob"}]}]}`, `unknown type "blob"`},
		{`{"websites":[{"uuid":"w","requireApiKey":true}]}`, "no key is listed"},
	} {
		_, err := Parse([]byte(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%s) error %v, want it to contain %q", tc.doc, err, tc.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"websites":[{"uuid":"w","indexedFields":[{"name":"brand","type":"keyword"}],"searchConfigs":[{"key":"s","versions":[{"id":1,"status":"live","fields":[{"name":"title","weight":5}]}]}]}]}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		f, err := Parse(data)
		if err == nil && f.Validate() != nil {
			t.Fatal("Parse accepted a file Validate rejects")
		}
	})
}
