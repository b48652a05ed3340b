package catalog

import (
	"reflect"
	"strings"
	"testing"
)

// TestCSVHierarchyCellWithoutLevels: catalog/csv.go, splitPath "splits a
// hierarchy cell into its non-empty levels"; a cell of separators and white
// space has none and gives the product no path (not an empty one, which
// Validate refuses), with or without hierarchyDropLast.
func TestCSVHierarchyCellWithoutLevels(t *testing.T) {
	for _, dropLast := range []bool{false, true} {
		m := &CSVMapping{Columns: map[string]string{"productNumber": "sku", "title": "name", "hierarchies": "path"},
			HierarchySeparator: "/", HierarchyDropLast: dropLast}
		in := "sku,name,path\n" +
			"1,a,/\n" +
			"2,b, / // \n" +
			"3,c,/Garden/ /\n"
		var got [][][]string
		err := Read(strings.NewReader(in), ReadOptions{Format: FormatCSV, Mapping: m}, func(p *Product) error {
			got = append(got, p.Hierarchies)
			return p.Validate()
		})
		want := [][][]string{nil, nil, {{"Garden"}}}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("hierarchyDropLast %v: hierarchies %q, %v; want %q", dropLast, got, err, want)
		}
	}
}
