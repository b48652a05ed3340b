package catalog

import (
	"os"
	"strings"
	"testing"
)

// TestDocumentedCSVRules: docs/configuration.md, the CSV mapping example
// (which parses), and "Numbers use a dot as decimal separator; a row with
// a different number of columns from the header is an error; a $ in a
// category is rejected".
func TestDocumentedCSVRules(t *testing.T) {
	doc, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```json\n{\"name\": \"myfeed\"")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal(`docs/configuration.md has no mapping example starting {"name": "myfeed"`)
	}
	m, err := ParseCSVMapping([]byte(`{"name": "myfeed"` + example))
	if err != nil {
		t.Fatalf("the documented mapping is refused: %v", err)
	}
	const head = "sku,name,price,category,colour\n"
	for _, tc := range []struct {
		name, csv, want string // want: the error, from Read or Validate
	}{
		{"the documented mapping", head + "S1,Drill,12.5,Tools > Drills,red\n", ""},
		{"a decimal comma", head + `S1,Drill,"12,5",Tools,red` + "\n", `feed:2: record 1: column "price", field "price": "12,5" is not a number`},
		{"a row with fewer columns", head + "S1,Drill,12.5\n", "feed:2: record 1: wrong number of columns: the header has 5"},
		{"a row with more columns", head + "S1,Drill,12.5,Tools,red,extra\n", "feed:2: record 1: wrong number of columns: the header has 5"},
		{"a $ in a category", head + "S1,Drill,12.5,Tools > Dr$lls,red\n", `field "hierarchies[0][1]": must not contain $`},
	} {
		var got []*Product
		err := Read(strings.NewReader(tc.csv), ReadOptions{Format: FormatCSV, Mapping: m}, func(p *Product) error {
			p.Normalize()
			if err := p.Validate(); err != nil {
				return err
			}
			got = append(got, p)
			return nil
		})
		switch {
		case tc.want == "" && (err != nil || len(got) != 1):
			t.Errorf("%s: %d products, %v", tc.name, len(got), err)
		case tc.want == "" && (got[0].Currency != "EUR" || !got[0].InStock || got[0].ExtraData["color"] != "red" || strings.Join(got[0].Hierarchies[0], "/") != "Tools/Drills"):
			t.Errorf("%s: %+v", tc.name, got[0])
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}
