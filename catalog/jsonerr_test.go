package catalog

import (
	"strings"
	"testing"
)

// readOne reads in as a one-product feed named f in format and returns
// Read's error, or "" when there is none.
func readOne(in string, format Format) string {
	err := Read(strings.NewReader(in), ReadOptions{Format: format, Name: "f"}, func(*Product) error { return nil })
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestUnknownMemberErrors: docs/configuration.md "Products": "unknown
// members are errors naming file, line and member", with a suggestion when
// the member is plausibly a typo of a known one (catalog/jsonerr.go,
// nearest: "case-insensitive edit distance at most a third of its
// length"); the same in a JSONL line and in a JSON array.
func TestUnknownMemberErrors(t *testing.T) {
	for _, tc := range []struct{ member, want string }{
		{"prise", `unknown field "prise" (did you mean "price"?)`},                 // 1 edit in 5
		{"desciption", `unknown field "desciption" (did you mean "description"?)`}, // 1 in 10
		{"Descripton", `unknown field "Descripton" (did you mean "description"?)`}, // case aside, 1 in 10
		{"inStok", `unknown field "inStok" (did you mean "inStock"?)`},             // 1 in 6
		{"inStck", `unknown field "inStck" (did you mean "inStock"?)`},             // 1 in 6
		{"instock_", `unknown field "instock_" (did you mean "inStock"?)`},         // case aside, 1 in 8
		{"isOnSal", `unknown field "isOnSal" (did you mean "isOnSale"?)`},          // 1 in 7
		{"ulr", `unknown field "ulr"`},                                             // 2 edits in 3: over a third
		{"inStk", `unknown field "inStk"`},                                         // 2 in 5: over a third
		{"colour", `unknown field "colour"`},                                       // nothing near
	} {
		line := `{"productNumber":"1","title":"t",` + `"` + tc.member + `":1}`
		if got, want := readOne(line, FormatJSONL), "f:1: "+tc.want; got != want {
			t.Errorf("JSONL %s:\n got %s\nwant %s", line, got, want)
		}
		if got, want := readOne("[\n"+line+"\n]", FormatJSON), "f:2: product 1: "+tc.want; got != want {
			t.Errorf("JSON array [%s]:\n got %s\nwant %s", line, got, want)
		}
	}
}

// TestTypeErrorFieldPaths: catalog/jsonerr.go, fieldPath "writes go-json's
// "hierarchies.0.1" as "hierarchies[0][1]", the way Validate names fields;
// map keys stay dotted", also a map key of digits, and the index of a list
// inside extraDataList.
func TestTypeErrorFieldPaths(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"hierarchies":[["a"],["b",2]]}`, `field "hierarchies[1][1]": expected string, got number`},
		{`{"variantProductNumbers":["a",2]}`, `field "variantProductNumbers[1]": expected string, got number`},
		{`{"extraData":{"color":1}}`, `field "extraData.color": expected string, got number`},
		{`{"extraData":{"2024":1}}`, `field "extraData.2024": expected string, got number`},
		{`{"extraDataNumber":{"7":"x"}}`, `field "extraDataNumber.7": expected number, got string`},
		{`{"extraDataList":{"tags":["a",1]}}`, `field "extraDataList.tags[1]": expected string, got number`},
		{`{"extraDataList":{"12":["a","b",true]}}`, `field "extraDataList.12[2]": expected string, got bool`},
		{`{"extraDataList":{"tags":"a"}}`, `field "extraDataList.tags": expected array of strings, got string`},
	} {
		if got, want := readOne(tc.in, FormatJSONL), "f:1: "+tc.want; got != want {
			t.Errorf("JSONL %s:\n got %s\nwant %s", tc.in, got, want)
		}
		if got, want := readOne("["+tc.in+"]", FormatJSON), "f:1: product 1: "+tc.want; got != want {
			t.Errorf("JSON array [%s]:\n got %s\nwant %s", tc.in, got, want)
		}
	}
}

// TestTypoLimitUsesTheComparedName: catalog/jsonerr.go, nearest suggests a
// known name when "their edit distance in bytes, lowercased, is at most a
// third of the lowercased name's length": three Kelvin signs (9 bytes)
// lower to "kkk", 3 edits from "url", which is no typo of it.
func TestTypoLimitUsesTheComparedName(t *testing.T) {
	const kelvins = "\u212a\u212a\u212a"
	if got := nearest(kelvins, productFields); got != "" {
		t.Errorf("nearest(%q) = %q, want no suggestion", kelvins, got)
	}
	want := "f:1: unknown field \"" + kelvins + "\""
	if got := readOne(`{"productNumber":"1","title":"t","`+kelvins+`":1}`, FormatJSONL); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
