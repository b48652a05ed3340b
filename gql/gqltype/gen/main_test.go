package main

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/internal/golden"
)

// TestDescriptionsUpToDate: descriptions_gen.go is what the generator
// writes from package config's comments now: a comment changed or added
// in config without go generate ./gql/gqltype fails here.
func TestDescriptionsUpToDate(t *testing.T) {
	src, _, err := generate("../../../config", "config")
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("../descriptions_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, have) {
		t.Errorf("gql/gqltype/descriptions_gen.go is stale: run go generate ./gql/gqltype\n%s", golden.Diff(string(have), string(src)))
	}
}

// TestGenerateRules: the description each comment shape gives, on
// testdata/sample: a type's first paragraph, cut before a sentence that
// ends with a colon; a field's whole comment as one line, or its trailing
// comment; a field with none sharing the comment of the run above it when
// that names it; string constants as enum values; and the list of what
// has no comment.
func TestGenerateRules(t *testing.T) {
	src, missing, err := generate("testdata/sample", "sample")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"sample.Kind": "Kind is a string type whose constants are its values."`,
		`"sample.Listed": "Listed introduces a list in its first paragraph."`,
		`"sample.Listed.Style": "Style and JavaScript go around the html."`,
		`"sample.Listed.JavaScript": "Style and JavaScript go around the html."`,
		`"sample.Listed.A": "Weights A and B are both between 0 and 1. A second paragraph."`,
		`"sample.Listed.B": "Weights A and B are both between 0 and 1. A second paragraph."`,
		`"sample.Listed.Trailing": "a trailing comment"`,
		`"a": "the first kind"`,
		`"b": "KindB is the second kind."`,
		`"c": ""`,
	} {
		if !strings.Contains(oneLine(string(src)), want) {
			t.Errorf("the generated source lacks %s:\n%s", want, src)
		}
	}
	for _, never := range []string{"sample.Listed.Plain", "sample.Listed.Skipped", "sample.Listed.hidden", "sample.Listed.Lone"} {
		if strings.Contains(string(src), `"`+never+`"`) {
			t.Errorf("%s is described", never)
		}
	}
	want := []string{"sample.Listed.Plain", "sample.Listed.Lone", "sample.Undocumented", "sample.Undocumented.X", "sample.KindC"}
	slices.Sort(missing)
	slices.Sort(want)
	if !slices.Equal(missing, want) {
		t.Errorf("missing %v, want %v", missing, want)
	}
}
