package config

import (
	"strings"
	"testing"
)

// TestDecodeErrorsSayWhere: a configuration that does not decode is
// refused with where its mistake is, so a shop's engineer finds it in a
// long file: the line and column of a syntax error or of a misspelt
// member, or that the file ends early (docs/configuration.md: "a misspelt
// setting is reported rather than ignored").
func TestDecodeErrorsSayWhere(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"misspelt member on line 3", "{\n  \"websites\": [{\n    \"uuid\": \"w\", \"nmae\": \"x\"}]\n}", `decode: line 3, column 18: json: unknown field "nmae"`},
		{"misspelt member on line 1", `{"websites":[{"uuid":"00000000-0000-4000-8000-000000000001","nmae":"x"}]}`, `decode: line 1, column 61: json: unknown field "nmae"`},
		{"syntax error on line 2", "{\"websites\":\n  [}", "decode: line 2, column"},
		{"the file ends early", "{\"websites\": [\n", "decode: the file ends before its JSON document does"},
	} {
		_, err := Parse([]byte(tc.doc))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: Parse error %v, want it to start with %q", tc.name, err, tc.want)
		}
	}
}
