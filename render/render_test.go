package render

import (
	"strings"
	"testing"
)

func TestDefaultSearch(t *testing.T) {
	tm, err := Compile("search", "")
	if err != nil {
		t.Fatal(err)
	}
	out, err := Execute(tm, &SearchView{
		Query:      "drill <b>",
		Total:      2,
		Products:   []Item{{"title": "Drill & Driver", "url": "https://x/p/1", "priceFormatted": "$9.99"}, {"title": "Bit set", "url": "https://x/p/2"}},
		Suggested:  []bool{false, true},
		Categories: []Item{{"title": "Drills", "url": "https://x/c/drills"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`data-query="drill &lt;b&gt;"`, "2 products", "Drill &amp; Driver", "$9.99", "aisle-suggested", `class="aisle-categories"`, "https://x/c/drills"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestEmptyShowsInitialContent(t *testing.T) {
	tm, _ := Compile("search", "")
	out, err := Execute(tm, &SearchView{Query: "zzz", Initial: []Item{{"title": "Bestseller", "url": "u"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "No products match") || !strings.Contains(out, "Bestseller") {
		t.Fatalf("got %s", out)
	}
}

func TestCompileError(t *testing.T) {
	if _, err := Compile("bad", "{{.Query"); err == nil || !strings.Contains(err.Error(), "template bad") {
		t.Fatalf("err = %v", err)
	}
}
