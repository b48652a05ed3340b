package live

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/engine"
)

// TestSplitRows: a body's rows and their labels as the import labels
// them, blank lines skipped; a body without rows, or an array that is
// not one, is an error naming the field.
func TestSplitRows(t *testing.T) {
	for _, tc := range []struct {
		format catalog.Format
		body   string
		rows   []string
		labels []string
		err    string
	}{
		{catalog.FormatJSONL, "{\"a\":1}\n\n  \n{\"b\":2}\n", []string{`{"a":1}`, `{"b":2}`}, []string{"body:1", "body:4"}, ""},
		{catalog.FormatJSON, `[{"a":1}, {"b":2}]`, []string{`{"a":1}`, `{"b":2}`}, []string{"body: product 1", "body: product 2"}, ""},
		{catalog.FormatJSONL, "\n \n", nil, nil, "products: the body holds no products"},
		{catalog.FormatJSON, `[]`, nil, nil, "products: the body holds no products"},
		{catalog.FormatJSON, `{"a":1}`, nil, nil, "products: body: expected a JSON array of objects"},
	} {
		rows, labels, err := splitRows([]byte(tc.body), tc.format, "products")
		var got []string
		for _, r := range rows {
			got = append(got, string(r))
		}
		if tc.err != "" {
			var e *engine.Error
			if !errors.As(err, &e) || e.Kind != engine.KindInvalid || len(err.Error()) < len(tc.err) || err.Error()[:len(tc.err)] != tc.err {
				t.Errorf("%s %q: error %v, want %q…", tc.format, tc.body, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.rows) || !slices.Equal(labels, tc.labels) {
			t.Errorf("%s %q: %q %q %v; want %q %q", tc.format, tc.body, got, labels, err, tc.rows, tc.labels)
		}
	}
}

// TestAddRows: without allowErrors the first refused row fails the
// write, naming its label; with it, the refused rows are listed and
// the others kept.
func TestAddRows(t *testing.T) {
	rows := [][]byte{[]byte("ok"), []byte("bad"), []byte("ok"), []byte("bad")}
	labels := []string{"body:1", "body:2", "body:3", "body:4"}
	var kept []string
	add := func(raw []byte) error {
		if string(raw) == "bad" {
			return fmt.Errorf("refused")
		}
		kept = append(kept, string(raw))
		return nil
	}
	if _, err := addRows(rows, labels, "products", false, add); err == nil || err.Error() != "products: body:2: refused; nothing was applied" {
		t.Errorf("without allowErrors: %v", err)
	}
	kept = nil
	rejected, err := addRows(rows, labels, "products", true, add)
	if err != nil || len(kept) != 2 || !slices.Equal(rejected, []RowError{{"body:2", "refused"}, {"body:4", "refused"}}) {
		t.Errorf("with allowErrors: kept %q, rejected %v, %v", kept, rejected, err)
	}
}
